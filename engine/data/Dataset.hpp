#pragma once
// A numeric table held column by column (each covariate contiguous: the layout every backend streams).
#include <cstddef>
#include <string>
#include <vector>

namespace gb {

struct Dataset {
  std::string source;                        // file path, or a description such as "paper data (seed 1)"
  std::vector<std::string> names;            // column names, unique
  std::vector<std::vector<double>> columns;  // columns[c][row]

  std::size_t rows() const { return columns.empty() ? 0 : columns.front().size(); }
  std::size_t cols() const { return columns.size(); }
  // Index of the named column, or -1.
  int columnIndex(const std::string& name) const;
  const std::vector<double>& column(const std::string& name) const;  // throws InputError naming the column
};

}  // namespace gb

#include "data/Dataset.hpp"

#include "common/Error.hpp"

namespace gb {

int Dataset::columnIndex(const std::string& name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

const std::vector<double>& Dataset::column(const std::string& name) const {
  const int i = columnIndex(name);
  if (i < 0) throw InputError(locate(source, 1, 0, "no column named '" + name + "'"));
  return columns[static_cast<std::size_t>(i)];
}

}  // namespace gb

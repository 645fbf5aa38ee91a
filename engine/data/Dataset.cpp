#include "data/Dataset.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "common/Error.hpp"
#include "common/Text.hpp"

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

namespace {

std::string lowered(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Edits (insert, delete, replace) between a and b, counted up to `cap` (more give cap + 1).
std::size_t editDistance(const std::string& a, const std::string& b, std::size_t cap) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > cap) return cap + 1;
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string Dataset::nameHint(const std::string& name) const {
  const std::string low = lowered(name);
  for (const auto& n : names)
    if (lowered(n) == low) return "; did you mean " + quotedForMessage(n) + "? (names are case-sensitive)";
  const std::size_t cap = name.size() < 3 ? 0 : name.size() < 6 ? 1 : 2;
  for (const auto& n : names)
    if (!n.empty() && editDistance(low, lowered(n), cap) <= cap) return "; did you mean " + quotedForMessage(n) + "?";
  std::string out = "; its columns: ";
  const std::size_t shown = std::min<std::size_t>(names.size(), 12);
  for (std::size_t c = 0; c < shown; ++c) out += (c ? ", " : "") + quotedForMessage(names[c]);
  if (shown < names.size()) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out;
}

const std::vector<std::string>& Dataset::levelsOf(std::size_t c) const {
  static const std::vector<std::string> none;
  return c < levels.size() ? levels[c] : none;
}

std::size_t Dataset::missingCount(std::size_t c) const {
  std::size_t count = 0;
  for (double v : columns[c]) count += std::isnan(v) ? 1 : 0;
  return count;
}

CompleteCases completeCases(const Dataset& data, const std::vector<std::string>& used) {
  std::vector<std::size_t> index;
  for (const auto& name : used) {
    const int c = data.columnIndex(name);
    if (c < 0) throw InputError(locate(data.source, 1, 0, "no column named '" + name + "'"));
    index.push_back(static_cast<std::size_t>(c));
  }
  CompleteCases out;
  out.omittedPerColumn.assign(used.size(), 0);
  const std::size_t n = data.rows();
  out.inputRows = n;
  for (std::size_t i = 0; i < n; ++i) {
    bool complete = true;
    for (std::size_t u = 0; u < index.size(); ++u)
      if (std::isnan(data.columns[index[u]][i])) {
        ++out.omittedPerColumn[u];
        complete = false;
      }
    if (complete) out.keptRows.push_back(i);
  }
  out.data.source = data.source;
  out.data.names = data.names;
  out.data.kinds = data.kinds;
  out.data.levels = data.levels;
  out.data.rowLabelsNote = data.rowLabelsNote;
  out.data.columns.resize(data.cols());
  for (std::size_t c = 0; c < data.cols(); ++c) {
    auto& column = out.data.columns[c];
    column.reserve(out.keptRows.size());
    for (std::size_t i : out.keptRows) column.push_back(data.columns[c][i]);
  }
  return out;
}

}  // namespace gb

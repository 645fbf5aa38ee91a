#include "data/CsvText.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>

#include "data/CsvScan.hpp"

namespace gb::csv {

bool isMissingText(std::string_view text) {
  if (text.empty() || text == "NA") return true;
  if (text.size() < 3 || text.size() > 64) return false;  // the shortest NaN is "nan"
  double value = 0;
  return parseDouble(text.data(), text.data() + text.size(), value) == text.data() + text.size() && std::isnan(value);
}

bool isNumberText(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
  if (first == std::string_view::npos) return false;
  text = text.substr(first, last - first + 1);
  double value = 0;
  return parseDouble(text.data(), text.data() + text.size(), value) == text.data() + text.size() &&
         std::isfinite(value);
}

bool parsesWithDecimalComma(std::string_view text, double& value) {
  const std::size_t comma = text.find(',');
  if (comma == std::string_view::npos || text.size() > 64 || text.find(',', comma + 1) != std::string_view::npos ||
      text.find('.') != std::string_view::npos)
    return false;
  std::string withPoint(text);
  withPoint[comma] = '.';
  const char* const e = withPoint.data() + withPoint.size();
  return parseDouble(withPoint.data(), e, value) == e;
}

std::string rowLabelsNote(bool shortHeader) {
  return shortHeader ? "the header names one column fewer than the rows hold (R's write.table): column 1 taken as "
                       "R's row names and ignored"
                     : "column 1 has no name: taken as R's row names and ignored";
}

bool headerIsNumbers(const std::vector<std::string>& names) {
  return !names.empty() && std::all_of(names.begin(), names.end(), isNumberText);
}

std::string missingHeaderHint(const std::vector<std::string>& names) {
  return headerIsNumbers(names) ? " (line 1 holds only numbers: is the header row missing? R's write.csv writes one)"
                                : "";
}

TextLevels& TextColumns::add(std::size_t c, std::size_t firstTextRow, long firstTextLine, bool numbersBefore) {
  columns_[c] = std::make_unique<TextLevels>();
  columns_[c]->firstTextRow = firstTextRow;
  columns_[c]->firstTextLine = firstTextLine;
  columns_[c]->numbersBefore = numbersBefore;
  ++count_;
  return *columns_[c];
}

double TextColumns::code(TextLevels& column, std::string_view text, bool& isNew) {
  auto it = column.codes.lower_bound(text);
  isNew = it == column.codes.end() || it->first != text;
  if (isNew) it = column.codes.emplace_hint(it, std::string(text), static_cast<std::uint32_t>(column.codes.size()));
  return static_cast<double>(it->second);
}

std::size_t TextColumns::rowsToReread() const {
  std::size_t rows = 0;
  for (const auto& column : columns_)
    if (column && column->numbersBefore) rows = std::max(rows, column->firstTextRow);
  return rows;
}

namespace {

// R's type.convert reads a column whose texts are all these (or blank, which is then missing) as logical; its
// factor has the levels FALSE and TRUE whichever spellings the file used (write.csv writes a character vector
// c("T", "TRUE") as it is). R 4.2's type.convert takes F, T, FALSE and TRUE only ("true" and "True" are text there,
// as its help says and read.csv does). Returns the logical value of a level: 0, 1, NaN for a blank one, -1 for any
// other text.
double logicalValue(const std::string& level) {
  static const std::string_view falses[] = {"F", "FALSE"}, trues[] = {"T", "TRUE"};
  if (std::find(std::begin(falses), std::end(falses), level) != std::end(falses)) return 0.0;
  if (std::find(std::begin(trues), std::end(trues), level) != std::end(trues)) return 1.0;
  return level.find_first_not_of(" \t") == std::string::npos ? std::nan("") : -1.0;
}

// Where every level of a text column reads as logical, the levels become FALSE and TRUE (those present) and a blank
// level missing: sortedCode maps each level's code to its new one.
void readAsLogical(std::vector<std::string>& levels, std::vector<double>& sortedCode) {
  std::vector<double> value(levels.size());
  bool any[2] = {false, false};
  for (std::size_t l = 0; l < levels.size(); ++l) {
    value[l] = logicalValue(levels[l]);
    if (value[l] < 0.0) return;
    if (!std::isnan(value[l])) any[static_cast<int>(value[l])] = true;
  }
  if (!any[0] && !any[1]) return;  // blanks only: levels of their own, as in any text column
  const double trueCode = any[0] ? 1.0 : 0.0;
  for (double& code : sortedCode) {
    const double v = value[static_cast<std::size_t>(code)];
    code = std::isnan(v) ? v : (v == 0.0 ? 0.0 : trueCode);
  }
  levels.clear();
  if (any[0]) levels.emplace_back("FALSE");
  if (any[1]) levels.emplace_back("TRUE");
}

}  // namespace

void readLogicalColumns(Dataset& data) {
  for (std::size_t c = 0; c < data.cols(); ++c) {
    if (!data.isText(c)) continue;
    std::vector<double> code(data.levels[c].size());
    for (std::size_t l = 0; l < code.size(); ++l) code[l] = static_cast<double>(l);
    readAsLogical(data.levels[c], code);
    for (double& v : data.columns[c])
      if (!std::isnan(v)) v = code[static_cast<std::size_t>(v)];
  }
}

void TextColumns::finish(Dataset& data) {
  data.kinds.assign(data.cols(), ColumnKind::Numeric);
  data.levels.assign(data.cols(), {});
  for (std::size_t c = 0; c < columns_.size() && count_ > 0; ++c) {
    if (!columns_[c]) continue;
    auto& codes = columns_[c]->codes;
    std::vector<double> sortedCode(codes.size());
    std::vector<std::string>& levels = data.levels[c];
    levels.reserve(codes.size());
    while (!codes.empty()) {  // the map is in byte order already
      auto node = codes.extract(codes.begin());
      sortedCode[node.mapped()] = static_cast<double>(levels.size());
      levels.push_back(std::move(node.key()));
    }
    for (double& v : data.columns[c])
      if (!std::isnan(v)) v = sortedCode[static_cast<std::size_t>(v)];
    data.kinds[c] = ColumnKind::Text;
    columns_[c].reset();
  }
  count_ = 0;
}

}  // namespace gb::csv

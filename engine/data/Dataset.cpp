#include "data/Dataset.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "common/Error.hpp"
#include "common/NameHint.hpp"
#include "common/Text.hpp"
#include "data/CsvText.hpp"

namespace gb {

int Dataset::columnIndex(const std::string& name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

const std::vector<double>& Dataset::column(const std::string& name) const {
  const int i = columnIndex(name);
  if (i < 0) throw InputError(locate(source, 1, 0, "no column named " + quotedForMessage(name)));
  return columns[static_cast<std::size_t>(i)];
}

namespace {

// Whether UTF-8 text holds a combining diacritical mark (U+0300..U+036F: bytes CC 80..CD AF), as a name in Unicode's
// decomposed form does ("o" and U+0308 for "ö", as macOS file names and some exports spell it).
bool hasCombiningMark(const std::string& text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const auto lead = static_cast<unsigned char>(text[i]), next = static_cast<unsigned char>(text[i + 1]);
    if ((lead == 0xCC && next >= 0x80 && next <= 0xBF) || (lead == 0xCD && next >= 0x80 && next <= 0xAF)) return true;
  }
  return false;
}

}  // namespace

std::string Dataset::nameHint(const std::string& name) const {
  if (std::string hint = didYouMean(name, names); !hint.empty()) return hint;
  std::string out;
  // "größe" typed (one character for ö) against a header that spells it "o" and a mark: they look the same.
  if (hasCombiningMark(name) || std::any_of(names.begin(), names.end(), hasCombiningMark))
    out =
        " (a name here spells an accented letter as a letter and a combining mark, which looks like the letter "
        "written as one character but is not the same text: copy the name from the file's header)";
  out += "; its columns: ";
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
    if (c < 0) throw InputError(locate(data.source, 1, 0, "no column named " + quotedForMessage(name)));
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
  out.data.textColumnsNote = data.textColumnsNote;
  out.data.decimalComma = data.decimalComma;
  out.data.columns.resize(data.cols());
  for (std::size_t c = 0; c < data.cols(); ++c) {
    auto& column = out.data.columns[c];
    column.reserve(out.keptRows.size());
    for (std::size_t i : out.keptRows) column.push_back(data.columns[c][i]);
  }
  return out;
}

bool nearlyAllNumbers(std::size_t numberCells, std::size_t presentCells) {
  return presentCells >= 10 && numberCells * 10 >= presentCells * 9;
}

bool isNumberCell(const Dataset& data, std::string_view text) {
  const std::size_t begin = text.find_first_not_of(" \t"), end = text.find_last_not_of(" \t");
  const std::string_view trimmed =
      begin == std::string_view::npos ? std::string_view() : text.substr(begin, end - begin + 1);
  double value = 0.0;
  return csv::isNumberText(trimmed) || (data.decimalComma && csv::parsesWithDecimalComma(trimmed, value));
}

TextCells textCells(const Dataset& data, std::size_t c) {
  TextCells out;
  if (!data.isText(c)) return out;
  const std::vector<std::string>& levels = data.levelsOf(c);
  std::vector<char> number(levels.size());
  for (std::size_t l = 0; l < levels.size(); ++l) number[l] = isNumberCell(data, levels[l]);
  const std::vector<double>& codes = data.columns[c];
  for (std::size_t i = 0; i < codes.size(); ++i) {
    if (std::isnan(codes[i])) continue;
    ++out.presentCells;
    const auto level = static_cast<std::size_t>(codes[i]);
    if (number[level])
      ++out.numberCells;
    else if (!out.first)
      out.first = TextCell{i, levels[level], 0, 0};
  }
  if (out.first) {
    out.first->numberCells = out.numberCells;
    out.first->presentCells = out.presentCells;
  }
  return out;
}

std::optional<TextCell> firstTextCell(const Dataset& data, std::size_t c) { return textCells(data, c).first; }

namespace {

// "file:line:column" of the cell (the file's line: header line 1, no line breaks inside cells).
std::string cellPlace(const Dataset& data, std::size_t c, const TextCell& cell) {
  return (data.source.empty() ? std::string("the data") : printableText(data.source)) + ":" +
         std::to_string(data.firstRow + cell.row + 2) + ":" + std::to_string(data.fileColumn(c));
}

}  // namespace

std::string atTextCell(const Dataset& data, std::size_t c, const TextCell& cell, const std::string& message) {
  return cellPlace(data, c, cell) + ": " + message;
}

std::string mostlyNumbersNote(const Dataset& data) {
  std::string note;
  for (std::size_t c = 0; c < data.cols(); ++c) {
    const std::optional<TextCell> cell = firstTextCell(data, c);
    if (!cell || !nearlyAllNumbers(cell->numberCells, cell->presentCells)) continue;
    const std::size_t text = cell->presentCells - cell->numberCells;
    note += std::string(note.empty() ? "" : "; ") + "column " + quotedForMessage(data.names[c]) +
            " is text (a factor, as R's read.csv reads it) for " + std::to_string(text) + " of its " +
            std::to_string(cell->presentCells) + " cells, the first " + quotedForMessage(cell->text) + " at " +
            cellPlace(data, c, *cell);
  }
  return note;
}

}  // namespace gb

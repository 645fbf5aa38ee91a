#pragma once
// A table held column by column (each covariate contiguous: the layout every backend streams). Numeric columns hold
// their values; text columns (factors) hold level codes 0..L-1 as doubles with the levels beside them. A missing
// cell is a quiet NaN in either kind; completeCases() gives the rows a model can use.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gb {

enum class ColumnKind { Numeric, Text };

struct Dataset {
  std::string source;                        // file path, or a description such as "paper data (seed 1)"
  std::vector<std::string> names;            // column names, unique
  std::vector<std::vector<double>> columns;  // columns[c][row]: a value, a level code, or NaN for missing
  std::vector<ColumnKind> kinds{};           // one per column; empty means every column is Numeric
  // Per column: for Text, the levels sorted by byte order (R's factor() in the C locale), unique; else empty.
  std::vector<std::vector<std::string>> levels{};
  std::string rowLabelsNote{};  // "" or why a column was taken as row labels and dropped (R's write.csv row names)
  // "" or, for text columns whose cells are nearly all numbers, which cell made each one text (mostlyNumbersNote).
  std::string textColumnsNote{};
  // Rows of the input before this table's first row: 0 for a whole file; where a process's part of a file read by
  // several starts (data/CsvPart.hpp). Error messages name input rows (and lines) counting from the file's first.
  std::size_t firstRow = 0;
  // Read from a ';' file, where "2,5" is a number as read.csv2 reads it: a text column's cells like it count as
  // numbers in its notes and messages (its first other cell is the one named).
  bool decimalComma = false;

  // The source for a message: its path or description, or "the data" where it has none.
  std::string sourceName() const { return source.empty() ? "the data" : source; }
  std::size_t rows() const { return columns.empty() ? 0 : columns.front().size(); }
  std::size_t cols() const { return columns.size(); }
  // The 1-based column of the file that holds column c, for messages that name a cell: one further on where R's
  // row names (the file's column 1) were dropped.
  long fileColumn(std::size_t c) const { return static_cast<long>(c) + (rowLabelsNote.empty() ? 1 : 2); }
  // Index of the named column, or -1.
  int columnIndex(const std::string& name) const;
  const std::vector<double>& column(const std::string& name) const;  // throws InputError naming the column
  // For a message about a name no column has: "; did you mean 'Ozone'?" where one name differs only in case or
  // by a typo (one edit in 3 to 5 characters, two in longer names), else "; its columns: ..." (the first 12).
  std::string nameHint(const std::string& name) const;
  ColumnKind kind(std::size_t c) const { return c < kinds.size() ? kinds[c] : ColumnKind::Numeric; }
  bool isText(std::size_t c) const { return kind(c) == ColumnKind::Text; }
  const std::vector<std::string>& levelsOf(std::size_t c) const;  // empty for a numeric column
  std::size_t missingCount(std::size_t c) const;                  // NaN cells of column c
};

// Complete cases over the named columns (R's na.omit on the model frame): `data` keeps only the rows where every
// one of `used` is present, with every column of the input (unused columns may still hold NaN); keptRows maps each
// kept row to its 0-based input row; omittedPerColumn counts, per used column in `used` order, the rows missing in
// that column. Throws InputError for an unknown column name.
struct CompleteCases {
  Dataset data;
  std::vector<std::size_t> keptRows;
  std::vector<std::size_t> omittedPerColumn;
  std::size_t inputRows = 0;
  std::size_t omittedRows() const { return inputRows - keptRows.size(); }
};
CompleteCases completeCases(const Dataset& data, const std::vector<std::string>& used);

// The first cell of column c, a text column, that is not a number as the CSV reader reads numbers (a column of
// numbers and one stray word reads as text, as R's read.csv reads it, every cell a level), with how many of its
// present cells are numbers; none for a numeric column or where every present cell is a number.
struct TextCell {
  std::size_t row = 0;  // 0-based row of this table
  std::string text;
  std::size_t numberCells = 0, presentCells = 0;
};
std::optional<TextCell> firstTextCell(const Dataset& data, std::size_t c);
// Column c's first cell that is not a number (as firstTextCell), with the counts also where there is none (a part of
// a distributed read whose rows of a text column are all numbers); all zero for a numeric column.
struct TextCells {
  std::optional<TextCell> first;
  std::size_t numberCells = 0, presentCells = 0;
};
TextCells textCells(const Dataset& data, std::size_t c);
// A text column read so only for a few cells (most often a missing value written otherwise than NA, "#N/A"): at least
// 10 present cells, at least 90% of them numbers. mostlyNumbersNote and the text-column messages use this one rule.
bool nearlyAllNumbers(std::size_t numberCells, std::size_t presentCells);
// "file:line:column: message" at that cell.
std::string atTextCell(const Dataset& data, std::size_t c, const TextCell& cell, const std::string& message);
// For each text column of at least 10 present cells of which at least 90% are numbers: "column 'x1' is text (a
// factor) for 1 of its 500 cells: '1.2.3' at data.csv:419:2; ...", else "".
std::string mostlyNumbersNote(const Dataset& data);
// Whether a text cell reads as a number: spaces aside, with a decimal comma too in a ';' file (Dataset::decimalComma).
bool isNumberCell(const Dataset& data, std::string_view text);

}  // namespace gb

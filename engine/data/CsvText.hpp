#pragma once
// Internal to the CSV reader: what a cell means besides a number. Missing cells (NA; NaN, empty if numeric) and text
// columns (R's factors), whose levels are collected while the file streams by and sorted once at the end.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/Dataset.hpp"

namespace gb::csv {

// How the reader takes the cells of a column: as numbers (until a cell is text), as level texts, or not at all
// (R's row names).
enum class CellMode : unsigned char { Number, Text, Skip };

// True for the cells R reads as missing in a numeric column: "NA", "NaN" (any spelling a number parser reads as NaN)
// and the empty cell. `text` is already trimmed. (In a text column only "NA" is missing.)
bool isMissingText(std::string_view text);

// True for a cell the reader takes for a finite number (spaces around it allowed, as the reader trims them; no hex,
// no inf). Also for messages outside the reader that point at a column's first text cell or at a header of numbers.
bool isNumberText(std::string_view text);

// The note of a file whose column 1 was taken as R's row names: unnamed in the header (write.csv), or left out of it
// (shortHeader: write.table writes one name fewer than the rows hold).
std::string rowLabelsNote(bool shortHeader);

// True where `text` (trimmed) reads as a number once its decimal comma is a point ("2,5", "-0,5e3"; one comma, no
// point), with the value in `value`: for ';' files' decimal commas and for the hint at a text column of them.
bool parsesWithDecimalComma(std::string_view text, double& value);

// True where every name is a number: most often a first data row read as the header.
bool headerIsNumbers(const std::vector<std::string>& names);

// " (line 1 holds only numbers: is the header row missing? ...)" where every name is a number (most often a first
// data row: R's write.table(col.names = FALSE)), else "": for the messages of a header that fails, from the reader,
// the model frame and the folds file alike.
std::string missingHeaderHint(const std::vector<std::string>& names);

// R's type.convert reads a text column whose cells are all T, F, TRUE, FALSE, true, false, True or False (or blank)
// as logical: here a factor of the levels FALSE and TRUE (those present), blank cells missing, whichever spellings
// the file mixes. Applied to the whole file's levels (after the parts of a distributed read are merged), so that
// every process decides as one reader does.
void readLogicalColumns(Dataset& data);

// The levels of one text column while reading: each distinct text with a provisional code (order of first
// appearance), and where the column turned out to be text.
struct TextLevels {
  std::map<std::string, std::uint32_t, std::less<>> codes;
  std::size_t firstTextRow = 0;  // rows before it were read as numbers and are read again for their texts
  long firstTextLine = 0;
  bool numbersBefore = false;  // whether any of those rows held a number or a text that is a level here ("", "NaN")
  long decimalCommaLine = 0;   // the first cell that reads as a number with a decimal comma ("2,5"), if any
  std::string decimalCommaText;
};

// The text columns of one file. Shared by the reader's passes, so a text keeps its code in both.
class TextColumns {
 public:
  explicit TextColumns(std::size_t cols) : columns_(cols) {}

  TextLevels* find(std::size_t c) const { return columns_[c].get(); }
  TextLevels& add(std::size_t c, std::size_t firstTextRow, long firstTextLine, bool numbersBefore);
  bool any() const { return count_ > 0; }

  // The provisional code of `text` in column c; isNew says whether the text was first seen now.
  double code(TextLevels& column, std::string_view text, bool& isNew);

  // Rows to read again: up to the latest firstTextRow of a column that held numbers before it.
  std::size_t rowsToReread() const;

  // Sorts each text column's levels by byte order (std::string's operator<, R's sort in the C locale), replaces
  // the provisional codes in `data.columns` by the sorted ones, and fills data.kinds and data.levels.
  void finish(Dataset& data);

 private:
  std::vector<std::unique_ptr<TextLevels>> columns_;  // null for a numeric column: a wide table costs a pointer each
  std::size_t count_ = 0;
};

}  // namespace gb::csv

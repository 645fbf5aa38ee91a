#pragma once
// Internal to the CSV reader: one pass over a file. The first pass reads everything; when a column turned out to
// be text after rows of numbers, a second pass reads those rows again for their texts (the first pass kept only
// their values). Rows and cells are in CsvReader.cpp (one translation unit, so the numeric fast path inlines);
// the header and the checks on whole columns are in CsvParser.cpp.
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/Error.hpp"
#include "common/Text.hpp"
#include "data/CsvBlocks.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvScan.hpp"
#include "data/CsvText.hpp"

namespace gb::csv {

// A header longer than this without a line break outside quotes is almost surely an unterminated quote;
// stop before buffering the whole file.
constexpr std::size_t kMaxHeaderBytes = std::size_t{64} << 20;
constexpr std::size_t kHeadBlockBytes = std::size_t{64} << 10;
// A data row may be this many times longer than the header line (a number is longer than a short name), and at
// least kMaxHeaderBytes; a longer one is a file without line breaks where the reader expects them, and reading
// on would buffer all of it.
constexpr std::size_t kRowPerHeaderBytes = 32;

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// One pass over the file (see the top of this header).
class CsvParser : private DelimiterRules {
 public:
  CsvParser(const std::string& path, const CsvOptions& options, std::size_t blockBytes, const CsvProgress& progress,
            TextColumns* shared = nullptr)
      : path_(path),
        options_(options),
        blockBytes_(blockBytes),
        in_(path, blockBytes),
        progress_(progress),
        text_(shared) {}
  // The second reading of a pipe, from the bytes its first reading spooled.
  CsvParser(const std::string& path, const CsvOptions& options, std::size_t blockBytes, const CsvProgress& progress,
            TextColumns* shared, std::shared_ptr<const Spool> replay)
      : path_(path),
        options_(options),
        blockBytes_(blockBytes),
        in_(path, blockBytes, std::move(replay)),
        progress_(progress),
        text_(shared) {}

  Dataset read(std::size_t maxRows);

  // What the chunked reader needs from the header: it is read and checked as by read(), the rows are not.
  struct Layout {
    std::uint64_t dataOffset = 0;  // the first data row's byte offset in the file
    char delimiter = ',';
    std::vector<std::string> names;
    bool rowLabels = false;
    std::size_t maxRowBytes = 0;
    long dataLine = 2;         // the first data row's line (a header may span lines inside quotes)
    bool shortHeader = false;  // rowLabels because the header names one column fewer than the rows hold
  };
  Layout readLayout();

  // One process's part of the rows (data/CsvPart.hpp): the bytes [begin, end) of the file, whole lines, numbered from
  // firstLine; afterLoneCr: the line before begin ended in a lone "\r".
  struct Range {
    std::uint64_t begin = 0, end = 0;
    long firstLine = 2;
    bool afterLoneCr = false;
  };
  // What the processes exchange about their parts before the table is final: the checks that need the whole file.
  struct PartSummary {
    std::size_t rows = 0;
    long endLine = 0;            // the line after the part's last
    std::string error;           // the InputError that stopped this part's rows, "" when none
    long trailingBlankLine = 0;  // the first of the blank lines that end this part (0: it ends in a row)
    bool trailingBlankAfterCr = false;
    std::vector<char> text;          // per column: turned text in this part
    std::vector<long> infiniteLine;  // per column: the first infinite value (0: none)
    std::vector<std::string> infiniteText;
    std::vector<long> decimalCommaLine;  // per column: the first text that reads as a number with a decimal comma
    std::vector<std::string> decimalCommaText;
  };
  // Reads the header as read() does, then the rows of `range` only into data.columns (one per header field, the row
  // labels' too); an error in the rows goes into the summary rather than being thrown.
  PartSummary readPart(const Range& range, Dataset& data);
  // The checks read() makes once the whole file has gone by, on every part's summary (in process order): the first
  // error in file order (a blank line before more rows, in a later part, included), no data rows, an infinite value in
  // a numeric column. Throws it, the same on every process. textOf(c) gives every part's first-pass texts of column
  // c, for the decimal-comma check (called only for a column where a part met such a text).
  void checkParts(const std::vector<PartSummary>& parts,
                  const std::function<std::vector<std::string>(std::size_t)>& textOf) const;
  // This part's first-pass texts of column c (for checkParts' textOf).
  std::vector<std::string> partTexts(std::size_t c) const;
  // Once the processes agreed which columns are text (`text`, per header field): reads again the rows of this part
  // whose texts the first pass did not keep, and gives data its local levels (sorted), kinds and names; the row
  // labels' column is dropped.
  void finishPart(const std::vector<char>& text, Dataset& data);
  static std::string blankLineMessage(std::size_t fields, bool afterCr);

 private:
  void startRows();  // the text columns and cell modes before the first data row
  enum class Row { Done, Blank, NeedMore, End };
  struct Cell {  // where a value was found, for an error raised once the column's kind is known
    long line = 0;
    std::string text;
  };

  void refill(const char* keep);
  void skipBomAndCheckNotEmpty();
  void readHeader();
  HeaderScan readHeaderLine();
  int spaceSeparated(const HeaderScan& header);
  int delimiterOfFirstRow(const HeaderScan& header);
  std::optional<HeaderScan> firstRowScan(const HeaderScan& header, bool spaceDelimits) const;
  std::string headerField(const char*& p, const char* end);
  void checkNames();
  bool firstRowHasOneFieldMore();
  template <class Sink>
  void readRows(Sink& sink, std::size_t maxRows);
  void reread(std::size_t rows, std::vector<std::vector<double>>& columns);
  void enterRange();
  void dropRowLabels(Dataset& data) const;
  std::string fieldsExpected() const;
  std::string infiniteMessage(std::size_t c, const std::string& text) const;
  void rereadTexts(Dataset& data);
  // The hot path: inlined into the row loop (as it was while the parser lived in one file), kept in CsvReader.cpp.
  [[gnu::always_inline]] inline Row parseRow(double* const* slots, std::size_t slot);
  [[gnu::always_inline]] inline Row parseCell(const char*& p, const char* end, bool eof, std::size_t c, double& value);
  [[gnu::noinline]] Row parseOtherCell(const char*& p, const char* end, bool eof, std::size_t c, double& value);
  Row cellText(const char*& p, const char* end, bool eof, std::size_t c, std::string_view& text, bool& quoted);
  double cellValue(std::size_t c, std::string_view text, bool quoted);
  double textCode(std::size_t c, std::string_view text);
  void noteInfinite(std::size_t c, std::string_view text);
  void checkNumericColumns() const;
  void checkDecimalCommas() const;
  const char* fieldEnd(const char* p, const char* end) const;
  Row tooManyFields(const char* rowStart, const char* end, bool eof) const;
  // At the end of a cell: past the delimiter to the next cell (Done), at the line's end (End, p past trailing
  // blanks), or NeedMore where blanks reach the buffer's end.
  Row nextField(const char*& p, const char* end, bool eof) const;
  std::string_view trim(const char* b, const char* e) const;
  std::string_view trim(std::string_view text) const { return trim(text.data(), text.data() + text.size()); }

  std::string column(std::size_t c) const {
    return "column " + std::to_string(c + 1) + " (" + quotedForMessage(names_[c]) + ")";
  }
  [[noreturn]] void fail(long line, std::size_t column, const std::string& message) const {
    throw InputError(locate(path_, line, static_cast<long>(column), message));
  }

  std::string path_;
  CsvOptions options_;
  std::size_t blockBytes_;
  BlockReader in_;
  const CsvProgress& progress_;
  const char* p_ = nullptr;
  long line_ = 1;
  long firstBlankLine_ = 0;  // a blank line is fine at the end of the file, an error before more data
  // "\r\r\n" line ends (a CRLF file converted to CRLF again) read as a line and a blank one: say so.
  bool lastBreakWasLoneCr_ = false, firstBlankAfterCr_ = false;
  std::string spaceSplit_;  // why a header with spaces between names was not taken as space-separated
  std::vector<std::string> names_;
  bool rowLabels_ = false;    // column 1 has no name: R's row names, read and dropped
  bool shortHeader_ = false;  // ... because the header named one column fewer than the first row held
  std::size_t maxRowBytes_ = kMaxHeaderBytes;
  std::vector<CellMode> modes_;
  std::vector<char> levelBefore_;  // per column: a cell read as missing that is a level if the column turns text
  std::unique_ptr<TextColumns> ownText_;
  TextColumns* text_;                     // ownText_ in the first pass, the first pass's in the second
  const ColumnChunks* values_ = nullptr;  // the first pass's values, to tell whether a column held numbers
  std::string quoted_;                    // the unescaped text of the last quoted cell
  std::unordered_map<std::size_t, Cell> firstInfinite_;  // per column; an error if the column stays numeric
  bool inRange_ = false;  // a part's read (readPart): after the header, the rows of range_ only
  Range range_;
};

}  // namespace gb::csv

// CsvParser's set-up and wind-up: the header line, and the checks that need a whole column read.
#include "data/CsvParser.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <utility>

#include "data/CsvEncoding.hpp"
#include "data/CsvText.hpp"

namespace gb::csv {

void CsvParser::skipBomAndCheckNotEmpty() {
  refill(in_.data());
  // The encoding check weighs the first 512 bytes: all of them, whatever the block size, so that the verdict
  // does not depend on it (16-byte blocks once took a file for UTF-32 that the default blocks read).
  while (!in_.eof() && in_.end() - in_.data() < static_cast<std::ptrdiff_t>(kEncodingCheckBytes)) refill(in_.data());
  const std::string_view head(p_, static_cast<std::size_t>(in_.end() - p_));
  const std::string notText = notUtf8Text(head);
  if (!notText.empty()) fail(1, 1, notText);
  p_ += utf8BomLength(head);
  for (;;) {
    const char* s = p_;
    while (s != in_.end() && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) ++s;
    if (s != in_.end()) return;
    if (in_.eof()) fail(1, 1, "empty file: no header line");
    refill(p_);
  }
}

// Makes sure the whole header line is in the buffer and picks the delimiter; returns where the line ends.
HeaderScan CsvParser::readHeaderLine() {
  for (;;) {
    const HeaderScan scan = scanHeaderLine(p_, in_.end(), in_.eof());
    if (scan.end != nullptr) {
      const int spaces =
          options_.delimiter == 0 && scan.commas + scan.semicolons + scan.tabs == 0 ? spaceSeparated(scan) : 0;
      if (spaces < 0) {  // the first row is not all in the buffer yet
        refill(p_);
        continue;
      }
      const int byFirstRow = options_.delimiter == 0 && spaces == 0 ? delimiterOfFirstRow(scan) : 0;
      if (byFirstRow < 0) {  // the first row is not all in the buffer yet
        refill(p_);
        continue;
      }
      if (options_.delimiter != 0)
        delimiter_ = options_.delimiter;
      else if (spaces > 0)
        delimiter_ = ' ';
      else if (byFirstRow > 0)
        delimiter_ = static_cast<char>(byFirstRow);
      else if (scan.semicolons > scan.commas && scan.semicolons >= scan.tabs)
        delimiter_ = ';';
      else if (scan.tabs > scan.commas && scan.tabs > scan.semicolons)
        delimiter_ = '\t';
      else
        delimiter_ = ',';
      return scan;
    }
    if (static_cast<std::size_t>(in_.end() - p_) > kMaxHeaderBytes)
      fail(1, 1, "header line longer than 64 MiB (an unterminated quote?)");
    refill(p_);
  }
}

namespace {
// A row holds the header's delimiters as often, or once more (R's row names, which have no name).
bool holdsAsMany(long header, long row) { return row == header || row == header + 1; }
}  // namespace

// The line after the header, scanned as the header was (spaceDelimits: read.table's sep = ""), to judge the header's
// delimiter by: nullopt where it is not all in the buffer yet; a scan without end where it cannot be had (the file
// ends, or the buffer is full), and the header decides alone.
std::optional<HeaderScan> CsvParser::firstRowScan(const HeaderScan& header, bool spaceDelimits) const {
  HeaderScan first = scanHeaderLine(header.end + header.breakLength, in_.end(), in_.eof(), spaceDelimits);
  if (first.end == nullptr && !in_.eof() && static_cast<std::size_t>(in_.end() - p_) <= kMaxHeaderBytes)
    return std::nullopt;
  return first;
}

// Where the header holds more than one kind of delimiter (a tab-separated file whose unquoted name has a comma in it,
// "y\ta,b", as write.table(sep = "\t", quote = FALSE) writes it), the one the first data row holds as often (or once
// more: R's row names) decides, as read.delim and read.csv are chosen by the file's kind. 0: no such decision (one
// kind, none, or the first row does not tell); -1: the first row is not all in the buffer.
int CsvParser::delimiterOfFirstRow(const HeaderScan& header) {
  const int kinds = (header.commas > 0) + (header.semicolons > 0) + (header.tabs > 0);
  if (kinds < 2 || header.breakLength == 0) return 0;
  const std::optional<HeaderScan> first = firstRowScan(header, false);
  if (!first) return -1;
  if (first->end == nullptr) return 0;
  const std::pair<char, std::pair<long, long>> counts[] = {{'\t', {header.tabs, first->tabs}},
                                                           {';', {header.semicolons, first->semicolons}},
                                                           {',', {header.commas, first->commas}}};
  int found = 0;
  for (const auto& [delimiter, n] : counts) {
    if (n.first == 0 || !holdsAsMany(n.first, n.second)) continue;
    if (found != 0) return 0;  // two kinds fit: the header's counts decide, as before
    found = delimiter;
  }
  return found;
}

// R's write.table writes single spaces between fields by default (names and text quoted), and tables aligned by
// hand (or printed by R) line their columns up with runs of spaces. A header line with no comma, semicolon or tab
// but spaces between fields outside quotes is read as read.table's sep = "" reads it, where the first row has as
// many fields, or one more (the row names write.table writes without a name). 1: space-separated; 0: not; -1: the
// first row is not all in the buffer.
int CsvParser::spaceSeparated(const HeaderScan& header) {
  const HeaderScan names = scanHeaderLine(p_, header.end, true, true);
  if (names.spaces == 0) return 0;
  if (header.breakLength == 0) return 1;  // a header line alone
  const std::optional<HeaderScan> first = firstRowScan(header, true);
  if (!first) return -1;
  if (first->end == nullptr || holdsAsMany(names.spaces, first->spaces)) return 1;
  spaceSplit_ = "; split at spaces, it holds " + std::to_string(names.spaces + 1) + " names and line 2 holds " +
                std::to_string(first->spaces + 1) +
                " fields: a row name or text with spaces in it must be quoted, as write.table quotes it (it does not "
                "quote a date with a time: write the file with write.csv)";
  return 0;
}

namespace {
const char* const kSpaceSeparated =
    " (names separated by spaces? fields are separated by commas, semicolons, tabs or spaces, with as many fields "
    "in each row as in the header, or one more for R's row names: write.csv, or write.table with sep = \",\")";
}  // namespace

// One header field at p (the whole line is buffered); leaves p on the delimiter or line end.
std::string CsvParser::headerField(const char*& p, const char* end) {
  const std::size_t c = names_.size();
  const char* s = p;
  while (s != end && isSpace(*s)) ++s;
  if (s == end || *s != '"') {
    const char* e = s;
    while (e != end && !isDelimiterByte(*e)) ++e;  // end is the line break
    p = e;
    const std::string_view name = trim(s, e);
    if (c == 0 && e == end && name.find(' ') != std::string_view::npos)  // one unquoted name with spaces in it
      fail(line_, 1,
           "line 1 is one column name, " + quotedForMessage(name) +
               (spaceSplit_.empty() ? kSpaceSeparated : spaceSplit_));
    return std::string(name);
  }
  std::string text;
  long lineBreaks = 0;
  const long line = line_;
  if (scanQuoted(s, end, true, true, text, lineBreaks, delimiter_ == ' ') != QuoteEnd::Closed)
    fail(line, c + 1, "unterminated quote in the header's column " + std::to_string(c + 1));
  line_ += lineBreaks;
  const char* const closing = s;
  while (s != end && isSpace(*s)) ++s;
  if (s != end && !isDelimiterByte(*s))
    fail(line_, c + 1,
         "unexpected text after the closing quote of the header's column " + std::to_string(c + 1) +
             (s != closing && std::find(s, end, delimiter_) == end
                  ? (spaceSplit_.empty() ? kSpaceSeparated : spaceSplit_.c_str())
              : s == closing && std::string_view("|:").find(*s) != std::string_view::npos
                  ? std::string(" ('") + *s +
                        "': the delimiter must be ',', ';', a tab or spaces, as R's write.csv, "
                        "write.csv2 and write.table write them)"
                  : std::string()));
  p = s;
  return text;
}

void CsvParser::readHeader() {
  if (options_.delimiter == '"' || options_.delimiter == '\n' || options_.delimiter == '\r')
    throw InputError(optionMessage("--delimiter", "cannot be a quote or a line break"));
  const HeaderScan scan = readHeaderLine();
  const char* const end = scan.end;
  const char* p = skipBlanks(p_, end);
  for (;;) {
    names_.push_back(headerField(p, end));
    if (nextField(p, end, true) != Row::Done) break;
  }
  maxRowBytes_ = std::max(kMaxHeaderBytes, kRowPerHeaderBytes * static_cast<std::size_t>(end - p_));
  lastBreakWasLoneCr_ = scan.breakLength == 1 && *end == '\r';
  p_ = end + scan.breakLength;
  shortHeader_ = scan.breakLength > 0 && !names_.empty() && !names_[0].empty() && firstRowHasOneFieldMore();
  if (shortHeader_) names_.insert(names_.begin(), std::string());  // checkNames takes the unnamed column 1 as row names
  checkNames();
  ++line_;
}

// R's write.table(x, sep = ",") with its default row.names = TRUE writes no name for the row names: the header has
// one field fewer than the rows, and read.table then takes column 1 as the row names. The first data line (at p_)
// tells. One ending in a delimiter (an empty last field: an empty text written unquoted, or a stray trailing comma)
// tells only if a later line has as many fields and a last one that is not empty, so that a file whose every row
// ends in a stray comma still gets "too many fields". The later lines looked at are at most 1000, all within
// kLookBytes of line 2 whatever the block size, so the verdict is the same for every reader of the file.
bool CsvParser::firstRowHasOneFieldMore() {
  if (delimiter_ != ',' && delimiter_ != ';' && delimiter_ != '\t' && delimiter_ != ' ') return false;
  constexpr std::ptrdiff_t kLookBytes = std::ptrdiff_t{1} << 20;
  constexpr int kLookLines = 1000;
  enum class Fields { Other, OneMore, OneMoreEmptyLast };
  const auto judge = [this](const HeaderScan& scan, const char* start) {
    const long delimiters = delimiter_ == ','   ? scan.commas
                            : delimiter_ == ';' ? scan.semicolons
                            : delimiter_ == ' ' ? scan.spaces
                                                : scan.tabs;
    const char* last = scan.end;
    while (last != start && (last[-1] == ' ' || (blankDelimits() && last[-1] == '\t') || last[-1] == '\r')) --last;
    if (delimiters != static_cast<long>(names_.size()) || last == start) return Fields::Other;
    return blankDelimits() || last[-1] != delimiter_ ? Fields::OneMore : Fields::OneMoreEmptyLast;
  };
  for (;;) {  // each round scans from line 2 again, over a buffer grown by refill
    const char* line = p_;
    for (int seen = 0; seen <= kLookLines; ++seen) {
      const HeaderScan scan = scanHeaderLine(line, in_.end(), in_.eof(), delimiter_ == ' ');
      if (scan.end == nullptr) break;  // the line goes on past the buffer
      if (seen > 0 && scan.end - p_ > kLookBytes) return false;
      const Fields verdict = judge(scan, line);
      if (verdict != Fields::OneMoreEmptyLast) return verdict == Fields::OneMore;
      if (scan.breakLength == 0) return false;
      line = scan.end + scan.breakLength;
      if (seen == kLookLines) return false;
    }
    const std::ptrdiff_t buffered = in_.end() - p_;
    if (in_.eof() || buffered > (line == p_ ? static_cast<std::ptrdiff_t>(maxRowBytes_) : kLookBytes)) return false;
    refill(p_);
  }
}

CsvParser::Layout CsvParser::readLayout() {
  skipBomAndCheckNotEmpty();
  readHeader();
  return {in_.offsetOf(p_), delimiter_, names_, rowLabels_, maxRowBytes_, line_, shortHeader_};
}

void CsvParser::checkNames() {
  std::unordered_map<std::string, std::size_t> seen;
  // R's write.csv names the row-name column "": it holds labels, not data.
  rowLabels_ = names_.size() > 1 && names_[0].empty();
  const std::string noHeader =
      csv::missingHeaderHint(std::vector<std::string>(names_.begin() + (rowLabels_ ? 1 : 0), names_.end()));
  for (std::size_t c = rowLabels_ ? 1 : 0; c < names_.size(); ++c) {
    if (names_.size() == 1 && names_[0].empty())  // a blank line before the header, most often
      fail(1, 1, "no column names on line 1 (the header must be the first line)");
    if (names_[c].empty()) fail(1, c + 1, "empty column name in column " + std::to_string(c + 1));
    const std::string problem = nameProblem(names_[c]);
    if (!problem.empty()) fail(1, c + 1, column(c) + ": " + problem);
    const auto [it, inserted] = seen.emplace(names_[c], c);
    if (!inserted)
      fail(1, c + 1,
           "duplicate column name " + quotedForMessage(names_[c]) + " in columns " + std::to_string(it->second + 1) +
               " and " + std::to_string(c + 1) + noHeader);
  }
}

// Infinite values are an error in a numeric column (in a text column "Inf" is a level like any other).
void CsvParser::checkNumericColumns() const {
  const std::pair<const std::size_t, Cell>* first = nullptr;
  for (const auto& entry : firstInfinite_)
    if (modes_[entry.first] == CellMode::Number &&
        (!first || std::make_pair(entry.second.line, entry.first) < std::make_pair(first->second.line, first->first)))
      first = &entry;
  if (first) fail(first->second.line, first->first + 1, infiniteMessage(first->first, first->second.text));
}

std::string CsvParser::infiniteMessage(std::size_t c, const std::string& text) const {
  return column(c) + ": value " + quotedForMessage(text) +
         " is not finite (infinite, or beyond the range of a double); write a missing value as NA";
}

std::string CsvParser::blankLineMessage(std::size_t fields, bool afterCr) {
  return "empty line before more data (every row needs " + std::to_string(fields) + " fields)" +
         (afterCr ? "; lines end in \"\\r\\r\\n\" (a CRLF file converted twice?)" : "");
}

namespace {

// Whether every text reads as a number once its decimal commas are points (blank and NaN cells, missing in a
// numeric column, aside).
bool allNumbersWithPoints(const std::vector<std::string>& texts,
                          const std::function<std::string_view(std::string_view)>& trim) {
  for (const std::string& text : texts) {
    double value = 0;
    if (isMissingText(trim(text))) continue;
    if (!isNumberText(trim(text)) && !parsesWithDecimalComma(trim(text), value)) return false;
  }
  return true;
}

}  // namespace

void CsvParser::checkParts(const std::vector<PartSummary>& parts,
                           const std::function<std::vector<std::string>(std::size_t)>& textOf) const {
  long pendingBlank = 0;  // a blank line that ended an earlier part: an error if any later part holds a row
  bool pendingCr = false;
  std::size_t rows = 0;
  for (const PartSummary& part : parts) {
    if (pendingBlank != 0 && (part.rows > 0 || !part.error.empty()))
      fail(pendingBlank, 1, blankLineMessage(names_.size(), pendingCr));
    if (!part.error.empty()) throw InputError(part.error);
    if (pendingBlank == 0 && part.trailingBlankLine != 0) {
      pendingBlank = part.trailingBlankLine;
      pendingCr = part.trailingBlankAfterCr;
    }
    rows += part.rows;
  }
  if (rows == 0) fail(parts.back().endLine, 1, "no data rows (only a header line)");
  const std::size_t cols = names_.size();
  std::vector<char> text(cols, 0);
  for (const PartSummary& part : parts)
    for (std::size_t c = 0; c < cols; ++c) text[c] |= part.text[c];
  long line = 0;
  std::size_t column = 0;
  const std::string* infinite = nullptr;
  for (std::size_t c = 0; c < cols; ++c)
    for (const PartSummary& part : parts)  // the first part with one holds the column's first
      if (!text[c] && part.infiniteLine[c] != 0) {
        if (!infinite || part.infiniteLine[c] < line) {
          line = part.infiniteLine[c];
          column = c;
          infinite = &part.infiniteText[c];
        }
        break;
      }
  if (infinite) fail(line, column + 1, infiniteMessage(column, *infinite));
  const auto trimmed = [this](std::string_view t) { return trim(t); };
  for (std::size_t c = 0; c < cols; ++c)
    for (const PartSummary& part : parts)
      if (text[c] && part.decimalCommaLine[c] != 0) {
        if (allNumbersWithPoints(textOf(c), trimmed))
          fail(part.decimalCommaLine[c], c + 1,
               this->column(c) + ": not a number: " + quotedForMessage(part.decimalCommaText[c]) +
                   " (a decimal comma? numbers need a decimal point)");
        break;
      }
}

std::vector<std::string> CsvParser::partTexts(std::size_t c) const {
  std::vector<std::string> texts;
  if (const TextLevels* levels = text_->find(c))
    for (const auto& entry : levels->codes) texts.push_back(entry.first);
  return texts;
}

// A text column whose every text is a number once its decimal commas are points ("2,5" in a ';' file) was
// written in a locale with a decimal comma: an error, not a factor of numbers.
void CsvParser::checkDecimalCommas() const {
  for (std::size_t c = 0; c < names_.size(); ++c) {
    const TextLevels* levels = text_->find(c);
    if (!levels || levels->decimalCommaLine == 0) continue;
    std::vector<std::string> texts;
    for (const auto& entry : levels->codes) texts.push_back(entry.first);
    if (allNumbersWithPoints(texts, [this](std::string_view t) { return trim(t); }))
      fail(levels->decimalCommaLine, c + 1,
           column(c) + ": not a number: " + quotedForMessage(levels->decimalCommaText) +
               " (a decimal comma? numbers need a decimal point)");
  }
}

}  // namespace gb::csv

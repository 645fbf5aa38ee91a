#include "data/CsvReader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "common/Error.hpp"
#include "common/Text.hpp"
#include "data/CsvBlocks.hpp"
#include "data/CsvEncoding.hpp"
#include "data/CsvScan.hpp"

namespace gb {

namespace {

// A header longer than this without a line break outside quotes is almost surely an unterminated quote;
// stop before buffering the whole file.
constexpr std::size_t kMaxHeaderBytes = std::size_t{64} << 20;
constexpr std::size_t kHeadBlockBytes = std::size_t{64} << 10;
// A data row may be this many times longer than the header line (a number is longer than a short name), and at
// least kMaxHeaderBytes; a longer one is a file without line breaks where the reader expects them, and reading
// on would buffer all of it.
constexpr std::size_t kRowPerHeaderBytes = 32;

using csv::HeaderScan;
using csv::lineBreakAt;
using csv::parseDouble;
using csv::QuoteEnd;
using csv::scanQuoted;

class CsvParser {
 public:
  CsvParser(const std::string& path, const CsvOptions& options, std::size_t blockBytes, const CsvProgress& progress)
      : path_(path), options_(options), in_(path, blockBytes), progress_(progress) {}

  Dataset read(std::size_t maxRows);

 private:
  enum class Row { Done, Blank, NeedMore, End };

  void refill(const char* keep);
  void skipBomAndCheckNotEmpty();
  void readHeader();
  HeaderScan readHeaderLine();
  std::string headerField(const char*& p, const char* end);
  void checkNames() const;
  Row parseRow(double* const* slots, std::size_t slot);
  Row parseCell(const char*& p, const char* end, bool eof, std::size_t c, double& value);
  Row parseQuotedCell(const char*& p, const char* end, bool eof, std::size_t c, double& value);
  const char* fieldEnd(const char* p, const char* end) const;
  Row tooManyFields(const char* rowStart, const char* end, bool eof) const;
  bool isSpace(char ch) const { return ch == ' ' || (ch == '\t' && delimiter_ != '\t'); }
  std::string_view trim(const char* b, const char* e) const;

  std::string column(std::size_t c) const {
    return "column " + std::to_string(c + 1) + " (" + quotedForMessage(names_[c]) + ")";
  }
  [[noreturn]] void fail(long line, std::size_t column, const std::string& message) const {
    throw InputError(locate(path_, line, static_cast<long>(column), message));
  }
  [[noreturn]] void badCell(std::size_t c, const char* b, const char* e) const;
  void checkFinite(std::size_t c, double value, std::string_view text) const;

  std::string path_;
  CsvOptions options_;
  csv::BlockReader in_;
  const CsvProgress& progress_;
  const char* p_ = nullptr;
  long line_ = 1;
  long firstBlankLine_ = 0;  // a blank line is fine at the end of the file, an error before more data
  // "\r\r\n" line ends (a CRLF file converted to CRLF again) read as a line and a blank one: say so.
  bool lastBreakWasLoneCr_ = false, firstBlankAfterCr_ = false;
  char delimiter_ = ',';
  std::vector<std::string> names_;
  std::size_t maxRowBytes_ = kMaxHeaderBytes;
};

void CsvParser::refill(const char* keep) {
  if (progress_ && !progress_(in_.offsetOf(keep), in_.fileSize())) throw Error("cancelled");
  in_.refill(keep);
  p_ = in_.data();
}

void CsvParser::skipBomAndCheckNotEmpty() {
  refill(in_.data());
  const std::string_view head(p_, static_cast<std::size_t>(in_.end() - p_));
  const std::string notText = csv::notUtf8Text(head);
  if (!notText.empty()) fail(1, 1, notText);
  p_ += csv::utf8BomLength(head);
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
    const HeaderScan scan = csv::scanHeaderLine(p_, in_.end(), in_.eof());
    if (scan.end != nullptr) {
      if (options_.delimiter != 0)
        delimiter_ = options_.delimiter;
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

std::string_view CsvParser::trim(const char* b, const char* e) const {
  while (b != e && isSpace(*b)) ++b;
  while (e != b && (isSpace(e[-1]) || e[-1] == '\r')) --e;
  return {b, static_cast<std::size_t>(e - b)};
}

// One header field at p (the whole line is buffered); leaves p on the delimiter or line end.
std::string CsvParser::headerField(const char*& p, const char* end) {
  const std::size_t c = names_.size();
  const char* s = p;
  while (s != end && isSpace(*s)) ++s;
  if (s == end || *s != '"') {
    const char* e = s;
    while (e != end && *e != delimiter_) ++e;  // end is the line break
    p = e;
    return std::string(trim(s, e));
  }
  std::string text;
  long lineBreaks = 0;
  const long line = line_;
  if (scanQuoted(s, end, true, true, text, lineBreaks) != QuoteEnd::Closed)
    fail(line, c + 1, "unterminated quote in the header's column " + std::to_string(c + 1));
  line_ += lineBreaks;
  while (s != end && isSpace(*s)) ++s;
  if (s != end && *s != delimiter_)
    fail(line_, c + 1, "unexpected text after the closing quote of the header's column " + std::to_string(c + 1));
  p = s;
  return text;
}

void CsvParser::readHeader() {
  if (options_.delimiter == '"' || options_.delimiter == '\n' || options_.delimiter == '\r' ||
      options_.delimiter == ' ')
    throw InputError(optionMessage("--delimiter", "cannot be a quote, a space or a line break"));
  const HeaderScan scan = readHeaderLine();
  const char* const end = scan.end;
  const char* p = p_;
  for (;;) {
    names_.push_back(headerField(p, end));
    if (p != end && *p == delimiter_) {
      ++p;
      continue;
    }
    break;
  }
  maxRowBytes_ = std::max(kMaxHeaderBytes, kRowPerHeaderBytes * static_cast<std::size_t>(end - p_));
  lastBreakWasLoneCr_ = scan.breakLength == 1 && *end == '\r';
  p_ = end + scan.breakLength;
  checkNames();
  ++line_;
}

void CsvParser::checkNames() const {
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t c = 0; c < names_.size(); ++c) {
    if (names_.size() == 1 && names_[0].empty())  // a blank line before the header, most often
      fail(1, 1, "no column names on line 1 (the header must be the first line)");
    if (names_[c].empty()) fail(1, c + 1, "empty column name in column " + std::to_string(c + 1));
    const std::string problem = csv::nameProblem(names_[c]);
    if (!problem.empty()) fail(1, c + 1, column(c) + ": " + problem);
    const auto [it, inserted] = seen.emplace(names_[c], c);
    if (!inserted)
      fail(1, c + 1,
           "duplicate column name " + quotedForMessage(names_[c]) + " in columns " + std::to_string(it->second + 1) +
               " and " + std::to_string(c + 1));
  }
}

// End of the unquoted field starting at p: the next delimiter, line break or the buffer's end.
const char* CsvParser::fieldEnd(const char* p, const char* end) const {
  while (p != end && *p != delimiter_ && !csv::isLineBreakByte(*p)) ++p;
  return p;
}

void CsvParser::badCell(std::size_t c, const char* b, const char* e) const {
  const std::string_view text = trim(b, e);
  if (text.empty()) fail(line_, c + 1, column(c) + ": empty cell");
  // "2,5" in a ';' file is a decimal comma: say so, the user's spreadsheet wrote it in their locale.
  std::string withPoint(text.substr(0, 64));
  std::replace(withPoint.begin(), withPoint.end(), ',', '.');
  double value = 0;
  const bool decimalComma =
      text.size() <= 64 && withPoint != text &&
      parseDouble(withPoint.data(), withPoint.data() + withPoint.size(), value) == withPoint.data() + withPoint.size();
  fail(line_, c + 1,
       column(c) + ": not a number: " + quotedForMessage(text) +
           (decimalComma ? " (a decimal comma? numbers need a decimal point)" : ""));
}

void CsvParser::checkFinite(std::size_t c, double value, std::string_view text) const {
  if (!std::isfinite(value))
    fail(line_, c + 1,
         column(c) + ": value " + quotedForMessage(text) + " is not finite (NaN, Inf or beyond the range of a double)");
}

CsvParser::Row CsvParser::tooManyFields(const char* rowStart, const char* end, bool eof) const {
  std::size_t fields = 1;
  bool inQuotes = false;
  const char* s = rowStart;
  for (; s != end && (inQuotes || !csv::isLineBreakByte(*s)); ++s) {
    if (*s == '"') inQuotes = !inQuotes;
    fields += !inQuotes && *s == delimiter_;
  }
  if (s == end && !eof) return Row::NeedMore;
  fail(line_, names_.size() + 1,
       "too many fields: " + std::to_string(fields) + " in this row, " + std::to_string(names_.size()) +
           " in the header");
}

CsvParser::Row CsvParser::parseQuotedCell(const char*& p, const char* end, bool eof, std::size_t c, double& value) {
  std::string text;
  long lineBreaks = 0;
  const char* s = p;
  switch (scanQuoted(s, end, eof, false, text, lineBreaks)) {
    case QuoteEnd::NeedMore:
      return Row::NeedMore;
    case QuoteEnd::Unterminated:
      fail(line_, c + 1, column(c) + ": unterminated quote");
    case QuoteEnd::LineBreak:
      fail(line_, c + 1, column(c) + ": unterminated quote (a quoted number cannot span lines)");
    case QuoteEnd::Closed:
      break;
  }
  while (s != end && isSpace(*s)) ++s;
  if (s == end && !eof) return Row::NeedMore;
  if (s != end && *s != delimiter_ && !csv::isLineBreakByte(*s))
    fail(line_, c + 1, column(c) + ": unexpected text after the closing quote");
  const std::string_view number = trim(text.data(), text.data() + text.size());
  const char* numberEnd = parseDouble(number.data(), number.data() + number.size(), value);
  if (number.empty() || numberEnd != number.data() + number.size())
    badCell(c, number.data(), number.data() + number.size());
  checkFinite(c, value, number);
  p = s;
  return Row::Done;
}

// Parses the cell of column c at p into value; leaves p on the delimiter or line break after it.
CsvParser::Row CsvParser::parseCell(const char*& p, const char* end, bool eof, std::size_t c, double& value) {
  const char* const fieldStart = p;
  while (p != end && isSpace(*p)) ++p;
  if (p != end && *p == '"') return parseQuotedCell(p, end, eof, c, value);
  const char* numberEnd = parseDouble(p, end, value);
  const bool hasNumber = numberEnd != p;
  if (hasNumber) {
    p = numberEnd;
    while (p != end && isSpace(*p)) ++p;
  }
  if (p == end && !eof) return Row::NeedMore;
  const int lineBreak = lineBreakAt(p, end, eof);
  if (lineBreak < 0) return Row::NeedMore;
  if (!hasNumber || (p != end && *p != delimiter_ && lineBreak == 0)) {  // no number, or text after it: "1.5x"
    const char* e = fieldEnd(fieldStart, end);
    if (e == end && !eof) return Row::NeedMore;
    badCell(c, fieldStart, e);
  }
  checkFinite(c, value, trim(fieldStart, p));
  return Row::Done;
}

// Parses one data row into slots[c][slot]. Returns NeedMore whenever the row may continue past the buffer,
// before judging it: every error is raised on a complete field.
CsvParser::Row CsvParser::parseRow(double* const* slots, std::size_t slot) {
  const char* p = p_;
  const char* const end = in_.end();
  const bool eof = in_.eof();
  if (p == end) return eof ? Row::End : Row::NeedMore;
  const int blank = lineBreakAt(p, end, eof);
  if (blank < 0) return Row::NeedMore;
  if (blank > 0) {
    if (firstBlankLine_ == 0) firstBlankAfterCr_ = lastBreakWasLoneCr_ && blank == 2;
    lastBreakWasLoneCr_ = blank == 1 && *p == '\r';
    p_ = p + blank;
    return Row::Blank;
  }
  if (firstBlankLine_ != 0)
    fail(firstBlankLine_, 1,
         "empty line before more data (every row needs " + std::to_string(names_.size()) + " fields)" +
             (firstBlankAfterCr_ ? "; lines end in \"\\r\\r\\n\" (a CRLF file converted twice?)" : ""));
  const std::size_t cols = names_.size();
  for (std::size_t c = 0; c < cols; ++c) {
    double value;
    if (parseCell(p, end, eof, c, value) == Row::NeedMore) return Row::NeedMore;
    slots[c][slot] = value;
    if (c + 1 < cols) {
      if (p != end && *p == delimiter_) {
        ++p;
        continue;
      }
      fail(line_, c + 2,
           "too few fields: " + std::to_string(c + 1) + " in this row, " + std::to_string(cols) + " in the header (" +
               column(c + 1) + " is missing)");
    }
  }
  if (p != end && *p == delimiter_) return tooManyFields(p_, end, eof);
  const int lineBreak = lineBreakAt(p, end, eof);
  if (lineBreak < 0) return Row::NeedMore;
  if (lineBreak == 0 && p != end) badCell(cols - 1, p, fieldEnd(p, end));  // unreachable: cells end at one
  lastBreakWasLoneCr_ = lineBreak == 1 && *p == '\r';
  p_ = p + lineBreak;
  return Row::Done;
}

Dataset CsvParser::read(std::size_t maxRows) {
  skipBomAndCheckNotEmpty();
  readHeader();
  csv::ColumnChunks values(names_.size());
  while (values.rows() < maxRows) {
    values.ensureRoom();
    const Row row = parseRow(values.slots(), values.filled());
    if (row == Row::End) break;
    if (row == Row::NeedMore) {
      if (static_cast<std::size_t>(in_.end() - p_) >= maxRowBytes_)
        fail(line_, 1, "line longer than " + std::to_string(maxRowBytes_ >> 20) + " MiB (a file without line breaks?)");
      refill(p_);
      continue;
    }
    if (row == Row::Blank && firstBlankLine_ == 0) firstBlankLine_ = line_;
    if (row == Row::Done) values.commitRow();
    ++line_;
  }
  if (values.rows() == 0 && maxRows > 0) fail(line_, 1, "no data rows (only a header line)");
  if (progress_ && !progress_(in_.offsetOf(p_), in_.fileSize())) throw Error("cancelled");
  Dataset data;
  data.source = path_;
  data.names = std::move(names_);
  data.columns = values.assemble();
  return data;
}

}  // namespace

Dataset readCsv(const std::string& path, const CsvOptions& options, const CsvProgress& progress) {
  return CsvParser(path, options, options.blockBytes, progress).read(std::numeric_limits<std::size_t>::max());
}

Dataset readCsvHead(const std::string& path, std::size_t maxRows, const CsvOptions& options) {
  // Small blocks: a preview must not read a large file to its end.
  const CsvProgress none;
  return CsvParser(path, options, std::min(options.blockBytes, kHeadBlockBytes), none).read(maxRows);
}

}  // namespace gb

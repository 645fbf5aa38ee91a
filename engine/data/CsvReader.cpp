#include "data/CsvReader.hpp"

#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

#ifdef GB_HAVE_FAST_FLOAT
#include <fast_float/fast_float.h>
#else
#include <charconv>
#endif

#include "common/Error.hpp"
#include "data/CsvBlocks.hpp"

namespace gb {

namespace {

// A header longer than this without a line break outside quotes is almost surely an unterminated quote;
// stop before buffering the whole file.
constexpr std::size_t kMaxHeaderBytes = std::size_t{64} << 20;
constexpr std::size_t kHeadBlockBytes = std::size_t{64} << 10;
constexpr std::size_t kMaxQuotedText = 40;

// Parses a number at [p, end); returns the end of the number, or p when there is none. Locale-independent.
const char* parseDouble(const char* p, const char* end, double& value) {
  const char* s = p;
  if (s != end && *s == '+') ++s;  // from_chars rejects a leading '+', people write it
#ifdef GB_HAVE_FAST_FLOAT
  const auto result = fast_float::from_chars(s, end, value);
  if (result.ec == std::errc::invalid_argument) return p;
  return result.ptr;
#else
  const auto result = std::from_chars(s, end, value);
  if (result.ec == std::errc::invalid_argument) return p;
  if (result.ec == std::errc::result_out_of_range) value = std::numeric_limits<double>::infinity();
  return result.ptr;
#endif
}

// Text of a cell for a message: one line, truncated.
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxQuotedText; ++i)
    out += static_cast<unsigned char>(text[i]) < 0x20 ? '?' : text[i];
  if (text.size() > kMaxQuotedText) out += "...";
  return out + "'";
}

enum class QuoteEnd { Closed, NeedMore, Unterminated, LineBreak };

// p is at an opening quote. On Closed, p is past the closing quote and `text` holds the unescaped content
// ("" stands for one quote). `lineBreaks` counts the line breaks inside (only allowed in the header).
QuoteEnd scanQuoted(const char*& p, const char* end, bool eof, bool allowLineBreak, std::string& text,
                    long& lineBreaks) {
  const char* s = p + 1;
  text.clear();
  lineBreaks = 0;
  for (;;) {
    if (s == end) return eof ? QuoteEnd::Unterminated : QuoteEnd::NeedMore;
    const char ch = *s++;
    if (ch == '"') {
      if (s == end && !eof) return QuoteEnd::NeedMore;  // could be the first half of ""
      if (s != end && *s == '"') {
        text += '"';
        ++s;
        continue;
      }
      p = s;
      return QuoteEnd::Closed;
    }
    if (ch == '\n') {
      if (!allowLineBreak) return QuoteEnd::LineBreak;
      ++lineBreaks;
    }
    text += ch;
  }
}

// Scans the header line from p: where it ends ('\n' outside quotes) and how often each candidate delimiter
// occurs outside quotes. A quote opens a quoted field only at the start of a field (RFC 4180), so a stray
// quote inside a name cannot swallow the lines after it. end is null when the buffer ends first.
struct HeaderScan {
  const char* end = nullptr;
  long commas = 0, semicolons = 0, tabs = 0;
};

HeaderScan scanHeaderLine(const char* p, const char* end, bool eof) {
  HeaderScan scan;
  bool inQuotes = false, fieldStart = true;
  for (const char* s = p; s != end; ++s) {
    const char ch = *s;
    if (inQuotes) {
      if (ch != '"') continue;
      if (s + 1 == end && !eof) return scan;  // "" or a closing quote: the next block tells
      if (s + 1 != end && s[1] == '"')
        ++s;
      else
        inQuotes = false;
    } else if (ch == '\n') {
      scan.end = s;
      return scan;
    } else if (ch == ',' || ch == ';' || ch == '\t') {
      scan.commas += ch == ',';
      scan.semicolons += ch == ';';
      scan.tabs += ch == '\t';
      fieldStart = true;
    } else if (ch == '"' && fieldStart) {
      inQuotes = true;
      fieldStart = false;
    } else if (ch != ' ') {
      fieldStart = false;
    }
  }
  if (eof) scan.end = end;
  return scan;
}

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
  const char* readHeaderLine();
  std::string headerField(const char*& p, const char* end);
  void checkNames() const;
  Row parseRow(double* const* slots, std::size_t slot);
  Row parseQuotedCell(const char*& p, const char* end, bool eof, std::size_t c, double& value);
  const char* fieldEnd(const char* p, const char* end) const;
  int lineBreakAt(const char* p, const char* end, bool eof) const;
  Row tooManyFields(const char* rowStart, const char* end, bool eof) const;
  bool isSpace(char ch) const { return ch == ' ' || (ch == '\t' && delimiter_ != '\t'); }
  std::string_view trim(const char* b, const char* e) const;

  std::string column(std::size_t c) const { return "column " + std::to_string(c + 1) + " ('" + names_[c] + "')"; }
  [[noreturn]] void fail(long line, std::size_t column, const std::string& message) const {
    throw InputError(locate(path_, line, static_cast<long>(column), message));
  }
  [[noreturn]] void badCell(std::size_t c, const char* b, const char* e) const;

  std::string path_;
  CsvOptions options_;
  csv::BlockReader in_;
  const CsvProgress& progress_;
  const char* p_ = nullptr;
  long line_ = 1;
  long firstBlankLine_ = 0;  // a blank line is fine at the end of the file, an error before more data
  char delimiter_ = ',';
  std::vector<std::string> names_;
};

void CsvParser::refill(const char* keep) {
  if (progress_ && !progress_(in_.offsetOf(keep), in_.fileSize())) throw Error("cancelled");
  in_.refill(keep);
  p_ = in_.data();
}

void CsvParser::skipBomAndCheckNotEmpty() {
  refill(in_.data());
  if (in_.end() - p_ >= 3 && std::string_view(p_, 3) == "\xEF\xBB\xBF") p_ += 3;
  for (;;) {
    const char* s = p_;
    while (s != in_.end() && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) ++s;
    if (s != in_.end()) return;
    if (in_.eof()) fail(1, 1, "empty file: no header line");
    refill(p_);
  }
}

// Makes sure the whole header line is in the buffer and picks the delimiter; returns the line's end.
const char* CsvParser::readHeaderLine() {
  for (;;) {
    const HeaderScan scan = scanHeaderLine(p_, in_.end(), in_.eof());
    if (scan.end != nullptr) {
      if (options_.delimiter != 0)
        delimiter_ = options_.delimiter;
      else if (scan.semicolons > scan.commas && scan.semicolons >= scan.tabs)
        delimiter_ = ';';
      else if (scan.tabs > scan.commas && scan.tabs > scan.semicolons)
        delimiter_ = '\t';
      else
        delimiter_ = ',';
      return scan.end;
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
    while (e != end && *e != delimiter_ && *e != '\n') ++e;
    p = e;
    return std::string(trim(s, e));
  }
  std::string text;
  long lineBreaks = 0;
  const long line = line_;
  if (scanQuoted(s, end, true, true, text, lineBreaks) != QuoteEnd::Closed)
    fail(line, c + 1, "unterminated quote in the header's column " + std::to_string(c + 1));
  line_ += lineBreaks;
  while (s != end && (isSpace(*s) || *s == '\r')) ++s;
  if (s != end && *s != delimiter_ && *s != '\n')
    fail(line_, c + 1, "unexpected text after the closing quote of the header's column " + std::to_string(c + 1));
  p = s;
  return text;
}

void CsvParser::readHeader() {
  if (options_.delimiter == '"' || options_.delimiter == '\n' || options_.delimiter == '\r' ||
      options_.delimiter == ' ')
    throw InputError(optionMessage("--delimiter", "cannot be a quote, a space or a line break"));
  const char* end = readHeaderLine();
  const char* p = p_;
  for (;;) {
    names_.push_back(headerField(p, end));
    if (p != end && *p == delimiter_) {
      ++p;
      continue;
    }
    break;
  }
  p_ = p == in_.end() ? p : p + 1;  // past the '\n'
  checkNames();
  ++line_;
}

void CsvParser::checkNames() const {
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t c = 0; c < names_.size(); ++c) {
    if (names_[c].empty()) fail(1, c + 1, "empty column name in column " + std::to_string(c + 1));
    const auto [it, inserted] = seen.emplace(names_[c], c);
    if (!inserted)
      fail(1, c + 1,
           "duplicate column name '" + names_[c] + "' in columns " + std::to_string(it->second + 1) + " and " +
               std::to_string(c + 1));
  }
}

// Length of the line break at p: 1 for "\n", 2 for "\r\n", 0 for none, -1 when the buffer ends in a '\r'.
int CsvParser::lineBreakAt(const char* p, const char* end, bool eof) const {
  if (p == end) return 0;
  if (*p == '\n') return 1;
  if (*p != '\r') return 0;
  if (p + 1 == end) return eof ? 1 : -1;
  return p[1] == '\n' ? 2 : 0;
}

// End of the unquoted field starting at p: the next delimiter, line break or the buffer's end.
const char* CsvParser::fieldEnd(const char* p, const char* end) const {
  while (p != end && *p != delimiter_ && *p != '\n') ++p;
  return p;
}

void CsvParser::badCell(std::size_t c, const char* b, const char* e) const {
  const std::string_view text = trim(b, e);
  if (text.empty()) fail(line_, c + 1, column(c) + ": empty cell");
  fail(line_, c + 1, column(c) + ": not a number: " + quoted(text));
}

CsvParser::Row CsvParser::tooManyFields(const char* rowStart, const char* end, bool eof) const {
  std::size_t fields = 1;
  bool inQuotes = false;
  const char* s = rowStart;
  for (; s != end && (inQuotes || *s != '\n'); ++s) {
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
  if (s != end && *s != delimiter_ && *s != '\n' && *s != '\r')
    fail(line_, c + 1, column(c) + ": unexpected text after the closing quote");
  const std::string_view number = trim(text.data(), text.data() + text.size());
  const char* numberEnd = parseDouble(number.data(), number.data() + number.size(), value);
  if (number.empty() || numberEnd != number.data() + number.size())
    badCell(c, number.data(), number.data() + number.size());
  p = s;
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
    p_ = p + blank;
    return Row::Blank;
  }
  if (firstBlankLine_ != 0)
    fail(firstBlankLine_, 1,
         "empty line before more data (every row needs " + std::to_string(names_.size()) + " fields)");
  const std::size_t cols = names_.size();
  for (std::size_t c = 0; c < cols; ++c) {
    const char* const fieldStart = p;
    while (p != end && isSpace(*p)) ++p;
    double value;
    if (p != end && *p == '"') {
      if (parseQuotedCell(p, end, eof, c, value) == Row::NeedMore) return Row::NeedMore;
    } else {
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
      if (!std::isfinite(value))
        fail(line_, c + 1,
             column(c) + ": value " + quoted(trim(fieldStart, p)) +
                 " is not finite (NaN, Inf or beyond the range of a double)");
    }
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
  if (lineBreak == 0 && p != end) badCell(cols - 1, p, fieldEnd(p, end));  // a stray '\r'
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

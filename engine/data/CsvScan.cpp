#include "data/CsvScan.hpp"

#include <cmath>
#include <limits>

#ifndef GB_HAVE_FAST_FLOAT
#include <charconv>
#endif

namespace gb::csv {

namespace {

#ifndef GB_HAVE_FAST_FLOAT
bool isDigit(char ch) { return ch >= '0' && ch <= '9'; }

// std::from_chars leaves the value unset when it is out of range, for overflow and underflow alike. The two
// lie hundreds of decades apart, so the decimal exponent of the first significant digit tells them apart.
double outOfRangeValue(const char* s, const char* end) {
  const bool negative = s != end && *s == '-';
  if (negative) ++s;
  long exponent = 0;  // of the first significant digit, counted from the decimal point
  bool seenPoint = false, significant = false;
  for (; s != end && (isDigit(*s) || *s == '.'); ++s) {
    if (*s == '.') {
      seenPoint = true;
    } else if (!significant && *s == '0') {
      exponent -= seenPoint;
    } else if (!significant) {
      significant = true;
      exponent -= seenPoint;
    } else {
      exponent += !seenPoint;
    }
  }
  if (s != end && (*s == 'e' || *s == 'E')) {
    const char* digits = s + 1;
    const bool negativeExponent = digits != end && *digits == '-';
    if (digits != end && (*digits == '-' || *digits == '+')) ++digits;
    constexpr long kHuge = 1'000'000'000;  // far beyond any double, small enough not to overflow a long
    long e = 0;
    if (std::from_chars(digits, end, e).ec == std::errc::result_out_of_range || e > kHuge) e = kHuge;
    exponent += negativeExponent ? -e : e;
  }
  const double magnitude = exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return negative ? -magnitude : magnitude;
}
#endif

}  // namespace

#ifndef GB_HAVE_FAST_FLOAT
const char* parseDouble(const char* p, const char* end, double& value) {
  const char* s = p;
  if (s != end && *s == '+') {  // from_chars rejects a leading '+', people write it
    ++s;
    if (s != end && *s == '-') return p;  // "+-1": from_chars would take the '-'
  }
  const auto result = std::from_chars(s, end, value);
  if (result.ec == std::errc::invalid_argument) return p;
  if (result.ec == std::errc::result_out_of_range) value = outOfRangeValue(s, result.ptr);
  return result.ptr;
}
#endif

QuoteEnd scanQuoted(const char*& p, const char* end, bool eof, bool allowLineBreak, std::string& text, long& lineBreaks,
                    bool backslashQuote) {
  const char* s = p + 1;
  text.clear();
  lineBreaks = 0;
  char previous = 0;
  for (;;) {
    if (s == end) return eof ? QuoteEnd::Unterminated : QuoteEnd::NeedMore;
    const char ch = *s++;
    if (ch == '\\' && backslashQuote) {
      if (s == end && !eof) return QuoteEnd::NeedMore;  // could be the first half of \"
      if (s != end && *s == '"') {
        text += '"';
        previous = '"';
        ++s;
        continue;
      }
    }
    if (ch == '"') {
      if (s == end && !eof) return QuoteEnd::NeedMore;  // could be the first half of ""
      if (s != end && *s == '"') {
        text += '"';
        previous = '"';
        ++s;
        continue;
      }
      p = s;
      return QuoteEnd::Closed;
    }
    if (isLineBreakByte(ch)) {
      if (!allowLineBreak) return QuoteEnd::LineBreak;
      lineBreaks += ch == '\r' || previous != '\r';  // the '\n' of "\r\n" is no second break
    }
    text += ch;
    previous = ch;
  }
}

QuoteEnd scanAfterQuote(const char*& p, const char* end, bool eof, char delimiter, std::string& text) {
  const char* s = p;
  std::string part;
  long lineBreaks = 0;
  while (s != end && *s != delimiter && !isLineBreakByte(*s)) {
    if (*s != '"') {
      text += *s++;
      continue;
    }
    if (const QuoteEnd e = scanQuoted(s, end, eof, false, part, lineBreaks); e != QuoteEnd::Closed) return e;
    text += part;
  }
  if (s == end && !eof) return QuoteEnd::NeedMore;
  p = s;
  return QuoteEnd::Closed;
}

// A quote opens a quoted field only at the start of a field (RFC 4180), so a stray quote inside a name cannot
// swallow the lines after it. With spaceDelimits (read.table's sep = ""), a run of spaces and tabs between two
// fields is one separator and blanks at either end of the line separate nothing; commas and semicolons are text.
HeaderScan scanHeaderLine(const char* p, const char* end, bool eof, bool spaceDelimits) {
  HeaderScan scan;
  bool inQuotes = false, fieldStart = true;
  bool inField = false, gap = false;  // spaceDelimits: a field has begun on the line; blanks followed it
  // A quoted field closed and only spaces since: a quote now opens the next field (write.table's "y" "x,2", whose
  // comma inside quotes was counted as a delimiter).
  bool afterQuoted = false;
  for (const char* s = p; s != end; ++s) {
    const char ch = *s;
    if (inQuotes) {
      if (ch == '\\' && spaceDelimits && s + 1 != end && s[1] == '"') {  // \" inside quotes (write.table)
        ++s;
        continue;
      }
      if (ch != '"') continue;
      if (s + 1 == end && !eof) return scan;  // "" or a closing quote: the next block tells
      if (s + 1 != end && s[1] == '"') {
        ++s;
      } else {
        inQuotes = false;
        afterQuoted = true;
      }
    } else if (isLineBreakByte(ch)) {
      const int length = lineBreakAt(s, end, eof);
      if (length < 0) return scan;  // "\r" or "\r\n": the next block tells
      scan.end = s;
      scan.breakLength = length;
      return scan;
    } else if (spaceDelimits && isBlankByte(ch)) {
      gap = gap || inField;
      fieldStart = true;
    } else if (!spaceDelimits && (ch == ',' || ch == ';' || ch == '\t')) {
      scan.commas += ch == ',';
      scan.semicolons += ch == ';';
      scan.tabs += ch == '\t';
      fieldStart = true;
    } else if (!spaceDelimits && ch == ' ' && afterQuoted) {
      fieldStart = true;
    } else {
      scan.spaces += gap;
      gap = false;
      inField = true;
      afterQuoted = false;
      if (ch == '"' && fieldStart) {
        inQuotes = true;
        fieldStart = false;
      } else if (ch != ' ') {
        fieldStart = false;
      }
    }
  }
  if (eof) scan.end = end;
  return scan;
}

}  // namespace gb::csv

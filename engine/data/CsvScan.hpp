#pragma once
// Internal scanners of the CSV reader: numbers, quoted fields, line breaks and the header line. They work on
// a buffer [p, end) that may stop inside a row; `eof` says whether more bytes can follow.
#include <string>
#include <system_error>

#ifdef GB_HAVE_FAST_FLOAT
#include <fast_float/fast_float.h>
#endif

namespace gb::csv {

// Parses a number at [p, end); returns the end of the number, or p when there is none. Locale-independent.
// A value beyond the range of a double reads as +-inf (overflow) or +-0 (underflow). Inline with fast_float: it
// is most of the time of reading a table of numbers, and a call per cell costs.
#ifdef GB_HAVE_FAST_FLOAT
inline const char* parseDouble(const char* p, const char* end, double& value) {
  const char* s = p;
  if (s != end && *s == '+') {  // from_chars rejects a leading '+', people write it
    ++s;
    if (s != end && *s == '-') return p;  // "+-1": from_chars would take the '-'
  }
  const auto result = fast_float::from_chars(s, end, value);
  if (result.ec == std::errc::invalid_argument) return p;
  return result.ptr;
}
#else
const char* parseDouble(const char* p, const char* end, double& value);
#endif

// Length of the line break at p: 1 for "\n" or a lone "\r" (old Mac files), 2 for "\r\n", 0 for none,
// -1 when the buffer ends in a '\r' that the next block may pair with a '\n'.
inline int lineBreakAt(const char* p, const char* end, bool eof) {
  if (p == end) return 0;
  if (*p == '\n') return 1;
  if (*p != '\r') return 0;
  if (p + 1 == end) return eof ? 1 : -1;
  return p[1] == '\n' ? 2 : 1;
}

inline bool isLineBreakByte(char ch) { return ch == '\n' || ch == '\r'; }

// A blank between fields where they are separated by spaces (read.table's sep = ""): a space or a tab.
inline bool isBlankByte(char ch) { return ch == ' ' || ch == '\t'; }

// How one delimiter splits a line, for CsvParser and the chunked reader alike. Delimiter ' ' reads as read.table's
// sep = "": a run of spaces and tabs is one delimiter, blanks at either end of a line are none. Elsewhere spaces and
// tabs around a cell are trimmed (a tab only where it is not the delimiter).
class DelimiterRules {
 public:
  explicit DelimiterRules(char delimiter = ',') : delimiter_(delimiter) {}
  bool blankDelimits() const { return delimiter_ == ' '; }
  bool isSpace(char ch) const { return !blankDelimits() && (ch == ' ' || (ch == '\t' && delimiter_ != '\t')); }
  bool isDelimiterByte(char ch) const { return ch == delimiter_ || (blankDelimits() && ch == '\t'); }
  const char* skipBlanks(const char* p, const char* end) const {
    if (blankDelimits())
      while (p != end && isBlankByte(*p)) ++p;
    return p;
  }

 protected:
  char delimiter_;
};

enum class QuoteEnd { Closed, NeedMore, Unterminated, LineBreak };

// p is at an opening quote. On Closed, p is past the closing quote and `text` holds the unescaped content
// ("" stands for one quote). `lineBreaks` counts the line breaks inside ("\r\n" once; only allowed in the header).
// backslashQuote: \" stands for one quote too (R's write.table writes it so; read.table reads it so where fields
// are separated by spaces); any other backslash is kept, as read.table keeps it.
QuoteEnd scanQuoted(const char*& p, const char* end, bool eof, bool allowLineBreak, std::string& text, long& lineBreaks,
                    bool backslashQuote = false);

// R's read.csv reads on after the closing quote of a cell's quoted part: the text after it belongs to the cell, and a
// quote there opens quoting again ("a"b"c" is abc; write.table(sep = ",")'s "say \"hi\"" is say \hi\, as R reads
// it). p is just after a closing quote; on Closed, the cell's further text is appended to `text` and p is on the
// delimiter (`delimiter`) or line break that ends the cell.
QuoteEnd scanAfterQuote(const char*& p, const char* end, bool eof, char delimiter, std::string& text);

// Where the header line starting at p ends (its line break outside quotes) and how often each candidate
// delimiter occurs outside quotes. end is null when the buffer ends first.
struct HeaderScan {
  const char* end = nullptr;
  int breakLength = 0;  // of the line break at end: 0 at the end of the file
  long commas = 0, semicolons = 0, tabs = 0;
  long spaces = 0;  // counted only by a scan with spaceDelimits: the runs of blanks between two fields
};

// spaceDelimits: scan as read.table's sep = "" reads (R's write.table writes single spaces by default): a run of
// spaces and tabs outside quotes separates two fields; commas, semicolons and tabs are then not counted.
HeaderScan scanHeaderLine(const char* p, const char* end, bool eof, bool spaceDelimits = false);

}  // namespace gb::csv

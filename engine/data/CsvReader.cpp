#include "data/CsvReader.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string_view>
#include <utility>

#include "data/CsvChunked.hpp"
#include "data/CsvEncoding.hpp"
#include "data/CsvParser.hpp"

namespace gb {

namespace csv {

void CsvParser::refill(const char* keep) {
  if (progress_ && !progress_(in_.offsetOf(keep), in_.fileSize())) throw Error("cancelled");
  in_.refill(keep);
  p_ = in_.data();
}

// Blanks around a cell's content: spaces and tabs in every mode, as type.convert reads " 4" (write.table's quoted
// format()ed numbers: in a space-separated file too, where isSpace is false because blanks delimit).
std::string_view CsvParser::trim(const char* b, const char* e) const {
  while (b != e && isBlankByte(*b)) ++b;
  while (e != b && (isBlankByte(e[-1]) || e[-1] == '\r')) --e;
  return {b, static_cast<std::size_t>(e - b)};
}

// End of the unquoted field starting at p: the next delimiter, line break or the buffer's end.
const char* CsvParser::fieldEnd(const char* p, const char* end) const {
  while (p != end && !isDelimiterByte(*p) && !isLineBreakByte(*p)) ++p;
  return p;
}

CsvParser::Row CsvParser::nextField(const char*& p, const char* end, bool eof) const {
  if (!blankDelimits()) {
    if (p == end || *p != delimiter_) return Row::End;
    ++p;
    return Row::Done;
  }
  const char* const s = skipBlanks(p, end);
  if (s == end && !eof) return Row::NeedMore;
  if (s == p) return Row::End;  // no blank: the caller says what follows
  p = s;
  return s == end || isLineBreakByte(*s) ? Row::End : Row::Done;
}

CsvParser::Row CsvParser::tooManyFields(const char* rowStart, const char* end, bool eof) const {
  if (blankDelimits()) {
    const HeaderScan scan = scanHeaderLine(rowStart, end, eof, true);
    if (scan.end == nullptr) return Row::NeedMore;
    fail(line_, names_.size() + 1,
         "too many fields: " + std::to_string(scan.spaces + 1) + " in this row, " + fieldsExpected());
  }
  // Counted as the cells are read: a quote opens a quoted cell only at the cell's start (after blanks); elsewhere
  // (a"b) it is a character of the cell. Inside quotes "" is a quote and the cell goes on.
  std::size_t fields = 1;
  bool inQuotes = false, atCellStart = true;
  const char* s = rowStart;
  for (; s != end && (inQuotes || !isLineBreakByte(*s)); ++s) {
    if (inQuotes) {
      if (*s == '"' && s + 1 != end && s[1] == '"')
        ++s;
      else if (*s == '"')
        inQuotes = false;
      continue;
    }
    if (*s == delimiter_) {
      ++fields;
      atCellStart = true;
    } else if (*s == '"' && atCellStart) {
      inQuotes = true;
      atCellStart = false;
    } else if (!isSpace(*s)) {
      atCellStart = false;
    }
  }
  if (s == end && !eof) return Row::NeedMore;
  fail(line_, names_.size() + 1, "too many fields: " + std::to_string(fields) + " in this row, " + fieldsExpected());
}

// The text of the cell of column c at p as written: an unquoted cell with its blanks (R's read.csv keeps them,
// strip.white = FALSE: " a" is a level of its own), a quoted cell's unescaped content. Leaves p on the delimiter or
// line break after the cell.
CsvParser::Row CsvParser::cellText(const char*& p, const char* end, bool eof, std::size_t c, std::string_view& text,
                                   bool& quoted) {
  const char* s = p;
  while (s != end && isSpace(*s)) ++s;
  quoted = s != end && *s == '"';
  if (!quoted) {
    const char* e = fieldEnd(s, end);
    if (e == end && !eof) return Row::NeedMore;
    text = std::string_view(p, static_cast<std::size_t>(e - p));
    p = e;
    return Row::Done;
  }
  long lineBreaks = 0;
  auto failUnlessClosed = [&](QuoteEnd e) {
    if (e == QuoteEnd::Unterminated) fail(line_, c + 1, column(c) + ": unterminated quote");
    if (e == QuoteEnd::LineBreak)
      fail(line_, c + 1,
           column(c) +
               ": unterminated quote on its line (a line break inside a quoted text cell, as write.csv "
               "writes one, or a quote never closed): cells across lines are not read; replace the line "
               "breaks in text cells (in R: x <- gsub(\"\\n\", \" \", x)) or close the quote");
    return e == QuoteEnd::NeedMore;
  };
  if (failUnlessClosed(scanQuoted(s, end, eof, false, quoted_, lineBreaks, delimiter_ == ' '))) return Row::NeedMore;
  const char* const afterQuote = s;
  while (s != end && isSpace(*s)) ++s;
  if (s == end && !eof) return Row::NeedMore;
  if (s != end && !isDelimiterByte(*s) && !isLineBreakByte(*s)) {
    if (blankDelimits()) fail(line_, c + 1, column(c) + ": unexpected text after the closing quote");
    s = afterQuote;  // as R reads it, blanks and all
    if (failUnlessClosed(scanAfterQuote(s, end, eof, delimiter_, quoted_))) return Row::NeedMore;
  }
  text = quoted_;
  p = s;
  return Row::Done;
}

// A cell that is not a plain number: missing, a quoted number, a decimal comma in a ';' file (R's write.csv2, as
// read.csv2 reads it), or text (which makes the whole column text). As R's read.csv reads it:
// - in a text column only NA (quoted or not, no blanks) is missing: "", " ", "NaN" and " a" are levels;
// - in a numeric column a blank field, NA and NaN are missing and a padded number is a number, " NaN " included
//   (type.convert); blanks inside quotes count there too, so "NA " makes a numeric column text.
// A missing cell other than NA in a numeric column is read again as a level if the column turns text.
double CsvParser::cellValue(std::size_t c, std::string_view text, bool quoted) {
  if (modes_[c] == CellMode::Skip || text == "NA") return kMissing;
  if (modes_[c] == CellMode::Number) {
    const std::string_view trimmed = trim(text);
    if (trimmed.empty() || isMissingText(quoted ? text : trimmed)) {
      levelBefore_[c] = 1;
      return kMissing;
    }
    double value = 0;
    if (parseDouble(trimmed.data(), trimmed.data() + trimmed.size(), value) == trimmed.data() + trimmed.size() ||
        (delimiter_ == ';' && parsesWithDecimalComma(trimmed, value))) {
      if (std::isnan(value)) {
        levelBefore_[c] = 1;
        return kMissing;
      }
      if (!std::isfinite(value)) noteInfinite(c, trimmed);
      return value;
    }
    text_->add(c, values_->rows(), line_, levelBefore_[c] != 0 || values_->anyNumber(c));
    modes_[c] = CellMode::Text;
  }
  return textCode(c, text);
}

double CsvParser::textCode(std::size_t c, std::string_view text) {
  TextLevels& levels = *text_->find(c);
  bool isNew = false;
  const double code = text_->code(levels, text, isNew);
  if (!isNew) return code;
  const std::string problem = textProblem(text);
  if (!problem.empty()) fail(line_, c + 1, column(c) + ": " + quotedForMessage(text) + ": " + problem);
  double value = 0;
  if (levels.decimalCommaLine == 0 && parsesWithDecimalComma(trim(text), value)) {
    levels.decimalCommaLine = line_;
    levels.decimalCommaText = std::string(text);
  }
  return code;
}

void CsvParser::noteInfinite(std::size_t c, std::string_view text) {
  if (firstInfinite_.count(c) == 0) firstInfinite_.emplace(c, Cell{line_, std::string(text)});
}

// Parses the cell of column c at p into value; leaves p on the delimiter or line break after it. A plain number
// in a numeric column takes the fast path; anything else goes through the cell's text.
CsvParser::Row CsvParser::parseCell(const char*& p, const char* end, bool eof, std::size_t c, double& value) {
  const char* const fieldStart = p;
  if (modes_[c] == CellMode::Number) {
    while (p != end && isSpace(*p)) ++p;
    const char* numberEnd = parseDouble(p, end, value);
    if (numberEnd != p) {
      p = numberEnd;
      while (p != end && isSpace(*p)) ++p;
      if (p == end && !eof) return Row::NeedMore;
      const int lineBreak = lineBreakAt(p, end, eof);
      if (lineBreak < 0) return Row::NeedMore;
      if (p == end || isDelimiterByte(*p) || lineBreak > 0) {
        if (!std::isfinite(value)) [[unlikely]] {
          if (std::isnan(value)) {
            value = kMissing;
            levelBefore_[c] = 1;  // "NaN": a level if the column turns text
          } else
            noteInfinite(c, trim(fieldStart, p));
        }
        return Row::Done;
      }
    }
    p = fieldStart;
  }
  return parseOtherCell(p, end, eof, c, value);
}

// Kept out of line: the numeric fast path above stays small where it is inlined into parseRow.
CsvParser::Row CsvParser::parseOtherCell(const char*& p, const char* end, bool eof, std::size_t c, double& value) {
  std::string_view text;
  bool quoted = false;
  if (cellText(p, end, eof, c, text, quoted) == Row::NeedMore) return Row::NeedMore;
  value = cellValue(c, text, quoted);
  return Row::Done;
}

// Parses one data row into slots[c][slot]. Returns NeedMore whenever the row may continue past the buffer,
// before judging it: every error is raised on a complete field.
CsvParser::Row CsvParser::parseRow(double* const* slots, std::size_t slot) {
  const char* p = p_;
  const char* const end = in_.end();
  const bool eof = in_.eof();
  if (blankDelimits()) {  // blanks before the first field; a line of blanks alone is a blank line (read.table)
    p = skipBlanks(p, end);
    if (p == end && !eof) return Row::NeedMore;
  }
  if (p == end) return eof ? Row::End : Row::NeedMore;
  const int blank = lineBreakAt(p, end, eof);
  if (blank < 0) return Row::NeedMore;
  if (blank > 0) {
    if (firstBlankLine_ == 0) firstBlankAfterCr_ = lastBreakWasLoneCr_ && blank == 2;
    lastBreakWasLoneCr_ = blank == 1 && *p == '\r';
    p_ = p + blank;
    return Row::Blank;
  }
  if (firstBlankLine_ != 0) fail(firstBlankLine_, 1, blankLineMessage(names_.size(), firstBlankAfterCr_));
  const std::size_t cols = names_.size();
  for (std::size_t c = 0; c < cols; ++c) {
    double value;
    if (parseCell(p, end, eof, c, value) == Row::NeedMore) return Row::NeedMore;
    slots[c][slot] = value;
    if (c + 1 < cols) {
      const Row next = nextField(p, end, eof);
      if (next == Row::Done) continue;
      if (next == Row::NeedMore) return Row::NeedMore;
      fail(line_, c + 2,
           "too few fields: " + std::to_string(c + 1) + " in this row, " + fieldsExpected() + " (" + column(c + 1) +
               " is missing)");
    }
  }
  if (const Row next = nextField(p, end, eof); next != Row::End) {
    if (next == Row::NeedMore) return Row::NeedMore;
    return tooManyFields(p_, end, eof);
  }
  const int lineBreak = lineBreakAt(p, end, eof);
  if (lineBreak < 0) return Row::NeedMore;
  if (lineBreak == 0 && p != end) fail(line_, cols, column(cols - 1) + ": unexpected text");  // cells end at one
  lastBreakWasLoneCr_ = lineBreak == 1 && *p == '\r';
  p_ = p + lineBreak;
  return Row::Done;
}

// Reads rows into the sink (ensureRoom, slots, filled, commitRow, rows) until maxRows or the end of the file.
template <class Sink>
void CsvParser::readRows(Sink& sink, std::size_t maxRows) {
  while (sink.rows() < maxRows) {
    sink.ensureRoom();
    const Row row = parseRow(sink.slots(), sink.filled());
    if (row == Row::End) break;
    if (row == Row::NeedMore) {
      if (static_cast<std::size_t>(in_.end() - p_) >= maxRowBytes_)
        fail(line_, 1, "line longer than " + std::to_string(maxRowBytes_ >> 20) + " MiB (a file without line breaks?)");
      refill(p_);
      continue;
    }
    if (row == Row::Blank && firstBlankLine_ == 0) firstBlankLine_ = line_;
    if (row == Row::Done) sink.commitRow();
    ++line_;
  }
}

// After the header: fresh text columns, every column read as numbers until a cell says otherwise, R's row names
// skipped.
void CsvParser::startRows() {
  ownText_ = std::make_unique<TextColumns>(names_.size());
  text_ = ownText_.get();
  modes_.assign(names_.size(), CellMode::Number);
  levelBefore_.assign(names_.size(), 0);
  if (rowLabels_) modes_[0] = CellMode::Skip;
}

Dataset CsvParser::read(std::size_t maxRows) {
  skipBomAndCheckNotEmpty();
  readHeader();
  startRows();
  ColumnChunks values(names_.size());
  values_ = &values;
  readRows(values, maxRows);
  if (values.rows() == 0 && maxRows > 0) fail(line_, 1, "no data rows (only a header line)");
  checkNumericColumns();
  checkDecimalCommas();
  if (progress_ && !progress_(in_.offsetOf(p_), in_.fileSize())) throw Error("cancelled");
  values_ = nullptr;
  Dataset data;
  data.source = path_;
  data.decimalComma = delimiter_ == ';';
  data.columns = values.assemble();
  rereadTexts(data);
  data.names = std::move(names_);
  text_->finish(data);
  readLogicalColumns(data);
  if (rowLabels_) dropRowLabels(data);
  return data;
}

// The second pass, when columns turned text after rows of numbers: their first rows are read again as texts.
// Progress stays where the first pass ended (it must not go back), and cancelling still works.
void CsvParser::rereadTexts(Dataset& data) {
  const std::size_t rows = text_->rowsToReread();
  if (rows == 0) return;
  const std::shared_ptr<const Spool> spool = in_.spool();
  if (!in_.regularFile() && !spool) {
    for (std::size_t c = 0; c < names_.size(); ++c)
      if (const TextLevels* levels = text_->find(c); levels && levels->numbersBefore)
        fail(levels->firstTextLine, c + 1,
             column(c) +
                 ": text after rows of numbers or of empty or NaN cells (levels in a text column), whose texts "
                 "need a second reading, and no temporary file could keep the pipe's bytes for it ($TMPDIR or "
                 "/tmp full or missing); read from a file instead");
  }
  const std::uint64_t done = in_.offsetOf(p_);
  CsvProgress held;
  if (progress_) held = [this, done](std::uint64_t, std::uint64_t total) { return progress_(done, total); };
  if (spool)
    CsvParser(path_, options_, blockBytes_, held, text_, spool).reread(rows, data.columns);
  else
    CsvParser(path_, options_, blockBytes_, held, text_).reread(rows, data.columns);
}

void CsvParser::reread(std::size_t rows, std::vector<std::vector<double>>& columns) {
  skipBomAndCheckNotEmpty();
  readHeader();
  enterRange();
  std::vector<double> scratch(rows);  // where the cells of the other columns go
  std::vector<double*> slots(names_.size(), scratch.data());
  modes_.assign(names_.size(), CellMode::Skip);
  for (std::size_t c = 0; c < names_.size(); ++c) {
    const TextLevels* levels = text_->find(c);
    if (!levels || !levels->numbersBefore) continue;
    modes_[c] = CellMode::Text;
    slots[c] = columns[c].data();
  }
  struct Sink {
    const std::vector<double*>& columns;
    std::size_t filled_ = 0;
    void ensureRoom() {}
    double* const* slots() const { return columns.data(); }
    std::size_t filled() const { return filled_; }
    std::size_t rows() const { return filled_; }
    void commitRow() { ++filled_; }
  } sink{slots};
  readRows(sink, rows);
}

// "N in the header", or for a header one name short of the rows (write.table's row names) what the rows hold.
std::string CsvParser::fieldsExpected() const {
  const std::string n = std::to_string(names_.size());
  return shortHeader_ ? n + " in each row, as in the first (R's row names, then the header's " +
                            std::to_string(names_.size() - 1) + " columns)"
                      : n + " in the header";
}

void CsvParser::dropRowLabels(Dataset& data) const {
  data.names.erase(data.names.begin());
  data.columns.erase(data.columns.begin());
  data.kinds.erase(data.kinds.begin());
  data.levels.erase(data.levels.begin());
  data.rowLabelsNote = rowLabelsNote(shortHeader_);
}

void CsvParser::enterRange() {
  if (!inRange_) return;
  in_.restart(range_.begin, range_.end);
  p_ = in_.data();
  line_ = range_.firstLine;
  lastBreakWasLoneCr_ = range_.afterLoneCr;
}

CsvParser::PartSummary CsvParser::readPart(const Range& range, Dataset& data) {
  inRange_ = true;
  range_ = range;
  skipBomAndCheckNotEmpty();
  readHeader();
  enterRange();
  startRows();
  ColumnChunks values(names_.size());
  values_ = &values;
  PartSummary part;
  try {
    readRows(values, std::numeric_limits<std::size_t>::max());
  } catch (const InputError& e) {
    part.error = e.what();
  }
  values_ = nullptr;
  part.rows = values.rows();
  part.endLine = line_;
  if (part.error.empty()) {
    part.trailingBlankLine = firstBlankLine_;
    part.trailingBlankAfterCr = firstBlankAfterCr_;
  }
  const std::size_t cols = names_.size();
  part.text.assign(cols, 0);
  part.infiniteLine.assign(cols, 0);
  part.infiniteText.assign(cols, {});
  part.decimalCommaLine.assign(cols, 0);
  part.decimalCommaText.assign(cols, {});
  for (std::size_t c = 0; c < cols; ++c) {
    part.text[c] = modes_[c] == CellMode::Text ? 1 : 0;
    if (const auto it = firstInfinite_.find(c); it != firstInfinite_.end()) {
      part.infiniteLine[c] = it->second.line;
      part.infiniteText[c] = it->second.text;
    }
    if (const TextLevels* levels = text_->find(c)) {
      part.decimalCommaLine[c] = levels->decimalCommaLine;
      part.decimalCommaText[c] = levels->decimalCommaText;
    }
  }
  data.source = path_;
  data.decimalComma = delimiter_ == ';';
  data.columns = values.assemble();
  return part;
}

void CsvParser::finishPart(const std::vector<char>& text, Dataset& data) {
  const std::size_t rows = data.rows();
  for (std::size_t c = 0; c < names_.size(); ++c) {
    if (!text[c] || modes_[c] != CellMode::Number) continue;
    // Text elsewhere in the file: this part's numbers are levels too ("1.50" as written), read again as texts.
    const std::vector<double>& x = data.columns[c];
    const bool numbers = std::any_of(x.begin(), x.end(), [](double v) { return !std::isnan(v); });
    text_->add(c, rows, range_.firstLine, numbers || levelBefore_[c] != 0);
    modes_[c] = CellMode::Text;
  }
  if (const std::size_t again = text_->rowsToReread(); again > 0) {
    const CsvProgress none;
    CsvParser second(path_, options_, blockBytes_, none, text_);
    second.inRange_ = true;
    second.range_ = range_;
    second.reread(again, data.columns);
  }
  text_->finish(data);
  data.names = names_;
  if (rowLabels_) dropRowLabels(data);
}

}  // namespace csv

namespace {
std::atomic<std::uint64_t> readCount{0};
}  // namespace

std::uint64_t csvReadCount() { return readCount.load(); }

namespace {

Dataset withNotes(Dataset data) {
  data.textColumnsNote = mostlyNumbersNote(data);
  return data;
}

}  // namespace

Dataset readCsv(const std::string& path, const CsvOptions& options, const CsvProgress& progress) {
  ++readCount;
  constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();
  if (options.chunkBytes == 0) return withNotes(csv::CsvParser(path, options, options.blockBytes, progress).read(kAll));
  // When the chunked read gives up, the one-thread read starts again from the top: progress holds where it was.
  std::uint64_t shown = 0;
  CsvProgress held;
  if (progress)
    held = [&](std::uint64_t done, std::uint64_t total) {
      shown = std::max(shown, done);
      return progress(shown, total);
    };
  if (auto data = csv::readCsvChunked(path, options, held)) return withNotes(std::move(*data));
  return withNotes(csv::CsvParser(path, options, options.blockBytes, held).read(kAll));
}

Dataset readCsvHead(const std::string& path, std::size_t maxRows, const CsvOptions& options) {
  // Small blocks: a preview must not read a large file to its end.
  const CsvProgress none;
  return csv::CsvParser(path, options, std::min(options.blockBytes, csv::kHeadBlockBytes), none).read(maxRows);
}

}  // namespace gb

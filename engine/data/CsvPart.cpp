#include "data/CsvPart.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "data/CsvChunkRows.hpp"
#include "data/CsvParser.hpp"

namespace gb {

namespace {

using csv::CsvParser;

// Texts packed into one ("<length>:<bytes>" each) for ShardReducer::allGatherText: any bytes survive.
std::string pack(const std::vector<std::string>& texts) {
  std::string out;
  for (const std::string& t : texts) out += std::to_string(t.size()) + ":" + t;
  return out;
}

std::vector<std::string> unpack(const std::string& packed) {
  std::vector<std::string> texts;
  for (std::size_t at = 0; at < packed.size();) {
    const std::size_t colon = packed.find(':', at);
    const std::size_t length = std::stoull(packed.substr(at, colon - at));
    texts.push_back(packed.substr(colon + 1, length));
    at = colon + 1 + length;
  }
  return texts;
}

std::string packSummary(const CsvParser::PartSummary& s) {
  std::vector<std::string> fields{std::to_string(s.rows), std::to_string(s.endLine), s.error,
                                  std::to_string(s.trailingBlankLine), s.trailingBlankAfterCr ? "1" : "0"};
  for (std::size_t c = 0; c < s.text.size(); ++c) {
    fields.push_back(s.text[c] ? "1" : "0");
    fields.push_back(std::to_string(s.infiniteLine[c]));
    fields.push_back(s.infiniteText[c]);
    fields.push_back(std::to_string(s.decimalCommaLine[c]));
    fields.push_back(s.decimalCommaText[c]);
  }
  return pack(fields);
}

CsvParser::PartSummary unpackSummary(const std::string& packed) {
  const std::vector<std::string> f = unpack(packed);
  CsvParser::PartSummary s;
  s.rows = std::stoull(f.at(0));
  s.endLine = std::stol(f.at(1));
  s.error = f.at(2);
  s.trailingBlankLine = std::stol(f.at(3));
  s.trailingBlankAfterCr = f.at(4) == "1";
  for (std::size_t at = 5; at + 5 <= f.size(); at += 5) {
    s.text.push_back(f[at] == "1" ? 1 : 0);
    s.infiniteLine.push_back(std::stol(f[at + 1]));
    s.infiniteText.push_back(f[at + 2]);
    s.decimalCommaLine.push_back(std::stol(f[at + 3]));
    s.decimalCommaText.push_back(f[at + 4]);
  }
  return s;
}

// The first line start at or after `at` in the data [from, size) of the file: `at` itself when a line starts there,
// else just past the next line break ("\r\n" as one).
std::uint64_t lineStartAtOrAfter(const char* file, std::uint64_t from, std::uint64_t size, std::uint64_t at) {
  if (at <= from) return from;
  if (at >= size) return size;
  const char before = file[at - 1];
  if (before == '\n' || (before == '\r' && file[at] != '\n')) return at;
  const char* p = std::find_if(file + at, file + size, csv::isLineBreakByte);
  if (p == file + size) return size;
  return static_cast<std::uint64_t>(p - file) + ((*p == '\r' && p + 1 != file + size && p[1] == '\n') ? 2 : 1);
}

// Where part p of `parts` starts: byte p S / N of the data (S bytes from `from`), moved on to a line start.
std::uint64_t partStart(const csv::MappedFile& file, std::uint64_t from, int p, int parts) {
  const std::uint64_t bytes = file.size() - from, n = static_cast<std::uint64_t>(parts);
  const std::uint64_t at =
      from + bytes / n * static_cast<std::uint64_t>(p) + bytes % n * static_cast<std::uint64_t>(p) / n;
  return lineStartAtOrAfter(file.data(), from, file.size(), at);
}

// Every process reads the whole file and keeps its share of the rows (sizes differing by at most one).
Dataset wholeFileShare(const std::string& path, ShardReducer& group, const CsvOptions& options, std::uint64_t fileBytes,
                       CsvPartInfo& info) {
  Dataset data = readCsv(path, options);
  const std::size_t n = data.rows(), parts = static_cast<std::size_t>(group.processes());
  const std::size_t p = static_cast<std::size_t>(group.process());
  const std::size_t first = n * p / parts, last = n * (p + 1) / parts;
  for (std::vector<double>& column : data.columns)
    column = std::vector<double>(column.begin() + static_cast<std::ptrdiff_t>(first),
                                 column.begin() + static_cast<std::ptrdiff_t>(last));
  data.firstRow = first;
  info.begin = 0;
  info.end = fileBytes;
  info.firstRow = first;
  info.rows = last - first;
  info.rowsRead = n;
  return data;
}

// The levels of every text column: the union of the parts' levels in byte order (as one reader sorts them); each
// part's codes renumbered into it.
void mergeLevels(ShardReducer& group, Dataset& data) {
  std::vector<std::size_t> textColumns;
  for (std::size_t c = 0; c < data.cols(); ++c)
    if (data.isText(c)) textColumns.push_back(c);
  if (textColumns.empty()) return;  // the same on every process: they agreed on the text columns
  std::vector<std::string> mine;
  for (std::size_t c : textColumns) mine.push_back(pack(data.levels[c]));
  std::vector<std::vector<std::string>> merged(textColumns.size());
  for (const std::string& part : group.allGatherText(pack(mine))) {
    const std::vector<std::string> columns = unpack(part);
    for (std::size_t k = 0; k < textColumns.size(); ++k) {
      const std::vector<std::string> levels = unpack(columns.at(k));
      merged[k].insert(merged[k].end(), levels.begin(), levels.end());
    }
  }
  for (std::size_t k = 0; k < textColumns.size(); ++k) {
    std::vector<std::string>& all = merged[k];
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    const std::size_t c = textColumns[k];
    std::vector<double> code(data.levels[c].size());
    for (std::size_t l = 0; l < code.size(); ++l)
      code[l] = static_cast<double>(std::lower_bound(all.begin(), all.end(), data.levels[c][l]) - all.begin());
    for (double& v : data.columns[c])
      if (!std::isnan(v)) v = code[static_cast<std::size_t>(v)];
    data.levels[c] = std::move(all);
  }
}

// This process's part: parsed, checked with the others' summaries, its texts coded against every part's levels.
Dataset readOwnPart(const std::string& path, ShardReducer& group, const CsvOptions& options,
                    const CsvParser::Range& range) {
  const CsvProgress none;
  CsvParser parser(path, options, options.blockBytes, none);
  Dataset data;
  const CsvParser::PartSummary mine = parser.readPart(range, data);
  std::vector<CsvParser::PartSummary> parts;
  for (const std::string& packed : group.allGatherText(packSummary(mine))) parts.push_back(unpackSummary(packed));
  parser.checkParts(parts, [&](std::size_t c) {
    std::vector<std::string> texts;
    for (const std::string& part : group.allGatherText(pack(parser.partTexts(c)))) {
      const std::vector<std::string> more = unpack(part);
      texts.insert(texts.end(), more.begin(), more.end());
    }
    return texts;
  });
  std::vector<char> text(mine.text.size(), 0);
  for (const CsvParser::PartSummary& part : parts)
    for (std::size_t c = 0; c < text.size(); ++c) text[c] |= part.text.at(c);
  parser.finishPart(text, data);
  mergeLevels(group, data);
  csv::readLogicalColumns(data);  // on the merged levels, as one reader decides it
  return data;
}

}  // namespace

Dataset readCsvPart(const std::string& path, ShardReducer& group, const CsvOptions& options, CsvPartInfo* info) {
  CsvPartInfo local;
  CsvPartInfo& out = info ? *info : local;
  const csv::MappedFile file(path);
  CsvParser::Layout layout;
  std::string why;
  if (!file.data()) why = "not a regular file that can be mapped";
  if (why.empty()) try {  // a header the reader rejects: every process reads the file and reports it
      const CsvProgress none;
      layout = CsvParser(path, options, options.blockBytes, none).readLayout();
    } catch (const Error&) {
      why = "the header needs the whole-file reader";
    }
  const int p = group.process(), parts = group.processes();
  CsvParser::Range range;
  double lines = 0.0, quotes = 0.0;
  if (why.empty()) {
    range.begin = partStart(file, layout.dataOffset, p, parts);
    range.end = p + 1 == parts ? file.size() : partStart(file, layout.dataOffset, p + 1, parts);
    const char* b = file.data() + range.begin;
    const char* e = file.data() + range.end;
    lines = static_cast<double>(csv::countChunkRows(b, e));
    quotes = static_cast<double>(csv::countByte(b, e, '"'));
    range.afterLoneCr = range.begin > 0 && file.data()[range.begin - 1] == '\r';
    csv::MappedFile::release(b, e);
  }
  // Every part's line and quote counts: where its lines are numbered from, and whether a part starts inside quotes.
  const std::vector<std::vector<double>> counts = group.allGather({why.empty() ? 1.0 : 0.0, lines, quotes});
  double linesBefore = 0.0, quotesBefore = 0.0;
  for (int q = 0; q < parts && why.empty(); ++q) {
    const std::vector<double>& c = counts[static_cast<std::size_t>(q)];
    if (c.at(0) == 0.0) why = "another process cannot map the file";
    if (q > 0 && std::fmod(quotesBefore, 2.0) != 0.0)
      why = "a quoted field may span a part's start (an odd number of quotes before it)";
    if (q < p) linesBefore += c.at(1);
    quotesBefore += c.at(2);
  }
  if (!why.empty()) {
    out.wholeFile = why;
    return wholeFileShare(path, group, options, file.data() ? file.size() : 0, out);
  }
  range.firstLine = layout.dataLine + static_cast<long>(linesBefore);
  Dataset data = readOwnPart(path, group, options, range);
  const auto [before, total] = countBefore(&group, static_cast<double>(data.rows()));
  (void)total;
  data.firstRow = static_cast<std::size_t>(before);
  out.begin = range.begin;
  out.end = range.end;
  out.firstRow = data.firstRow;
  out.rows = out.rowsRead = data.rows();
  return data;
}

}  // namespace gb

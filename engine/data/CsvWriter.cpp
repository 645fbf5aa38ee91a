#include "data/CsvWriter.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/Error.hpp"
#include "common/ParallelErrors.hpp"
#include "data/OutputFiles.hpp"

namespace gb {

namespace {

// Quoted when reading it back would otherwise change it (delimiters, quotes, line breaks, edge spaces); an empty
// name is quoted too, so that a header keeps its column.
void appendField(std::string& out, const std::string& text, bool quoteEmpty) {
  const bool needsQuotes =
      text.empty() ? quoteEmpty
                   : text.find_first_of(",;\t\"\r\n") != std::string::npos || text.front() == ' ' || text.back() == ' ';
  if (!needsQuotes) {
    out += text;
    return;
  }
  out += '"';
  for (const char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

void appendName(std::string& out, const std::string& name) { appendField(out, name, true); }

}  // namespace

std::string csvField(const std::string& text) {
  std::string out;
  appendField(out, text, false);
  return out;
}

void checkWritable(const std::string& path, const std::string& option) {
  OutputFiles outputs;
  outputs.addOutput(path, option);
}

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  OutputFiles outputs;
  outputs.addOutput(path, {});
  outputs.write(path, write);
  outputs.commit();
}

void writeCsvHeader(std::ostream& out, const std::vector<std::string>& names) {
  std::string line;
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (c > 0) line += ',';
    appendName(line, names[c]);
  }
  line += '\n';
  out.write(line.data(), static_cast<std::streamsize>(line.size()));
}

namespace {

// Rows [first, last) as CSV text appended to text.
void formatRows(std::string& text, const std::vector<std::vector<double>>& columns, std::size_t first,
                std::size_t last) {
  char number[32];
  for (std::size_t r = first; r < last; ++r) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) text += ',';
      const double v = columns[c][r];
      if (std::isnan(v)) {  // a missing value, written as R's write.csv writes it (read back as missing here too)
        text += "NA";
        continue;
      }
      // Shortest text that reads back to the same double (at most 17 significant digits), '.' always.
      const auto result = std::to_chars(number, number + sizeof number, v);
      text.append(number, result.ptr);
    }
    text += '\n';
  }
}

}  // namespace

void writeCsvRows(std::ostream& out, const std::vector<std::vector<double>>& columns, std::size_t rows) {
  for (const auto& column : columns)
    if (column.size() < rows) throw Error("writeCsvRows: a column shorter than the rows to write");
  // Formatting numbers is the slow part (the disk takes ~1 GB/s, to_chars ~100 MB/s per core): row ranges are
  // formatted on all cores into their own buffers, then written in order. Pieces of about 64k values keep each
  // buffer near a megabyte.
  constexpr std::size_t kValuesPerPiece = std::size_t{1} << 16;
  const std::size_t cols = std::max<std::size_t>(1, columns.size());
  const std::size_t rowsPerPiece = std::max<std::size_t>(1, kValuesPerPiece / cols);
  const std::size_t pieces = (rows + rowsPerPiece - 1) / rowsPerPiece;
  constexpr std::size_t kPiecesPerRound = 64;
  std::vector<std::string> text(std::min(pieces, kPiecesPerRound));
  for (std::size_t round = 0; round < pieces; round += kPiecesPerRound) {
    const std::size_t count = std::min(kPiecesPerRound, pieces - round);
    ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) if (count > 1)
    for (std::size_t i = 0; i < count; ++i) {
      errors.run([&] {
        const std::size_t first = (round + i) * rowsPerPiece;
        text[i].clear();
        formatRows(text[i], columns, first, std::min(rows, first + rowsPerPiece));
      });
    }
    errors.rethrow();
    for (std::size_t i = 0; i < count; ++i) out.write(text[i].data(), static_cast<std::streamsize>(text[i].size()));
  }
}

void writeCsv(std::ostream& out, const Dataset& data) {
  if (data.names.size() != data.cols())
    throw Error("writeCsv: " + std::to_string(data.names.size()) + " names for " + std::to_string(data.cols()) +
                " columns");
  for (const auto& column : data.columns)
    if (column.size() != data.rows()) throw Error("writeCsv: columns of different lengths");
  writeCsvHeader(out, data.names);
  writeCsvRows(out, data.columns, data.rows());
}

void writeCsv(const std::string& path, const Dataset& data) {
  writeFileAtomically(path, [&data](std::ostream& out) { writeCsv(out, data); });
}

}  // namespace gb

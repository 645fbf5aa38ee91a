// libFuzzer harness for the CSV reader (gb::readCsv, gb::readCsvHead).
//
// Input: one options byte, then the file's bytes. The options byte picks
//   bits 0-1  the delimiter: detected, ',', ';' or tab;
//   bits 2-4  the block size: 16 (the reader's minimum), 17, 31, 64, 100, 4096, 65536 bytes or the default,
//             so that small blocks put fields, quotes, CRLF pairs and the BOM across block edges;
//   bits 5-6  readCsv, readCsvHead with 0 rows (header only), 1 row or 3 rows;
//   bit  7    a progress callback that cancels on its second call (readCsv only).
// Documented errors (gb::InputError, gb::Error for a cancel) are fine; anything else is a finding, as is a
// broken property of a successful read: numeric values finite or NaN (missing), text columns holding codes of
// sorted unique levels, names unique and non-empty, columns of equal length, and the same outcome and table
// whatever the block size (and readCsvHead a prefix of readCsv: the same numbers, the same texts), and the same
// table or error message from the chunked reader (chunks of the block size, 3 threads) as from the one-thread one.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <string_view>

#include "FuzzSupport.hpp"
#include "common/Error.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvScan.hpp"
#include "data/CsvText.hpp"

namespace {

constexpr std::size_t kBlocks[8] = {16, 17, 31, 64, 100, 4096, 65536, gb::CsvOptions{}.blockBytes};
constexpr char kDelimiters[4] = {0, ',', ';', '\t'};

// A read's outcome: the table, or the kind of documented error.
struct Outcome {
  std::optional<gb::Dataset> data;
  bool cancelled = false;
  std::string error;  // an InputError's message
};

void checkTable(const gb::Dataset& d, std::size_t minRows, std::size_t maxRows) {
  GBFUZZ_CHECK(d.cols() >= 1, "a table without columns");
  GBFUZZ_CHECK(d.names.size() == d.columns.size(), "names and columns differ in number");
  std::set<std::string> seen;
  for (const std::string& name : d.names) {
    GBFUZZ_CHECK(!name.empty(), "an empty column name");
    GBFUZZ_CHECK(seen.insert(name).second, "a duplicate column name: " + name);
  }
  const std::size_t rows = d.columns.front().size();
  GBFUZZ_CHECK(rows >= minRows && rows <= maxRows, "row count " + std::to_string(rows) + " out of range");
  GBFUZZ_CHECK(d.kinds.size() == d.cols() && d.levels.size() == d.cols(), "kinds or levels not one per column");
  for (std::size_t c = 0; c < d.cols(); ++c) {
    GBFUZZ_CHECK(d.columns[c].size() == rows, "columns of unequal length");
    const std::vector<std::string>& levels = d.levels[c];
    GBFUZZ_CHECK(d.isText(c) != levels.empty(), "levels on a numeric column, or a text column without any");
    for (std::size_t k = 1; k < levels.size(); ++k) GBFUZZ_CHECK(levels[k - 1] < levels[k], "levels not sorted");
    for (double v : d.columns[c]) {
      if (std::isnan(v)) continue;
      GBFUZZ_CHECK(std::isfinite(v), "an infinite value in " + d.names[c]);
      GBFUZZ_CHECK(!d.isText(c) || (v >= 0 && v < static_cast<double>(levels.size()) && v == std::floor(v)),
                   "a text code out of range in " + d.names[c]);
    }
  }
}

// The cell of column c in row r as text: the level, the number's bits, or "NA".
std::string cellOf(const gb::Dataset& d, std::size_t c, std::size_t r) {
  const double v = d.columns[c][r];
  if (std::isnan(v)) return "NA";
  if (d.isText(c)) return "text " + d.levels[c][static_cast<std::size_t>(v)];
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);  // bitwise: -0.0 and 0.0 differ too
  return "number " + std::to_string(bits);
}

// Whether a level of a text column is a cell that a numeric column reads as missing: blank, or a spelling of NaN
// (R's read.csv: "", " " and "NaN" are missing as numbers, levels as texts; only NA is missing in both).
bool missingAsNumber(std::string_view level) {
  const std::size_t first = level.find_first_not_of(" \t"), last = level.find_last_not_of(" \t");
  if (first == std::string_view::npos) return true;
  const std::string_view t = level.substr(first, last - first + 1);
  double value = 0;
  if (gb::csv::parseDouble(t.data(), t.data() + t.size(), value) == t.data() + t.size() && std::isnan(value))
    return true;
  return gb::csv::parsesWithDecimalComma(t, value) && std::isnan(value);
}

// Whether a text column's levels are those R's logical spellings became (readLogicalColumns): FALSE and TRUE.
bool logicalLevels(const std::vector<std::string>& levels) {
  return !levels.empty() &&
         std::all_of(levels.begin(), levels.end(), [](const std::string& l) { return l == "FALSE" || l == "TRUE"; });
}

// A head whose rows hold only R's logical spellings (T, F, TRUE, FALSE, blanks) makes the column logical, while
// the full read may hold other texts later ("1"), which keep every spelling a level of its own, as read.csv reads
// either file: head cell TRUE is full T or TRUE, FALSE is F or FALSE, and NA is NA or a blank level.
bool sameLogicalCell(const gb::Dataset& head, const gb::Dataset& full, std::size_t c, std::size_t r) {
  const double h = head.columns[c][r], f = full.columns[c][r];
  if (std::isnan(f)) return std::isnan(h);
  const std::string& spelled = full.levels[c][static_cast<std::size_t>(f)];
  if (std::isnan(h)) return spelled.find_first_not_of(" \t") == std::string::npos;
  const std::string& logical = head.levels[c][static_cast<std::size_t>(h)];
  return logical == "TRUE" ? spelled == "T" || spelled == "TRUE" : spelled == "F" || spelled == "FALSE";
}

// `head` has the first rows of `full` (all of them when head is also a full read). A column may be numeric in
// the head and text in the full read (its text comes later): then a number stays a level (not missing), NA stays
// missing, and a cell missing as a number may be a level (blank or NaN) in the text column. A column may be
// logical in the head and text in the full read (sameLogicalCell).
void checkPrefix(const gb::Dataset& head, const gb::Dataset& full, const char* what) {
  GBFUZZ_CHECK(head.names == full.names, std::string(what) + ": column names differ");
  GBFUZZ_CHECK(head.rows() <= full.rows(), std::string(what) + ": more rows");
  GBFUZZ_CHECK(head.rowLabelsNote == full.rowLabelsNote, std::string(what) + ": row labels differ");
  for (std::size_t c = 0; c < full.cols(); ++c) {
    GBFUZZ_CHECK(!head.isText(c) || full.isText(c), std::string(what) + ": text in the head, numeric in full");
    const bool comparable = head.isText(c) == full.isText(c);
    const bool logicalInHeadOnly =
        comparable && head.isText(c) && logicalLevels(head.levels[c]) && !logicalLevels(full.levels[c]);
    for (std::size_t r = 0; r < head.rows(); ++r) {
      if (logicalInHeadOnly) {
        GBFUZZ_CHECK(sameLogicalCell(head, full, c, r), std::string(what) + ": a logical cell differs");
        continue;
      }
      if (comparable) {
        GBFUZZ_CHECK(cellOf(head, c, r) == cellOf(full, c, r), std::string(what) + ": values differ");
        continue;
      }
      const double h = head.columns[c][r], f = full.columns[c][r];
      GBFUZZ_CHECK(std::isnan(f) ? std::isnan(h)
                                 : !std::isnan(h) || missingAsNumber(full.levels[c][static_cast<std::size_t>(f)]),
                   std::string(what) + ": a cell's missingness differs between the numeric and the text column");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static gbfuzz::MemFile file;
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  file.assign(data + 1, size - 1);
  const std::string& path = file.path();

  gb::CsvOptions options;
  options.delimiter = kDelimiters[mode & 3];
  options.blockBytes = kBlocks[(mode >> 2) & 7];
  const int reader = (mode >> 5) & 3;  // 0, 1: readCsv; 2, 3, ...: readCsvHead
  const bool cancel = (mode & 0x80) != 0;

  // Progress: bytesDone never decreases and never passes bytesTotal; optionally cancels on the second call.
  std::uint64_t lastDone = 0;
  int calls = 0;
  const gb::CsvProgress progress = [&](std::uint64_t done, std::uint64_t total) {
    GBFUZZ_CHECK(done >= lastDone, "progress went backwards");
    GBFUZZ_CHECK(done <= total, "progress past the file size");
    GBFUZZ_CHECK(total == size - 1, "progress total is not the file size");
    lastDone = done;
    return !(cancel && ++calls >= 2);
  };

  auto read = [&](const gb::CsvOptions& o, bool withProgress, std::size_t headRows, bool head) {
    Outcome out;
    try {
      out.data = head ? gb::readCsvHead(path, headRows, o) : gb::readCsv(path, o, withProgress ? progress : nullptr);
    } catch (const gb::InputError& e) {
      gbfuzz::checkMessage(e.what(), path + ":");
      out.error = e.what();
    } catch (const gb::Error& e) {
      // readCsv documents one plain gb::Error: "cancelled", when the progress callback says stop.
      GBFUZZ_CHECK(withProgress && cancel && calls >= 2, std::string("gb::Error without a cancel: ") + e.what());
      out.cancelled = true;
    }
    return out;
  };

  static constexpr std::size_t kHeadRows[4] = {0, 0, 1, 3};
  const bool head = reader >= 2;
  const Outcome first = read(options, true, kHeadRows[reader], head);
  if (first.cancelled) return 0;
  if (first.data) {
    if (head)
      checkTable(*first.data, 0, kHeadRows[reader]);
    else
      checkTable(*first.data, 1, static_cast<std::size_t>(-1));
  }

  // The block size must not change the outcome: read again with the default blocks, no progress.
  gb::CsvOptions plain = options;
  plain.blockBytes = gb::CsvOptions{}.blockBytes;
  const Outcome second = read(plain, false, kHeadRows[reader], head);
  GBFUZZ_CHECK(first.data.has_value() == second.data.has_value(),
               "the block size changed whether the read succeeded (block " + std::to_string(options.blockBytes) + ")");
  if (first.data) {
    GBFUZZ_CHECK(first.data->rows() == second.data->rows(), "the block size changed the row count");
    checkPrefix(*first.data, *second.data, "the block size changed the table");
  }

  // The chunked reader must give the one-thread reader's table, or its error message.
  if (!head) {
    gb::CsvOptions serial = plain, chunked = plain;
    serial.chunkBytes = 0;
    chunked.chunkBytes = options.blockBytes;
    chunked.threads = 3;
    const Outcome one = read(serial, false, 0, false), many = read(chunked, false, 0, false);
    GBFUZZ_CHECK(one.data.has_value() == many.data.has_value() && one.error == many.error,
                 "the chunked reader differs: " + one.error + " | " + many.error);
    if (one.data) {
      GBFUZZ_CHECK(one.data->rows() == many.data->rows() && one.data->kinds == many.data->kinds,
                   "the chunked reader changed the rows or kinds");
      checkPrefix(*many.data, *one.data, "the chunked reader changed the table");
    }
  }

  // A head read is a prefix of the full read whenever the full read succeeds.
  if (head) {
    const Outcome full = read(plain, false, 0, false);
    if (full.data) {
      // An infinite number is an error in a numeric column, a level in a text one: a head that stops before a
      // column's first text fails where the full read succeeds.
      bool anyText = false;
      for (std::size_t c = 0; c < full.data->cols(); ++c) anyText = anyText || full.data->isText(c);
      GBFUZZ_CHECK(first.data.has_value() || anyText, "readCsvHead failed on a file readCsv accepts");
      if (!first.data) return 0;
      GBFUZZ_CHECK(first.data->rows() == std::min(full.data->rows(), kHeadRows[reader]), "readCsvHead row count");
      checkPrefix(*first.data, *full.data, "readCsvHead is not a prefix of readCsv");
    }
  }
  return 0;
}

// The chunked, multi-threaded readCsv (CsvOptions::chunkBytes, threads) against the one-thread reader: the same
// table bit for bit, or the same error message (file:line:column), on random files; progress and cancelling.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <bit>
#include <cstdio>
#include <fstream>
#include <optional>
#include <random>
#include <thread>

#include "common/Error.hpp"
#include "data/CsvChunkRows.hpp"
#include "data/CsvChunked.hpp"
#include "data/CsvReader.hpp"
#include "data/OffsetReader.hpp"
#include "support/TestSupport.hpp"

namespace {

// A read's outcome: the table, or the error message.
struct Outcome {
  std::optional<gb::Dataset> data;
  std::string error;
};

Outcome readWith(const std::string& path, std::size_t chunkBytes, int threads) {
  gb::CsvOptions options;
  options.chunkBytes = chunkBytes;
  options.threads = threads;
  Outcome out;
  try {
    out.data = gb::readCsv(path, options);
  } catch (const gb::InputError& e) {
    out.error = e.what();
  }
  return out;
}

// Empty when equal, else what differs.
std::string difference(const gb::Dataset& a, const gb::Dataset& b) {
  if (a.source != b.source || a.names != b.names || a.rowLabelsNote != b.rowLabelsNote) return "names or source";
  if (a.kinds != b.kinds || a.levels != b.levels) return "kinds or levels";
  if (a.columns.size() != b.columns.size()) return "column count";
  for (std::size_t c = 0; c < a.columns.size(); ++c) {
    if (a.columns[c].size() != b.columns[c].size()) return "rows of column " + std::to_string(c);
    for (std::size_t r = 0; r < a.columns[c].size(); ++r)
      if (std::bit_cast<std::uint64_t>(a.columns[c][r]) != std::bit_cast<std::uint64_t>(b.columns[c][r]))
        return "value at column " + std::to_string(c) + " row " + std::to_string(r);
  }
  return {};
}

std::string difference(const Outcome& serial, const Outcome& chunked) {
  if (serial.data.has_value() != chunked.data.has_value())
    return "one read failed: " + serial.error + " | " + chunked.error;
  if (!serial.data)
    return serial.error == chunked.error ? "" : "errors differ: " + serial.error + " | " + chunked.error;
  return difference(*serial.data, *chunked.data);
}

// Random CSV text, delimited by ',', ';', tabs or spaces: single ones (R's write.table) or runs of spaces and tabs,
// with blanks at the ends of lines too (a table aligned by hand). Plain files hold only numbers and missing cells (the
// chunked path reads them itself); others get one thing the one-thread reader must judge: a text or quoted cell, a
// blank line, an infinite value, a ragged row, a quoted line break, a decimal comma.
class RandomCsv {
 public:
  explicit RandomCsv(unsigned seed) : rng_(seed) {}

  std::string make(bool plain) {
    delimiter_ = ",;\t "[pick(4)];  // ' ': R's write.table at its defaults
    lineEnds_ = static_cast<int>(pick(4));
    const std::size_t cols = 1 + pick(5);
    const bool labels = pick(4) == 0;
    const std::size_t rows = pick(3) == 0 ? pick(4) : pick(300);
    std::string text = pick(5) == 0 ? "\xEF\xBB\xBF" : "";
    if (labels) text += pick(2) ? "\"\"" : "";
    text += edgeBlanks();
    for (std::size_t c = 0; c < cols; ++c) {
      if (labels || c > 0) text += separator();
      text += pick(3) == 0 ? "\"c " + std::to_string(c) + "\"" : "c" + std::to_string(c);
    }
    text += lineEnd();
    const std::size_t oddRow = plain ? rows : pick(rows + 1);
    for (std::size_t r = 0; r < rows; ++r) {
      if (r == oddRow) text += oddLine(cols, labels);
      text += edgeBlanks();
      if (labels) text += pick(2) ? "\"" + std::to_string(r + 1) + "\"" : std::to_string(r + 1);
      for (std::size_t c = 0; c < cols; ++c) {
        if (labels || c > 0) text += separator();
        text += cell(cols == 1 && !labels);
      }
      text += edgeBlanks();
      if (r + 1 < rows || pick(4) != 0) text += lineEnd();
    }
    if (!plain && oddRow == rows) text += lineEnd() + lineEnd();  // blank lines at the end are fine
    return text;
  }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

  std::string lineEnd() {
    static const char* const kEnds[3] = {"\n", "\r\n", "\r"};
    return kEnds[lineEnds_ < 3 ? lineEnds_ : static_cast<int>(pick(3))];
  }

  // Between fields: the delimiter, or where spaces delimit, one space (mostly) or a run of spaces and tabs.
  std::string separator() {
    if (delimiter_ != ' ' || pick(3) != 0) return std::string(1, delimiter_);
    std::string run;
    for (std::size_t i = 0, n = 1 + pick(4); i < n; ++i) run += " \t"[pick(4) == 0];
    return run;
  }

  // Blanks at the start or end of a line, which separate nothing where spaces delimit.
  std::string edgeBlanks() { return delimiter_ == ' ' && pick(8) == 0 ? std::string(1 + pick(3), ' ') : ""; }

  std::string cell(bool onlyField) {
    char buffer[40];
    switch (pick(12)) {
      case 0:
        return "NA";
      case 1:  // where spaces delimit, there is no empty cell (two spaces are one delimiter)
        return onlyField || delimiter_ == ' ' ? "NaN" : "";
      case 2:
        if (delimiter_ == ' ') return std::to_string(static_cast<long>(pick(2000)) - 1000);
        return " " + std::to_string(static_cast<long>(pick(2000)) - 1000) + " ";
      case 3:
        return "+" + std::to_string(pick(100)) + "e-3";
      case 4:
        return "-0";
      case 5:
        return "4.9e-324";
      case 6:
        return "1e-400";
      default:
        std::snprintf(buffer, sizeof buffer, "%.17g", std::normal_distribution<double>(0, 1e3)(rng_));
        return buffer;
    }
  }

  // A line before a data row that is not plain (it may be an error, or turn a column into text).
  std::string oddLine(std::size_t cols, bool labels) {
    std::string first;
    switch (pick(8)) {
      case 0:
        first = "abc";
        break;
      case 1:
        first = "\"2.5\"";
        break;
      case 2:
        return lineEnd();  // a blank line before more data
      case 3:
        first = "Inf";
        break;
      case 4:
        first = "\"a" + lineEnd() + "b\"";
        break;
      case 5:
        first = "2,5";
        break;
      case 6:
        first = "x\x01";
        break;
      default:
        cols += 1;
        first = "1";
        break;  // one field too many
    }
    std::string line = labels ? "\"odd\"" : "";
    for (std::size_t c = 0; c < cols; ++c) {
      if (labels || c > 0) line += delimiter_;
      line += c == 0 ? first : std::string("1");
    }
    if (pick(3) == 0 && cols > 1) line.resize(line.rfind(delimiter_));  // ragged: one field too few
    return line + lineEnd();
  }

  std::mt19937_64 rng_;
  char delimiter_ = ',';
  int lineEnds_ = 0;
};

}  // namespace

class TestCsvChunked : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_{QString::fromStdString(gbtest::scratchRoot() + "/csv-chunked-XXXXXX")};
  int fileCounter_ = 0;

  std::string writeFile(const std::string& content) {
    const std::string path = dir_.path().toStdString() + "/in" + std::to_string(fileCounter_++) + ".csv";
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  // Reads path with the one-thread reader and with chunks of several sizes on 1 to 3 threads; all must agree.
  void compareAll(const std::string& path, unsigned seed) {
    const Outcome serial = readWith(path, 0, 1);
    for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{300}, std::size_t{8} << 20})
      for (int threads = 1; threads <= 3; ++threads) {
        const std::string diff = difference(serial, readWith(path, chunk, threads));
        QVERIFY2(diff.empty(), qPrintable(QString("seed %1, chunk %2, threads %3: %4")
                                              .arg(seed)
                                              .arg(chunk)
                                              .arg(threads)
                                              .arg(QString::fromStdString(diff))));
      }
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // Plain files: the chunked path reads them itself (no fallback), and exactly as the one-thread reader does.
  void plainFilesReadAsTheSerialReaderDoes() {
    for (unsigned seed = 1; seed <= 120; ++seed) {
      const std::string path = writeFile(RandomCsv(seed).make(true));
      compareAll(path, seed);
      const Outcome serial = readWith(path, 0, 1);
      if (!serial.data) continue;  // a header without rows: an error either way
      gb::CsvOptions options;
      options.chunkBytes = 16;
      options.threads = 2;
      QVERIFY2(gb::csv::readCsvChunked(path, options, {}).has_value(), qPrintable(QString("seed %1").arg(seed)));
    }
    qInfo("random seeds 1 to 120");
  }

  // Files with a text cell, an error or a blank line somewhere: the same table or the same message.
  void otherFilesReadAsTheSerialReaderDoes() {
    for (unsigned seed = 1001; seed <= 1160; ++seed) compareAll(writeFile(RandomCsv(seed).make(false)), seed);
    qInfo("random seeds 1001 to 1160");
  }

  void tinyFiles() {
    for (const char* text : {"a\n1", "a\n1\n", "a,b\n", "a,b", "a\r1\r2", "\"\",x\n\"r\",2\n", "a\n\n", "a\nNA\n",
                             "a;b\n1;2\n", "a\tb\r\n1\t2\r\n", "a,b\n1,2,\n", "a\n1e999\n"})
      compareAll(writeFile(text), 0);
  }

  // Errors past the first chunk carry their own line; of two, the first in the file is reported.
  void errorsInLaterChunks() {
    std::string content = "y,x\n";
    for (int r = 0; r < 400; ++r)
      content += r == 150 ? "1,2,3\n" : r == 300 ? "4\n" : std::to_string(r) + "," + std::to_string(r * 0.5) + "\n";
    const std::string path = writeFile(content);
    const Outcome chunked = readWith(path, 64, 2);
    QVERIFY(!chunked.data);
    QVERIFY2(chunked.error.find(path + ":152:") == 0, chunked.error.c_str());
    QCOMPARE(chunked.error, readWith(path, 0, 1).error);
    compareAll(path, 0);
  }

  // Progress comes from the calling thread only, never goes back, and ends at the file size; also when a late
  // text cell sends the file to the one-thread reader. With one thread every chunk reports; with more, thread 0
  // (the caller) reports the chunks it parses, however many the scheduler gives it.
  void progressFromTheCallingThread() {
    std::string content = "y,x\n";
    for (int r = 0; r < 100000; ++r) content += std::to_string(r) + ",0.5\n";
    for (int threads : {1, 2})
      for (const std::string& tail : {std::string(), std::string("1,abc\n")}) {
        const std::string path = writeFile(content + tail);
        gb::CsvOptions options;
        options.chunkBytes = 4096;
        options.threads = threads;
        std::vector<std::uint64_t> done;
        const auto caller = std::this_thread::get_id();
        bool sameThread = true, rightTotal = true;
        const gb::Dataset data = gb::readCsv(path, options, [&](std::uint64_t bytes, std::uint64_t total) {
          rightTotal = rightTotal && total == content.size() + tail.size();
          sameThread = sameThread && std::this_thread::get_id() == caller;
          done.push_back(bytes);
          return true;
        });
        QCOMPARE(data.rows(), std::size_t{tail.empty() ? 100000u : 100001u});
        QVERIFY(sameThread);
        QVERIFY(rightTotal);
        if (threads == 1 && tail.empty())
          QVERIFY2(done.size() > content.size() / 4096, qPrintable(QString::number(done.size())));
        QVERIFY(std::is_sorted(done.begin(), done.end()));
        QCOMPARE(done.back(), static_cast<std::uint64_t>(content.size() + tail.size()));
      }
  }

  void cancelStopsAllThreads() {
    std::string content = "y,x\n";
    for (int r = 0; r < 3000; ++r) content += std::to_string(r) + ",0.5\n";
    const std::string path = writeFile(content);
    for (int threads : {1, 2}) {
      gb::CsvOptions options;
      options.chunkBytes = 256;
      options.threads = threads;
      int calls = 0;
      const int stopAt = threads == 1 ? 3 : 1;  // with 2, thread 0 may parse no chunk: its first call may be the last
      try {
        gb::readCsv(path, options, [&](std::uint64_t, std::uint64_t) { return ++calls < stopAt; });
        QFAIL("cancelling did not throw");
      } catch (const gb::InputError&) {
        QFAIL("cancelling is not an input error");
      } catch (const gb::Error& e) {
        QCOMPARE(std::string(e.what()), std::string("cancelled"));
      }
      QCOMPARE(calls, stopAt);
    }
  }

  void chunksEndAtLineEnds() {
    const std::string text = "1\r\n22\r333\n4444\r\n";
    const auto chunks = gb::csv::splitAtLineEnds(text.data(), text.data() + text.size(), 2);
    std::vector<std::string> pieces;
    for (const auto& [b, e] : chunks) pieces.emplace_back(b, e);
    QCOMPARE(pieces, (std::vector<std::string>{"1\r\n", "22\r", "333\n", "4444\r\n"}));
    // A cut between "\r" and "\n" moves past the pair.
    const auto cut = gb::csv::splitAtLineEnds(text.data(), text.data() + text.size(), 1);
    QCOMPARE(std::string(cut.front().first, cut.front().second), std::string("1\r\n"));
  }

  // countChunkRows' vectorised count against a byte-by-byte one: random lengths up to 3 of its 4080-byte blocks,
  // from no line breaks to nothing else (every byte lane at its most, 255), at every alignment.
  void rowsCountedByteByByte() {
    const unsigned seed = 7;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 400; ++trial) {
      const std::size_t length = std::uniform_int_distribution<std::size_t>(1, 3 * 4080 + 40)(rng);
      const double share = trial % 4 == 0 ? 1.0 : std::uniform_real_distribution<double>(0.0, 1.0)(rng);
      std::string text(length + 15, 'x');
      std::bernoulli_distribution lineBreak(share);
      for (char& ch : text) ch = lineBreak(rng) ? '\n' : '7';
      const std::size_t offset = static_cast<std::size_t>(trial) % 16;
      const char* b = text.data() + offset;
      const char* e = b + length;
      const std::size_t expected = static_cast<std::size_t>(std::count(b, e, '\n')) + (e[-1] != '\n');
      QVERIFY2(gb::csv::countChunkRows(b, e) == expected,
               qPrintable(QString("seed %1, trial %2, length %3").arg(seed).arg(trial).arg(length)));
    }
  }

  // The chunked reader's reads (pread, not the mapping): bytes at any offset, the buffer grown when a chunk is
  // longer, and false (the one-thread reader then takes the file) where the file holds fewer bytes than asked for.
  void offsetReadsGiveTheFilesBytes() {
    std::string content;
    for (int i = 0; i < 5000; ++i) content += static_cast<char>('a' + i % 26);
    const std::string path = writeFile(content);
    const gb::csv::OffsetReader reader(path);
    QVERIFY(reader.isOpen());
    gb::csv::ReadBuffer buffer;
    for (const auto& [offset, length] :
         std::vector<std::pair<std::size_t, std::size_t>>{{0, 10}, {4990, 10}, {123, 4000}, {7, 3}, {0, 5000}}) {
      QVERIFY(reader.read(offset, length, buffer));
      QVERIFY(buffer.capacity >= length);
      QCOMPARE(std::string(buffer.bytes.get(), length), content.substr(offset, length));
    }
    QVERIFY(!reader.read(4990, 11, buffer));
    QVERIFY(!reader.read(6000, 1, buffer));
    QVERIFY(!gb::csv::OffsetReader(dir_.path().toStdString() + "/no such file").isOpen());
    QVERIFY(!gb::csv::OffsetReader(dir_.path().toStdString()).isOpen());  // a directory
  }

  void readsAreCounted() {
    const std::uint64_t before = gb::csvReadCount();
    const std::string path = writeFile("a\n1\n");
    gb::readCsv(path);
    gb::readCsvHead(path, 1);  // a preview is not a read of the table
    QCOMPARE(gb::csvReadCount(), before + 1);
  }
};

QTEST_APPLESS_MAIN(TestCsvChunked)
#include "test_csv_chunked.moc"

// readCsv / readCsvHead on well-formed input: formats people write, block edges, progress and cancelling.
// Malformed input is in test_csv_errors.cpp.
#include <sys/resource.h>
#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>
#include <bit>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <thread>

#include "common/Error.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "support/TestSupport.hpp"

namespace {

bool bitwiseEqual(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i])) return false;
  return true;
}

}  // namespace

class TestCsv : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_{QString::fromStdString(gbtest::scratchRoot() + "/csv-XXXXXX")};
  int fileCounter_ = 0;

  std::string writeFile(const std::string& content) {
    const std::string path = dir_.path().toStdString() + "/in" + std::to_string(fileCounter_++) + ".csv";
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  // A table with awkward values: denormals, signed zero, extremes, values that need all 17 digits.
  static gb::Dataset awkwardTable(std::size_t rows, unsigned seed) {
    std::mt19937_64 rng(seed);
    gb::Dataset data;
    data.names = {"y", "x1", "x 2", "big", "tiny"};
    data.columns.resize(data.names.size());
    for (std::size_t r = 0; r < rows; ++r) {
      data.columns[0].push_back(std::bit_cast<double>(rng() >> 2));  // arbitrary bit patterns, finite
      data.columns[1].push_back(static_cast<double>(rng() >> 11) * 0x1.0p-53);
      data.columns[2].push_back(r % 2 ? -0.0 : 0.1 * static_cast<double>(r));
      data.columns[3].push_back(r % 3 ? std::numeric_limits<double>::max() : -1e300 / static_cast<double>(r + 1));
      data.columns[4].push_back(r % 2 ? std::numeric_limits<double>::denorm_min() * static_cast<double>(r)
                                      : std::numeric_limits<double>::min());
    }
    return data;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    qInfo("scratch directory: %s", qPrintable(dir_.path()));
  }

  void roundTripIsBitwiseExact() {
    const unsigned seed = 20240611;
    qInfo("random seed %u", seed);
    const gb::Dataset written = awkwardTable(3000, seed);
    const std::string path = dir_.path().toStdString() + "/roundtrip.csv";
    gb::writeCsv(path, written);
    const gb::Dataset read = gb::readCsv(path);
    QCOMPARE(read.names, written.names);
    QCOMPARE(read.source, path);
    QCOMPARE(read.rows(), written.rows());
    for (std::size_t c = 0; c < written.cols(); ++c)
      QVERIFY2(bitwiseEqual(read.columns[c], written.columns[c]), written.names[c].c_str());
  }

  void delimiters_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<char>("forced");  // 0: detect
    QTest::newRow("comma") << "a,b,c\n1,2,3\n4,5,6\n" << '\0';
    QTest::newRow("semicolon") << "a;b;c\n1;2;3\n4;5;6\n" << '\0';
    QTest::newRow("tab") << "a\tb\tc\n1\t2\t3\n4\t5\t6\n" << '\0';
    QTest::newRow("semicolon, commas in a quoted name") << "a;\"b,x,y\";c\n1;2;3\n4;5;6\n" << '\0';
    QTest::newRow("forced semicolon") << "a;b;c\n1;2;3\n4;5;6\n" << ';';
  }
  void delimiters() {
    QFETCH(QString, text);
    QFETCH(char, forced);
    gb::CsvOptions options;
    options.delimiter = forced;
    const gb::Dataset data = gb::readCsv(writeFile(text.toStdString()), options);
    QCOMPARE(data.cols(), std::size_t{3});
    QCOMPARE(data.names[0], std::string("a"));
    QCOMPARE(data.names[2], std::string("c"));
    QCOMPARE(data.columns[0], (std::vector<double>{1, 4}));
    QCOMPARE(data.columns[1], (std::vector<double>{2, 5}));
    QCOMPARE(data.columns[2], (std::vector<double>{3, 6}));
  }

  void quotedFields() {
    const gb::Dataset data =
        gb::readCsv(writeFile("\"y\",\"x \"\"one\"\"\", \"a,b\" \n\"1.5\", \" 2 \" ,3\n-4,\"+5e-1\",\"6\"\n"));
    QCOMPARE(data.names, (std::vector<std::string>{"y", "x \"one\"", "a,b"}));
    QCOMPARE(data.columns[0], (std::vector<double>{1.5, -4}));
    QCOMPARE(data.columns[1], (std::vector<double>{2, 0.5}));
    QCOMPARE(data.columns[2], (std::vector<double>{3, 6}));
  }

  // A quote opens a quoted field only at the field's start: one inside a name is a character of the name.
  void strayQuoteInsideAName() {
    const gb::Dataset data = gb::readCsv(writeFile("we\"ird,x\n1,2\n3,4\n"));
    QCOMPARE(data.names, (std::vector<std::string>{"we\"ird", "x"}));
    QCOMPARE(data.rows(), std::size_t{2});
  }

  void lineEndingsBomAndSpacing_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("LF") << QByteArray("y,x\n1,2\n3,4\n");
    QTest::newRow("CRLF") << QByteArray("y,x\r\n1,2\r\n3,4\r\n");
    QTest::newRow("no trailing newline") << QByteArray("y,x\n1,2\n3,4");
    QTest::newRow("CRLF, no trailing newline") << QByteArray("y,x\r\n1,2\r\n3,4");
    QTest::newRow("UTF-8 BOM") << QByteArray("\xEF\xBB\xBFy,x\r\n1,2\r\n3,4\r\n");
    QTest::newRow("spaces around numbers and names") << QByteArray(" y , x \n  1 ,2  \n3,   4\n");
    QTest::newRow("trailing blank lines") << QByteArray("y,x\n1,2\n3,4\n\n\r\n\n");
    QTest::newRow("number forms") << QByteArray("y,x\n+1.0,.2e1\n3.,4E0\n");
    QTest::newRow("more number forms") << QByteArray("y,x\n+1,+.2e+1\n\"+3\",0.04e+2\n");
    QTest::newRow("bare CR (old Mac)") << QByteArray("y,x\r1,2\r3,4\r");
    QTest::newRow("bare CR, no trailing newline") << QByteArray("y,x\r1,2\r3,4");
    QTest::newRow("bare CR, quoted cells") << QByteArray("\"y\",\"x\"\r\"1\",\"2\"\r3,\"4\"\r");
    QTest::newRow("bare CR, trailing blank lines") << QByteArray("y,x\r1,2\r3,4\r\r\r");
    QTest::newRow("mixed line ends") << QByteArray("y,x\r\n1,2\r3,4\n\r\n\r");
    QTest::newRow("UTF-8 BOM, bare CR") << QByteArray("\xEF\xBB\xBFy,x\r1,2\r3,4\r");
    QTest::newRow("semicolons, bare CR") << QByteArray("y;x\r1;2\r3;4\r");
  }
  void lineEndingsBomAndSpacing() {
    QFETCH(QByteArray, text);
    const std::string path = writeFile(text.toStdString());
    // Small blocks put a block edge between every '\r' and the byte after it somewhere in the file.
    for (const std::size_t block : {std::size_t{1} << 20, std::size_t{16}, std::size_t{17}, std::size_t{18}}) {
      gb::CsvOptions options;
      options.blockBytes = block;
      const gb::Dataset data = gb::readCsv(path, options);
      QCOMPARE(data.names, (std::vector<std::string>{"y", "x"}));
      QCOMPARE(data.columns[0], (std::vector<double>{1, 3}));
      QCOMPARE(data.columns[1], (std::vector<double>{2, 4}));
    }
  }

  // Out of the range of a double: an overflow is an error (test_csv_errors), an underflow is zero.
  void underflowReadsAsZero() {
    const gb::Dataset data = gb::readCsv(writeFile("y,x\n1e-400,-1e-400\n\"0.0000001e-320\",4.9e-324\n"));
    QCOMPARE(data.columns[0], (std::vector<double>{0, 0}));
    QVERIFY(std::signbit(data.columns[1][0]));
    QCOMPARE(data.columns[1][1], std::numeric_limits<double>::denorm_min());
  }

  // Names are UTF-8: any character but control characters, tabs included when the delimiter is not a tab.
  void unicodeAndTabsInNames() {
    const gb::Dataset data =
        gb::readCsv(writeFile("\xEF\xBB\xBF"
                              "d\xC3\xA9"
                              "bit,\"a\tb\",\xE6\xB8\xA9\xF0\x9F\x8C\xA1\n1,2,3\n"));
    QCOMPARE(data.names, (std::vector<std::string>{"d\xC3\xA9"
                                                   "bit",
                                                   "a\tb", "\xE6\xB8\xA9\xF0\x9F\x8C\xA1"}));
  }

  // A named pipe (`--data <(zcat data.csv.gz)`) has no size and arrives in pieces.
  void readsFromAPipe() {
    const std::string path = dir_.path().toStdString() + "/pipe.csv";
    QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
    std::string content = "y,x\r";
    for (int r = 0; r < 5000; ++r) content += std::to_string(r) + "," + std::to_string(2 * r) + (r % 2 ? "\r" : "\r\n");
    std::thread writer([&] { std::ofstream(path, std::ios::binary) << content; });
    gb::CsvOptions options;
    options.blockBytes = 1000;
    const gb::Dataset data = gb::readCsv(path, options);
    writer.join();
    QCOMPARE(data.rows(), std::size_t{5000});
    QCOMPARE(data.columns[1][4999], 9998.0);
  }

  // A wide header: a million columns and one row read without per-column buffers for thousands of rows.
  void millionColumns() {
    std::string header, row;
    for (int c = 0; c < 1'000'000; ++c) {
      header += (c ? ",c" : "c") + std::to_string(c);
      row += (c ? "," : "") + std::to_string(c % 10);
    }
    const gb::Dataset data = gb::readCsv(writeFile(header + "\n" + row + "\n"));
    QCOMPARE(data.cols(), std::size_t{1'000'000});
    QCOMPARE(data.rows(), std::size_t{1});
    QCOMPARE(data.names[999'999], std::string("c999999"));
    QCOMPARE(data.columns[999'999][0], 9.0);
    // The peak of the whole test process so far: the file is 14 MB, its values 8 MB.
    struct rusage usage {};
    QCOMPARE(::getrusage(RUSAGE_SELF, &usage), 0);
    QVERIFY2(usage.ru_maxrss < 1024 * 1024, qPrintable(QString("peak %1 kB").arg(usage.ru_maxrss)));
  }

  void blockEdges_data() {
    QTest::addColumn<QString>("lineEnd");
    QTest::newRow("CRLF") << "\r\n";
    QTest::newRow("bare CR") << "\r";
  }
  // Rows, quotes, CRLF pairs and numbers cut by every possible block edge must read exactly as in one block.
  void blockEdges() {
    QFETCH(QString, lineEnd);
    const unsigned seed = 7;
    qInfo("random seed %u", seed);
    std::ostringstream text;
    gb::writeCsv(text, awkwardTable(60, seed));
    const std::string content = text.str();
    // Every field of every other row quoted: block edges fall inside quotes and CRLF pairs too.
    std::string quoted;
    std::istringstream lines(content);
    std::string line;
    for (int r = 0; std::getline(lines, line); ++r) {
      if (r % 2 == 1) {
        std::string q = "\"";
        for (const char ch : line) q += ch == ',' ? std::string("\",\"") : std::string(1, ch);
        line = q + "\"";
      }
      quoted += line + lineEnd.toStdString();
    }
    const std::string path = writeFile(quoted);
    const gb::Dataset whole = gb::readCsv(path);
    QCOMPARE(whole.rows(), std::size_t{60});
    for (std::size_t block : {16, 17, 19, 23, 64, 100, 257, 1000}) {
      gb::CsvOptions options;
      options.blockBytes = block;
      const gb::Dataset pieces = gb::readCsv(path, options);
      QCOMPARE(pieces.names, whole.names);
      for (std::size_t c = 0; c < whole.cols(); ++c)
        QVERIFY2(bitwiseEqual(pieces.columns[c], whole.columns[c]), qPrintable(QString("block %1").arg(block)));
    }
  }

  void rowLongerThanTheBlock() {
    std::string header = "c0", row = "0";
    for (int c = 1; c < 500; ++c) {
      (header += ",c") += std::to_string(c);
      ((row += ',') += std::to_string(c)) += ".25";
    }
    gb::CsvOptions options;
    options.blockBytes = 64;  // each row is about 3 kB
    const gb::Dataset data = gb::readCsv(writeFile(header + "\n" + row + "\n" + row + "\n"), options);
    QCOMPARE(data.cols(), std::size_t{500});
    QCOMPARE(data.rows(), std::size_t{2});
    QCOMPARE(data.columns[499][1], 499.25);
  }

  void headReadsOnlyTheFirstRows() {
    // Row 3000 is broken: readCsv must fail there, readCsvHead must stop before it.
    std::string content = "y,x\n";
    for (int r = 0; r < 5000; ++r) content += std::to_string(r) + (r == 2998 ? ",1,oops\n" : ",1\n");
    const std::string path = writeFile(content);
    const gb::Dataset head = gb::readCsvHead(path, 10);
    QCOMPARE(head.rows(), std::size_t{10});
    QCOMPARE(head.columns[0][9], 9.0);
    QVERIFY_THROWS_EXCEPTION(gb::InputError, gb::readCsv(path));
    QCOMPARE(gb::readCsvHead(writeFile("y,x\n1,2\n3,4\n"), 100).rows(), std::size_t{2});
    // Validation applies to what the head reads.
    QVERIFY_THROWS_EXCEPTION(gb::InputError, gb::readCsvHead(path, 3500));
  }

  void progressIsReportedPerBlock() {
    std::string content = "y,x\n";
    for (int r = 0; r < 2000; ++r) content += std::to_string(r) + ",0.5\n";
    const std::string path = writeFile(content);
    gb::CsvOptions options;
    options.blockBytes = 1024;
    options.chunkBytes = 1024;  // the chunked reader reports per chunk, from the calling thread
    options.threads = 1;
    std::vector<std::uint64_t> done;
    std::uint64_t total = 0;
    gb::readCsv(path, options, [&](std::uint64_t bytes, std::uint64_t size) {
      done.push_back(bytes);
      total = size;
      return true;
    });
    QCOMPARE(total, static_cast<std::uint64_t>(content.size()));
    QVERIFY2(done.size() >= content.size() / 1024, qPrintable(QString::number(done.size())));
    QVERIFY(std::is_sorted(done.begin(), done.end()));
    QCOMPARE(done.back(), total);
  }

  void cancelStopsReading() {
    std::string content = "y,x\n";
    for (int r = 0; r < 2000; ++r) content += std::to_string(r) + ",0.5\n";
    gb::CsvOptions options;
    options.blockBytes = 1024;
    options.chunkBytes = 1024;
    options.threads = 1;  // progress comes from the calling thread: with one, each chunk reports
    int calls = 0;
    try {
      gb::readCsv(writeFile(content), options, [&](std::uint64_t, std::uint64_t) { return ++calls < 3; });
      QFAIL("cancelling did not throw");
    } catch (const gb::InputError&) {
      QFAIL("cancelling is not an input error");
    } catch (const gb::Error& e) {
      QCOMPARE(std::string(e.what()), std::string("cancelled"));
    }
    QCOMPARE(calls, 3);
  }
};

QTEST_APPLESS_MAIN(TestCsv)
#include "test_csv.moc"

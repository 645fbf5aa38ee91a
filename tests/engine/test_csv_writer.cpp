// checkWritable, writeFileAtomically and writeCsv: a failed write never leaves a half-written target or
// a temporary behind, and numbers are written so they read back exactly.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "common/Error.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "support/TestSupport.hpp"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

class TestCsvWriter : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_{QString::fromStdString(gbtest::scratchRoot() + "/csv-writer-XXXXXX")};

  std::string path(const std::string& name) const { return dir_.path().toStdString() + "/" + name; }
  QStringList entries() const { return QDir(dir_.path()).entryList(QDir::Files | QDir::NoDotAndDotDot); }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void checkWritableLeavesNothingBehind() {
    const QStringList before = entries();
    gb::checkWritable(path("result.json"), "--out");
    QCOMPARE(entries(), before);
  }

  void checkWritableNamesTheOptionAndReason() {
    const std::string target = path("missing-dir/result.json");
    try {
      gb::checkWritable(target, "--out");
      QFAIL("no error for a missing directory");
    } catch (const gb::InputError& e) {
      QCOMPARE(std::string(e.what()), "--out: " + target + ": cannot write: No such file or directory");
    }
    try {
      gb::checkWritable(dir_.path().toStdString(), "--model");
      QFAIL("no error for a directory as the target");
    } catch (const gb::InputError& e) {
      QVERIFY2(QString(e.what()).startsWith("--model: ") && QString(e.what()).contains("cannot write"), e.what());
    }
  }

  void atomicWriteReplacesTheTarget() {
    const std::string target = path("atomic.txt");
    gb::writeFileAtomically(target, [](std::ostream& out) { out << "first\n"; });
    gb::writeFileAtomically(target, [](std::ostream& out) { out << "second\n"; });
    QCOMPARE(slurp(target), std::string("second\n"));
    QCOMPARE(entries().filter("atomic.txt.tmp-").size(), 0);
  }

  void failedWriteLeavesTargetUntouched() {
    const std::string target = path("keep.txt");
    gb::writeFileAtomically(target, [](std::ostream& out) { out << "old content\n"; });
    // The writer throws half way.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, gb::writeFileAtomically(target, [](std::ostream& out) {
                               out << "half of the new";
                               throw std::runtime_error("writer failed");
                             }));
    QCOMPARE(slurp(target), std::string("old content\n"));
    // The stream goes bad (as on a full disk): detected from the stream state.
    QVERIFY_THROWS_EXCEPTION(gb::InputError, gb::writeFileAtomically(target, [](std::ostream& out) {
                               out << "partial";
                               out.setstate(std::ios::badbit);
                             }));
    QCOMPARE(slurp(target), std::string("old content\n"));
    QVERIFY(entries().contains("keep.txt"));
    QCOMPARE(entries().filter(".tmp-"), QStringList{});
  }

  void writeIntoMissingDirectoryFails() {
    const std::string target = path("nowhere/out.csv");
    try {
      gb::writeCsv(target, gb::Dataset{"", {"y"}, {{1.0}}});
      QFAIL("no error");
    } catch (const gb::InputError& e) {
      QVERIFY2(QString(e.what()).contains(QString::fromStdString(target)) && QString(e.what()).contains("cannot write"),
               e.what());
    }
  }

  void csvText() {
    gb::Dataset data;
    data.names = {"y", "x1"};
    data.columns = {{0.1, -2.5, 1e300, 5e-324}, {1.0 / 3.0, 0.0, -0.0, 123456789.0}};
    std::ostringstream out;
    gb::writeCsv(out, data);
    // Shortest round-trip text: "0.1", not 0.10000000000000001; 1/3 needs 16 digits; '.' whatever the locale.
    QCOMPARE(out.str(), std::string("y,x1\n"
                                    "0.1,0.3333333333333333\n"
                                    "-2.5,0\n"
                                    "1e+300,-0\n"
                                    "5e-324,123456789\n"));
  }

  void awkwardNamesReadBack() {
    gb::Dataset data;
    data.names = {"plain", "with,comma", "with \"quotes\"", " padded ", "semi;colon"};
    for (std::size_t c = 0; c < data.names.size(); ++c) data.columns.push_back({static_cast<double>(c), 0.5});
    const std::string target = path("names.csv");
    gb::writeCsv(target, data);
    gb::CsvOptions options;
    options.delimiter = ',';  // the detector would see more ';' than ',' only if quoting failed
    const gb::Dataset read = gb::readCsv(target, options);
    QCOMPARE(read.names, data.names);
    QCOMPARE(read.columns, data.columns);
    QCOMPARE(gb::readCsv(target).names, data.names);  // detection also finds ','
  }

  // The benchmarks' text cells (device names such as "2-thread CPU (Eigen, OpenMP)"): quoted only where needed, an
  // empty cell stays empty, and a line of them splits back into the same texts.
  void textCellsReadBack() {
    QCOMPARE(gb::csvField("plain"), std::string("plain"));
    QCOMPARE(gb::csvField(""), std::string());
    QCOMPARE(gb::csvField("a,b"), std::string("\"a,b\""));
    QCOMPARE(gb::csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
    QCOMPARE(gb::csvField("line\nbreak"), std::string("\"line\nbreak\""));
    const std::vector<std::string> texts = {"2-thread CPU (Eigen, OpenMP)", " edge", "x;y", "q\"q", "plain"};
    std::string file = "a,b,c,d,e\n";
    for (std::size_t i = 0; i < texts.size(); ++i) file += (i ? "," : "") + gb::csvField(texts[i]);
    const std::string target = path("cells.csv");
    std::ofstream(target, std::ios::binary) << file << '\n';
    gb::CsvOptions options;
    options.delimiter = ',';
    const gb::Dataset read = gb::readCsv(target, options);
    QCOMPARE(read.columns.size(), texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) QCOMPARE(read.levelsOf(i), std::vector<std::string>{texts[i]});
  }

  void inconsistentDatasetIsRejected() {
    std::ostringstream out;
    QVERIFY_THROWS_EXCEPTION(gb::Error, gb::writeCsv(out, gb::Dataset{"", {"a", "b"}, {{1.0, 2.0}, {3.0}}}));
    QVERIFY_THROWS_EXCEPTION(gb::Error, gb::writeCsv(out, gb::Dataset{"", {"a"}, {{1.0}, {3.0}}}));
  }
};

QTEST_APPLESS_MAIN(TestCsvWriter)
#include "test_csv_writer.moc"

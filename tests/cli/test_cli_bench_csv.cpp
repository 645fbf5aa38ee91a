// `gamboost bench csv` on a small generated file: the report's fields (threads, the floor measured in the same
// run and the fraction of it, CPU seconds), for the chunked and the one-thread reader. No timing is asserted.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

using namespace gbtest;
using nlohmann::json;

class CliBenchCsvTest : public QObject {
  Q_OBJECT

 private slots:
  void reportsFloorAndThreads_data() {
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<int>("threads");
    // A file of 3 chunks of 8 MiB is read by 2 threads; one of 2 MB by one thread whatever --threads says, and the
    // floor (the file's read()) is timed with as many.
    QTest::newRow("2 threads") << QStringList{"--threads", "2", "--size-mb", "20"} << 2;
    QTest::newRow("2 threads asked, one chunk") << QStringList{"--threads", "2", "--size-mb", "2"} << 1;
    QTest::newRow("one-thread reader") << QStringList{"--serial", "--size-mb", "2"} << 1;
  }
  void reportsFloorAndThreads() {
    QFETCH(QStringList, extra);
    QFETCH(int, threads);
    Scratch scratch;
    QVERIFY(scratch.isValid());
    const QString out = scratch.path("csvbench.json");
    const CliResult r =
        runGamboost(QStringList{"bench", "csv", "--reps", "2", "--scratch-dir", scratch.root(), "--out", out} + extra);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains("floor MB/s"), qPrintable(r.out));
    const QByteArray text = readFile(out);
    const json report = json::parse(text.constData(), text.constData() + text.size());
    QCOMPARE(report["threads"].get<int>(), threads);
    QCOMPARE(report["cols"].get<int>(), 101);
    QVERIFY(report["rows"].get<int>() > 500);
    QVERIFY(report["floor_megabytes_per_s"].get<double>() > 0.0);
    const double fraction = report["fraction_of_floor"].get<double>();
    QVERIFY(fraction > 0.0);
    QVERIFY(std::abs(fraction - report["floor_s"].get<double>() / report["best_s"].get<double>()) < 1e-9);
    QVERIFY(report["cpu_s"].get<double>() > 0.0);
  }

  void rejectsNegativeThreads() {
    const CliResult r = runGamboost({"bench", "csv", "--size-mb", "1", "--threads", "-1"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--threads"), qPrintable(r.describe()));
  }

  // --threads 100000 crashed the read (a segfault in the thread team); it is capped as for fit, with a note.
  void capsHugeThreadCounts() {
    Scratch scratch;
    const CliResult r = runGamboost(
        {"bench", "csv", "--size-mb", "1", "--reps", "1", "--threads", "100000", "--scratch-dir", scratch.root()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.err.contains("--threads 100000 capped at"), qPrintable(r.describe()));
    QVERIFY2(QDir(scratch.root()).entryList(QDir::Files).isEmpty(), "the generated CSV is left behind");
  }

  // Bad input, exit 2 naming the option: a device has no size to time a read by (was exit 1, a raw filesystem
  // error), and --size-mb 0 is outside its range (the message said "between 0 and 1e6" while refusing 0).
  void rejectsDevicesAndZeroSize() {
    CliResult r = runGamboost({"bench", "csv", "--file", "/dev/null"});
    verifyRejected(r, "^gamboost: --file: /dev/null: not a regular file \\(a device, a pipe or a directory\\)$");
    r = runGamboost({"bench", "csv", "--size-mb", "0"});
    verifyRejected(r, "^gamboost: --size-mb: must be above 0 and below 1e6 megabytes$");
    // Options that contradict each other were ignored without a word.
    r = runGamboost({"bench", "csv", "--file", "/dev/null", "--size-mb", "5"});
    verifyRejected(r, "^gamboost: --size-mb excludes --file$");
    r = runGamboost({"bench", "csv", "--serial", "--threads", "2"});
    verifyRejected(r, "^gamboost: --threads excludes --serial$");
  }
};

QTEST_GUILESS_MAIN(CliBenchCsvTest)
#include "test_cli_bench_csv.moc"

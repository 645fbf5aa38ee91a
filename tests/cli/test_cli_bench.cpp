// `gamboost bench fit` on a tiny problem: checks the report's structure and that two runs of the same
// configuration agree (no timings are asserted: speed is shown by benchmarks, never by tests).
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

using namespace gbtest;
using nlohmann::json;

class CliBenchTest : public QObject {
  Q_OBJECT

 private slots:
  void fitBenchReportsEveryConfig();
  void fitBenchTimesBootstrapFolds();
  void fitBenchRejectsBadConfig_data();
  void fitBenchRejectsBadConfig();
  void emptyOutIsRefused();
};

void CliBenchTest::fitBenchReportsEveryConfig() {
  Scratch scratch;
  QVERIFY(scratch.isValid());
  const QString prefix = scratch.path("fitbench");
  const CliResult r =
      runGamboost({"bench", "fit", "--rows", "300,500", "--covariates", "4", "--informative", "2", "--knots", "6",
                   "--mstop", "8", "--configs", "cpu,cpu:moments", "--seed", "3", "--out", prefix});
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  QVERIFY2(r.out.contains("same path"), qPrintable(r.out));
  const QByteArray text = readFile(prefix + ".json");
  const json report = json::parse(text.constData(), text.constData() + text.size());
  const json& timings = report["timings"];
  QCOMPARE(timings.size(), std::size_t(4));  // 2 row counts x 2 configs
  for (std::size_t i = 0; i < timings.size(); ++i) {
    const json& t = timings[i];
    QCOMPARE(t["rows"].get<int>(), i < 2 ? 300 : 500);
    QCOMPARE(t["covariates"].get<int>(), 4);
    QCOMPARE(t["backend"].get<std::string>(), std::string("cpu"));
    QCOMPARE(t["path"].size(), std::size_t(8));
    QVERIFY(t["fit_s"].get<double>() >= 0.0 && t["setup_s"].get<double>() >= 0.0);
    QVERIFY(std::isfinite(t["final_risk"].get<double>()) && t["final_risk"].get<double>() > 0.0);
  }
  // Same data, same exact CPU backend: identical paths, and the risk agrees to rounding (1e-12 relative: the
  // same arithmetic in the same order, so in practice bit-identical).
  for (std::size_t i : {0, 2}) {
    QCOMPARE(timings[i]["path"], timings[i + 1]["path"]);
    QCOMPARE(timings[i + 1]["same_path_iterations"].get<int>(), 8);
    const double a = timings[i]["final_risk"].get<double>(), b = timings[i + 1]["final_risk"].get<double>();
    QVERIFY(std::abs(a - b) <= 1e-12 * a);
  }
  const QList<QByteArray> csv = readFile(prefix + ".csv").trimmed().split('\n');
  QCOMPARE(csv.size(), 5);  // header + 4 rows
  QVERIFY(csv.front().startsWith("rows,covariates,backend"));
}

// --bootstrap B times B folds beside each fit. The CPU backend runs them a thread each, several at a time, and
// measures no set-up/iterations split: those are null (JSON), empty (CSV) and "-" (table), not zeros.
void CliBenchTest::fitBenchTimesBootstrapFolds() {
  Scratch scratch;
  QVERIFY(scratch.isValid());
  const QString prefix = scratch.path("folds");
  const CliResult r = runGamboost({"bench", "fit", "--rows", "400", "--covariates", "3", "--knots", "6", "--mstop", "5",
                                   "--configs", "cpu", "--bootstrap", "3", "--out", prefix});
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  const QByteArray text = readFile(prefix + ".json");
  const json t = json::parse(text.constData(), text.constData() + text.size())["timings"][0];
  QCOMPARE(t["cv_folds"].get<int>(), 3);
  QVERIFY(t["cv_s"].get<double>() > 0.0);
  QVERIFY2(!t["cv_batched"].get<bool>() && t["cv_setup_s"].is_null() && t["cv_iterate_s"].is_null(), text.constData());
  QVERIFY2(t["cv_parallel"].get<int>() >= 1, text.constData());
  const QString ran = t["cv_parallel"].get<int>() > 1 ? QString("%1 at a time").arg(t["cv_parallel"].get<int>())
                                                      : QString("one by one");
  QVERIFY2(r.out.contains(QRegularExpression("\\b3\\s+" + ran + "\\s.*\\s-\\s+-\\s")), qPrintable(r.out));
  const QList<QByteArray> csv = readFile(prefix + ".csv").trimmed().split('\n');
  QCOMPARE(csv.size(), 2);
  QVERIFY2(csv[1].contains(",,,0,"), csv[1].constData());  // cv_setup_s, cv_iterate_s empty; cv_batched 0
}

void CliBenchTest::fitBenchRejectsBadConfig_data() {
  QTest::addColumn<QStringList>("options");
  QTest::addColumn<QString>("option");
  QTest::newRow("unknown backend") << QStringList{"--configs", "gpu"} << "--configs";
  QTest::newRow("bad precision") << QStringList{"--configs", "opencl:splitk:half"} << "--configs";
  QTest::newRow("too many parts") << QStringList{"--configs", "cpu:a:double:x"} << "--configs";
  QTest::newRow("rows not a number") << QStringList{"--rows", "100,abc"} << "--rows";
  // Empty items were dropped silently: "1000,,2000" ran two sizes.
  QTest::newRow("rows, an empty item")
      << QStringList{"--rows", "200,,300"}
      << "--rows: '200,,300' has an empty item; give numbers separated by single commas";
  QTest::newRow("rows, a trailing comma") << QStringList{"--rows", "200,"} << "--rows: '200,' has an empty item";
  QTest::newRow("mstop 0") << QStringList{"--mstop", "0"} << "--mstop";
  // Named as the config, not as fit's --kernel / --precision, which bench has not got.
  QTest::newRow("cpu kernel") << QStringList{"--configs", "cpu:compact_x"}
                              << "--configs: 'cpu:compact_x': unknown kernel 'compact_x' for cpu";
  QTest::newRow("cpu float") << QStringList{"--configs", "cpu::float"}
                             << "--configs: 'cpu::float': the CPU backend computes in double only";
  QTest::newRow("one row") << QStringList{"--rows", "1"} << "--rows: must be at least 2";
  // Refused before generating: it ended in "out of memory" naming nothing (exit 1).
  QTest::newRow("rows beyond memory") << QStringList{"--rows", "100000000000000"} << "--rows: 100000000000000 rows";
}

void CliBenchTest::fitBenchRejectsBadConfig() {
  QFETCH(QStringList, options);
  QFETCH(QString, option);
  Scratch scratch;
  QVERIFY(scratch.isValid());
  const QString prefix = scratch.path("fb");
  const CliResult r = runGamboost(
      QStringList{"bench", "fit", "--rows", "200", "--covariates", "3", "--mstop", "2", "--out", prefix} + options);
  verifyRejected(r, QRegularExpression::escape(option));
  if (QTest::currentTestFailed()) return;
  QVERIFY(!QFileInfo::exists(prefix + ".json") && !QFileInfo::exists(prefix + ".csv"));
}

// An empty --out wrote hidden ".json" and ".csv" files (bench kernels) or nothing at all with exit 0 (the others).
void CliBenchTest::emptyOutIsRefused() {
  for (const QString& command : {"kernels", "fit", "csv", "e2e"}) {
    const CliResult r = runGamboost({"bench", command, "--out", ""});
    verifyRejected(r, "^gamboost: --out: empty file name$");
  }
}

QTEST_GUILESS_MAIN(CliBenchTest)
#include "test_cli_bench.moc"

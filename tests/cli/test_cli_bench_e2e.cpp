// `gamboost bench e2e` at a tiny size: every config runs from the CSV to result.json with its stages and floors, the
// OpenCL config (PoCL here) with its kernels; bad options are refused and write nothing. No timing is asserted.
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

using namespace gbtest;
using nlohmann::json;

namespace {

const json* stageNamed(const json& profile, const std::string& name) {
  for (const json& s : profile["stages"])
    if (s["name"] == name) return &s;
  return nullptr;
}

// The cells of one CSV line, quotes removed (a quoted cell may hold commas: "2-thread CPU (Eigen, OpenMP)").
QList<QByteArray> csvCells(const QByteArray& line) {
  QList<QByteArray> cells{QByteArray()};
  bool quoted = false;
  for (char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      cells.push_back(QByteArray());
    else
      cells.back().push_back(c);
  }
  return cells;
}

}  // namespace

class CliBenchE2eTest : public QObject {
  Q_OBJECT

 private slots:
  void reportsEveryStageOfEveryConfig() {
    Scratch scratch;
    QVERIFY(scratch.isValid());
    const QString prefix = scratch.path("e2e");
    const QString work = scratch.path("work");
    QVERIFY(QDir().mkpath(work));
    const CliResult r =
        runGamboost({"bench", "e2e", "--rows", "400", "--covariates", "4", "--knots", "6", "--mstop", "12", "--configs",
                     "cpu,opencl", "--seed", "2", "--scratch-dir", work, "--out", prefix});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY(QDir(work).isEmpty());  // the CSV and result.json are removed after
    const QByteArray text = readFile(prefix + ".json");
    const json report = json::parse(text.constData(), text.constData() + text.size());
    QCOMPARE(report["rows"].get<int>(), 400);
    QVERIFY(report["csv_bytes"].get<double>() > 400 * 5 * 2);  // 5 columns of at least "d," each
    QVERIFY(report["write_csv"]["floor_s"].get<double>() > 0.0);
    const json& runs = report["runs"];
    QCOMPARE(runs.size(), std::size_t(2));
    QCOMPARE(runs[0]["backend"].get<std::string>(), std::string("cpu"));
    QCOMPARE(runs[1]["backend"].get<std::string>(), std::string("opencl"));
    for (const json& run : runs) {
      QCOMPARE(run["iterations"].get<int>(), 12);
      const json& profile = run["profile"];
      for (const char* name : {"read and parse CSV", "basis and Gram", "iterations", "write result"}) {
        const json* s = stageNamed(profile, name);
        QVERIFY2(s != nullptr, name);
        QVERIFY2((*s)["seconds"].get<double>() > 0.0, name);
      }
      QVERIFY(!(*stageNamed(profile, "write result"))["floor_s"].is_null());
      QVERIFY(run["wall_s"].get<double>() >= (*stageNamed(profile, "read and parse CSV"))["seconds"].get<double>());
    }
    QVERIFY(runs[0]["profile"]["kernels"].empty());
    QVERIFY(!runs[1]["profile"]["kernels"].empty());
    QVERIFY(stageNamed(runs[1]["profile"], "upload") != nullptr);
    const QList<QByteArray> csv = readFile(prefix + ".csv").trimmed().split('\n');
    QVERIFY(csv.front().startsWith("rows,covariates,backend,device,precision,stage"));
    const std::size_t stages = 1 + runs[0]["profile"]["stages"].size() + runs[1]["profile"]["stages"].size() +
                               runs[1]["profile"]["kernels"].size();
    QCOMPARE(static_cast<std::size_t>(csv.size()), 1 + stages);  // header, write CSV, every run's stages and kernels
    // Every row has the header's 12 cells; a stage without a floor leaves floor and fraction empty (not 0).
    const QList<QByteArray> header = csvCells(csv.front());
    QCOMPARE(header.size(), 12);
    QCOMPARE(header[8], QByteArray("threads"));
    bool sawNoFloor = false, sawKernel = false;
    for (const QByteArray& line : csv.mid(1)) {
      const QList<QByteArray> cells = csvCells(line);
      QCOMPARE(cells.size(), 12);
      sawNoFloor = sawNoFloor || (cells[5] == "model frame" && cells[10].isEmpty() && cells[11].isEmpty());
      sawKernel = sawKernel || cells[5].startsWith("kernel ");
      QVERIFY2(cells[11].isEmpty() || cells[11].toDouble() > 0.0, line.constData());
    }
    QVERIFY(sawNoFloor && sawKernel);
    QVERIFY2(r.out.contains("from reading the CSV to result.json written"), qPrintable(r.out));
  }

  void rejectsBadOptions_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("option");
    QTest::newRow("unknown backend") << QStringList{"--configs", "gpu"} << "--configs";
    QTest::newRow("rows 0") << QStringList{"--rows", "0"} << "--rows";
    QTest::newRow("mstop 0") << QStringList{"--mstop", "0"} << "--mstop";
  }

  void rejectsBadOptions() {
    QFETCH(QStringList, options);
    QFETCH(QString, option);
    Scratch scratch;
    QVERIFY(scratch.isValid());
    const QString prefix = scratch.path("e2e");
    const CliResult r = runGamboost(
        QStringList{"bench", "e2e", "--rows", "200", "--covariates", "3", "--mstop", "2", "--out", prefix} + options);
    verifyRejected(r, QRegularExpression::escape(option));
    if (QTest::currentTestFailed()) return;
    QVERIFY(!QFileInfo::exists(prefix + ".json") && !QFileInfo::exists(prefix + ".csv"));
  }
};

QTEST_GUILESS_MAIN(CliBenchE2eTest)
#include "test_cli_bench_e2e.moc"

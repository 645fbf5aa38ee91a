// `mpirun -np 2 gamboost fit --distributed` (issue 15, MPI): two ranks, each holding half of the rows on the default
// OpenCL device (PoCL's CPU device in CI; both ranks may share it), fit the same model as one process on that device
// in double: the identical selection path, fitted values and risk within 1e-12 normwise, for Gaussian (with the
// cross-product cache where the device offers it) and Binomial. Rank 0 alone writes result.json. A bad option on the
// distributed run stops every rank with exit status 2, one distinct message and no result file; so does a failure
// on one rank alone.
#include <QFileInfo>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"
#include "support/MpiRunner.hpp"

using namespace gbtest;
using nlohmann::json;

namespace {

// The CSV with y replaced by 1 where y > its median, else 0 (a Binomial response of the same covariates).
QByteArray binaryResponse(const QByteArray& csv) {
  QList<QByteArray> lines = csv.trimmed().split('\n');
  std::vector<double> y;
  for (int i = 1; i < lines.size(); ++i) y.push_back(lines[i].left(lines[i].indexOf(',')).toDouble());
  std::vector<double> sorted = y;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
  const double median = sorted[sorted.size() / 2];
  QByteArray out = lines[0] + '\n';
  for (int i = 1; i < lines.size(); ++i)
    out += (y[static_cast<std::size_t>(i - 1)] > median ? "1" : "0") + lines[i].mid(lines[i].indexOf(',')) + '\n';
  return out;
}

}  // namespace

class CliDistributedTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void twoRanksEqualOneProcess_data();
  void twoRanksEqualOneProcess();
  void badOptionStopsAllRanks_data();
  void badOptionStopsAllRanks();
  void failureOnOneRankStopsAll();
  void onlyRankZeroWrites();

 private:
  CliResult runTwoRanks(const QStringList& arguments);
  CliResult runMpirun(const QStringList& arguments);
  QString mpirun_;   // "" when mpirun is missing
  QString address_;  // the default OpenCL device's address, "" when there is none
  Scratch scratch_;
};

void CliDistributedTest::initTestCase() {
  mpirun_ = findMpirun();
  address_ = defaultOpenClAddress();
  QVERIFY(scratch_.isValid());
  const CliResult data = runGamboost({"generate", "--rows", "3000", "--covariates", "8", "--informative", "4",
                                      "--quiet", "--out", scratch_.path("gaussian.csv")});
  QVERIFY2(data.exitCode == 0, qPrintable(data.describe()));
  writeFile(scratch_.path("binomial.csv"), binaryResponse(readFile(scratch_.path("gaussian.csv"))));
}

CliResult CliDistributedTest::runTwoRanks(const QStringList& arguments) { return runRanks(mpirun_, 2, arguments); }

CliResult CliDistributedTest::runMpirun(const QStringList& arguments) { return gbtest::runMpirun(mpirun_, arguments); }

void CliDistributedTest::twoRanksEqualOneProcess_data() {
  QTest::addColumn<QString>("family");
  QTest::addColumn<int>("ranks");
  QTest::addColumn<bool>("gpuKernels");
  QTest::newRow("gaussian, 2 ranks") << "gaussian" << 2 << false;
  QTest::newRow("binomial, 2 ranks") << "binomial" << 2 << false;
  QTest::newRow("gaussian, 3 ranks") << "gaussian" << 3 << false;
  QTest::newRow("binomial, 3 ranks") << "binomial" << 3 << false;
  // The cross-product cache: CPU devices have no one-pass fill of their own, GAMBOOST_GPU_KERNELS=1 runs the GPU
  // kernel variants (the fill among them) on PoCL, so the ranks exchange B_j'B_l and send steps in batches.
  QTest::newRow("gaussian, cached, 2 ranks") << "gaussian" << 2 << true;
  QTest::newRow("gaussian, cached, 3 ranks") << "gaussian" << 3 << true;
}

// Each rank reads only its part of the file: result.json's "distributed" record says which bytes and rows.
void CliDistributedTest::twoRanksEqualOneProcess() {
  QFETCH(QString, family);
  QFETCH(int, ranks);
  QFETCH(bool, gpuKernels);
  if (gpuKernels) qputenv("GAMBOOST_GPU_KERNELS", "1");  // inherited by mpirun and its ranks
  const auto restore = qScopeGuard([] { qunsetenv("GAMBOOST_GPU_KERNELS"); });
  if (mpirun_.isEmpty()) QSKIP("mpirun is missing (scripts/setup.sh installs openmpi-bin)");
  if (address_.isEmpty()) QSKIP("no OpenCL device");
  const QStringList common{"fit",      "--data",   scratch_.path(family + ".csv"),
                           "--family", family,     "--preset",
                           "paper",    "--knots",  "8",
                           "--mstop",  "150",      "--precision",
                           "double",   "--device", address_,
                           "--quiet"};
  const CliResult one =
      runGamboost(common + QStringList{"--backend", "opencl", "--out", scratch_.path(family + "-1.json")}, 300000);
  if (one.exitCode == 2 && one.err.contains("fp64")) QSKIP("device has no fp64");
  QVERIFY2(one.exitCode == 0, qPrintable(one.describe()));
  const QString out = scratch_.path(family + "-" + QString::number(ranks) + ".json");
  const CliResult two = runRanks(mpirun_, ranks, common + QStringList{"--distributed", "--out", out});
  QVERIFY2(two.finished && two.exitCode == 0, qPrintable(two.describe()));
  const json a = readJson(scratch_.path(family + "-1.json")), b = readJson(out);
  QCOMPARE(b["path"]["learner"], a["path"]["learner"]);
  const double fitted = relativeDifference(a["fitted"], b["fitted"]);
  const double risk = relativeDifference(a["path"]["risk"], b["path"]["risk"]);
  qInfo("%s, %d ranks: fitted values %.3g, risk %.3g normwise", qPrintable(family), ranks, fitted, risk);
  QVERIFY2(fitted <= 1e-12, qPrintable(QString::number(fitted)));
  QVERIFY2(risk <= 1e-12, qPrintable(QString::number(risk)));
  QCOMPARE(QString::fromStdString(b["timing"]["backend"]), QString("sharded (MPI, %1 ranks)").arg(ranks));
  if (gpuKernels) QCOMPARE(QString::fromStdString(b["timing"]["scheme"]), QString("sharded-cached"));
  verifyPartsRead(b["distributed"], ranks, QFileInfo(scratch_.path(family + ".csv")).size(), 3000);
}

void CliDistributedTest::badOptionStopsAllRanks_data() {
  QTest::addColumn<QStringList>("options");
  QTest::addColumn<QString>("pattern");
  QTest::newRow("cpu backend") << QStringList{"--mstop", "5", "--backend", "cpu"}
                               << "^gamboost: --distributed: runs on OpenCL devices";
  QTest::newRow("mstop cv") << QStringList{"--mstop", "cv"} << "^gamboost: --distributed: --mstop cv is not built";
  QTest::newRow("unknown device") << QStringList{"--mstop", "5", "--device", "97:0"}
                                  << "^gamboost: --device: no OpenCL device at 97:0";
  QTest::newRow("holdout") << QStringList{"--mstop", "5", "--holdout", "0.2"}
                           << "^gamboost: --distributed: --holdout is not built for it yet";
  // After the ranks read their parts: the offset is a median over all rows (every rank fails alike).
  QTest::newRow("laplace without --offset") << QStringList{"--mstop", "5", "--family", "laplace"}
                                            << "^gamboost: --distributed: --family laplace: its offset \\(a median or "
                                               "optimize\\(\\) over all rows\\) is not built across processes";
}

void CliDistributedTest::badOptionStopsAllRanks() {
  QFETCH(QStringList, options);
  QFETCH(QString, pattern);
  if (mpirun_.isEmpty()) QSKIP("mpirun is missing (scripts/setup.sh installs openmpi-bin)");
  if (address_.isEmpty()) QSKIP("no OpenCL device");
  const QString out = scratch_.path("bad.json");
  const CliResult r = runTwoRanks(
      QStringList{"fit", "--distributed", "--data", scratch_.path("gaussian.csv"), "--quiet", "--out", out} + options);
  QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe()));
  // Every rank that failed says the same one line (mpirun adds its own report of the abort).
  QSet<QString> messages;
  for (const QString& line : r.errLines())
    if (line.startsWith("gamboost: ")) messages.insert(line);
  QVERIFY2(messages.size() == 1, qPrintable(r.describe()));
  QVERIFY2(QRegularExpression(pattern).match(*messages.begin()).hasMatch(), qPrintable(*messages.begin()));
  QVERIFY(!QFileInfo::exists(out));
}

// Rank 1 alone fails (an unknown --device, given to it alone: mpirun's "A : B" form) while rank 0 waits in the first
// MPI_Allgather of the fit: both stop, with rank 1's one line, a non-zero status and no result file.
void CliDistributedTest::failureOnOneRankStopsAll() {
  if (mpirun_.isEmpty()) QSKIP("mpirun is missing (scripts/setup.sh installs openmpi-bin)");
  if (address_.isEmpty()) QSKIP("no OpenCL device");
  const QString out = scratch_.path("one-failed.json");
  const QStringList fit{GB_CLI_PATH, "fit", "--distributed", "--data", scratch_.path("gaussian.csv"),
                        "--mstop",   "20",  "--quiet",       "--out",  out};
  const CliResult r = runMpirun(QStringList{"-np", "1"} + fit + QStringList{"--device", address_, ":", "-np", "1"} +
                                fit + QStringList{"--device", "97:0"});
  QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe()));
  QSet<QString> messages;
  for (const QString& line : r.errLines())
    if (line.startsWith("gamboost: ")) messages.insert(line);
  QVERIFY2(messages.size() == 1, qPrintable(r.describe()));
  QVERIFY2(messages.begin()->startsWith("gamboost: --device: no OpenCL device at 97:0"), qPrintable(r.describe()));
  QVERIFY(!QFileInfo::exists(out));
}

// Rank 1 is given an --out in a folder that does not exist (as on another host): it neither checks nor writes it, and
// rank 0 writes its own --out.
void CliDistributedTest::onlyRankZeroWrites() {
  if (mpirun_.isEmpty()) QSKIP("mpirun is missing (scripts/setup.sh installs openmpi-bin)");
  if (address_.isEmpty()) QSKIP("no OpenCL device");
  const QStringList fit{GB_CLI_PATH, "fit", "--distributed", "--data",   scratch_.path("gaussian.csv"),
                        "--mstop",   "20",  "--quiet",       "--device", address_};
  const QString out = scratch_.path("rank0.json"), elsewhere = scratch_.path("absent/rank1.json");
  const CliResult r = runMpirun(QStringList{"-np", "1"} + fit + QStringList{"--out", out, ":", "-np", "1"} + fit +
                                QStringList{"--out", elsewhere});
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  QCOMPARE(readJson(out)["path"]["learner"].size(), std::size_t(20));
  QVERIFY(!QFileInfo::exists(scratch_.path("absent")));
}

QTEST_GUILESS_MAIN(CliDistributedTest)
#include "test_cli_distributed.moc"

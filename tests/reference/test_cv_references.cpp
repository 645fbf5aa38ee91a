// `gamboost cv --folds-file W.csv` against tests/reference/scripts/mboost_cvrisk_reference.R: a plain-R transcription
// of mboost 2.9's cvrisk(gamboost(...), folds = W) (checked against the real mboost by check_cvrisk_vs_mboost.R;
// docs/reference-checks.md has the numbers). Data: write_family_data.R (seeded; x1..x8, a linear covariate, a text
// factor, NA cells); folds: write_folds.R (seeded; drawn as mboost's cv() draws them on the complete rows, one row
// per data row, 0 on the rows na.omit drops).
// Acceptance: cv.json's "risk" matrix (folds x mstop + 1) and "mean" within 1e-8 in ||A - B||_F / ||B||_F, and the
// same "mstop" (first minimum of the mean). The OpenCL row skips only if `gamboost devices` lists no OpenCL device.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace {

const QString kScripts = QStringLiteral(GB_SOURCE_DIR "/tests/reference/scripts");
constexpr int kSeed = 20261125;  // write_family_data.R, as test_family_references
constexpr double kTolerance = 1e-8;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString scratch(const QString& name) {
  const QString dir = qEnvironmentVariable("GB_TEST_TMP", QDir::tempPath()) + "/reference-cv";
  QDir().mkpath(dir);
  return dir + "/" + name;
}

// Runs a program; on failure (not started, timed out, crashed, exit status != 0) returns false and a message with
// the command line, the exit status and the program's stderr.
bool run(const QString& program, const QStringList& args, QString* err, QByteArray* out = nullptr) {
  QProcess p;
  p.start(program, args);
  const QString command = program + " " + args.join(' ');
  if (!p.waitForStarted(30000)) {
    *err = "could not start: " + command;
    return false;
  }
  if (!p.waitForFinished(300000)) {
    p.kill();
    p.waitForFinished();
    *err = "timed out after 300 s: " + command;
    return false;
  }
  if (out) *out = p.readAllStandardOutput();
  if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
    *err = QString("%1 (%2 %3)\n  stderr: %4")
               .arg(command,
                    p.exitStatus() == QProcess::NormalExit ? QStringLiteral("exit status") : QStringLiteral("crashed"),
                    QString::number(p.exitCode()), QString::fromUtf8(p.readAllStandardError()).trimmed());
    return false;
  }
  return true;
}

QStringList readLines(const QString& path) {
  QFile f(path);
  QStringList lines;
  if (!f.open(QIODevice::ReadOnly)) return lines;
  while (!f.atEnd()) {
    const QString line = QString::fromUtf8(f.readLine()).trimmed();
    if (!line.isEmpty()) lines << line;
  }
  return lines;
}

using Matrix = std::vector<std::vector<double>>;  // [fold][iteration 0..mstop]; NaN: a fold that failed (NA, null)

// ||A - B||_F / ||B||_F over the entries where both are numbers; a NaN in one and not the other counts as infinite.
double normwiseDifference(const Matrix& a, const Matrix& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    for (std::size_t j = 0; j < a[i].size() && j < b[i].size(); ++j) {
      if (std::isnan(a[i][j]) != std::isnan(b[i][j])) return std::numeric_limits<double>::infinity();
      if (std::isnan(b[i][j])) continue;
      diff += (a[i][j] - b[i][j]) * (a[i][j] - b[i][j]);
      scale += b[i][j] * b[i][j];
    }
  return scale > 0.0 ? std::sqrt(diff / scale) : std::sqrt(diff);
}

// Column means over the folds that have numbers (colMeans(na.rm = TRUE)).
std::vector<double> foldMean(const Matrix& risk) {
  std::vector<double> mean;
  for (std::size_t j = 0; !risk.empty() && j < risk[0].size(); ++j) {
    double sum = 0.0;
    int count = 0;
    for (const auto& row : risk)
      if (j < row.size() && !std::isnan(row[j])) sum += row[j], ++count;
    mean.push_back(count ? sum / count : kNaN);
  }
  return mean;
}

int firstMinimum(const std::vector<double>& v) {
  int best = -1;
  for (int i = 0; i < int(v.size()); ++i)
    if (!std::isnan(v[i]) && (best < 0 || v[i] < v[best])) best = i;
  return best;
}

// What the reference transcription wrote: prefix.cvrisk.csv (one row per fold, no header) and prefix.mstop.txt.
bool readReference(const QString& prefix, Matrix* risk, int* mstop, QString* err) {
  const QStringList rows = readLines(prefix + ".cvrisk.csv"), stop = readLines(prefix + ".mstop.txt");
  if (rows.isEmpty() || stop.size() != 1) {
    *err = "the reference script wrote incomplete output under " + prefix;
    return false;
  }
  for (const QString& row : rows) {
    std::vector<double> values;
    for (const QString& cell : row.split(',')) values.push_back(cell == "NA" ? kNaN : cell.toDouble());
    risk->push_back(values);
  }
  bool ok = false;
  *mstop = stop[0].toInt(&ok);
  if (!ok) *err = prefix + ".mstop.txt does not hold an integer";
  return ok;
}

// A JSON array of numbers (null: NaN); false if it is not one.
bool numbers(const QJsonValue& value, std::vector<double>* out) {
  if (!value.isArray()) return false;
  for (const auto& v : value.toArray()) {
    if (v.isNull())
      out->push_back(kNaN);
    else if (v.isDouble())
      out->push_back(v.toDouble());
    else
      return false;
  }
  return true;
}

bool hasOpenClDevice(QString* why) {
  QByteArray out;
  QString err;
  if (!run(GB_CLI_PATH, {"devices", "--json"}, &err, &out)) {
    *why = "gamboost devices failed: " + err;
    return false;
  }
  for (const auto& d : QJsonDocument::fromJson(out).object()["devices"].toArray())
    if (d.toObject()["backend"].toString() == "opencl") return true;
  *why = "gamboost devices lists no OpenCL device";
  return false;
}

}  // namespace

class TestCvReferences : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    qInfo("data seed: %d (tests/reference/scripts/write_family_data.R); folds seeds: per row (write_folds.R)", kSeed);
    QString err;
    QVERIFY2(run("Rscript", {"--version"}, &err), qPrintable("Rscript is needed: " + err));
  }

  void cvEqualsMboostCvriskTranscription_data() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<QString>("foldType");  // write_folds.R: kfold | bootstrap | subsampling
    QTest::addColumn<int>("folds");
    QTest::addColumn<int>("foldSeed");
    QTest::addColumn<bool>("opencl");
    QTest::addColumn<bool>("rareLevel");  // write_family_data.R's "rare": a factor level on one row

    // The cases of check_cvrisk_vs_mboost.R (same data and folds): 5-fold k-fold, 10 bootstrap replicates
    // (rmultinom), 8 subsamples of half the rows.
    QTest::newRow("gaussian 5-fold") << "gaussian"
                                     << "kfold" << 5 << 101 << false << false;
    QTest::newRow("binomial 10 bootstrap") << "binomial"
                                           << "bootstrap" << 10 << 102 << false << false;
    QTest::newRow("poisson 8 subsamples") << "poisson"
                                          << "subsampling" << 8 << 103 << false << false;
    QTest::newRow("opencl binomial 10 bootstrap") << "binomial"
                                                  << "bootstrap" << 10 << 102 << true << false;
    QTest::newRow("expectile 10 bootstrap") << "expectile"
                                            << "bootstrap" << 10 << 104 << false << false;
    QTest::newRow("adaexp 10 bootstrap") << "adaexp"
                                         << "bootstrap" << 10 << 102 << false << false;
    QTest::newRow("opencl expectile 10 bootstrap") << "expectile"
                                                   << "bootstrap" << 10 << 104 << true << false;
    QTest::newRow("gamma 10 bootstrap") << "gamma"
                                        << "bootstrap" << 10 << 102 << false << false;
    QTest::newRow("opencl gamma 5-fold") << "gamma"
                                         << "kfold" << 5 << 101 << true << false;
    QTest::newRow("negbin 8 subsamples") << "negbin"
                                         << "subsampling" << 8 << 103 << false << false;
    QTest::newRow("opencl negbin 5-fold") << "negbin"
                                          << "kfold" << 5 << 101 << true << false;
    // Laplace and a fixed-d Huber (d = 1): each fold's offset is optimize() of the fold's weighted risk
    QTest::newRow("laplace 5-fold") << "laplace"
                                    << "kfold" << 5 << 107 << false << false;
    QTest::newRow("opencl huber 10 bootstrap") << "huber"
                                               << "bootstrap" << 10 << 108 << true << false;
    // family:link for Binomial(link = ...)
    QTest::newRow("binomial probit 10 bootstrap") << "binomial:probit"
                                                  << "bootstrap" << 10 << 102 << false << false;
    QTest::newRow("opencl binomial cloglog 5-fold") << "binomial:cloglog"
                                                    << "kfold" << 5 << 101 << true << false;
    // A factor level on one row: the fold that leaves it out has a level without weight, X'WX of rank 4 while X has
    // rank 5, and --factor-edf 4 between the two; mboost's df2lambda tests the unweighted rank and searches lambda.
    QTest::newRow("gaussian 5-fold, a one-row level") << "gaussian"
                                                      << "kfold" << 5 << 101 << false << true;
    QTest::newRow("binomial 10 bootstrap, a one-row level") << "binomial"
                                                            << "bootstrap" << 10 << 102 << false << true;
    QTest::newRow("opencl binomial 10 bootstrap, a one-row level") << "binomial"
                                                                   << "bootstrap" << 10 << 102 << true << true;
  }

  void cvEqualsMboostCvriskTranscription() {
    QFETCH(QString, family);
    const QString link = family.section(':', 1);
    family = family.section(':', 0, 0);
    QFETCH(QString, foldType);
    QFETCH(int, folds);
    QFETCH(int, foldSeed);
    QFETCH(bool, opencl);
    QFETCH(bool, rareLevel);
    QString err;
    if (opencl) {
      QString why;
      if (!hasOpenClDevice(&why)) QSKIP(qPrintable(why));
    }
    qInfo("data seed %d, %s %d folds, folds seed %d", kSeed, qPrintable(foldType), folds, foldSeed);

    const QString data = scratch(family + (rareLevel ? "-rare" : "") + ".csv");
    QStringList writeData = {kScripts + "/write_family_data.R", data, family, QString::number(kSeed), "400", "0"};
    if (rareLevel) writeData << "rare";
    QVERIFY2(run("Rscript", writeData, &err), qPrintable(err));
    const QString foldsFile = scratch(QString("folds-%1-%2-%3.csv").arg(foldType).arg(folds).arg(foldSeed));
    QVERIFY2(run("Rscript",
                 {kScripts + "/write_folds.R", data, foldsFile, foldType, QString::number(folds),
                  QString::number(foldSeed), "prob=0.5"},
                 &err),
             qPrintable(err));

    const QString splines = "x1,x2,x3,x4,x5,x6,x7,x8";
    QStringList cli = {"--response",   "y",   "--family",     family, "--spline",      splines, "--linear", "lin",
                       "--factor",     "fac", "--knots",      "20",   "--differences", "2",     "--edf",    "4",
                       "--linear-edf", "4",   "--factor-edf", "4",    "--nu",          "0.3",   "--mstop",  "200"};
    QStringList reference = {
        "response=y", "family=" + family, "splines=" + splines, "linears=lin", "factors=fac", "knots=20",
        "df=4",       "linear_df=4",      "factor_df=4",        "nu=0.3",      "mstop=200"};
    if (family == "expectile") {  // its offset, mean(y[w == 1]), counts only a fold's rows drawn exactly once
      cli << "--tau"
          << "0.2";
      reference << "tau=0.2";
    }
    if (family == "huber") {  // adaptive d is refused under resampling (its closure's state spans mboost's folds)
      cli << "--huber-delta"
          << "1";
      reference << "huber_delta=1";
    }
    if (!link.isEmpty()) {
      cli << "--link" << link;
      reference << "link=" + link;
    }
    const int mstop = 200;

    const QString tag = QString(QTest::currentDataTag()).replace(QRegularExpression("[^A-Za-z0-9]+"), "-");
    const QString prefix = scratch("ref-" + tag), outDir = scratch("cv-" + tag);
    QDir(outDir).removeRecursively();
    QDir().mkpath(outDir);
    const QString result = outDir + "/cv.json";

    QVERIFY2(
        run("Rscript", QStringList{kScripts + "/mboost_cvrisk_reference.R", data, foldsFile, prefix} + reference, &err),
        qPrintable("the reference transcription failed: " + err));
    Matrix ref;
    int refMstop = -1;
    QVERIFY2(readReference(prefix, &ref, &refMstop, &err), qPrintable(err));
    QCOMPARE(int(ref.size()), folds);
    QVERIFY2(refMstop >= 0 && refMstop <= mstop, "the reference's mstop is outside 0..mstop");

    QStringList args = QStringList{"cv", "--data", data} + cli;
    if (opencl)
      args << "--backend"
           << "opencl"
           << "--precision"
           << "double";
    args << "--folds-file" << foldsFile << "--quiet"
         << "--out" << result;
    QVERIFY2(run(GB_CLI_PATH, args, &err),
             qPrintable("gamboost cv failed (this test needs `gamboost cv --folds-file W.csv --out cv.json`, "
                        "mboost's cvrisk(model, folds = W), of the issue \"Choosing mstop honestly\"): " +
                        err));
    QFile f(result);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable("gamboost cv wrote no " + result));
    QJsonParseError parseError;
    const QJsonObject ours = QJsonDocument::fromJson(f.readAll(), &parseError).object();
    QVERIFY2(parseError.error == QJsonParseError::NoError,
             qPrintable(result + " is not JSON: " + parseError.errorString()));
    for (const char* key : {"type", "folds", "risk", "mean", "mstop", "settings", "timing"})
      QVERIFY2(ours.contains(key), qPrintable(QString("cv.json has no \"%1\" key").arg(key)));
    QVERIFY2(ours["type"].toString() == "folds-file",
             qPrintable(QString("cv.json type is '%1', expected 'folds-file'").arg(ours["type"].toString())));
    QCOMPARE(ours["folds"].toInt(-1), folds);

    // risk: one array of mstop + 1 numbers per fold, in the folds file's column order
    Matrix risk;
    QVERIFY2(ours["risk"].isArray(), "cv.json \"risk\" is not an array");
    const QJsonArray riskJson = ours["risk"].toArray();
    QVERIFY2(riskJson.size() == folds,
             qPrintable(
                 QString("cv.json \"risk\" has %1 rows, expected one per fold (%2)").arg(riskJson.size()).arg(folds)));
    for (int b = 0; b < riskJson.size(); ++b) {
      std::vector<double> row;
      QVERIFY2(numbers(riskJson[b], &row), qPrintable(QString("cv.json risk[%1] is not an array of numbers").arg(b)));
      QVERIFY2(int(row.size()) == mstop + 1,
               qPrintable(QString("cv.json risk[%1] has %2 values, expected mstop + 1 = %3")
                              .arg(b)
                              .arg(row.size())
                              .arg(mstop + 1)));
      risk.push_back(row);
    }
    std::vector<double> mean;
    QVERIFY2(numbers(ours["mean"], &mean) && int(mean.size()) == mstop + 1,
             qPrintable(QString("cv.json \"mean\" is not an array of mstop + 1 = %1 numbers").arg(mstop + 1)));
    const int ourMstop = ours["mstop"].toInt(-1);

    const double riskDiff = normwiseDifference(risk, ref);
    const std::vector<double> refMean = foldMean(ref);
    const double meanDiff = normwiseDifference({mean}, {refMean});
    // the fold whose risk differs most, to point at a wrong fold (weights, offset, lambda) rather than a wrong formula
    int worstFold = 0;
    double worstFoldDiff = 0.0;
    for (int b = 0; b < folds; ++b) {
      const double d = normwiseDifference({risk[b]}, {ref[b]});
      if (d > worstFoldDiff || std::isnan(d)) worstFoldDiff = d, worstFold = b;
    }
    qInfo(
        "risk %d x %d: ||A - B||_F / ||B||_F %.3g (worst fold %d: %.3g), mean %.3g; mstop %d, reference %d; "
        "reference mean risk at 0: %.17g, at mstop %.17g; timing %s",
        folds, mstop + 1, riskDiff, worstFold + 1, worstFoldDiff, meanDiff, ourMstop, refMstop, refMean[0],
        refMean[refMstop], QJsonDocument(ours["timing"].toObject()).toJson(QJsonDocument::Compact).constData());
    int firstIteration = 0;  // where the worst fold first leaves the tolerance
    while (firstIteration < mstop && !(std::abs(risk[worstFold][firstIteration] - ref[worstFold][firstIteration]) >
                                       kTolerance * std::abs(ref[worstFold][firstIteration])))
      ++firstIteration;
    QVERIFY2(riskDiff < kTolerance,
             qPrintable(QString("out-of-bag risk matrix differs: ||A - B||_F / ||B||_F = %1 (worst fold %2: %3; "
                                "it first differs at iteration %4: %5, reference %6)")
                            .arg(riskDiff)
                            .arg(worstFold + 1)
                            .arg(worstFoldDiff)
                            .arg(firstIteration)
                            .arg(risk[worstFold][firstIteration], 0, 'g', 17)
                            .arg(ref[worstFold][firstIteration], 0, 'g', 17)));
    QVERIFY2(meanDiff < kTolerance, qPrintable(QString("\"mean\" differs: %1").arg(meanDiff)));
    QVERIFY2(ourMstop == firstMinimum(mean),
             qPrintable(QString("cv.json mstop %1 is not the first minimum of its own mean (%2)")
                            .arg(ourMstop)
                            .arg(firstMinimum(mean))));
    QVERIFY2(ourMstop == refMstop, qPrintable(QString("mstop %1, reference %2").arg(ourMstop).arg(refMstop)));
  }
};

QTEST_GUILESS_MAIN(TestCvReferences)
#include "test_cv_references.moc"

// `gamboost fit` and the spline basis against implementations we did not write:
//  - patsy's bs(..., include_intercept=True) (the paper's basis) for the clamped convention,
//  - R's splines::splineDesign with mboost's extended knots, and a plain-R transcription of mboost 2.9's
//    gamboost/bbs/df2lambda (tests/reference/scripts/mboost_reference.R) for whole fits.
// Acceptance: fitted values and the risk path within 1e-8 in max|difference| / max|value|, identical selection path.
// scripts/setup.sh installs r-base-core and python3-patsy, so these always run (no skip counts as a pass).
#include <QtTest>
#include <random>

#include "spline/SplineBasis.hpp"

namespace {

const QString kScripts = QStringLiteral(GB_SOURCE_DIR "/tests/reference/scripts");
const QString kPython = QStringLiteral("/usr/bin/python3");  // Debian's, where python3-patsy lives
constexpr unsigned kSeed = 424242;

QString scratch(const QString& name) {
  const QString dir = qEnvironmentVariable("GB_TEST_TMP", QDir::tempPath()) + "/reference";
  QDir().mkpath(dir);
  return dir + "/" + name;
}

// Runs a program; fails the test with its stderr if it does not exit 0.
bool run(const QString& program, const QStringList& args, QString* err = nullptr) {
  QProcess p;
  p.start(program, args);
  if (!p.waitForFinished(300000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
    if (err) *err = program + " " + args.join(' ') + " failed: " + QString::fromUtf8(p.readAllStandardError());
    return false;
  }
  return true;
}

std::vector<std::vector<double>> readNumbers(const QString& path, bool header, int column = -1) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  std::vector<std::vector<double>> rows;
  bool first = true;
  while (!f.atEnd()) {
    const QString line = QString::fromUtf8(f.readLine()).trimmed();
    if (line.isEmpty()) continue;
    if (first && header) {
      first = false;
      continue;
    }
    first = false;
    std::vector<double> row;
    const QStringList cells = line.split(',');
    for (int c = 0; c < cells.size(); ++c)
      if (column < 0 || c == column) row.push_back(cells[c].toDouble());
    rows.push_back(row);
  }
  return rows;
}

double relativeMaxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return diff / scale;
}

}  // namespace

class TestExternalReferences : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { qInfo("random seed: %u", kSeed); }

  void clampedBasisEqualsPatsy_data() {
    QTest::addColumn<int>("knots");
    QTest::addColumn<int>("degree");
    for (int degree : {1, 2, 3, 5})
      for (int knots : {1, 12, 20}) QTest::addRow("d%d k%d", degree, knots) << knots << degree;
  }
  void clampedBasisEqualsPatsy() {
    QFETCH(int, knots);
    QFETCH(int, degree);
    std::mt19937_64 rng(kSeed);
    std::uniform_real_distribution<double> U(-3.0, 5.0);
    std::vector<double> x(400);
    for (double& v : x) v = U(rng);
    const QString xs = scratch("patsy-x.csv"), out = scratch("patsy-basis.csv");
    {
      QFile f(xs);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("x\n");
      for (double v : x) f.write(QByteArray::number(v, 'g', 17) + "\n");
    }
    QString err;
    QVERIFY2(
        run(kPython, {kScripts + "/patsy_basis.py", xs, QString::number(knots), QString::number(degree), out}, &err),
        qPrintable(err));
    const auto patsy = readNumbers(out, false);
    QCOMPARE(patsy.size(), x.size());
    const gb::SplineBasis b(*std::min_element(x.begin(), x.end()), *std::max_element(x.begin(), x.end()),
                            gb::SplineSpec{knots, degree, gb::Boundary::Clamped});
    QCOMPARE(static_cast<int>(patsy.front().size()), b.numColumns());
    double worst = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      double w[6];
      const int first = b.evaluateFast(x[i], w);
      for (int c = 0; c < b.numColumns(); ++c) {
        const double ours = (c >= first && c <= first + degree) ? w[c - first] : 0.0;
        worst = std::max(worst, std::abs(ours - patsy[i][c]));
      }
    }
    // Values in [0, 1], both sides double precision with O(degree^2) operations.
    QVERIFY2(worst < 1e-13, qPrintable(QString("max |ours - patsy| = %1").arg(worst)));
  }

  void fitEqualsMboostTranscription_data() {
    QTest::addColumn<QStringList>("options");  // knots degree boundary penalty differences edf edf_def nu mstop
    QTest::addColumn<int>("rows");
    // Each row: its name, the rows of generated data, then knots degree boundary penalty differences edf edf_def nu
    // mstop as one space-separated string.
    const std::pair<const char*, std::pair<int, const char*>> rows[] = {
        {"mboost defaults", {300, "20 3 extended pspline 2 4 mboost 0.1 60"}},
        {"pspline trace", {300, "12 3 extended pspline 2 4 trace 0.1 60"}},
        {"ridge mboost", {300, "12 3 extended ridge 0 3 mboost 0.2 50"}},
        {"pspline d1 deg2", {300, "8 2 extended pspline 1 2.5 mboost 0.1 50"}},
        {"pspline d3 deg5", {300, "10 5 extended pspline 3 5 trace 0.3 40"}},
        {"paper clamped ridge", {300, "12 3 clamped ridge 0 1 trace 0.1 60"}},
        // Fewer rows than basis columns (12 rows, 24 columns): mboost fits this at its defaults; B'B is singular and
        // the penalty identifies what the data leave free. The transcription takes the edf from the 12 x 12 hat matrix.
        {"12 rows, 24 columns", {12, "20 3 extended pspline 2 4 mboost 0.1 60"}},
        {"12 rows, 24 columns, trace", {12, "20 3 extended pspline 2 3 trace 0.3 40"}},
    };
    for (const auto& [name, row] : rows) QTest::newRow(name) << QString(row.second).split(' ') << row.first;
  }
  void fitEqualsMboostTranscription() {
    QFETCH(QStringList, options);
    QFETCH(int, rows);
    const QString data = scratch("paper.csv"), result = scratch("result.json"), prefix = scratch("r-ref");
    QString err;
    QVERIFY2(run(GB_CLI_PATH,
                 {"generate", "--rows", QString::number(rows), "--covariates", "8", "--informative", "3", "--seed",
                  QString::number(kSeed), "--out", data},
                 &err),
             qPrintable(err));
    QVERIFY2(run(GB_CLI_PATH, {"fit",      "--data",     data,       "--knots",   options[0], "--degree",
                               options[1], "--boundary", options[2], "--penalty", options[3], "--differences",
                               options[4], "--edf",      options[5], "--edf-def", options[6], "--nu",
                               options[7], "--mstop",    options[8], "--quiet",   "--out",    result},
                 &err),
             qPrintable(err));
    QVERIFY2(run("Rscript", QStringList{kScripts + "/mboost_reference.R", data, prefix} + options, &err),
             qPrintable(err));

    QFile f(result);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject ours = QJsonDocument::fromJson(f.readAll()).object();
    std::vector<double> fitted;
    for (const auto& v : ours["fitted"].toArray()) fitted.push_back(v.toDouble());
    std::vector<double> risk;
    for (const auto& v : ours["path"].toObject()["risk"].toArray()) risk.push_back(v.toDouble());
    QStringList path;
    // path.learner holds 0-based indices into "learners" (format version 2): map them to the names R reports.
    const QJsonArray learners = ours["learners"].toArray();
    for (const auto& v : ours["path"].toObject()["learner"].toArray())
      path << learners.at(v.toInt(-1)).toObject()["name"].toString();

    std::vector<double> refFitted;
    for (const auto& row : readNumbers(prefix + ".fitted.csv", true)) refFitted.push_back(row[0]);
    std::vector<double> refRisk;
    for (const auto& row : readNumbers(prefix + ".path.csv", true, 2)) refRisk.push_back(row[0]);
    QStringList refPath;
    {
      QFile p(prefix + ".path.csv");
      QVERIFY(p.open(QIODevice::ReadOnly));
      p.readLine();
      p.readLine();  // header, offset row
      while (!p.atEnd()) refPath << QString::fromUtf8(p.readLine()).trimmed().split(',')[1];
    }
    QCOMPARE(fitted.size(), refFitted.size());
    QCOMPARE(risk.size(), refRisk.size());
    QCOMPARE(path, refPath);
    const double fittedDiff = relativeMaxDifference(fitted, refFitted);
    const double riskDiff = relativeMaxDifference(risk, refRisk);
    qInfo("max|diff|/max|value|: fitted %.3g, risk %.3g", fittedDiff, riskDiff);
    QVERIFY2(fittedDiff < 1e-8, qPrintable(QString("fitted values differ by %1").arg(fittedDiff)));
    QVERIFY2(riskDiff < 1e-8, qPrintable(QString("risk path differs by %1").arg(riskDiff)));
  }
};

QTEST_GUILESS_MAIN(TestExternalReferences)
#include "test_external_references.moc"

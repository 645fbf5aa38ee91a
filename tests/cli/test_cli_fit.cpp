// The happy paths of the command-line program: generate -> fit -> result.json as documented (design.md
// section 4), model.json -> predict reproduces the fitted values, extrapolation is reported, devices lists the
// CPU backend. Small data so the whole file runs in a few seconds.
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

using namespace gbtest;
using nlohmann::json;

namespace {

constexpr int kRows = 400;
constexpr int kMstop = 40;
constexpr int kCovariates = 6;
constexpr int kSeed = 7;  // generate's seed: printed on failure via the command lines below

// CSV of generate: column c of every data row (header skipped).
std::vector<double> csvColumn(const QString& path, int c) {
  std::vector<double> values;
  const QList<QByteArray> lines = readFile(path).split('\n');
  for (int i = 1; i < lines.size(); ++i) {
    if (lines[i].trimmed().isEmpty()) continue;
    values.push_back(lines[i].split(',').at(c).toDouble());
  }
  return values;
}

}  // namespace

class CliFitTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void resultHasDocumentedSchema();
  void riskPathIsConsistentWithData();
  void predictReproducesFitted();
  void predictReportsExtrapolation();
  void summaryNamesSelectedAndTruth();
  void presetIsOverriddenByExplicitOptions();
  void generateIsReproducible();
  void devicesListsCpu();
  void helpShowsDefaults();
  void openMpThreadsDoNotSpin();
  void linearAndFactorFitOnFewRows();
  void unusedEdfOptionsAreNoted();

 private:
  Scratch scratch_;
  QString data_, result_, model_;
  CliResult fit_;
  json r_;
};

void CliFitTest::initTestCase() {
  QVERIFY(scratch_.isValid());
  data_ = scratch_.path("paper.csv");
  result_ = scratch_.path("result.json");
  model_ = scratch_.path("model.json");
  qInfo("generate seed %d, %d rows, %d covariates", kSeed, kRows, kCovariates);
  const CliResult gen =
      runGamboost({"generate", "--rows", QString::number(kRows), "--covariates", QString::number(kCovariates),
                   "--informative", "2", "--seed", QString::number(kSeed), "--out", data_});
  QVERIFY2(gen.exitCode == 0, qPrintable(gen.describe()));
  QVERIFY(QFileInfo::exists(data_ + ".truth.json"));
  fit_ = runGamboost({"fit", "--data", data_, "--knots", "10", "--mstop", QString::number(kMstop), "--out", result_,
                      "--model", model_, "--summary", "--quiet"});
  QVERIFY2(fit_.exitCode == 0, qPrintable(fit_.describe()));
  QVERIFY2(fit_.err.isEmpty(), qPrintable(fit_.describe()));  // --quiet: stderr stays empty on success
  r_ = readJsonFile(result_);
}

void CliFitTest::resultHasDocumentedSchema() {
  for (const char* key : {"offset", "learners", "path", "fitted", "settings", "timing"})
    QVERIFY2(r_.contains(key), key);
  QCOMPARE(r_["learners"].size(), std::size_t(kCovariates));
  int selectedSum = 0;
  std::map<std::string, int> selected;
  for (const json& l : r_["learners"]) {
    for (const char* key : {"name", "lambda", "edf", "k", "knots", "coefficients", "selected"})
      QVERIFY2(l.contains(key), key);
    QCOMPARE(l["coefficients"].size(), l["k"].get<std::size_t>());
    QCOMPARE(l["k"].get<int>(), 10 + 3 + 1);  // knots + degree + 1
    selectedSum += l["selected"].get<int>();
    selected[l["name"].get<std::string>()] = l["selected"].get<int>();
  }
  QCOMPARE(selectedSum, kMstop);
  QCOMPARE(r_["path"]["learner"].size(), std::size_t(kMstop));
  QCOMPARE(r_["path"]["risk"].size(), std::size_t(kMstop + 1));
  QCOMPARE(r_["fitted"].size(), std::size_t(kRows));
  // The counts agree with the path they summarise; the path holds 0-based indices into "learners" (version 2).
  QCOMPARE(r_["version"].get<int>(), 2);
  std::map<std::string, int> fromPath;
  for (const json& index : r_["path"]["learner"]) {
    QVERIFY(index.is_number_integer());
    QVERIFY(index.get<int>() >= 0 && index.get<std::size_t>() < r_["learners"].size());
    ++fromPath[r_["learners"][index.get<std::size_t>()]["name"].get<std::string>()];
  }
  for (const auto& [name, count] : fromPath) QCOMPARE(selected[name], count);
  for (const char* key : {"setup_s", "fit_s", "read_s", "backend", "device", "kernel", "precision"})
    QVERIFY2(r_["timing"].contains(key), key);
  QCOMPARE(r_["timing"]["backend"].get<std::string>(), std::string("cpu"));
  QVERIFY(r_["settings"].contains("compute"));
  QCOMPARE(r_["settings"]["mstop"].get<int>(), kMstop);
}

void CliFitTest::riskPathIsConsistentWithData() {
  const std::vector<double> y = csvColumn(data_, 0);
  QCOMPARE(y.size(), std::size_t(kRows));
  const std::vector<double> fitted = r_["fitted"].get<std::vector<double>>();
  const std::vector<double> risk = r_["path"]["risk"].get<std::vector<double>>();
  double mean = 0.0;
  for (double v : y) mean += v / kRows;
  double r0 = 0.0, rEnd = 0.0;
  for (int i = 0; i < kRows; ++i) {
    r0 += (y[i] - mean) * (y[i] - mean) / kRows;
    rEnd += (y[i] - fitted[i]) * (y[i] - fitted[i]) / kRows;
  }
  // Sums of 400 terms in a different order than the engine's: 1e-10 relative is far above rounding (~1e-14).
  QVERIFY2(std::abs(r_["offset"].get<double>() - mean) <= 1e-12 * std::abs(mean), "offset is mean(y)");
  QVERIFY2(std::abs(risk.front() - r0) <= 1e-10 * r0, "risk[0] is the offset's mean squared residual");
  QVERIFY2(std::abs(risk.back() - rEnd) <= 1e-10 * rEnd, "last risk matches the fitted values");
  // L2 boosting with nu in (0,1] never increases the training risk (each step removes (2nu - nu^2) c'Pc >= 0).
  for (std::size_t m = 1; m < risk.size(); ++m)
    QVERIFY2(risk[m] <= risk[m - 1] * (1 + 1e-12), qPrintable(QString("risk rose at iteration %1").arg(m)));
  QVERIFY(risk.back() < 0.5 * risk.front());  // two sine signals of amplitude 10: the fit must find them
}

void CliFitTest::predictReproducesFitted() {
  const QString out = scratch_.path("pred_train.csv");
  const CliResult r = runGamboost({"predict", "--model", model_, "--data", data_, "--out", out});
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));  // training rows lie inside the training range
  QString header;
  const std::vector<double> predicted = readColumn(out, &header);
  QCOMPARE(header, QString("prediction"));
  const std::vector<double> fitted = r_["fitted"].get<std::vector<double>>();
  QCOMPARE(predicted.size(), fitted.size());
  // Same model, two summation orders (the backend accumulates mu over 40 steps; predict sums learner
  // effects): rounding differences of a few ulps, so 1e-12 relative.
  for (std::size_t i = 0; i < fitted.size(); ++i)
    QVERIFY2(std::abs(predicted[i] - fitted[i]) <= 1e-12 * std::max(1.0, std::abs(fitted[i])),
             qPrintable(QString("row %1: %2 vs %3").arg(i).arg(predicted[i], 0, 'g', 17).arg(fitted[i], 0, 'g', 17)));
}

void CliFitTest::predictReportsExtrapolation() {
  // Generated x lie in [0,1): rows 2 and 4 step outside on one selected covariate each (a learner the fit never
  // selected is not evaluated, as in mboost's predict, so its values cannot extrapolate).
  std::vector<std::string> selected;
  for (const json& l : r_["learners"])
    if (l["selected"].get<int>() > 0) selected.push_back(l["name"].get<std::string>());
  QVERIFY(selected.size() >= 2);
  std::vector<std::vector<double>> rows(5, std::vector<double>(6, 0.5));
  rows[2] = {0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
  rows[4] = {0.9, 0.1, 0.5, 0.5, 0.5, 0.5};
  const auto column = [](const std::string& name) { return static_cast<std::size_t>(std::stoi(name.substr(1)) - 1); };
  rows[1][column(selected[0])] = 1.5;
  rows[3][column(selected[1])] = -0.25;
  QByteArray csv = "x1,x2,x3,x4,x5,x6\n";
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) csv += (c > 0 ? "," : "") + QByteArray::number(row[c], 'g', 17);
    csv += '\n';
  }
  writeFile(scratch_.path("outside.csv"), csv);
  const QString out = scratch_.path("pred_outside.csv");
  const CliResult r = runGamboost({"predict", "--model", model_, "--data", scratch_.path("outside.csv"), "--out", out});
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  QCOMPARE(r.errLines(), QStringList{"gamboost: note: 2 of 5 rows extrapolated outside the training range"});
  const std::vector<double> predicted = readColumn(out);
  QCOMPARE(predicted.size(), std::size_t(5));
  for (double v : predicted) QVERIFY(std::isfinite(v));
}

void CliFitTest::summaryNamesSelectedAndTruth() {
  const QString& s = fit_.out;
  QVERIFY2(s.contains(QRegularExpression(R"(rows\s+400\b)")), qPrintable(s));
  QVERIFY2(s.contains(QRegularExpression(R"(learners\s+6\b)")), qPrintable(s));
  QVERIFY2(s.contains("lambda"), qPrintable(s));
  QVERIFY2(s.contains(QRegularExpression(R"(\bcpu\b)")), qPrintable(s));
  // The truth file names 2 informative covariates; with amplitude-10 sines both must be found.
  QVERIFY2(s.contains("2 of 2 informative covariates selected"), qPrintable(s));
  // The most selected learner is listed first, with its count from the path.
  const json truth = readJsonFile(data_ + ".truth.json");
  std::map<std::string, int> counts;
  for (const json& index : r_["path"]["learner"])
    ++counts[r_["learners"].at(index.get<std::size_t>())["name"].get<std::string>()];
  int best = 0;
  for (const auto& [name, count] : counts) best = std::max(best, count);
  const QRegularExpression firstRow(R"(-{10,}\n(\S+)\s+(\d+))");
  const auto m = firstRow.match(s);
  QVERIFY2(m.hasMatch(), qPrintable(s));
  QCOMPARE(m.captured(2).toInt(), best);
  QCOMPARE(counts[m.captured(1).toStdString()], best);
}

void CliFitTest::presetIsOverriddenByExplicitOptions() {
  const QString out = scratch_.path("preset.json");
  const CliResult r = runGamboost(
      {"fit", "--data", data_, "--preset", "paper", "--knots", "8", "--mstop", "5", "--out", out, "--quiet"});
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  const json settings = readJsonFile(out)["settings"];
  const std::string text = settings.dump();
  // Explicit: 8 knots, mstop 5; from the paper preset: ridge penalty, clamped knots, trace edf 1.
  QVERIFY2(readJsonFile(out)["learners"][0]["k"].get<int>() == 8 + 3 + 1, text.c_str());
  QVERIFY2(settings["mstop"].get<int>() == 5, text.c_str());
  QVERIFY2(text.find("ridge") != std::string::npos, text.c_str());
  QVERIFY2(text.find("clamped") != std::string::npos, text.c_str());
  QVERIFY2(text.find("trace") != std::string::npos, text.c_str());
}

void CliFitTest::generateIsReproducible() {
  auto generate = [this](const QString& name, const QString& seed) {
    const CliResult r = runGamboost({"generate", "--rows", "50", "--covariates", "3", "--informative", "1", "--seed",
                                     seed, "--out", scratch_.path(name)});
    return r.exitCode == 0 ? readFile(scratch_.path(name)) : QByteArray();
  };
  const QByteArray a = generate("seed7a.csv", "7"), b = generate("seed7b.csv", "7"), c = generate("seed8.csv", "8");
  QVERIFY(!a.isEmpty());
  QVERIFY(a.startsWith("y,x1,x2,x3\n"));
  QCOMPARE(a.count('\n'), 51);  // header + 50 rows
  QCOMPARE(a, b);               // the seed alone decides the file
  QVERIFY(a != c);
  const json truth = readJsonFile(scratch_.path("seed7a.csv.truth.json"));
  QCOMPARE(truth["informative"].size(), std::size_t(1));
  // Without --informative, the default 20 shrinks to --covariates (it was refused: "must be between 0 and 3").
  const CliResult few =
      runGamboost({"generate", "--rows", "20", "--covariates", "3", "--out", scratch_.path("few.csv")});
  QVERIFY2(few.exitCode == 0, qPrintable(few.describe()));
  QCOMPARE(readJsonFile(scratch_.path("few.csv.truth.json"))["informative"].size(), std::size_t(3));
}

void CliFitTest::devicesListsCpu() {
  const CliResult table = runGamboost({"devices"});
  QVERIFY2(table.exitCode == 0, qPrintable(table.describe()));
  QVERIFY2(table.out.contains(QRegularExpression(R"(^\*?\s*cpu\b)", QRegularExpression::MultilineOption)),
           qPrintable(table.out));
  const CliResult machine = runGamboost({"devices", "--json"});
  QVERIFY2(machine.exitCode == 0, qPrintable(machine.describe()));
  const json j = json::parse(machine.out.toStdString());
  QVERIFY(!j["devices"].empty());
  QCOMPARE(j["devices"][0]["backend"].get<std::string>(), std::string("cpu"));
}

void CliFitTest::helpShowsDefaults() {
  const CliResult r = runGamboost({"fit", "--help"});
  QCOMPARE(r.exitCode, 0);
  for (const char* shown : {"--knots INT=20", "--degree INT=3", "--edf NUMBER=4", "--nu NUMBER=0.1",
                            "--mstop INT|cv=100", "extended", "pspline", "mboost"})
    QVERIFY2(r.out.contains(shown), qPrintable(QString(shown) + " missing in\n" + r.out));
  // Options whose default is not a number show none: "--offset NUMBER=0" would say the offset is 0, not the
  // family's, and "--kfold INT=0" a value that is refused.
  for (const char* option :
       {"--offset", "--linear-edf", "--factor-edf", "--kfold", "--bootstrap", "--subsample", "--holdout"})
    QVERIFY2(r.out.contains(QRegularExpression(QString(R"(%1 [A-Z]+\s)").arg(option))),
             qPrintable(QString(option) + " shows a default in\n" + r.out));
}

void CliFitTest::openMpThreadsDoNotSpin() {
  // libgomp prints its settings when it loads if OMP_DISPLAY_ENV=verbose. gamboost runs itself again with the
  // passive wait policy (spin count 0) unless the user chose a policy; a chosen one is kept.
  const bool hadPolicy = qEnvironmentVariableIsSet("OMP_WAIT_POLICY");
  const QByteArray policy = qgetenv("OMP_WAIT_POLICY");
  qputenv("OMP_DISPLAY_ENV", "verbose");
  qunsetenv("OMP_WAIT_POLICY");
  const CliResult unset = runGamboost({"--version"});
  qputenv("OMP_WAIT_POLICY", "active");
  const CliResult active = runGamboost({"--version"});
  qunsetenv("OMP_DISPLAY_ENV");
  if (hadPolicy)
    qputenv("OMP_WAIT_POLICY", policy);
  else
    qunsetenv("OMP_WAIT_POLICY");
  QVERIFY2(unset.finished && unset.exitCode == 0, qPrintable(unset.describe()));
  QVERIFY2(active.finished && active.exitCode == 0, qPrintable(active.describe()));
  if (!unset.err.contains("GOMP_SPINCOUNT"))
    QSKIP("the OpenMP runtime is not libgomp: it does not show its spin count");
  QVERIFY2(unset.err.contains("GOMP_SPINCOUNT = '0'"), qPrintable(unset.err));
  QVERIFY2(active.err.contains("OMP_WAIT_POLICY = 'ACTIVE'") && !active.err.contains("GOMP_SPINCOUNT = '0'"),
           qPrintable(active.err));
}

// A model without splines needs no rows for a spline basis: 10 rows with a linear and a factor learner fit (a
// spline's 24 basis columns at the default 20 knots were once checked even with no spline). Both learners are
// unpenalised, so boosting long enough reaches the least-squares fit of y on 1, x and the indicator of g == "b",
// solved here from the normal equations.
void CliFitTest::linearAndFactorFitOnFewRows() {
  const QString data = scratch_.path("ten.csv"), out = scratch_.path("ten.json");
  QByteArray csv = "y,x,g\n";
  std::vector<double> y, x, b;
  for (int i = 1; i <= 10; ++i) {
    y.push_back((i * 3 % 7) + 0.5);
    x.push_back(i);
    b.push_back(i % 2 ? 1.0 : 0.0);
    csv += QByteArray::number(y.back()) + "," + QByteArray::number(i) + "," + (i % 2 ? "b" : "a") + "\n";
  }
  writeFile(data, csv);
  const CliResult r = runGamboost(
      {"fit", "--data", data, "--linear", "x", "--factor", "g", "--mstop", "3000", "--nu", "0.5", "--out", out});
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err));
  const std::vector<double> fitted = json::parse(readFile(out).toStdString())["fitted"].get<std::vector<double>>();
  QCOMPARE(fitted.size(), y.size());
  // Normal equations of [1 x b] (3 x 3), solved by Cramer's rule.
  double m[3][3] = {}, v[3] = {};
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double row[3] = {1.0, x[i], b[i]};
    for (int a = 0; a < 3; ++a) {
      v[a] += row[a] * y[i];
      for (int c = 0; c < 3; ++c) m[a][c] += row[a] * row[c];
    }
  }
  auto det = [](double q[3][3]) {
    return q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) - q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) +
           q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]);
  };
  double beta[3];
  for (int c = 0; c < 3; ++c) {
    double q[3][3];
    for (int a = 0; a < 3; ++a)
      for (int e = 0; e < 3; ++e) q[a][e] = e == c ? v[a] : m[a][e];
    beta[c] = det(q) / det(m);
  }
  // 3000 steps of nu 0.5 leave the boosting iteration converged far below 1e-9 on 10 rows (both learners hold
  // the intercept, so each step removes at least a fixed share of the remaining least-squares gap).
  for (std::size_t i = 0; i < y.size(); ++i)
    QVERIFY2(std::abs(fitted[i] - (beta[0] + beta[1] * x[i] + beta[2] * b[i])) < 1e-9, qPrintable(QString::number(i)));
}
// --linear-edf without a linear learner changes nothing; the user is told so, on stderr and in result.json's notes.
// --factor-edf with a factor learner present is used, and gets no such note.
void CliFitTest::unusedEdfOptionsAreNoted() {
  const QString data = scratch_.path("edf.csv"), out = scratch_.path("edf.json");
  QByteArray csv = "y,x,g\n";
  for (int i = 1; i <= 40; ++i)
    csv += QByteArray::number((i * 7 % 11) * 0.25) + "," + QByteArray::number(i) + "," + (i % 3 ? "b" : "a") + "\n";
  writeFile(data, csv);
  const CliResult r = runGamboost({"fit", "--data", data, "--spline", "x", "--factor", "g", "--linear-edf", "2.5",
                                   "--factor-edf", "1", "--mstop", "20", "--out", out});
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  QVERIFY2(r.err.contains("gamboost: note: --linear-edf 2.5 has no effect: the model has no linear learner"),
           qPrintable(r.err));
  QVERIFY2(!r.err.contains("--factor-edf"), qPrintable(r.err));
  const json notes = readJsonFile(out)["notes"];
  QCOMPARE(notes.size(), std::size_t(1));
  QCOMPARE(notes[0].get<std::string>(), std::string("--linear-edf 2.5 has no effect: the model has no linear learner"));
}

QTEST_GUILESS_MAIN(CliFitTest)
#include "test_cli_fit.moc"

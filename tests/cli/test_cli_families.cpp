// The families, case weights, linear/factor learners and missing values through the CLI: the rejection contract on
// every bad input the issue lists (exit 2, one stderr line naming the column and row or the option, nothing
// written), and what a good fit writes (family, learner types and levels, rows used/omitted, fitted with nulls,
// predict --type).
#include <QtTest>
#include <cmath>

#include "support/CliRunner.hpp"

using namespace gbtest;

namespace {

// 40 rows: y numeric, cnt counts, bin 0/1, yes text two levels, three text three levels, one text one level,
// x1, x2 numeric, lin numeric, fac text (a, b, c), w weights; row 7 (line 8) has NA in x2.
QByteArray mixedCsv() {
  QByteArray csv = "\"\",\"y\",\"cnt\",\"bin\",\"yes\",\"three\",\"one\",\"x1\",\"x2\",\"lin\",\"fac\",\"w\"\n";
  for (int i = 0; i < 40; ++i) {
    const double x1 = i / 39.0, x2 = std::fmod(i * 0.37, 1.0), lin = std::cos(i * 1.3);
    const double y = std::sin(6 * x1) + x2 + 0.3 * lin;
    const int cnt = static_cast<int>(std::floor(2 + 2 * std::sin(3 * x1) + x2));
    const int bin = (i * 7) % 3 == 0 ? 1 : 0;
    const char* fac[] = {"a", "b", "c"};
    csv += QString("\"%1\",%2,%3,%4,\"%5\",\"%6\",\"k\",%7,%8,%9,\"%10\",%11\n")
               .arg(i + 1)
               .arg(y, 0, 'g', 17)
               .arg(cnt)
               .arg(bin)
               .arg(bin ? "yes" : "no")
               .arg(fac[i % 3])
               .arg(x1, 0, 'g', 17)
               .arg(i == 7 ? QString("NA") : QString::number(x2, 'g', 17))
               .arg(lin, 0, 'g', 17)
               .arg(fac[(i / 2) % 3])
               .arg(1 + i % 3)
               .toUtf8();
  }
  return csv;
}

QStringList fitArgs(const Scratch& s, const QStringList& extra) {
  return QStringList{"fit", "--data", s.path("d.csv"), "--out", s.path("r.json"), "--quiet", "--knots", "4"} + extra;
}

// gamboost predict with the model m.json on new.csv into `out`, the extra options added; exit 0 required.
void predictNew(const Scratch& s, const QString& out, const QStringList& extra = {}) {
  const CliResult r = runGamboost(
      QStringList{"predict", "--model", s.path("m.json"), "--data", s.path("new.csv"), "--out", s.path(out)} + extra);
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
}

}  // namespace

class TestCliFamilies : public QObject {
  Q_OBJECT
 private slots:
  void rejects_data();
  void rejects();
  void binomialFitWritesTheModel();
  void predictTypesAndUnseenLevels();
  void factorLevelsThatAreNumbers();
  void overshootingPoissonIsNoted();
  void hugeCountsNameTheirScale();
  void oscillatingGammaIsNoted();
  void probitModelPredictsItsProbability();
  void binomialOnTwoNumbersIsTheirFactor();
};

void TestCliFamilies::rejects_data() {
  QTest::addColumn<QStringList>("args");
  QTest::addColumn<QString>("pattern");
  const QStringList covariates{"--spline", "x1,x2", "--linear", "lin", "--factor", "fac"};
  QTest::newRow("text response poisson") << (QStringList{"--response", "yes", "--family", "poisson"} + covariates)
                                         << "d.csv:2:5: --response: column 'yes' holds text \\('[a-z]+'\\); --family "
                                            "poisson needs numbers";
  QTest::newRow("non-integer count") << (QStringList{"--response", "y", "--family", "poisson"} + covariates)
                                     << "d.csv:2:2: response 'y' with --family poisson: .* is not a count";
  QTest::newRow("negbin on a non-count") << (QStringList{"--response", "y", "--family", "negbin"} + covariates)
                                         << "d.csv:2:2: response 'y' with --family negbin: .* is not a count";
  QTest::newRow("binomial three levels") << (QStringList{"--response", "three", "--family", "binomial"} + covariates)
                                         << "--response: response 'three' with --family binomial: needs exactly two "
                                            "levels, found 3";
  QTest::newRow("binomial numeric not 0/1") << (QStringList{"--response", "cnt", "--family", "binomial"} + covariates)
                                            << "d.csv:\\d+:3: response 'cnt' with --family binomial: value \\d+ is "
                                               "a third class besides \\d+ and \\d+";
  QTest::newRow("negative weight") << (QStringList{"--response", "y", "--weights", "lin"} +
                                       QStringList{"--spline", "x1"})
                                   << "d.csv:\\d+:10: --weights 'lin': weight -0.\\d+ is not a finite number >= 0";
  QTest::newRow("weights column missing") << (QStringList{"--response", "y", "--weights", "wt", "--spline", "x1"})
                                          << "--weights: no column named 'wt' in .*d.csv";
  QTest::newRow("missing weight, --missing fail")
      << (QStringList{"--response", "y", "--weights", "x2", "--spline", "x1", "--missing", "fail"})
      << "d.csv:9:9: column 'x2': missing value";
  QTest::newRow("factor with one level") << (QStringList{"--response", "y", "--spline", "x1", "--factor", "one"})
                                         << "--factor: column 'one' has one level \\('k'\\)";
  // y ~ . (no learner lists): the text column is a factor learner without any option naming it.
  QTest::newRow("factor with one level, y ~ .")
      << (QStringList{"--response", "y"})
      << "d\\.csv: column 'one' has one level \\('k'\\) in the used rows: a factor needs at least two \\(every text "
         "column is a factor learner unless the learners are named";
  QTest::newRow("tau outside") << (QStringList{"--response", "y", "--family", "quantile", "--tau", "1"} + covariates)
                               << "--tau: must be in \\(0, 1\\) \\(got 1\\)";
  QTest::newRow("huber delta zero") << (QStringList{"--response", "y", "--family", "huber", "--huber-delta", "0"} +
                                        covariates)
                                    << "--huber-delta: must be a finite number greater than 0";
  QTest::newRow("fold option without --mstop cv") << (QStringList{"--response", "y", "--bootstrap", "5"} + covariates)
                                                  << "--bootstrap: chooses mstop only with --mstop cv";
  QTest::newRow("--prob without --mstop cv")
      << (QStringList{"--response", "y", "--prob", "0.3"} + covariates) << "--prob: chooses mstop only with --mstop cv";
  QTest::newRow("--cv-grid without --mstop cv") << (QStringList{"--response", "y", "--cv-grid", "10"} + covariates)
                                                << "--cv-grid: chooses mstop only with --mstop cv";
  QTest::newRow("--cv-grid 0") << (QStringList{"--response", "y", "--mstop", "cv", "--cv-grid", "0"} + covariates)
                               << "--cv-grid: must be in 1..10000000 \\(got 0\\)";
  QTest::newRow("--prob without --subsample")
      << (QStringList{"--response", "y", "--mstop", "cv", "--prob", "0.3"} + covariates)
      << "--prob: is the share of each subsample: give it with --subsample B";
  QTest::newRow("--offset far off the scale")
      << (QStringList{"--response", "cnt", "--family", "poisson", "--offset", "800"} + covariates)
      << "--offset: 800: the poisson risk at this starting value is not finite";
  // A finite risk whose gradient is not: binomial's exp(-2yf) / (1 + exp(-2yf)) is inf / inf past |f| = 355.
  QTest::newRow("--offset with a gradient not finite")
      << (QStringList{"--response", "bin", "--family", "binomial", "--offset", "-400"} + covariates)
      << "--offset: -400: the binomial gradient at this starting value is not finite";
  // Without --huber-delta huber fits with mboost's adaptive d (test_family_references), which no resampling takes
  QTest::newRow("holdout with huber's adaptive d")
      << (QStringList{"--response", "y", "--family", "huber", "--holdout", "0.2"} + covariates)
      << "--holdout: huber without --huber-delta \\(mboost's adaptive d\\) cannot be resampled";
  QTest::newRow("missing fail") << (QStringList{"--response", "y", "--missing", "fail"} + covariates)
                                << "d.csv:9:9: column 'x2': missing value";
  QTest::newRow("unknown family") << QStringList{"--response", "y", "--family", "weibull"}
                                  << "--family: must be 'gaussian', 'binomial', 'poisson', 'laplace', 'huber', "
                                     "'quantile', 'expectile', 'adaexp', 'gamma' or 'negbin'";
  QTest::newRow("binomial on counts names the two-class columns")
      << (QStringList{"--response", "cnt", "--family", "binomial"} + covariates)
      << "d.csv:\\d+:3: response 'cnt' with --family binomial: value [0-9]+ is a third class .*; columns with two "
         "classes: "
         "'bin', 'yes'$";
  QTest::newRow("gamma on a zero") << (QStringList{"--response", "y", "--family", "gamma"} + covariates)
                                   << "d.csv:[0-9]+:2: response 'y' with --family gamma: -[0-9.e-]+ is not positive";
  QTest::newRow("family typo") << QStringList{"--response", "y", "--family", "expectil"}
                               << "--family: must be .* \\(got 'expectil'\\); did you mean 'expectile'\\?";
  QTest::newRow("family case") << QStringList{"--response", "y", "--family", "Binomial"}
                               << "--family: .*did you mean 'binomial'\\? \\(names are case-sensitive\\)";
  QTest::newRow("expectile tau") << (QStringList{"--response", "y", "--family", "expectile", "--tau", "1"} + covariates)
                                 << "--tau: must be in \\(0, 1\\)";
  QTest::newRow("link of another family")
      << (QStringList{"--response", "y", "--family", "poisson", "--link", "probit"} + covariates)
      << "--link: 'probit' is a link of --family binomial only .*; --family poisson has no link to choose";
  QTest::newRow("a column in two roles")
      << QStringList{"--response", "y", "--spline", "x1", "--linear", "x1"}
      << "--linear: 'x1' is already a learner of --spline \\(each column is one "
         "learner; mboost's bols\\(x\\) \\+ bbs\\(x\\) on one column has no equal here\\)$";
  QTest::newRow("a column twice") << QStringList{"--response", "y", "--spline", "x1,x2,x1"}
                                  << "--spline: 'x1' is named twice \\(each column is one learner";
  QTest::newRow("tau of another family")
      << (QStringList{"--response", "y", "--family", "gaussian", "--tau", "0.9"} + covariates)
      << "--tau: is the tau of --family quantile or expectile only .*; --family gaussian has no tau$";
  QTest::newRow("tau without a family") << (QStringList{"--response", "y", "--tau", "0.9"} + covariates)
                                        << "--tau: .*; --family gaussian has no tau$";
  QTest::newRow("huber's d of another family")
      << (QStringList{"--response", "y", "--family", "laplace", "--huber-delta", "2"} + covariates)
      << "--huber-delta: is the d of --family huber only \\(mboost's Huber\\(d\\)\\); --family laplace has no d$";
  QTest::newRow("differences of the ridge penalty")
      << (QStringList{"--response", "y", "--penalty", "ridge", "--differences", "3"} + covariates)
      << "--differences: is the order of --penalty pspline's difference penalty only; --penalty ridge penalises";
  QTest::newRow("unknown link") << (QStringList{"--response", "yes", "--family", "binomial", "--link", "log"} +
                                    covariates)
                                << "--link: must be 'logit', 'probit', 'cloglog' or 'cauchit' \\(got 'log'\\)";
  QTest::newRow("text as spline")
      << QStringList{"--response", "y", "--spline", "fac"}
      << "d.csv:2:11: --spline: column 'fac' holds text \\('[a-z]+'\\): name it with --factor";
}

void TestCliFamilies::rejects() {
  QFETCH(QStringList, args);
  QFETCH(QString, pattern);
  Scratch s;
  writeFile(s.path("d.csv"), mixedCsv());
  const CliResult r = runGamboost(fitArgs(s, args));
  verifyRejected(r, pattern);
  if (QTest::currentTestFailed()) return;
  QVERIFY2(!QFileInfo::exists(s.path("r.json")), "result.json written on failure");
}

void TestCliFamilies::binomialFitWritesTheModel() {
  Scratch s;
  writeFile(s.path("d.csv"), mixedCsv());
  const CliResult r = runGamboost(fitArgs(s, {"--response", "yes", "--family", "binomial", "--spline", "x1,x2",
                                              "--linear", "lin", "--factor", "fac", "--mstop", "30"}));
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  QVERIFY2(r.err.contains("1 of 40 rows omitted for missing values ('x2' 1)"), qPrintable(r.err));
  QVERIFY2(r.err.contains("taken as R's row names"), qPrintable(r.err));
  const QJsonObject j = QJsonDocument::fromJson(readFile(s.path("r.json"))).object();
  QCOMPARE(j["family"].toString(), QString("binomial"));
  QCOMPARE(j["rows_used"].toInt(), 39);
  QCOMPARE(j["rows_omitted"].toInt(), 1);
  QCOMPARE(j["rows_omitted_by_column"].toObject()["x2"].toInt(), 1);
  const QJsonArray fitted = j["fitted"].toArray();
  QCOMPARE(fitted.size(), 40);
  QVERIFY(fitted[7].isNull());
  QVERIFY(fitted[6].isDouble() && fitted[8].isDouble());
  QCOMPARE(j["response_levels"].toArray().last().toString(), QString("yes"));
  const QJsonArray learners = j["learners"].toArray();
  QCOMPARE(learners.size(), 4);
  QCOMPARE(learners[2].toObject()["type"].toString(), QString("linear"));
  QCOMPARE(learners[3].toObject()["type"].toString(), QString("factor"));
  QCOMPARE(learners[3].toObject()["levels"].toArray().size(), 3);
  QCOMPARE(learners[3].toObject()["coefficients"].toArray().size(), 3);
  // The risk path is the binomial negative log-likelihood per row: it starts at the entropy of the class share.
  double events = 0;
  for (int i = 0; i < 40; ++i)
    if (i != 7 && (i * 7) % 3 == 0) ++events;
  const double p = events / 39.0;
  const double entropy = -p * std::log(p) - (1 - p) * std::log(1 - p);
  QVERIFY(std::abs(j["path"].toObject()["risk"].toArray()[0].toDouble() - entropy) < 1e-12);
}

void TestCliFamilies::predictTypesAndUnseenLevels() {
  Scratch s;
  writeFile(s.path("d.csv"), mixedCsv());
  CliResult r = runGamboost(fitArgs(s, {"--response", "cnt", "--family", "poisson", "--spline", "x1", "--factor", "fac",
                                        "--mstop", "20", "--model", s.path("m.json")}));
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  writeFile(s.path("new.csv"), "x1,fac\n0.5,\"b\"\n0.25,\"a\"\n");
  predictNew(s, "link.csv");
  predictNew(s, "rate.csv", {"--type", "response"});
  if (QTest::currentTestFailed()) return;
  const std::vector<double> link = readColumn(s.path("link.csv")), rate = readColumn(s.path("rate.csv"));
  QCOMPARE(link.size(), std::size_t{2});
  for (std::size_t i = 0; i < 2; ++i) QVERIFY(std::abs(rate[i] - std::exp(link[i])) <= 1e-15 * rate[i]);
  writeFile(s.path("bad.csv"), "x1,fac\n0.5,\"b\"\n0.25,\"zz\"\n");
  r = runGamboost({"predict", "--model", s.path("m.json"), "--data", s.path("bad.csv"), "--out", s.path("p.csv")});
  verifyRejected(r, "bad.csv:3:2: factor 'fac': level 'zz' was not seen in training");
  QVERIFY(!QFileInfo::exists(s.path("p.csv")));
}

// Factor levels that read as numbers. A new file whose factor column holds only numbers has lost their spelling:
// a number is matched to the level that reads as it ("01" for 1), and where two levels read as it ("01" and "1")
// it is an error, not a silent pick; a text column keeps the spelling. A numeric factor's levels stay distinct
// where 15 digits would merge them (0.3 and 0.1 + 0.2), and -0 is level "0": predict takes the training file back.
void TestCliFamilies::factorLevelsThatAreNumbers() {
  Scratch s;
  const auto fitted = [&] {
    const QJsonArray a = QJsonDocument::fromJson(readFile(s.path("r.json"))).object()["fitted"].toArray();
    std::vector<double> v;
    for (const QJsonValue& x : a) v.push_back(x.toDouble());
    return v;
  };
  const auto predicted = [&](const QByteArray& csv) {
    writeFile(s.path("new.csv"), csv);
    predictNew(s, "p.csv");
    return readColumn(s.path("p.csv"));
  };
  // Levels 01, 02, A (a text column): rows 0, 1, 2 hold them, y far apart.
  writeFile(s.path("d.csv"), "y,code\n1,01\n50,02\n100,A\n2,01\n51,02\n99,A\n");
  const QStringList model{"--response", "y",    "--factor", "code",    "--mstop",
                          "30",         "--nu", "0.5",      "--model", s.path("m.json")};
  CliResult r = runGamboost(fitArgs(s, model));
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  std::vector<double> f = fitted();
  std::vector<double> p = predicted("code\n2\n1\n");  // zero-padded codes read as numbers
  QVERIFY(!p.empty());
  QCOMPARE(p, (std::vector<double>{f[1], f[0]}));
  // Levels 01, 1, A: the number 1 is both; the text "01" is one of them.
  writeFile(s.path("d.csv"), "y,code\n1,01\n50,1\n100,A\n2,01\n51,1\n99,A\n");
  r = runGamboost(fitArgs(s, model));
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  f = fitted();
  writeFile(s.path("new.csv"), "code\n01\n1\n");
  verifyRejected(
      runGamboost({"predict", "--model", s.path("m.json"), "--data", s.path("new.csv"), "--out", s.path("q.csv")}),
      "new.csv:2:1: factor 'code': the number '1' is both level '01' and level '1' of the model");
  QVERIFY(!QFileInfo::exists(s.path("q.csv")));
  p = predicted("code\n1\n01\nA\n");
  QCOMPARE(p, (std::vector<double>{f[1], f[0], f[2]}));
  // A numeric factor: 0.3, 0.1 + 0.2 (0.30000000000000004), -0 and 0.
  writeFile(s.path("d.csv"), "y,v\n1,0.3\n50,0.30000000000000004\n100,-0\n2,0.3\n51,0.30000000000000004\n99,0\n");
  r = runGamboost(
      fitArgs(s, {"--response", "y", "--factor", "v", "--mstop", "30", "--nu", "0.5", "--model", s.path("m.json")}));
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  const QJsonArray levels = QJsonDocument::fromJson(readFile(s.path("m.json")))
                                .object()["learners"]
                                .toArray()
                                .at(0)
                                .toObject()["levels"]
                                .toArray();
  QCOMPARE(levels, (QJsonArray{"0", "0.3", "0.30000000000000004"}));
  f = fitted();
  p = predicted(readFile(s.path("d.csv")));
  QCOMPARE(p, f);
}

// Poisson on counts of 10 to 70 with two factor learners (warpbreaks' shape) at mboost's nu 0.1: the steps,
// nu (y - exp(f)) on the log scale, overshoot and the training risk ends above the offset's while staying finite
// (mboost's too). The fit is written (exit 0) with a note that says so; at nu 0.01 the risk falls and no note.
void TestCliFamilies::overshootingPoissonIsNoted() {
  Scratch s;
  QByteArray csv = "breaks,wool,tension\n";
  for (int i = 0; i < 54; ++i)
    csv += QByteArray::number(10 + (i * 37) % 61) + "," + (i < 27 ? "A" : "B") + "," + "LMH"[(i / 9) % 3] + "\n";
  writeFile(s.path("d.csv"), csv);
  const QStringList args{"--response", "breaks", "--family", "poisson", "--factor", "wool,tension"};
  const CliResult r = runGamboost(fitArgs(s, args));
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  const QJsonObject j = QJsonDocument::fromJson(readFile(s.path("r.json"))).object();
  const QJsonArray risk = j["path"].toObject()["risk"].toArray();
  QVERIFY2(risk.last().toDouble() > risk.first().toDouble(), "the data no longer overshoot at nu 0.1");
  const QString note = QJsonDocument(j["notes"].toArray()).toJson(QJsonDocument::Compact);
  QVERIFY2(note.contains("above the offset's") && note.contains("lower --nu"), qPrintable(note));
  QVERIFY2(r.err.contains("above the offset's"), qPrintable(r.err));
  const CliResult small = runGamboost(fitArgs(s, args + QStringList{"--nu", "0.01"}));
  QVERIFY2(small.finished && small.exitCode == 0, qPrintable(small.describe()));
  QVERIFY2(!small.err.contains("above the offset's"), qPrintable(small.err));
}

// Poisson counts near 1e12: the first step, nu (y - exp(f)) on the log scale, overflows exp at any nu like 0.01, so
// the advice names the counts' scale and a --nu near 1 / the largest count, and a fit at that nu is written.
void TestCliFamilies::hugeCountsNameTheirScale() {
  Scratch s;
  QByteArray csv = "y,x\n";
  for (int i = 0; i < 80; ++i)
    csv += QByteArray::number(std::floor(1e12 * std::exp(std::sin(6.0 * i / 80))), 'f', 0) + "," +
           QByteArray::number(i / 80.0) + "\n";
  writeFile(s.path("d.csv"), csv);
  const QStringList args{"--family", "poisson"};
  for (const char* nu : {"0.1", "0.001"}) {
    const CliResult r = runGamboost(fitArgs(s, args + QStringList{"--nu", nu}));
    verifyRejected(r,
                   "the fit diverged: .*counts' scale \\(up to 2\\.72e\\+12\\).*lower --nu to about "
                   "1/2\\.72e\\+12 or less \\(e\\.g\\. --nu 1e-13");
    QVERIFY(!QFileInfo::exists(s.path("r.json")));
  }
  const CliResult suggested = runGamboost(fitArgs(s, args + QStringList{"--nu", "1e-13"}));
  QVERIFY2(suggested.finished && suggested.exitCode == 0, qPrintable(suggested.describe()));
  const QJsonArray risk =
      QJsonDocument::fromJson(readFile(s.path("r.json"))).object()["path"].toObject()["risk"].toArray();
  QVERIFY2(risk.last().toDouble() < risk.first().toDouble(), "the suggested nu did not lower the risk");
}

// R's faithful (write.csv), eruptions ~ bbs(waiting) with GammaReg at mboost's nu 0.1: the shape sigma, chosen
// again every iteration, rescales the gradient and the steps overshoot, so the training risk rises and falls from
// the start though it ends below the offset's (mboost's fit there moves by 0.6 when y changes by a relative 1e-14).
// The note says at how many iterations the risk rose, counted here from result.json's path; at nu 0.01 the risk
// falls at every iteration and there is no note.
void TestCliFamilies::oscillatingGammaIsNoted() {
  Scratch s;
  const QString data = QString(GB_SOURCE_DIR) + "/tests/data/faithful.csv";
  const QStringList args{"fit",        "--data",    data,       "--out", s.path("r.json"), "--quiet",
                         "--response", "eruptions", "--family", "gamma", "--mstop",        "100"};
  QJsonArray risk;
  const auto rises = [&](qsizetype& first) {  // the path's rises above 1e-6 of its largest |risk|
    risk = QJsonDocument::fromJson(readFile(s.path("r.json"))).object()["path"].toObject()["risk"].toArray();
    double scale = 0;
    for (const QJsonValue& v : risk) scale = std::max(scale, std::abs(v.toDouble()));
    int count = 0;
    for (qsizetype m = 1; m < risk.size(); ++m)
      if (risk[m].toDouble() - risk[m - 1].toDouble() > 1e-6 * scale && count++ == 0) first = m;
    return count;
  };
  CliResult r = runGamboost(args);
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  qsizetype first = 0;
  const int count = rises(first);
  QCOMPARE(risk.size(), 101);
  QVERIFY2(risk.last().toDouble() < risk.first().toDouble(), "the risk now ends above the offset's");
  QVERIFY2(count >= 10, qPrintable(QString("the risk rose at only %1 iterations at nu 0.1").arg(count)));
  const QString expected =
      QString("the training risk rose at %1 of 100 iterations (the first at iteration %2)").arg(count).arg(first);
  QVERIFY2(r.err.contains(expected) && r.err.contains("--nu 0.01"), qPrintable(r.err + "\nexpected: " + expected));
  r = runGamboost(args + QStringList{"--nu", "0.01"});
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  QCOMPARE(rises(first), 0);
  QCOMPARE(risk.size(), 101);
  QVERIFY2(!r.err.contains("training risk"), qPrintable(r.err));
}

// Binomial(link = "probit"): the link is kept in the model file, so predict's response scale is Phi(f), f on the probit
// scale; the summary names the link. Phi is computed here as erfc(-f / sqrt 2) / 2: a few ulps from the engine's.
void TestCliFamilies::probitModelPredictsItsProbability() {
  Scratch s;
  writeFile(s.path("d.csv"), mixedCsv());
  CliResult r = runGamboost(fitArgs(s, {"--response", "yes", "--family", "binomial", "--link", "probit", "--spline",
                                        "x1", "--mstop", "40", "--model", s.path("m.json"), "--summary"}));
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  QVERIFY2(r.out.contains("binomial, link probit") || r.err.contains("binomial, link probit"),
           qPrintable(r.describe()));
  const QJsonObject m = QJsonDocument::fromJson(readFile(s.path("m.json"))).object();
  QCOMPARE(m["settings"].toObject()["link"].toString(), QString("probit"));
  writeFile(s.path("new.csv"), "x1\n0.1\n0.5\n0.9\n");
  predictNew(s, "f.csv");
  predictNew(s, "p.csv", {"--type", "response"});
  if (QTest::currentTestFailed()) return;
  const std::vector<double> f = readColumn(s.path("f.csv")), p = readColumn(s.path("p.csv"));
  QCOMPARE(f.size(), std::size_t{3});
  for (std::size_t i = 0; i < 3; ++i)
    QVERIFY2(std::abs(p[i] - 0.5 * std::erfc(-f[i] / std::sqrt(2.0))) <= 1e-15,
             qPrintable(QString("f %1: p %2").arg(f[i], 0, 'g', 17).arg(p[i], 0, 'g', 17)));
}

QTEST_GUILESS_MAIN(TestCliFamilies)
#include "test_cli_families.moc"

// A numeric response with two values is what R's factor(y) makes of it, the larger value the event: 1/2 and -1/1
// fit as 0/1 and as two text levels do, to the last bit (the same -1/+1 coding).
void TestCliFamilies::binomialOnTwoNumbersIsTheirFactor() {
  Scratch s;
  QByteArray csv = "x1,y01,y12,ypm,ytxt\n";
  for (int i = 0; i < 40; ++i) {
    const bool event = (i * 7) % 3 == 0 || i % 5 == 1;
    csv += QByteArray::number(i / 40.0) + (event ? ",1,2,1,yes\n" : ",0,1,-1,no\n");
  }
  writeFile(s.path("d.csv"), csv);
  QJsonArray reference;
  for (const char* response : {"y01", "y12", "ypm", "ytxt"}) {
    const CliResult r =
        runGamboost(fitArgs(s, {"--response", response, "--family", "binomial", "--spline", "x1", "--mstop", "25"}));
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject j = QJsonDocument::fromJson(readFile(s.path("r.json"))).object();
    const QJsonArray levels = j["response_levels"].toArray();
    QCOMPARE(levels.size(), 2);
    const QString expected = QString(response) == "y12"   ? "1,2"
                             : QString(response) == "ypm" ? "-1,1"
                             : QString(response) == "y01" ? "0,1"
                                                          : "no,yes";
    QCOMPARE(levels[0].toString() + "," + levels[1].toString(), expected);
    if (reference.isEmpty())
      reference = j["fitted"].toArray();
    else
      QCOMPARE(j["fitted"].toArray(), reference);
  }
  writeFile(s.path("d.csv"), "x1,y\n0.1,1\n0.2,2\n0.3,3\n0.4,1\n");
  const CliResult r = runGamboost(fitArgs(s, {"--response", "y", "--family", "binomial", "--mstop", "5"}));
  QCOMPARE(r.exitCode, 2);
  QVERIFY2(r.err.contains("d.csv:4:2: response 'y' with --family binomial: value 3 is a third class besides 1 and 2"),
           qPrintable(r.err));
}

// Real models from the window (issue 11): column roles of every kind reach the fit; the family picker (binomial's
// half log-odds on the effect plots, huber's delta or adaptive d) and its options survive a session file; factor
// effects show their level names; linear effects are lines; the fitted-vs-observed plot has one point per used row.
#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QStatusBar>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "compute/Booster.hpp"
#include "data/ColumnRolesTable.hpp"
#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "plots/EffectPlot.hpp"
#include "plots/FitDiagnostics.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/RiskPlot.hpp"
#include "support/StudioFixture.hpp"
#include "window/ElidedLabel.hpp"

using namespace gbui;

namespace {

void setRole(MainWindow& w, const QString& column, ColumnRolesTable::Role role) {
  ColumnRolesTable* t = w.dataPanel()->rolesTable();
  for (int r = 0; r < t->rowCount(); ++r)
    if (t->item(r, ColumnRolesTable::NameColumn)->text() == column)
      qobject_cast<QComboBox*>(t->cellWidget(r, ColumnRolesTable::RoleColumn))->setCurrentIndex(role);
}

int learnerIndex(const FitSetup& setup, const std::string& name) {
  for (std::size_t j = 0; j < setup.learners.size(); ++j)
    if (setup.learners[j].name == name) return static_cast<int>(j);
  return -1;
}

// y = 0/1 with P(y = 1) = logistic(2 sin(1.5 x1) + 0.5 x2), seed 11.
// The fitted-vs-observed plot draws response(f) of the booster's fitted values (compared as sorted sets, within
// absolute + relative * value).
void verifyDrawnResponse(MainWindow& w, double (*response)(double), double absolute, double relative) {
  std::vector<double> want;
  for (double f : w.controller()->booster()->fitted()) want.push_back(response(f));
  std::sort(want.begin(), want.end());
  std::vector<double> drawn;
  const FitDiagnostics* d = w.diagnostics();
  for (auto it = d->fittedGraph()->data()->constBegin(); it != d->fittedGraph()->data()->constEnd(); ++it)
    drawn.push_back(it->value);
  std::sort(drawn.begin(), drawn.end());
  QCOMPARE(drawn.size(), want.size());
  for (std::size_t i = 0; i < drawn.size(); ++i) QVERIFY(std::abs(drawn[i] - want[i]) <= absolute + relative * want[i]);
}

QByteArray binomialCsv(int n) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-2.0, 2.0), p01(0.0, 1.0);
  QByteArray csv = "y,x1,x2\n";
  for (int i = 0; i < n; ++i) {
    const double x1 = u(rng), x2 = u(rng);
    const double p = 1.0 / (1.0 + std::exp(-(2.0 * std::sin(1.5 * x1) + 0.5 * x2)));
    csv += QByteArray::number(p01(rng) < p ? 1 : 0) + "," + QByteArray::number(x1, 'g', 10) + "," +
           QByteArray::number(x2, 'g', 10) + "\n";
  }
  return csv;
}

// y = sin(x) + level effect (alpha 0, beta 3, gamma -2) + noise; g a text column; x missing in rows 5, 50, 100.
std::shared_ptr<gb::Dataset> factorData(int n) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  std::normal_distribution<double> noise(0.0, 0.3);
  const double effect[] = {0.0, 3.0, -2.0};
  auto d = std::make_shared<gb::Dataset>();
  d->source = "factors";
  d->names = {"y", "x", "g"};
  d->columns.assign(3, std::vector<double>(static_cast<std::size_t>(n)));
  d->kinds = {gb::ColumnKind::Numeric, gb::ColumnKind::Numeric, gb::ColumnKind::Text};
  d->levels = {{}, {}, {"alpha", "beta", "gamma"}};
  for (int i = 0; i < n; ++i) {
    const double x = u(rng);
    const int g = i % 3;
    d->columns[0][i] = std::sin(x) + effect[g] + noise(rng);
    d->columns[1][i] = x;
    d->columns[2][i] = g;
  }
  for (int i : {5, 50, 100}) d->columns[1][i] = std::numeric_limits<double>::quiet_NaN();
  return d;
}

// A family with a nuisance parameter (gamma's shape, negbin's size) fitted to y = draw(mean) at mean
// exp(0.8 sin(x1) + 0.2 x2): the parameter reaches the window's family (the teaching views recompute their
// gradients with it at their own f), lies in (lo, hi), and the log says it as the CLI's note does ("<word> sigma at
// the last iteration"); the fitted-vs-observed plot draws exp(f), the risk is named.
template <typename Draw>
void fitsWithItsNuisance(const char* family, Draw draw, const char* word, double lo, double hi) {
  auto w = gbtest::emptyWindow(family);
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  QByteArray csv = "y,x1,x2\n";
  for (int i = 0; i < 300; ++i) {
    const double x1 = u(rng), x2 = u(rng);
    csv += QByteArray::number(draw(rng, std::exp(0.8 * std::sin(x1) + 0.2 * x2)), 'g', 12) + "," +
           QByteArray::number(x1, 'g', 10) + "," + QByteArray::number(x2, 'g', 10) + "\n";
  }
  QVERIFY(gbtest::openCsvText(*w, QString(family) + ".csv", csv));
  gbtest::chooseFamily(*w, family, 60);
  QStringList log;
  QObject::connect(w->messages(), &MessageSink::posted, w.get(),
                   [&log](Severity, const QString& text, const QString&) { log << text; });
  QVERIFY(gbtest::fitAndWait(*w));
  const gb::Booster& b = *w->controller()->booster();
  QCOMPARE(QString::fromStdString(gb::toString(b.settings().family)), QString(family));
  QVERIFY2(b.family().sigma > lo && b.family().sigma < hi, qPrintable(QString::number(b.family().sigma)));
  QVERIFY2(log.join("\n").contains(
               QString("%1 sigma at the last iteration: %2").arg(word).arg(b.family().sigma, 0, 'g', 10)),
           qPrintable(log.join("\n")));
  w->showTab(w->riskPlot());
  QVERIFY2(w->riskPlot()->plot()->yAxis->label().contains("negative log-likelihood"),
           qPrintable(w->riskPlot()->plot()->yAxis->label()));
  verifyDrawnResponse(
      *w, [](double f) { return std::exp(f); }, 0.0, 1e-12);
}
}  // namespace

class FamiliesTest : public QObject {
  Q_OBJECT

 private slots:
  // a spline, a linear, a factor and a weights column chosen in the roles table reach the Booster's settings.
  void everyRoleReachesTheFit() {
    auto w = gbtest::emptyWindow("roles");
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    QByteArray csv = "y,a,b,g,w\n";
    for (int i = 0; i < 300; ++i) {
      const double a = u(rng), b = u(rng);
      const int g = 10 * (1 + i % 3);
      csv += QByteArray::number(std::sin(6 * a) + 4 * b + g / 10.0 + 0.1 * u(rng), 'g', 12) + "," +
             QByteArray::number(a, 'g', 12) + "," + QByteArray::number(b, 'g', 12) + "," + QByteArray::number(g) + "," +
             QByteArray::number(1 + i % 2) + "\n";
    }
    QVERIFY(gbtest::openCsvText(*w, "roles.csv", csv));
    setRole(*w, "b", ColumnRolesTable::Linear);
    setRole(*w, "g", ColumnRolesTable::Factor);
    setRole(*w, "w", ColumnRolesTable::Weights);
    w->modelPanel()->mstopBox()->setValue(150);
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    const gb::ModelSettings& s = w->controller()->booster()->settings();
    QCOMPARE(s.learners, std::vector<std::string>{"a"});
    QCOMPARE(s.linears, std::vector<std::string>{"b"});
    QCOMPARE(s.factors, std::vector<std::string>{"g"});
    QCOMPARE(s.weights, std::string("w"));
    QCOMPARE(w->controller()->booster()->frame().weights.size(), std::size_t(300));
    const FitSetup& setup = *w->controller()->setup();
    const int b = learnerIndex(setup, "b");
    QVERIFY(setup.learners[b].type == gb::LearnerType::Linear);
    QVERIFY(setup.learners[learnerIndex(setup, "g")].type == gb::LearnerType::Factor);
    // The linear effect is drawn as a straight line without a level ticker.
    w->showTab(w->effectsView());
    EffectPlot* plot = w->effectsView()->plotFor(b);
    QVERIFY2(plot, "b (slope 4) was never selected");
    QCOMPARE(plot->effectGraph()->lineStyle(), QCPGraph::lsLine);
    QVERIFY(!plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>());
    const auto& data = *plot->effectGraph()->data();
    QVERIFY(data.size() > 2);
    const double slope = (data.at(1)->value - data.at(0)->value) / (data.at(1)->key - data.at(0)->key);
    QVERIFY2(slope > 1.0, qPrintable(QString::number(slope)));
    for (int i = 2; i < data.size(); ++i)
      QVERIFY(std::abs(data.at(0)->value + slope * (data.at(i)->key - data.at(0)->key) - data.at(i)->value) < 1e-9);
    QVERIFY(w->riskPlot()->plot()->yAxis->label().contains("weighted"));
  }

  // A 0/1 response fitted as binomial: f is half the log-odds on every effect plot, the risk is a likelihood.
  void binomialFitNamesItsScale() {
    auto w = gbtest::emptyWindow("binomial");
    QVERIFY(gbtest::openCsvText(*w, "binomial.csv", binomialCsv(400)));
    gbtest::chooseFamily(*w, "binomial", 120);
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    QVERIFY(w->controller()->booster()->settings().family == gb::Family::Binomial);
    w->showTab(w->effectsView());
    const QList<int> shown = w->effectsView()->shownLearners();
    QVERIFY(!shown.isEmpty());
    for (int j : shown) {
      const QString label = w->effectsView()->plotFor(j)->yAxis->label();
      QVERIFY2(label.contains("half log-odds") && label.startsWith("y"), qPrintable(label));
    }
    w->effectsView()->enlarge(shown.front());
    QVERIFY(w->effectsView()->detailPlot()->yAxis->label().contains("half log-odds"));
    w->showTab(w->riskPlot());
    QVERIFY2(w->riskPlot()->plot()->yAxis->label().contains("negative log-likelihood"),
             qPrintable(w->riskPlot()->plot()->yAxis->label()));
    const QString status = w->statusLine()->fullText();
    QVERIFY2(status.contains("Response y (binomial"), qPrintable(status));
    // Fitted probabilities against the observed 0/1, one point per row.
    const FitDiagnostics* d = w->diagnostics();
    QCOMPARE(d->fittedGraph()->data()->size(), 400);
    for (auto it = d->fittedGraph()->data()->constBegin(); it != d->fittedGraph()->data()->constEnd(); ++it) {
      QVERIFY(it->key == 0.0 || it->key == 1.0);
      QVERIFY(it->value > 0.0 && it->value < 1.0);
    }
    // At 1280 x 800 each line of the fitted plot's title fits the plot (on one line it was clipped at both ends).
    w->resize(1280, 800);
    w->showTab(w->diagnostics());
    QTest::qWait(100);
    const QFontMetrics metrics(QFont(d->fittedPlot()->font().family(), 9, QFont::Bold));
    for (const QString& line : d->fittedPlot()->title().split('\n'))
      QVERIFY2(
          metrics.horizontalAdvance(line) < d->fittedPlot()->width(),
          qPrintable(
              QString("%1: %2 px in %3").arg(line).arg(metrics.horizontalAdvance(line)).arg(d->fittedPlot()->width())));
  }

  // A text column is a factor by default; its plot has one point per level and the level names on the x axis;
  // rows with a missing x are left out of the fit and of the fitted-vs-observed plot.
  void factorLevelsAndUsedRows() {
    auto w = gbtest::emptyWindow("factor");
    w->dataPanel()->useDataset(factorData(240));
    QCOMPARE(w->dataPanel()->roles().factors, QStringList{"g"});
    QCOMPARE(w->dataPanel()->roles().learners, QStringList{"x"});
    w->modelPanel()->mstopBox()->setValue(200);
    QStringList log;
    connect(w->messages(), &MessageSink::posted, this,
            [&log](Severity, const QString& text, const QString&) { log << text; });
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    const FitSetup& setup = *w->controller()->setup();
    const int g = learnerIndex(setup, "g");
    QVERIFY(g >= 0);
    w->showTab(w->effectsView());
    EffectPlot* plot = w->effectsView()->plotFor(g);
    QVERIFY2(plot, "the factor was never selected");
    auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().values(), QStringList({"alpha", "beta", "gamma"}));
    QCOMPARE(plot->effectGraph()->data()->size(), 3);
    QCOMPARE(plot->effectGraph()->lineStyle(), QCPGraph::lsNone);
    const auto& f = *plot->effectGraph()->data();
    QVERIFY2(f.at(1)->value - f.at(0)->value > 2.5 && f.at(2)->value - f.at(0)->value < -1.5, "level effects");

    QCOMPARE(w->controller()->booster()->rows(), std::size_t(237));
    QCOMPARE(w->diagnostics()->fittedGraph()->data()->size(), 237);
    QCOMPARE(w->diagnostics()->residualGraph()->data()->size(), 237);
    // Residual = observed - fitted, row by row (both plots hold the same rows).
    const std::vector<double> fitted = w->controller()->booster()->fitted();
    double sumResidual = 0.0, expected = 0.0;
    for (auto it = w->diagnostics()->residualGraph()->data()->constBegin();
         it != w->diagnostics()->residualGraph()->data()->constEnd(); ++it)
      sumResidual += it->value;
    for (std::size_t i = 0; i < fitted.size(); ++i) expected += setup.observed[i] - fitted[i];
    QVERIFY(std::abs(sumResidual - expected) < 1e-9);
    QVERIFY2(w->statusLine()->fullText().contains("3 of 240 rows omitted"), qPrintable(w->statusLine()->fullText()));
    // The log keeps what the status line shows only while it lasts, and sums up the finished fit, as `fit` does.
    const QString said = log.join("\n");
    QVERIFY2(said.contains("Fit: 3 of 240 rows omitted"), qPrintable(said));
    const gb::BoostPath& path = w->controller()->booster()->path();
    QVERIFY2(said.contains(QString("Fit finished: 200 iterations; training risk %1 at the offset, %2 at the end")
                               .arg(path.risk.front(), 0, 'g', 6)
                               .arg(path.risk.back(), 0, 'g', 6)),
             qPrintable(said));
    int chosenG = 0;
    for (int j : path.learner)
      chosenG += w->controller()->booster()->learners()[static_cast<std::size_t>(j)].name == "g";
    QVERIFY2(said.contains(QString("g %1").arg(chosenG)), qPrintable(said));
  }

  // AdaBoost's exponential loss (mboost's AdaExp) on a two-class response: coded as binomial's, its fitted values
  // drawn as probabilities, its risk named.
  void adaexpIsATwoClassFamily() {
    auto w = gbtest::emptyWindow("adaexp");
    QVERIFY(gbtest::openCsvText(*w, "adaexp.csv", binomialCsv(300)));
    gbtest::chooseFamily(*w, "adaexp", 60);
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY(w->controller()->booster()->settings().family == gb::Family::AdaExp);
    w->showTab(w->riskPlot());
    QVERIFY2(w->riskPlot()->plot()->yAxis->label().contains("exponential loss"),
             qPrintable(w->riskPlot()->plot()->yAxis->label()));
    const FitDiagnostics* d = w->diagnostics();
    QCOMPARE(d->fittedGraph()->data()->size(), 300);
    for (auto it = d->fittedGraph()->data()->constBegin(); it != d->fittedGraph()->data()->constEnd(); ++it)
      QVERIFY((it->key == 0.0 || it->key == 1.0) && it->value > 0.0 && it->value < 1.0);
  }

  // Binomial(link = "probit"): the link row shows for the binomial only, reaches the fit, and the fitted-vs-observed
  // plot draws Phi(f) (written here as erfc(-f / sqrt 2) / 2; a few ulps from the engine's form).
  void binomialTakesItsLink() {
    auto w = gbtest::emptyWindow("probit");
    QVERIFY(gbtest::openCsvText(*w, "probit.csv", binomialCsv(300)));
    ModelPanel* panel = w->modelPanel();
    gbtest::chooseFamily(*w, "gaussian", 60);
    QVERIFY(!panel->linkBox()->isVisibleTo(panel));
    gbtest::chooseFamily(*w, "binomial", 60);
    QVERIFY(panel->linkBox()->isVisibleTo(panel));
    panel->linkBox()->setCurrentIndex(panel->linkBox()->findData("probit"));
    QVERIFY(panel->settings().link == gb::BinomialLink::Probit);
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY(w->controller()->booster()->settings().link == gb::BinomialLink::Probit);
    verifyDrawnResponse(
        *w, [](double f) { return 0.5 * std::erfc(-f / std::sqrt(2.0)); }, 1e-15, 0.0);
    // Another family takes no link: the row hides and the settings fall back to logit
    gbtest::chooseFamily(*w, "poisson", 60);
    QVERIFY(!panel->linkBox()->isVisibleTo(panel));
    QVERIFY(panel->settings().link == gb::BinomialLink::Logit);
  }

  // GammaReg, shape 3: the estimate between 1 and 10.
  void gammaFitsAPositiveResponse() {
    fitsWithItsNuisance(
        "gamma",
        [](std::mt19937_64& rng, double mean) { return mean * std::gamma_distribution<double>(3.0, 1.0 / 3.0)(rng); },
        "shape", 1.0, 10.0);
  }
  // NBinomial, size 2 (a Poisson count whose rate is gamma-distributed, mean 1 and variance 1/2, about the mean):
  // the size between 0.7 and 6, clear of Poisson's limit at the interval's top, 100.
  void negbinFitsOverdispersedCounts() {
    fitsWithItsNuisance(
        "negbin",
        [](std::mt19937_64& rng, double mean) {
          const double rate = mean * std::gamma_distribution<double>(2.0, 0.5)(rng);
          return static_cast<double>(std::poisson_distribution<int>(rate)(rng));
        },
        "size", 0.7, 6.0);
  }

  // Expectile regression (mboost's ExpectReg): its tau shows as for quantile, reaches the fit, and the risk is named.
  void expectileTakesItsTau() {
    auto w = gbtest::makeWindow(300, 3, 40, 4, "expectile");
    ModelPanel* panel = w->modelPanel();
    gbtest::chooseFamily(*w, "expectile", 40);
    QVERIFY(panel->tauBox()->isVisibleTo(panel));
    QVERIFY(!panel->huberDeltaBox()->isVisibleTo(panel));
    panel->tauBox()->setValue(0.8);
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    const gb::ModelSettings used = w->controller()->booster()->settings();
    QVERIFY(used.family == gb::Family::Expectile);
    QCOMPARE(used.tau, 0.8);
    w->showTab(w->riskPlot());
    QVERIFY2(w->riskPlot()->plot()->yAxis->label().contains("asymmetric squared error"),
             qPrintable(w->riskPlot()->plot()->yAxis->label()));
    const std::vector<double>& risk = w->controller()->booster()->path().risk;
    QVERIFY(risk.size() == 41 && risk.back() < risk.front());
  }

  // Huber's delta is shown only for huber; at 0 (shown as adaptive) the fit takes mboost's adaptive d (Huber()) and
  // the log gives the last d, as the CLI's note does; a delta set is the fit's fixed d.
  void huberTakesItsDeltaOrAdapts() {
    auto w = gbtest::makeWindow(400, 4, 30, 2, "huber");
    ModelPanel* panel = w->modelPanel();
    QVERIFY(!panel->huberDeltaBox()->isVisibleTo(panel));
    QVERIFY(!panel->tauBox()->isVisibleTo(panel));
    gbtest::chooseFamily(*w, "huber", 30);
    QVERIFY(panel->huberDeltaBox()->isVisibleTo(panel));
    QVERIFY(!panel->tauBox()->isVisibleTo(panel));
    QCOMPARE(panel->huberDeltaBox()->value(), 0.0);
    QVERIFY(panel->huberDeltaBox()->text().startsWith("adaptive"));
    QStringList log;
    connect(w->messages(), &MessageSink::posted, this,
            [&log](Severity, const QString& text, const QString&) { log << text; });
    QVERIFY(gbtest::fitAndWait(*w));
    const gb::FamilyFunctions& adaptive = w->controller()->booster()->family();
    QVERIFY(adaptive.adaptiveDelta);
    QVERIFY(adaptive.riskDelta > 0.0);
    QVERIFY2(log.join("\n").contains(
                 QString("Huber's adaptive d at the last iteration: %1").arg(adaptive.riskDelta, 0, 'g', 10)),
             qPrintable(log.join("\n")));
    panel->huberDeltaBox()->setValue(0.5);
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    QCOMPARE(w->controller()->booster()->settings().huberDelta, 0.5);
    w->showTab(w->riskPlot());
    QVERIFY(w->riskPlot()->plot()->yAxis->label().contains("Huber loss"));
  }

  // The race of a family other than gaussian is of the negative gradient u (laplace: +-1), not of residuals: its
  // "residual sum of squares" was the row count, in "squared response units".
  void raceNamesTheGradient() {
    auto w = gbtest::makeWindow(400, 4, 30, 2, "race-laplace");
    QVERIFY(gbtest::stepAndWait(*w));
    QVERIFY2(w->raceView()->summary().contains("residual sum of squares"), qPrintable(w->raceView()->summary()));
    QVERIFY(w->raceView()->plot()->yAxis->label().contains("response units"));
    gbtest::chooseFamily(*w, "laplace", 30);
    QVERIFY(gbtest::stepAndWait(*w));
    const QString summary = w->raceView()->summary();
    QVERIFY2(summary.contains("negative gradient u") && summary.contains("laplace") &&
                 !summary.contains("residual sum of squares"),
             qPrintable(summary));
    QVERIFY2(summary.contains(QString("before the step %1").arg(400)), qPrintable(summary));  // u = +-1: n rows
    QVERIFY(!w->raceView()->plot()->yAxis->label().contains("response units"));
  }

  // A fit whose training risk ends above the offset's (poisson on counts of 10 to 70 with two factor learners at
  // nu 0.1, warpbreaks' shape) finishes with one warning in the log that says so and what to do, as `fit` notes it;
  // a Step past mstop does not repeat it.
  void overshootIsWarned() {
    auto w = gbtest::emptyWindow("overshoot");
    QByteArray csv = "y,wool,tension\n";
    for (int i = 0; i < 54; ++i)
      csv += QByteArray::number(10 + (i * 37) % 61) + "," + (i < 27 ? "A" : "B") + "," + "LMH"[(i / 9) % 3] + "\n";
    QVERIFY(gbtest::openCsvText(*w, "warp.csv", csv));
    gbtest::chooseFamily(*w, "poisson", 100);
    QStringList warnings;
    connect(w->messages(), &MessageSink::posted, this, [&warnings](Severity s, const QString& text, const QString&) {
      if (s == Severity::Warning) warnings << text;
    });
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    const std::vector<double>& risk = w->controller()->booster()->path().risk;
    QVERIFY2(risk.back() > risk.front(), "the data no longer overshoot at nu 0.1");
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.front().contains("above the offset's") && warnings.front().contains("lower nu"),
             qPrintable(warnings.front()));
    QVERIFY(gbtest::stepAndWait(*w));
    QCOMPARE(warnings.size(), 1);
  }

  // A fit whose risk stops being finite (poisson counts near 1e12 at nu 0.1: the first step overflows exp) fails with
  // a dialog that says so and names the counts' scale and a nu, as `fit` does; no curve of inf or NaN is left drawn
  // as a finished fit.
  void divergedFitFails() {
    auto w = gbtest::emptyWindow("diverged");
    QByteArray csv = "y,x\n";
    for (int i = 0; i < 80; ++i)
      csv += QByteArray::number(std::floor(1e12 * std::exp(std::sin(6.0 * i / 80))), 'f', 0) + "," +
             QByteArray::number(i / 80.0) + "\n";
    QVERIFY(gbtest::openCsvText(*w, "huge.csv", csv));
    gbtest::chooseFamily(*w, "poisson", 50);
    QStringList errors;
    connect(w->messages(), &MessageSink::posted, this, [&errors](Severity s, const QString& text, const QString&) {
      if (s == Severity::Error) errors << text;
    });
    gbtest::fitAndWait(*w);
    QCOMPARE(w->controller()->state(), FitState::Failed);
    QVERIFY2(!errors.isEmpty(), "no error posted");
    QVERIFY2(errors.back().contains("huge.csv: the fit diverged") && errors.back().contains("counts' scale") &&
                 errors.back().contains(" nu 1e-13") && !errors.back().contains("--"),
             qPrintable(errors.join("\n")));
    // Nothing of the diverged run stays on show (its effects were curves of about 4e5, the summary's risk -nan,
    // and the replay bar's iteration contradicted the message's).
    QVERIFY(!w->controller()->lastSnapshot().setup);
    QVERIFY(w->effectsView()->shownLearners().isEmpty());
    QVERIFY(w->iterationLabel()->text().isEmpty());
    QCOMPARE(w->riskPlot()->riskGraph()->data()->size(), 0);
  }

  // The family's options go through a session file and the settings store; presets keep them.
  void familyOptionsPersist() {
    gb::ModelSettings s = gb::ModelSettings::mboostPreset();
    s.family = gb::Family::Quantile;
    s.tau = 0.3;
    s.hasOffset = true;
    s.offset = 1.25;
    s.linearEdf = 2.0;
    s.factorEdf = 1.5;
    s.missing = gb::MissingPolicy::Fail;
    auto check = [](const gb::ModelSettings& got) {
      QVERIFY(got.family == gb::Family::Quantile);
      QCOMPARE(got.tau, 0.3);
      QVERIFY(got.hasOffset);
      QCOMPARE(got.offset, 1.25);
      QCOMPARE(got.linearEdf, 2.0);
      QCOMPARE(got.factorEdf, 1.5);
      QVERIFY(got.missing == gb::MissingPolicy::Fail);
    };
    const QString sessionPath = gbtest::scratchPath("family.gbs.json");
    {
      auto w = gbtest::makeWindow(300, 3, 10, 1, "family-store");
      w->modelPanel()->setSettings(s);
      QVERIFY(w->modelPanel()->tauBox()->isVisibleTo(w->modelPanel()));
      w->modelPanel()->applyMboostPreset();  // splines and boosting only
      QVERIFY(w->modelPanel()->settings().family == gb::Family::Quantile);
      w->modelPanel()->setSettings(s);
      QVERIFY(w->saveSession(sessionPath));
      w->close();  // saves the settings store
    }
    auto fresh = gbtest::makeWindow(300, 3, 10, 1, "other-store");
    QVERIFY(fresh->modelPanel()->settings().family == gb::Family::Gaussian);
    QVERIFY(gbtest::openSessionAndWait(*fresh, sessionPath));
    check(fresh->modelPanel()->settings());
    StudioOptions o = gbtest::testOptions("family-store");
    o.restoreSettings = true;
    MainWindow restored(o);
    check(restored.modelPanel()->settings());
  }
};

QTEST_MAIN(FamiliesTest)
#include "test_families.moc"

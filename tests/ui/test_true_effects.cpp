// The true effects of generated data drawn over the fitted ones: generated in the window, or a CSV opened with its
// "<csv>.truth.json" beside it; centred like the estimate; the check box hides them; exports carry them.
#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "common/MessageSink.hpp"
#include "data/CsvWriter.hpp"
#include "data/DataPanel.hpp"
#include "data/PaperData.hpp"
#include "plots/EffectPlot.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotExport.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

gb::PaperDataSpec smallSpec() { return gbtest::paperSpec(400, 6, 3, 5); }

// A window with `spec`'s data generated in it and a short mstop.
std::unique_ptr<MainWindow> windowWith(const gb::PaperDataSpec& spec, const QString& settings) {
  auto w = gbtest::makeWindow(50, 2, 20, 1, settings);
  w->dataPanel()->setGeneratorSpec(spec);
  if (!w->dataPanel()->generateNow()) qWarning("generate failed");
  return w;
}

const FitSetup& setupOf(MainWindow& w) { return *w.controller()->lastSnapshot().setup; }

// The overlay of learner j equals 10 sin(2 pi x) - mean over the training rows (or 0) at every point it draws.
void verifyOverlay(MainWindow& w, std::size_t j, bool informative) {
  const FitSetup& setup = setupOf(w);
  const std::vector<double>& used = setup.covariate(j);
  long double sum = 0;
  for (double x : used) sum += 10.0L * sinl(2.0L * std::numbers::pi_v<long double> * x);
  const double mean = static_cast<double>(sum / used.size());
  const auto expected = [&](double x) {
    return informative ? 10.0 * std::sin(2.0 * std::numbers::pi * x) - mean : 0.0;
  };
  EffectPlot* plot = w.effectsView()->plotFor(static_cast<int>(j));
  QVERIFY(plot);
  const auto* data = plot->trueEffectGraph()->data().data();
  QCOMPARE(data->size(), static_cast<int>(gb::kEffectGridPoints));
  // The same grid as the estimate's curve.
  QCOMPARE(data->constBegin()->key, plot->effectGraph()->data()->constBegin()->key);
  for (auto it = data->constBegin(); it != data->constEnd(); ++it)
    QVERIFY2(std::abs(it->value - expected(it->key)) < 1e-12,
             qPrintable(QString("%1 at x = %2: %3")
                            .arg(QString::fromStdString(setup.learners[j].name))
                            .arg(it->key)
                            .arg(it->value)));
}

std::size_t learnerNamed(MainWindow& w, const std::string& name) {
  const FitSetup& setup = setupOf(w);
  for (std::size_t j = 0; j < setup.learners.size(); ++j)
    if (setup.learners[j].name == name) return j;
  qFatal("no learner %s", name.c_str());
}

bool openCsv(MainWindow& w, const QString& path) {
  QSignalSpy loaded(w.dataPanel(), &DataPanel::loadFinished);
  if (!w.dataPanel()->openCsv(path) || !loaded.wait(10000)) return false;
  return loaded.takeFirst().at(0).toBool();
}

// Writes `spec`'s data to a scratch CSV; with `truthText` non-empty, also its truth file.
QString writeCsvWithTruth(const QString& name, const gb::PaperDataSpec& spec, const std::string& truthText) {
  const QString path = gbtest::scratchPath(name);
  const gb::PaperData data = gb::generatePaperData(spec);
  gb::writeCsv(path.toStdString(), data.data);
  const QString truthPath = path + ".truth.json";
  QFile::remove(truthPath);
  if (!truthText.empty()) {
    QFile f(truthPath);
    if (f.open(QIODevice::WriteOnly)) f.write(truthText.c_str());
  }
  return path;
}

bool anyOverlay(MainWindow& w) {
  for (int j : w.effectsView()->gridOrder())
    if (w.effectsView()->plotFor(j)->hasTrueCurve()) return true;
  return false;
}

}  // namespace

class TrueEffectsTest : public QObject {
  Q_OBJECT

 private slots:
  void generatedDataGetsTheTrueCurves() {
    const gb::PaperDataSpec spec = smallSpec();
    auto w = windowWith(spec, "generated");
    const gb::PaperData paper = gb::generatePaperData(spec);
    QVERIFY(w->dataPanel()->truth());
    QCOMPARE(w->dataPanel()->truth()->informative, paper.informative);
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    QVERIFY(w->effectsView()->showTruthBox()->isEnabled());
    QVERIFY(w->effectsView()->showTruthBox()->isChecked());
    for (int c = 1; c <= spec.covariates; ++c) {
      const std::string name = "x" + std::to_string(c);
      const bool informative = std::count(paper.informative.begin(), paper.informative.end(), name) > 0;
      verifyOverlay(*w, learnerNamed(*w, name), informative);
    }
    // The tooltip says what the dashed line is; the enlarged plot draws it too, with a legend.
    const std::size_t j = learnerNamed(*w, paper.informative.front());
    QVERIFY(w->effectsView()->plotFor(static_cast<int>(j))->toolTip().contains("true effect"));
    w->effectsView()->enlarge(static_cast<int>(j));
    QVERIFY(w->effectsView()->detailPlot()->hasTrueCurve());
    QVERIFY(w->effectsView()->detailPlot()->legend->visible());
    // Exports carry it: the plot's CSV and the whole grid's.
    QVERIFY(plotDataCsv(*w->effectsView()->plotFor(static_cast<int>(j))).contains("true effect"));
    QVERIFY(sheetDataCsv(w->effectsView()->exportSheet()).contains("true effect"));
  }

  // Large data: the true curves are computed off the window's thread and drawn when ready, with the same values.
  void largeDataGetsTheTruthFromAWorker() {
    const gb::PaperDataSpec spec = gbtest::paperSpec(120000, 20, 18, 3);
    QVERIFY(static_cast<double>(spec.rows) * spec.informative > PartialEffectsView::kTruthWorkAtOnce);
    auto w = windowWith(spec, "large");
    QVERIFY(gbtest::fitAndWait(*w, 60000));
    w->showTab(w->effectsView());
    QTRY_VERIFY_WITH_TIMEOUT(!w->effectsView()->truthPending(), 20000);
    QVERIFY(anyOverlay(*w));
    // Handing the truth over again starts a job: nothing is computed on this thread, the curves come later.
    w->effectsView()->setTruth(w->dataPanel()->truth());
    QVERIFY(w->effectsView()->truthPending());
    QVERIFY(!anyOverlay(*w));
    QTRY_VERIFY_WITH_TIMEOUT(!w->effectsView()->truthPending(), 20000);
    QVERIFY(anyOverlay(*w));
    const std::vector<std::string>& informative = w->dataPanel()->truth()->informative;
    verifyOverlay(*w, learnerNamed(*w, informative.front()), true);
    for (int c = 1; c <= spec.covariates; ++c) {
      const std::string name = "x" + std::to_string(c);
      if (std::count(informative.begin(), informative.end(), name) == 0) {
        verifyOverlay(*w, learnerNamed(*w, name), false);
        break;
      }
    }
  }

  void checkBoxHidesAndBrings() {
    auto w = windowWith(smallSpec(), "checkbox");
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    const int j = w->effectsView()->gridOrder().front();
    w->effectsView()->enlarge(j);
    QVERIFY(anyOverlay(*w));
    w->effectsView()->showTruthBox()->setChecked(false);
    QVERIFY(!anyOverlay(*w));
    QVERIFY(!w->effectsView()->detailPlot()->hasTrueCurve());
    QVERIFY(!w->effectsView()->detailPlot()->legend->visible());
    QVERIFY(!sheetDataCsv(w->effectsView()->exportSheet()).contains("true effect"));
    w->effectsView()->showTruthBox()->setChecked(true);
    QVERIFY(anyOverlay(*w));
    QVERIFY(w->effectsView()->detailPlot()->hasTrueCurve());
  }

  void csvWithTruthFileGetsTheOverlay() {
    const gb::PaperDataSpec spec = smallSpec();
    const gb::PaperData paper = gb::generatePaperData(spec);
    auto w = gbtest::makeWindow(50, 2, 20, 1, "csv-truth");
    QVERIFY(openCsv(*w, writeCsvWithTruth("with-truth.csv", spec, gb::truthJson(paper))));
    QVERIFY(w->dataPanel()->truth());
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    QVERIFY(w->effectsView()->showTruthBox()->isEnabled());
    verifyOverlay(*w, learnerNamed(*w, paper.informative.front()), true);
    for (int c = 1; c <= spec.covariates; ++c) {
      const std::string name = "x" + std::to_string(c);
      if (std::count(paper.informative.begin(), paper.informative.end(), name) == 0) {
        verifyOverlay(*w, learnerNamed(*w, name), false);
        break;
      }
    }
  }

  void csvWithoutTruthFileHasNone() {
    auto w = gbtest::makeWindow(50, 2, 20, 1, "csv-none");
    QVERIFY(openCsv(*w, writeCsvWithTruth("no-truth.csv", smallSpec(), "")));
    QVERIFY(!w->dataPanel()->truth());
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    QVERIFY(!w->effectsView()->showTruthBox()->isEnabled());
    QVERIFY(!w->effectsView()->showTruthBox()->isChecked());  // not ticked as though true effects were shown
    QVERIFY(w->effectsView()->showTruthBox()->text().contains("none known"));
    QVERIFY(!w->effectsView()->gridOrder().isEmpty());
    QVERIFY(!anyOverlay(*w));
  }

  // The user's untick outlives data without a truth; data with one comes back unticked, and ticking draws again.
  void uncheckedChoiceIsKeptAcrossData() {
    const gb::PaperDataSpec spec = smallSpec();
    const gb::PaperData paper = gb::generatePaperData(spec);
    auto w = gbtest::makeWindow(50, 2, 20, 1, "csv-choice");
    QVERIFY(openCsv(*w, writeCsvWithTruth("choice-truth.csv", spec, gb::truthJson(paper))));
    QCheckBox* box = w->effectsView()->showTruthBox();
    QVERIFY(box->isEnabled() && box->isChecked());
    box->setChecked(false);
    QVERIFY(openCsv(*w, writeCsvWithTruth("choice-none.csv", spec, "")));
    QVERIFY(!box->isEnabled() && !box->isChecked());
    QVERIFY(openCsv(*w, writeCsvWithTruth("choice-again.csv", spec, gb::truthJson(paper))));
    QVERIFY(box->isEnabled() && !box->isChecked());
    QCOMPARE(box->text(), QString("Show true effects"));
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    QVERIFY(!anyOverlay(*w));
    box->setChecked(true);
    QVERIFY(anyOverlay(*w));
  }

  // An effect formula the window does not know is not guessed at; a malformed file costs the overlay, not the data.
  void unknownOrMalformedTruthIsSaidInTheLog() {
    auto w = gbtest::makeWindow(50, 2, 20, 1, "csv-unknown");
    QStringList warnings;
    connect(w->messages(), &MessageSink::posted, this, [&](Severity s, const QString& text, const QString&) {
      if (s == Severity::Warning) warnings << text;
    });
    const std::string unknown = "{\"informative\": [\"x1\"], \"effect\": \"5*cos(x)\", \"intercept\": 7}";
    QVERIFY(openCsv(*w, writeCsvWithTruth("unknown.csv", smallSpec(), unknown)));
    QVERIFY(!warnings.isEmpty() && warnings.last().contains("5*cos(x)"));
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    QVERIFY(!w->effectsView()->showTruthBox()->isEnabled());
    QVERIFY(!anyOverlay(*w));
    QVERIFY(openCsv(*w, writeCsvWithTruth("malformed.csv", smallSpec(), "{\"informative\": [\"x1\"]}")));
    QCOMPARE(w->dataPanel()->dataset()->rows(), std::size_t{400});
    QVERIFY(warnings.last().contains("malformed.csv.truth.json") && warnings.last().contains("\"effect\""));
    QVERIFY(!w->effectsView()->showTruthBox()->isEnabled());
  }
};

QTEST_MAIN(TrueEffectsTest)
#include "test_true_effects.moc"

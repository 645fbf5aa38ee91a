// Presets, the edf/lambda explorer and the kernel chart's report loading.
#include <QComboBox>
#include <QtTest>

#include "compute/Booster.hpp"
#include "learner/EdfSolver.hpp"
#include "learner/LearnerSetup.hpp"
#include "model/ModelPanel.hpp"
#include "plots/EdfExplorer.hpp"
#include "plots/KernelChart.hpp"
#include "plots/PlotWidget.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

void compareSettings(const gb::ModelSettings& a, const gb::ModelSettings& b) {
  QCOMPARE(a.spline.knots, b.spline.knots);
  QCOMPARE(a.spline.degree, b.spline.degree);
  QVERIFY(a.spline.boundary == b.spline.boundary);
  QVERIFY(a.penalty == b.penalty);
  QCOMPARE(a.differences, b.differences);
  QCOMPARE(a.edf, b.edf);
  QVERIFY(a.edfDefinition == b.edfDefinition);
  QCOMPARE(a.nu, b.nu);
  QCOMPARE(a.mstop, b.mstop);
}

gb::KernelBenchReport syntheticReport(const std::string& device, double copy) {
  gb::KernelBenchReport r;
  r.platform = "test";
  r.device = device;
  r.precision = "float";
  r.copyGigabytesPerSecond = copy;
  for (std::string kernel : {"splitk", "compact"})
    for (std::size_t n : {1000, 10000, 100000}) {
      gb::KernelTiming t;
      t.kernel = kernel;
      t.operation = "Btg";
      t.granularity = "batched";
      t.rows = n;
      t.k = 16;
      t.covariates = 100;
      t.medianSeconds = t.meanSeconds = t.minSeconds = 1e-6 * n;
      t.bytes = 4.0 * n * 100;
      t.gigabytesPerSecond = t.bytes / t.medianSeconds / 1e9;
      t.fractionOfCopy = t.gigabytesPerSecond / copy;
      r.timings.push_back(t);
    }
  return r;
}

QString writeJson(const QString& name, const std::string& text) {
  const QString path = gbtest::scratchPath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly | QIODevice::Truncate);
  f.write(text.c_str());
  return path;
}

}  // namespace

class TeachingTest : public QObject {
  Q_OBJECT

 private slots:
  void presetsAreOneClick() {
    auto w = gbtest::makeWindow(300, 3, 10, 1, "presets");
    QTest::mouseClick(w->modelPanel()->paperPresetButton(), Qt::LeftButton);
    compareSettings(w->modelPanel()->settings(), gb::ModelSettings::paperPreset());
    QTest::mouseClick(w->modelPanel()->mboostPresetButton(), Qt::LeftButton);
    compareSettings(w->modelPanel()->settings(), gb::ModelSettings::mboostPreset());
  }

  void edfExplorerPlotsBothDefinitions() {
    auto w = gbtest::makeWindow(1000, 4, 10, 1, "edf");
    QVERIFY(gbtest::stepAndWait(*w));
    w->showTab(w->edfExplorer());
    EdfExplorer* e = w->edfExplorer();
    QCOMPARE(e->learnerCombo()->count(), 4);
    e->learnerCombo()->setCurrentIndex(2);
    const gb::Learner& l = w->controller()->booster()->learners()[2];
    const gb::EdfFunction f(l.gram, l.penalty, l.name, l.penaltyNullity);
    QVERIFY(e->traceGraph()->data()->size() > 100);
    QVERIFY(e->plot()->xAxis->scaleType() == QCPAxis::stLogarithmic);
    for (auto it = e->traceGraph()->data()->constBegin(); it != e->traceGraph()->data()->constEnd(); ++it)
      QCOMPARE(it->value, f(it->key, gb::EdfDefinition::Trace));
    for (auto it = e->mboostGraph()->data()->constBegin(); it != e->mboostGraph()->data()->constEnd(); ++it) {
      QCOMPARE(it->value, f(it->key, gb::EdfDefinition::Mboost));
      // tr(2H - H'H) >= tr(H) for hat values in [0, 1]: 2h - h^2 >= h.
      QVERIFY(it->value >= f(it->key, gb::EdfDefinition::Trace) - 1e-12);
    }
    // The lambda in use reaches the target under the chosen (mboost) definition; 1e-6: root-finder tolerance.
    QVERIFY(std::abs(f(l.lambda, gb::EdfDefinition::Mboost) - 4.0) < 1e-6);
  }

  // A learner of more columns than the explorer draws (a factor of 1000 levels): no eigen-decomposition on the UI
  // thread (O(k^3): minutes for thousands of levels, on every set-up), a line saying why.
  void edfExplorerSkipsHugeLearners() {
    auto w = gbtest::makeWindow(1000, 4, 10, 1, "edf-huge");
    QVERIFY(gbtest::stepAndWait(*w));
    EdfExplorer* e = w->edfExplorer();
    auto setup = std::make_shared<FitSetup>();
    std::vector<std::string> levels(1000);
    std::vector<double> codes(1000);
    for (std::size_t i = 0; i < levels.size(); ++i) {
      levels[i] = "p" + std::to_string(i);
      codes[i] = static_cast<double>(i);
    }
    setup->learners.push_back(gb::buildFactor("id", 0, codes, levels, nullptr, setup->settings));
    e->setSetup(setup);
    QCOMPARE(e->traceGraph()->data()->size(), 0);
    QVERIFY2(e->infoLabel()->text().startsWith("id: 1000 columns") &&
                 e->infoLabel()->text().contains("drawn for learners of up to 400 columns"),
             qPrintable(e->infoLabel()->text()));
  }

  void kernelChartComparesReports() {
    auto w = gbtest::makeWindow(100, 2, 5, 1, "kernels");
    KernelChart* k = w->kernelChart();
    const QString a = writeJson("h100-test.json", syntheticReport("H100", 3000).toJson().dump());
    const QString b = writeJson("pocl-test.json", syntheticReport("PoCL", 20).toJson().dump());
    QVERIFY(k->loadReportFile(a));
    QVERIFY(k->loadReportFile(b));
    QCOMPARE(int(k->reports().size()), 2);
    // 2 kernels x 2 reports on each plot, plus one roofline per report on the bandwidth plot.
    QCOMPARE(k->timePlot()->graphCount(), 4);
    QCOMPARE(k->bandwidthPlot()->graphCount(), 6);
    QCOMPARE(k->bandwidthPlot()->graph(4)->data()->at(0)->value, 3000.0);
    QCOMPARE(k->bandwidthPlot()->graph(5)->data()->at(0)->value, 20.0);
    QCOMPARE(k->timePlot()->graph(0)->data()->size(), 3);
    QVERIFY(k->timePlot()->xAxis->scaleType() == QCPAxis::stLogarithmic);
    // A malformed report: a message, nothing added.
    const QString bad = writeJson("broken.json", "{\"device\": 5");
    QVERIFY(!k->loadReportFile(bad));
    QVERIFY(w->messages()->lastError().contains("broken.json"));
    QCOMPARE(int(k->reports().size()), 2);
  }
};

QTEST_MAIN(TeachingTest)
#include "test_teaching.moc"

// Bootstrap bands in the window: with "Bands (bootstrap B)" checked, a finished fit starts B refits off the window's
// thread; when they end, every partial effect plot shades its 95% and 90% bands (fills between two graphs each) on
// the curve's own grid, ordered, and enclosing the fitted curve; a new fit drops them; Cancel stops a run.
#include <QCheckBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "common/MessageSink.hpp"
#include "fit/BandsController.hpp"
#include "model/ModelPanel.hpp"
#include "plots/EffectPlot.hpp"
#include "plots/PartialEffectsView.hpp"
#include "support/StudioFixture.hpp"
#include "window/ElidedLabel.hpp"
#include "window/ReplayBar.hpp"

using namespace gbui;

namespace {

std::vector<double> keys(const QCPGraph* g) {
  std::vector<double> v;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) v.push_back(it->key);
  return v;
}

std::vector<double> values(const QCPGraph* g) {
  std::vector<double> v;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) v.push_back(it->value);
  return v;
}

void askForBands(MainWindow& w, int replicates) {
  w.modelPanel()->bandsCheck()->setChecked(true);
  w.modelPanel()->bandsBox()->setValue(replicates);
  QCOMPARE(w.modelPanel()->bandReplicates(), replicates);
}

}  // namespace

class EffectBandsTest : public QObject {
  Q_OBJECT

 private slots:
  void bandsShadeAndEncloseTheFittedEffect() {
    auto w = gbtest::makeWindow(1000, 6, 150, 2, "bands");
    askForBands(*w, 20);
    QSignalSpy done(w->bandsController(), &BandsController::finished);
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY2(w->bandsController()->isRunning(), qPrintable(w->messages()->lastError()));
    QVERIFY(done.wait(120000));
    QCOMPARE(done.at(0).at(0).toBool(), true);
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
    const std::shared_ptr<const gb::EffectBands> bands = w->bandsController()->bands();
    QVERIFY(bands);
    QCOMPARE(bands->replicates, 20);
    QCOMPARE(bands->mstop, 150);

    w->showTab(w->effectsView());
    PartialEffectsView* view = w->effectsView();
    QCOMPARE(view->bands(), bands.get());
    QVERIFY(!view->shownLearners().isEmpty());
    int points = 0, inside90 = 0, inside95 = 0;
    for (int j : view->shownLearners()) {
      EffectPlot* plot = view->plotFor(j);
      const QList<QCPGraph*> g = plot->bandGraphs();  // lower95, lower90, upper90, upper95
      QCOMPARE(g[3]->channelFillGraph(), g[0]);
      QCOMPARE(g[2]->channelFillGraph(), g[1]);
      QVERIFY(g[3]->brush().style() != Qt::NoBrush && g[2]->brush().style() != Qt::NoBrush);
      QVERIFY(g[2]->brush().color().alpha() > g[3]->brush().color().alpha());  // 90% darker than 95%
      const std::vector<double> x = keys(plot->effectGraph()), y = values(plot->effectGraph());
      QCOMPARE(x.size(), std::size_t{gb::kEffectGridPoints});
      std::vector<std::vector<double>> edge;
      for (QCPGraph* graph : g) {
        QCOMPARE(keys(graph), x);  // the curve's own grid
        edge.push_back(values(graph));
      }
      // The bands' reference fit is the fit on show (same data, settings, deterministic CPU backend).
      const gb::LearnerBand& band = bands->learners[static_cast<std::size_t>(j)];
      for (std::size_t i = 0; i < x.size(); ++i) {
        QVERIFY(std::abs(band.effect[i] - y[i]) <= 1e-9 * (1.0 + std::abs(y[i])));
        QVERIFY(edge[0][i] <= edge[1][i] && edge[1][i] <= edge[2][i] && edge[2][i] <= edge[3][i]);
        inside95 += edge[0][i] <= y[i] && y[i] <= edge[3][i];
        inside90 += edge[1][i] <= y[i] && y[i] <= edge[2][i];
        ++points;
      }
    }
    qInfo("the 95%% bands enclose the fitted curve at %d of %d plotted points, the 90%% bands at %d", inside95, points,
          inside90);
    // Percentile bands of refits need not contain the all-rows fit everywhere; the nominal level is the bar.
    QVERIFY(inside95 >= 0.95 * points);
    QVERIFY(inside90 >= 0.90 * points);

    // Replaying an earlier iteration hides them (they describe the effect at mstop: the replayed curve ran outside
    // its own 95% band), and the latest shows them again.
    const int shown = view->shownLearners().front();
    QVERIFY(!view->plotFor(shown)->bandGraphs()[0]->data()->isEmpty());
    w->replayBar()->slider()->setValue(9);
    QCOMPARE(w->shownSnapshot().iteration, 9);
    for (int j : view->shownLearners())
      for (QCPGraph* graph : view->plotFor(j)->bandGraphs()) QVERIFY(graph->data()->isEmpty());
    QTest::mouseClick(w->replayBar()->latestButton(), Qt::LeftButton);
    QVERIFY(!view->plotFor(shown)->bandGraphs()[0]->data()->isEmpty());

    // A new fit drops the bands (it has none until its own refits end; here the option is off).
    w->modelPanel()->bandsCheck()->setChecked(false);
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY(!w->bandsController()->isRunning());
    QCOMPARE(view->bands(), nullptr);
    for (int j : view->shownLearners())
      for (QCPGraph* graph : view->plotFor(j)->bandGraphs()) QVERIFY(graph->data()->isEmpty());
  }

  // A factor's levels are no ordered axis: its bands are one interval per level, centred on the level's point,
  // with a gap (NaN) before the next, where a step curve had joined them into one area across the levels.
  void factorBandsAreOneIntervalPerLevel() {
    auto w = gbtest::makeWindow(300, 3, 20, 1, "factor-bands");
    QByteArray csv = "y,x1,g\n";
    for (int i = 0; i < 90; ++i)
      csv += QByteArray::number((i % 3) * 2.0 + (i * 37 % 17) / 17.0) + "," + QByteArray::number(i / 90.0) + "," +
             QByteArray("abc").mid(i % 3, 1) + "\n";
    QVERIFY(gbtest::openCsvText(*w, "factor.csv", csv));
    askForBands(*w, 10);
    QSignalSpy done(w->bandsController(), &BandsController::finished);
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY(done.wait(120000));
    QCOMPARE(done.at(0).at(0).toBool(), true);
    w->showTab(w->effectsView());
    PartialEffectsView* view = w->effectsView();
    int factors = 0;
    for (int j : view->shownLearners()) {
      EffectPlot* plot = view->plotFor(j);
      const std::vector<double> levelKeys = keys(plot->effectGraph());
      const std::vector<double> k = keys(plot->bandGraphs()[0]), v = values(plot->bandGraphs()[0]);
      if (levelKeys.size() != 3) continue;  // the spline's grid
      ++factors;
      QCOMPARE(k.size(), std::size_t{9});
      for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(k[3 * i], levelKeys[i] - 0.25);
        QCOMPARE(k[3 * i + 1], levelKeys[i] + 0.25);
        QCOMPARE(v[3 * i], v[3 * i + 1]);
        QVERIFY(std::isnan(v[3 * i + 2]));
      }
    }
    QCOMPARE(factors, 1);
  }

  void cancelStopsTheRefits() {
    auto w = gbtest::makeWindow(2000, 6, 300, 3, "bands-cancel");
    askForBands(*w, 5000);
    QSignalSpy done(w->bandsController(), &BandsController::finished);
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY(w->bandsController()->isRunning());
    QVERIFY(w->cancelButton()->isEnabled());
    QTest::qWait(200);
    QElapsedTimer clock;
    clock.start();
    int after = 0;
    qint64 lastProgress = 0;
    QObject::connect(w->bandsController(), &BandsController::progress, [&](int, int) {
      ++after;
      lastProgress = clock.elapsed();
    });
    QTest::mouseClick(w->cancelButton(), Qt::LeftButton);
    qInfo("click took %lld ms", static_cast<long long>(clock.elapsed()));
    QVERIFY(done.wait(20000));
    qInfo("cancelled %lld ms after the click; %d progress signals after it, the last at %lld ms",
          static_cast<long long>(clock.elapsed()), after, static_cast<long long>(lastProgress));
    QVERIFY(clock.elapsed() < 5000);  // refits stop at their next batch (~80 ms); 5 s allows for a busy machine
    QVERIFY(!w->bandsController()->isRunning());
    QVERIFY(!w->bandsController()->bands());
    QCOMPARE(w->effectsView()->bands(), nullptr);
    QVERIFY(!w->cancelButton()->isEnabled());
    // The Fit group shows the fit again (its bar stayed on the refits done), and says why no bands are shown.
    QCOMPARE(w->fitProgress()->maximum(), 300);
    QCOMPARE(w->fitProgress()->value(), 300);
    QVERIFY2(w->fitStatus()->fullText().contains("Bootstrap bands stopped; none shown."),
             qPrintable(w->fitStatus()->fullText()));
  }

  // Two events in 80 rows: about one bootstrap sample in seven holds neither, has no binomial offset and is left out
  // (as cv leaves such a fold out). The Fit group's line counts the refits behind the bands, not the samples drawn,
  // and a warning says how many were left out and why.
  void samplesOfOneClassAreLeftOutAndSaid() {
    auto w = gbtest::emptyWindow("bands-one-class");
    const int rows = 80, replicates = 30;
    QVERIFY(gbtest::openCsvText(*w, "two-events.csv", gbtest::rareEventsCsv(rows, 2, 7)));
    gbtest::chooseFamily(*w, "binomial", 20);
    askForBands(*w, replicates);
    QStringList warnings;
    connect(w->messages(), &MessageSink::posted, this, [&warnings](Severity s, const QString& text, const QString&) {
      if (s == Severity::Warning) warnings << text;
    });
    QSignalSpy done(w->bandsController(), &BandsController::finished);
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY(done.wait(120000));
    const std::shared_ptr<const gb::EffectBands> bands = w->bandsController()->bands();
    QVERIFY2(bands, qPrintable(w->messages()->lastError()));
    qInfo("%d of %d samples left out", bands->unfitted, bands->replicates);
    QVERIFY(bands->unfitted > 0 && bands->unfitted < replicates);
    const QString line = w->fitStatus()->fullText();
    QVERIFY2(line.contains(QString("Bootstrap bands from %1 refits").arg(replicates - bands->unfitted)),
             qPrintable(line));
    QVERIFY2(line.contains(QString("%1 of %2 samples could not be fitted").arg(bands->unfitted).arg(replicates)),
             qPrintable(line));
    QVERIFY2(warnings.filter("could not be fitted and are left out of every band").size() == 1,
             qPrintable(warnings.join('\n')));
  }
};

QTEST_MAIN(EffectBandsTest)
#include "test_effect_bands.moc"

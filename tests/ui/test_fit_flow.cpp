// Generate -> Fit -> the views show exactly the engine's state; Step advances one iteration; the learner race
// names the Booster's winner.
#include <QLabel>
#include <QtTest>

#include "compute/Booster.hpp"
#include "model/ModelPanel.hpp"
#include "plots/EdfExplorer.hpp"
#include "plots/EffectPlot.hpp"
#include "plots/FitDiagnostics.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/RiskPlot.hpp"
#include "plots/SelectionPlot.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

class FitFlowTest : public QObject {
  Q_OBJECT

 private slots:
  void fitShowsTheEnginesState() {
    const int mstop = 150;
    auto w = gbtest::makeWindow(2000, 30, mstop);
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    auto booster = w->controller()->booster();
    QVERIFY(booster);
    QCOMPARE(booster->iteration(), mstop);
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));

    // Partial effects: the covariates selected at least once are the ones drawn as fitted (the rest stay flat).
    const std::vector<int> counts = booster->selectionCounts();
    QList<int> selected;
    for (int j = 0; j < int(counts.size()); ++j)
      if (counts[j] > 0) selected << j;
    QCOMPARE(w->effectsView()->shownLearners(), selected);

    // Their data equal Booster::partialEffect centred by the mean over the training rows. Tolerance 1e-12:
    // both are sums of 4 double products of values ~10; the mean comes from B'B 1 / n instead of summing
    // f over 2000 rows, which differs by rounding only (~1e-14 here).
    const auto& data = *w->controller()->setup()->data;
    for (int j : selected) {
      const QCPGraph* g = w->effectsView()->plotFor(j)->effectGraph();
      std::vector<double> x;
      for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) x.push_back(it->key);
      QVERIFY(x.size() > 50);
      const auto& training = data.columns[booster->learners()[j].column];
      const std::vector<double> ft = booster->partialEffect(j, training);
      double mean = 0;
      for (double v : ft) mean += v;
      mean /= ft.size();
      const std::vector<double> f = booster->partialEffect(j, x);
      int i = 0;
      for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it, ++i)
        QVERIFY2(
            std::abs(it->value - (f[i] - mean)) < 1e-12,
            qPrintable(QString("learner %1 x %2: plot %3 engine %4").arg(j).arg(x[i]).arg(it->value).arg(f[i] - mean)));
    }

    // Risk curve: mstop + 1 points equal to the path.
    w->showTab(w->riskPlot());
    QTRY_COMPARE(w->riskPlot()->riskGraph()->data()->size(), mstop + 1);
    int m = 0;
    for (auto it = w->riskPlot()->riskGraph()->data()->constBegin();
         it != w->riskPlot()->riskGraph()->data()->constEnd(); ++it, ++m)
      QCOMPARE(it->value, booster->path().risk[m]);
    // The last iteration's dot (8 px across) lies wholly inside the axis rect: the range leaves room beyond mstop.
    PlotWidget* riskPlot = w->riskPlot()->plot();
    riskPlot->replot();
    const QCPGraph* dot = w->riskPlot()->currentGraph();
    QCOMPARE(dot->data()->size(), 1);
    const QPointF at = dot->coordsToPixels(dot->data()->constBegin()->key, dot->data()->constBegin()->value);
    const QRectF inside = QRectF(riskPlot->axisRect()->rect()).adjusted(4, 4, -4, -4);
    QVERIFY2(inside.contains(at), qPrintable(QString("dot at %1,%2").arg(at.x()).arg(at.y())));

    // Selection proportions (count / mstop, bar i for the covariate countNames()[i]) match the engine and sum to 1.
    w->showTab(w->selectionPlot());
    double sum = 0;
    const QStringList names = w->selectionPlot()->countNames();
    for (auto it = w->selectionPlot()->countBars()->data()->constBegin();
         it != w->selectionPlot()->countBars()->data()->constEnd(); ++it) {
      sum += it->value;
      const std::string name = names[int(it->key)].toStdString();
      int j = 0;
      while (booster->learners()[j].name != name) ++j;
      QCOMPARE(it->value, double(counts[j]) / mstop);
    }
    QVERIFY(std::abs(sum - 1.0) < 1e-12);
  }

  void stepAdvancesExactlyOneIteration() {
    auto w = gbtest::makeWindow(2000, 20, 50, 7, "step");
    QVERIFY(gbtest::stepAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 1);
    QCOMPARE(w->controller()->lastSnapshot().iteration, 1);
    w->showTab(w->selectionPlot());
    QTRY_VERIFY2(w->selectionPlot()->findChild<PlotWidget*>()->title().endsWith("(1 iteration)"),
                 qPrintable(w->selectionPlot()->findChild<PlotWidget*>()->title()));
    QVERIFY(gbtest::stepAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 2);
    // The race is the one of iteration 2, its winner the Booster's choice and the largest reduction.
    const auto& race = w->raceView()->race();
    QVERIFY(race.has_value());
    QCOMPARE(race->iteration, 2);
    QVERIFY(race->decided);
    QCOMPARE(race->winner, w->controller()->booster()->path().learner.back());
    QCOMPARE(w->raceView()->order().front(), race->winner);
    QVERIFY2(w->raceView()->summary().contains("margin"), qPrintable(w->raceView()->summary()));
    // No solid zero line at key 0 (it stood above the winner's bar like a stray mark).
    QCOMPARE(w->raceView()->plot()->xAxis->grid()->zeroLinePen().style(), Qt::NoPen);

    // Fit resumes from the paused state to mstop; Step after that adds exactly one more.
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 50);
    QVERIFY(gbtest::stepAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 51);
    QCOMPARE(int(w->controller()->booster()->path().risk.size()), 52);

    // New data: every view forgets the old fit, its words too. Five tabs kept the old model's titles, winner,
    // covariate names and lambda (they named columns the new file does not have).
    w->showTab(w->diagnostics());
    w->showTab(w->edfExplorer());
    QVERIFY(w->diagnostics()->findChild<PlotWidget*>()->title().contains("iteration 51"));
    QVERIFY(gbtest::openCsvText(*w, "other.csv", "y,a,b\n1,2,3\n2,1,4\n3,5,1\n4,3,3\n5,4,2\n6,2,6\n"));
    QVERIFY2(!w->raceView()->summary().contains("Winner"), qPrintable(w->raceView()->summary()));
    QVERIFY(!w->raceView()->race().has_value());
    for (const PlotWidget* p : w->diagnostics()->findChildren<PlotWidget*>())
      QVERIFY2(!p->title().contains("iteration") && p->xAxis->label().isEmpty(), qPrintable(p->title()));
    QVERIFY2(!w->selectionPlot()->findChild<PlotWidget*>()->title().contains("iterations"),
             qPrintable(w->selectionPlot()->findChild<PlotWidget*>()->title()));
    for (const QLabel* label : w->edfExplorer()->findChildren<QLabel*>())
      QVERIFY2(!label->text().contains("lambda in use"), qPrintable(label->text()));
  }

  // A spline on 3 distinct values at edf 6 runs unpenalised (lambda 0): the caption named a red dashed lambda line
  // and a dotted target line, neither drawn (0 is off the log axis, 6 above the y range).
  void edfCaptionNamesOnlyLinesItDraws() {
    auto w = gbtest::emptyWindow("edf-caption");
    QByteArray csv = "y,x\n";
    for (int i = 0; i < 60; ++i)
      csv += QByteArray::number(i % 3 + 0.1 * (i % 7)) + "," + QByteArray::number(i % 3) + "\n";
    QVERIFY(gbtest::openCsvText(*w, "three.csv", csv));
    gb::ModelSettings s = w->modelPanel()->settings();
    s.edf = 6;
    s.mstop = 5;
    w->modelPanel()->setSettings(s);
    QStringList log;
    connect(w->messages(), &MessageSink::posted, this,
            [&log](Severity, const QString& text, const QString&) { log << text; });
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->setup()->learners.front().lambda, 0.0);
    // The learner's note in the window's words (it read "a lower edf or a the factor role (Data tab) learner").
    QVERIFY2(log.join("\n").contains("the least bent is taken") &&
                 log.join("\n").contains("a lower edf, or the factor role (Data tab) for this column, decides it"),
             qPrintable(log.join("\n")));
    w->showTab(w->edfExplorer());
    QString caption;
    for (const QLabel* label : w->edfExplorer()->findChildren<QLabel*>())
      if (label->text().contains("lambda in use")) caption = label->text();
    QVERIFY2(caption.contains("lambda in use 0 (unpenalised; not on the log axis)") && !caption.contains("red dashed"),
             qPrintable(caption));
    QVERIFY2(caption.contains("target 6, dotted"), qPrintable(caption));
    QVERIFY(w->edfExplorer()->plot()->yAxis->range().upper > 6);
  }
};

QTEST_MAIN(FitFlowTest)
#include "test_fit_flow.moc"

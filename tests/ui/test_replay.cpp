// The iteration scrubber (teaching): a past iteration replayed from the recorded steps equals a fit stopped there,
// with its risk, counts and the race of the next iteration, and nothing is refitted; Latest comes back; Reset drops
// the fit; while a job runs the scrubber is disabled.
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>

#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "fit/FitJob.hpp"
#include "fit/Replay.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/RiskPlot.hpp"
#include "support/StudioFixture.hpp"
#include "window/ReplayBar.hpp"

using namespace gbui;

class ReplayTest : public QObject {
  Q_OBJECT

 private slots:
  void aPastIterationEqualsAFitStoppedThere() {
    const int mstop = 200, m = 50;
    auto w = gbtest::makeWindow(800, 6, mstop, 11, "replay");
    QVERIFY(gbtest::fitAndWait(*w));
    const FitSnapshot full = w->controller()->lastSnapshot();
    const unsigned long built = fitJobBoostersBuilt();
    QSignalSpy jobs(w->controller(), &FitController::jobFinished);
    ReplayBar* bar = w->replayBar();
    QVERIFY(bar->slider()->isEnabled());
    QCOMPARE(bar->slider()->maximum(), mstop);
    w->showTab(w->riskPlot());
    bar->slider()->setValue(m);
    QVERIFY(bar->replaying());
    const FitSnapshot& s = w->shownSnapshot();
    QCOMPARE(s.iteration, m);
    QCOMPARE(w->riskPlot()->riskGraph()->dataCount(), m + 1);
    QVERIFY(bar->label()->text().contains(QString("iteration %1 of %2").arg(m).arg(mstop)));
    // The status bar's iteration label follows (it kept saying the latest iteration beside the replayed views).
    QVERIFY2(w->iterationLabel()->text().startsWith(QString("replaying iteration %1 of %2").arg(m).arg(mstop)),
             qPrintable(w->iterationLabel()->text()));

    // The same fit stopped at m, in the engine directly.
    gb::Booster stopped(w->controller()->data(), w->controller()->modelSettings(), std::make_unique<gb::CpuBackend>(1));
    stopped.run(m);
    for (std::size_t j = 0; j < s.coefficients.size(); ++j)
      QVERIFY2((s.coefficients[j] - stopped.coefficients()[j]).norm() <=
                   1e-12 * std::max(1.0, stopped.coefficients()[j].norm()),
               qPrintable(QString("learner %1").arg(j)));
    QCOMPARE(s.pathRisk.size(), static_cast<std::size_t>(m + 1));
    QVERIFY(std::abs(s.pathRisk.back() - stopped.path().risk.back()) <= 1e-12 * stopped.path().risk.back());
    QCOMPARE(s.counts, stopped.selectionCounts());
    // The race of iteration m + 1, worked out on the host: its winner is the fit's choice at m + 1.
    QVERIFY(s.race.has_value());
    QCOMPARE(s.race->iteration, m + 1);
    QCOMPARE(s.race->winner, full.pathLearner[static_cast<std::size_t>(m)]);

    // Nothing was refitted.
    QCOMPARE(fitJobBoostersBuilt(), built);
    QCOMPARE(jobs.count(), 0);

    QTest::mouseClick(bar->latestButton(), Qt::LeftButton);
    QVERIFY(!bar->replaying());
    QVERIFY2(w->iterationLabel()->text().startsWith(QString("iteration %1,").arg(mstop)),
             qPrintable(w->iterationLabel()->text()));
    QCOMPARE(w->shownSnapshot().iteration, mstop);
    QCOMPARE(w->riskPlot()->riskGraph()->dataCount(), mstop + 1);
  }

  // Huber's adaptive d: the gradient at f_m takes the d of f_(m-1), so a replayed race that took f_m's d picked
  // another learner than the fit in some iterations; every replayed race must name the fit's choice.
  void huberAdaptiveRacesNameTheFitsChoices() {
    const int mstop = 200;
    auto w = gbtest::makeWindow(800, 6, mstop, 11, "huber");
    gbtest::chooseFamily(*w, "huber", mstop);
    QVERIFY(gbtest::fitAndWait(*w));
    const FitSnapshot full = w->controller()->lastSnapshot();
    QVERIFY(full.setup->family.adaptiveDelta);
    int differ = 0;
    for (int m = 0; m < mstop; ++m) {
      const FitSnapshot s = replayAt(full, m);
      QVERIFY(s.race.has_value());
      if (s.race->winner != full.pathLearner[static_cast<std::size_t>(m)]) ++differ;
    }
    QCOMPARE(differ, 0);
  }

  // Above kReplayHostWork (rows x learners) a replayed iteration has no fitted values and no race: What the learner
  // fits kept the latest iteration's winner ("Iteration 21: ... wins", now "Next iteration 21 (preview)", beside
  // iteration 10) and the race said "Press Step". Both say why now, and come back with Latest.
  void aFitTooLargeToReplayOnTheHostSaysSo() {
    const int mstop = 20, m = 10;
    auto w = gbtest::makeWindow(60000, 100, mstop, 14, "replaylarge");
    QVERIFY(60000.0 * 100 > kReplayHostWork);
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->learnerFitView());
    QVERIFY2(w->learnerFitView()->caption()->text().startsWith(QString("Next iteration %1 (preview):").arg(mstop + 1)),
             qPrintable(w->learnerFitView()->caption()->text()));
    w->replayBar()->slider()->setValue(m);
    QVERIFY(w->replayBar()->replaying());
    const QString expected = QString("Iteration %1 of this fit is not worked out again").arg(m + 1);
    QVERIFY2(w->learnerFitView()->caption()->text().startsWith(expected),
             qPrintable(w->learnerFitView()->caption()->text()));
    QCOMPARE(w->learnerFitView()->learner(), -1);
    QVERIFY(!w->raceView()->race().has_value());
    QVERIFY2(w->raceView()->summary().startsWith(expected), qPrintable(w->raceView()->summary()));
    w->showTab(w->raceView());  // switching tabs keeps the explanation
    QVERIFY(w->raceView()->summary().startsWith(expected));
    QTest::mouseClick(w->replayBar()->latestButton(), Qt::LeftButton);
    w->showTab(w->learnerFitView());
    QVERIFY2(w->learnerFitView()->caption()->text().startsWith(QString("Next iteration %1 (preview):").arg(mstop + 1)),
             qPrintable(w->learnerFitView()->caption()->text()));
    w->showTab(w->raceView());
    QVERIFY(w->raceView()->race().has_value());
  }

  void resetGoesBackToIterationZero() {
    auto w = gbtest::makeWindow(500, 4, 60, 12, "reset");
    QVERIFY(gbtest::fitAndWait(*w));
    ReplayBar* bar = w->replayBar();
    QVERIFY(bar->resetButton()->isEnabled());
    QTest::mouseClick(bar->resetButton(), Qt::LeftButton);
    QCOMPARE(w->controller()->iteration(), 0);
    QVERIFY(!w->controller()->lastSnapshot().setup);
    QVERIFY(w->effectsView()->shownLearners().isEmpty());
    QCOMPARE(w->riskPlot()->riskGraph()->dataCount(), 0);
    QCOMPARE(w->fitButton()->text().remove('&'), QString("Fit"));
    QVERIFY(!bar->slider()->isEnabled());
    QVERIFY(!bar->resetButton()->isEnabled());
    QVERIFY(gbtest::stepAndWait(*w));  // and Step starts again at 1
    QCOMPARE(w->controller()->iteration(), 1);
  }

  void disabledWhileAJobRuns() {
    auto w = gbtest::makeWindow(2000, 10, 200000, 13, "replayrun");
    QSignalSpy snapshots(w->controller(), &FitController::snapshotReady);
    QTest::mouseClick(w->fitButton(), Qt::LeftButton);
    QVERIFY(snapshots.wait(10000));
    QVERIFY(w->controller()->isRunning());
    QVERIFY(!w->replayBar()->slider()->isEnabled());
    QVERIFY(!w->replayBar()->resetButton()->isEnabled());
    QSignalSpy finished(w->controller(), &FitController::jobFinished);
    QTest::mouseClick(w->pauseButton(), Qt::LeftButton);
    QVERIFY(finished.wait(10000));
    QVERIFY(w->replayBar()->slider()->isEnabled());  // paused: replayable
    QCOMPARE(w->replayBar()->slider()->maximum(), w->controller()->iteration());
  }
};

QTEST_MAIN(ReplayTest)
#include "test_replay.moc"

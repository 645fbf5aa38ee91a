// One source of truth for the session's state: after each action (new data, a CSV read, a cross-validation, Fit,
// Step, Pause, Cancel, Open session, a failed fit) every view says the same thing: the status line and bar, the
// progress bar, the Fit button's label, the risk plot, the partial effects and the learner race.
#include <QProgressBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>
#include <QtTest>

#include "compute/Booster.hpp"
#include "data/DataPanel.hpp"
#include "model/Model.hpp"
#include "model/ModelPanel.hpp"
#include "plots/CrossValidationView.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/RiskPlot.hpp"
#include "support/StudioFixture.hpp"
#include "window/ElidedLabel.hpp"
#include "window/ReplayBar.hpp"

using namespace gbui;

namespace {

QString status(const MainWindow& w) { return w.fitStatus()->fullText(); }

int riskPoints(const MainWindow& w) { return w.riskPlot()->riskGraph()->data()->size(); }

int raceIteration(const MainWindow& w) {
  const auto& race = w.raceView()->race();
  return race ? race->iteration : -1;
}

// Starts (or resumes) a fit far longer than the test waits, lets it iterate, and clicks `button` (Pause or Cancel).
void runThenClick(MainWindow& w, QPushButton* button) {
  QSignalSpy finished(w.controller(), &FitController::jobFinished);
  QTest::mouseClick(w.fitButton(), Qt::LeftButton);
  const int from = w.controller()->lastSnapshot().iteration;
  QTRY_VERIFY_WITH_TIMEOUT(w.controller()->lastSnapshot().iteration > from + 5, 20000);
  QTest::mouseClick(button, Qt::LeftButton);
  QVERIFY(finished.wait(10000));
}

// The views of "data on show, nothing fitted": idle, 0 / mstop, Fit, empty plots, no race.
void expectNotFitted(MainWindow& w, int mstop) {
  QCOMPARE(w.controller()->state(), FitState::Idle);
  QVERIFY2(status(w).contains("Not fitted yet"), qPrintable(status(w)));
  QVERIFY2(status(w).startsWith("Data: "), qPrintable(status(w)));
  QVERIFY2(!status(w).contains("Generate or open"), qPrintable(status(w)));
  QCOMPARE(w.fitProgress()->value(), 0);
  QCOMPARE(w.fitProgress()->maximum(), mstop);
  QCOMPARE(w.fitButton()->text(), QString("Fit"));
  QCOMPARE(riskPoints(w), 0);
  // Nor the last fit's axes: its iterations, its risk's range, its family's loss.
  const PlotWidget* risk = w.riskPlot()->plot();
  QCOMPARE(risk->xAxis->range().upper, 1.0);
  QCOMPARE(risk->yAxis->range().upper, 1.0);
  QCOMPARE(risk->yAxis->label(), QString("risk"));
  QCOMPARE(w.cvView()->plot()->xAxis->range().upper, 1.0);
  QVERIFY(w.effectsView()->shownLearners().isEmpty());
  QCOMPARE(raceIteration(w), -1);
  QVERIFY(w.iterationLabel()->text().isEmpty());
}

}  // namespace

class SessionStateTest : public QObject {
  Q_OBJECT

 private slots:
  void statusKnowsTheDataAtStartAfterACsvAndACrossValidation() {
    // Before data: says so. At a start that generates (the app's default): the data, not "generate first".
    MainWindow empty(gbtest::testOptions("empty"));
    QVERIFY2(status(empty).contains("No data yet"), qPrintable(status(empty)));
    StudioOptions o = gbtest::testOptions("start");
    o.generateOnStart = true;
    MainWindow started(o);
    QTRY_VERIFY_WITH_TIMEOUT(started.dataPanel()->dataset() != nullptr, 30000);  // a worker may generate it
    QVERIFY2(status(started).startsWith("Data: 10000 rows, 101 columns"), qPrintable(status(started)));

    // After a CSV read (on a worker): the CSV's data.
    const QString csv = gbtest::scratchPath("state.csv");
    QFile f(csv);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QByteArray text = "y,x1,x2\n";
    for (int i = 0; i < 200; ++i)
      text += QByteArray::number(std::sin(i * 0.1) + 0.01 * i) + "," + QByteArray::number(i * 0.1) + "," +
              QByteArray::number((i * 37) % 11) + "\n";
    QVERIFY(f.write(text) == text.size());
    f.close();
    QSignalSpy loaded(empty.dataPanel(), &DataPanel::loadFinished);
    QVERIFY(empty.dataPanel()->openCsv(csv));
    QVERIFY(loaded.wait(10000));
    expectNotFitted(empty, empty.modelPanel()->settings().mstop);
    QVERIFY2(status(empty).startsWith("Data: 200 rows, 3 columns"), qPrintable(status(empty)));

    // After a cross-validation: unchanged.
    gb::ModelSettings s = empty.modelPanel()->settings();
    s.mstop = 20;
    empty.modelPanel()->setSettings(s);
    empty.cvView()->setFoldType(FoldType::KFold);
    empty.cvView()->countBox()->setValue(2);
    QSignalSpy cvDone(empty.cvView(), &CrossValidationView::finished);
    QTest::mouseClick(empty.cvView()->runButton(), Qt::LeftButton);
    QVERIFY(cvDone.wait(60000));
    QVERIFY2(status(empty).startsWith("Data: 200 rows"), qPrintable(status(empty)));
    QVERIFY2(empty.statusLine()->fullText() == status(empty), qPrintable(empty.statusLine()->fullText()));
  }

  void newDataResetsEveryView() {
    auto w = gbtest::makeWindow(1000, 6, 40, 1, "newdata");
    w->showTab(w->riskPlot());
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(riskPoints(*w), 41);
    QCOMPARE(w->fitProgress()->value(), 40);
    QCOMPARE(raceIteration(*w), 41);  // the next iteration's race, after the fit
    QVERIFY2(status(*w).contains("Finished. 40 iterations"), qPrintable(status(*w)));

    // A setting changed after the fit is said in the status (it said "Finished" beside the old fit's views);
    // mstop alone is not such a change, and changing it back clears the note.
    gb::ModelSettings settings = w->modelPanel()->settings();
    const double nu = settings.nu;
    settings.nu = 0.37;
    w->modelPanel()->setSettings(settings);
    QVERIFY2(status(*w).contains("the data or settings changed since"), qPrintable(status(*w)));
    settings.nu = nu;
    settings.mstop = 77;
    w->modelPanel()->setSettings(settings);
    QVERIFY2(status(*w).contains("Finished. 40 iterations"), qPrintable(status(*w)));
    settings.mstop = 40;
    w->modelPanel()->setSettings(settings);

    w->showTab(w->learnerFitView());  // What the learner fits draws the old data's ranges
    QVERIFY(w->learnerFitView()->plot()->yAxis->range().upper != 1.0);
    gb::PaperDataSpec spec = w->dataPanel()->generatorSpec();
    spec.seed = 2;
    w->dataPanel()->setGeneratorSpec(spec);
    QVERIFY(w->dataPanel()->generateNow());
    expectNotFitted(*w, 40);
    w->showTab(w->effectsView());  // switching tabs must not draw the old fit back
    QVERIFY(w->effectsView()->shownLearners().isEmpty());
    // What the learner fits: empty, on 0..1 axes, not the old data's ranges (y -40..40 beside new data).
    const PlotWidget* fitPlot = w->learnerFitView()->plot();
    QCOMPARE(fitPlot->yAxis->range().lower, 0.0);
    QCOMPARE(fitPlot->yAxis->range().upper, 1.0);
    QCOMPARE(fitPlot->xAxis->range().upper, 1.0);
  }

  void aFreshFitShowsNothingOfThePreviousOneWhileItSetsUp() {
    auto w = gbtest::makeWindow(1000, 6, 30, 1, "fresh");
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY(!w->effectsView()->shownLearners().isEmpty());
    QSignalSpy finished(w->controller(), &FitController::jobFinished);
    QTest::mouseClick(w->fitButton(), Qt::LeftButton);  // finished: Fit starts afresh
    // Synchronously after the click, before the worker's first snapshot: the old plots are gone.
    QCOMPARE(w->controller()->state(), FitState::Running);
    QVERIFY(w->effectsView()->shownLearners().isEmpty());
    QCOMPARE(riskPoints(*w), 0);
    QCOMPARE(raceIteration(*w), -1);
    QCOMPARE(w->fitProgress()->value(), 0);
    QVERIFY2(status(*w).contains("setting up"), qPrintable(status(*w)));
    QVERIFY(finished.wait(20000));
    QVERIFY(!w->effectsView()->shownLearners().isEmpty());
  }

  void openSessionSaysNotFittedInsteadOfResume() {
    auto w = gbtest::makeWindow(1000, 6, 20, 1, "session");
    const QString path = gbtest::scratchPath("state.gbs.json");
    QVERIFY2(w->saveSession(path), qPrintable(w->messages()->lastError()));
    gb::ModelSettings s = w->modelPanel()->settings();
    s.mstop = 1'000'000;
    w->modelPanel()->setSettings(s);
    // The tool bar's buttons stay where they are when Fit becomes Resume (they moved about 34 px).
    const QToolBar* bar = w->findChild<QToolBar*>("fitToolBar");
    QVERIFY(bar && bar->actions().size() > 1);
    const QWidget* pauseTool = bar->widgetForAction(bar->actions()[1]);
    const int pauseX = pauseTool->x();
    runThenClick(*w, w->pauseButton());
    QCOMPARE(w->controller()->state(), FitState::Paused);
    QCOMPARE(w->fitButton()->text(), QString("Resume"));
    QVERIFY2(status(*w).contains("Paused at iteration"), qPrintable(status(*w)));
    QTest::qWait(100);  // the tool bar's layout runs on a posted event
    QCOMPARE(pauseTool->x(), pauseX);

    QVERIFY2(gbtest::openSessionAndWait(*w, path), qPrintable(w->messages()->lastError()));
    expectNotFitted(*w, 20);
    QVERIFY(!w->controller()->canResume());
    // Fit then fits from iteration 0 to the session's mstop, as the label promised.
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 20);
    QCOMPARE(w->fitProgress()->value(), 20);
    QCOMPARE(w->fitProgress()->maximum(), 20);
  }

  void aFailedFitReportsItsErrorNotThePreviousKernel() {
    auto w = gbtest::makeWindow(1000, 6, 20, 1, "failed");
    QVERIFY(gbtest::fitAndWait(*w));
    const QString kernel = QString::fromStdString(w->controller()->setup()->backend.kernel);
    QVERIFY2(status(*w).contains(kernel), qPrintable(status(*w)));
    // edf 1.5 with 2nd-order differences: below the penalty's null space (2), the engine refuses at set-up.
    gb::ModelSettings s = w->modelPanel()->settings();
    s.edf = 1.5;
    w->modelPanel()->setSettings(s);
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Failed);
    QVERIFY2(status(*w).startsWith("Data: 1000 rows, 7 columns. Failed: "), qPrintable(status(*w)));
    QVERIFY2(!status(*w).contains(kernel), qPrintable(status(*w)));
    QVERIFY2(!status(*w).contains("iterations in"), qPrintable(status(*w)));
    QCOMPARE(riskPoints(*w), 0);
    QCOMPARE(w->fitProgress()->value(), 0);
    QCOMPARE(w->fitButton()->text(), QString("Fit"));
    // In the window's words: the controls' names, not the command line's options.
    const QString error = w->messages()->lastError();
    QVERIFY2(!error.contains("--"), qPrintable(error));
    QVERIFY2(error.contains("raise edf or lower Differences"), qPrintable(error));
    QVERIFY2(status(*w).contains("raise edf"), qPrintable(status(*w)));
  }

  void theRaceFollowsFitPauseAndCancel() {
    auto w = gbtest::makeWindow(2000, 20, 60, 1, "race");
    QVERIFY(gbtest::stepAndWait(*w));
    QCOMPARE(raceIteration(*w), 1);
    QVERIFY(gbtest::fitAndWait(*w));  // resumes to mstop
    QCOMPARE(w->controller()->booster()->iteration(), 60);
    QCOMPARE(raceIteration(*w), 61);
    QVERIFY(!w->raceView()->race()->decided);  // a preview of the next iteration

    gb::ModelSettings s = w->modelPanel()->settings();
    s.mstop = 1'000'000;
    w->modelPanel()->setSettings(s);
    runThenClick(*w, w->pauseButton());
    QCOMPARE(w->controller()->state(), FitState::Paused);
    QCOMPARE(raceIteration(*w), w->controller()->booster()->iteration() + 1);
    QCOMPARE(w->iterationLabel()->text().section(',', 0, 0),
             QString("iteration %1").arg(w->controller()->booster()->iteration()));

    runThenClick(*w, w->cancelButton());  // Fit resumes, then Cancel
    QCOMPARE(w->controller()->state(), FitState::Cancelled);
    QCOMPARE(raceIteration(*w), w->controller()->booster()->iteration() + 1);
  }

  void stepShowsItsIterationOfMstop() {
    auto w = gbtest::makeWindow(1000, 6, 500, 1, "step");
    double seconds = 0.0;
    for (int k = 1; k <= 6; ++k) {
      QVERIFY(gbtest::stepAndWait(*w));
      QCOMPARE(w->fitProgress()->value(), k);
      QCOMPARE(w->fitProgress()->maximum(), 500);
      QCOMPARE(w->fitProgress()->text(), QString("%1 / 500").arg(k));
      // "k iterations in S s": S is the time of all k (it was the last Step's alone, beside the count of all).
      const double now = w->controller()->lastSnapshot().jobSeconds;
      QVERIFY2(now > seconds, qPrintable(QString("step %1: %2 s after %3 s").arg(k).arg(now).arg(seconds)));
      seconds = now;
    }
    QCOMPARE(w->fitButton()->text(), QString("Resume"));
    QVERIFY2(status(*w).contains("Paused at iteration 6 of 500"), qPrintable(status(*w)));
    // Changed settings: Fit would start afresh, so the button no longer promises to resume.
    gb::ModelSettings s = w->modelPanel()->settings();
    s.nu = 0.2;
    w->modelPanel()->setSettings(s);
    QCOMPARE(w->fitButton()->text(), QString("Fit"));
  }

  // Step while replaying an earlier iteration shows the next one (it ran the fit on to mstop + 1 and jumped there);
  // at the end of a finished fit it continues past mstop and the panel's mstop follows, so that the panel, the bar
  // and the saved model agree (the panel said 40 beside "41 / 41").
  void stepFollowsTheReplayAndCarriesMstop() {
    auto w = gbtest::makeWindow(600, 4, 40, 1, "step-replay");
    QVERIFY(gbtest::fitAndWait(*w));
    w->replayBar()->slider()->setValue(10);
    QCOMPARE(w->shownSnapshot().iteration, 10);
    QTest::mouseClick(w->stepButton(), Qt::LeftButton);
    QCOMPARE(w->shownSnapshot().iteration, 11);
    QVERIFY(!w->controller()->isRunning());
    QCOMPARE(w->controller()->booster()->iteration(), 40);  // nothing was fitted
    QTest::mouseClick(w->replayBar()->latestButton(), Qt::LeftButton);
    QVERIFY(gbtest::stepAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 41);  // continued, not afresh
    QCOMPARE(w->modelPanel()->mstopBox()->value(), 41);
    QCOMPARE(w->fitProgress()->value(), 41);
    QCOMPARE(w->fitProgress()->maximum(), 41);
    QCOMPARE(w->controller()->booster()->model().settings.mstop, 41);
    QCOMPARE(w->controller()->state(), FitState::Finished);
    QVERIFY(!w->controller()->changedSinceFit());
    QVERIFY2(status(*w).contains("41"), qPrintable(status(*w)));
    QVERIFY2(!status(*w).contains("changed"), qPrintable(status(*w)));
    // Replaying with changed settings, Step starts afresh (as the status says), not the replay's next iteration.
    w->replayBar()->slider()->setValue(5);
    gb::ModelSettings s = w->modelPanel()->settings();
    s.nu = 0.25;
    w->modelPanel()->setSettings(s);
    QVERIFY(gbtest::stepAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 1);
  }

  // A status longer than the bar has room for ends in an ellipsis before the iteration label, whole in its tooltip
  // (a temporary message was cut off under the label with no mark).
  void aLongStatusIsElidedBeforeTheIterationLabel() {
    auto w = gbtest::makeWindow(1000, 6, 500, 1, "elided");
    QVERIFY(gbtest::stepAndWait(*w));
    gb::ModelSettings s = w->modelPanel()->settings();
    s.nu = 0.2;  // "... (the settings changed since ...)": longer still
    w->modelPanel()->setSettings(s);
    const ElidedLabel* line = w->statusLine();
    QCOMPARE(line->fullText(), status(*w));
    QCOMPARE(line->toolTip(), status(*w));
    QVERIFY(!w->iterationLabel()->text().isEmpty());
    for (int width : {1280, 700}) {
      w->resize(width, 820);
      QCoreApplication::processEvents();
      QTRY_VERIFY(line->geometry().right() < w->iterationLabel()->geometry().left());
      const bool fits = line->fontMetrics().horizontalAdvance(status(*w)) <= line->width() - 2;
      QVERIFY2(fits ? line->text() == status(*w) : line->text().endsWith(QChar(0x2026)),
               qPrintable(QString("%1 px: '%2'").arg(width).arg(line->text())));
      if (width == 700) QVERIFY2(!fits, "the status should not fit 700 px beside the iteration label");
    }
  }

  void stepAfterCancelStartsAfreshAsTheTooltipSays() {
    auto w = gbtest::makeWindow(2000, 20, 1'000'000, 1, "cancel");
    QVERIFY2(w->cancelButton()->toolTip().contains("next Fit or Step starts afresh"),
             qPrintable(w->cancelButton()->toolTip()));
    runThenClick(*w, w->cancelButton());
    QCOMPARE(w->controller()->state(), FitState::Cancelled);
    QVERIFY(w->controller()->iteration() > 5);
    QCOMPARE(w->fitButton()->text(), QString("Fit"));
    QVERIFY2(status(*w).contains("Cancelled at iteration"), qPrintable(status(*w)));
    QVERIFY(gbtest::stepAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 1);
    QCOMPARE(w->fitProgress()->value(), 1);
  }
};

QTEST_MAIN(SessionStateTest)
#include "test_session_state.moc"

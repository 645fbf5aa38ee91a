// Fit > Time budget in the log: off by default (no report, no profile); on, the fit that reaches mstop posts its time
// budget (stages with their floors, and on OpenCL every kernel with its count) to the log once.
#include <QAction>
#include <QScrollBar>
#include <QtTest>

#include "fit/FitController.hpp"
#include "support/StudioFixture.hpp"
#include "window/LogPanel.hpp"
#include "window/MainWindow.hpp"

using namespace gbui;

namespace {

QString logText(MainWindow& w) {
  auto* log = w.findChild<LogPanel*>();
  return log ? log->toPlainText() : QString();
}

}  // namespace

class TimeBudgetTest : public QObject {
  Q_OBJECT

 private slots:
  void offByDefaultThenPostedOnce() {
    const int mstop = 40;
    auto w = gbtest::makeWindow(1500, 6, mstop);
    auto* action = w->findChild<QAction*>("timeBudgetAction");
    QVERIFY(action && action->isCheckable() && !action->isChecked());
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), mstop);
    QVERIFY2(!logText(*w).contains("Time budget of the fit"), qPrintable(logText(*w)));

    action->trigger();
    QVERIFY(action->isChecked() && w->controller()->timeBudget());
    w->controller()->reset();  // a new session: the time budget applies to fits started from now on
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    const QString text = logText(*w);
    QVERIFY2(text.count("Time budget of the fit") == 1, qPrintable(text));
    for (const char* row : {"basis and Gram", "lambda solves", "backend set-up", "iterations", "floor"})
      QVERIFY2(text.contains(row), row);
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
  }

  // The log follows its newest line, wrapped lines included (the newest line of a fit was left below the view),
  // unless the user scrolled up to read older ones.
  void theLogFollowsItsNewestLine() {
    LogPanel log;
    log.resize(260, 120);
    log.show();
    QVERIFY(QTest::qWaitForWindowExposed(&log));
    QScrollBar* bar = log.verticalScrollBar();
    for (int i = 0; i < 12; ++i) {
      log.append(Severity::Info, QString("line %1 ").arg(i) + QString("a long message that wraps ").repeated(6),
                 QString());
      QCOMPARE(bar->value(), bar->maximum());
    }
    QVERIFY(bar->maximum() > 0);
    // Lines that arrive while the log is hidden (its dock tabbed behind another) are followed too.
    log.hide();
    for (int i = 0; i < 6; ++i)
      log.append(Severity::Info, QString("hidden %1 ").arg(i) + QString("wraps ").repeated(20), QString());
    log.show();
    QVERIFY(QTest::qWaitForWindowExposed(&log));
    QCOMPARE(bar->value(), bar->maximum());
    bar->setValue(0);
    log.append(Severity::Info, "one more", QString());
    QCOMPARE(bar->value(), 0);
  }
};

QTEST_MAIN(TimeBudgetTest)
#include "test_time_budget.moc"

// Errors reach the user as messages and change nothing: a malformed CSV keeps the previous data, roles and
// plots; an impossible option or an unusable backend fails the fit with a message; the window stays usable.
#include <qcustomplot.h>

#include <QDoubleSpinBox>
#include <QProgressBar>
#include <QSpinBox>
#include <QtTest>

#include "data/ColumnRolesTable.hpp"
#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/RiskPlot.hpp"
#include "support/StudioFixture.hpp"
#include "window/ElidedLabel.hpp"
#include "window/WarningBadge.hpp"

using namespace gbui;

namespace {

QString writeFile(const QString& name, const QByteArray& text) {
  const QString path = gbtest::scratchPath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly | QIODevice::Truncate);
  f.write(text);
  return path;
}

template <class Box>
Box* spinWithTip(const QWidget& parent, const QString& tipStart) {
  for (Box* b : parent.findChildren<Box*>())
    if (b->toolTip().startsWith(tipStart)) return b;
  return nullptr;
}

QProgressBar* barWithTip(const QWidget& parent, const QString& tip) {
  for (QProgressBar* b : parent.findChildren<QProgressBar*>())
    if (b->toolTip() == tip) return b;
  return nullptr;
}

}  // namespace

class ErrorsTest : public QObject {
  Q_OBJECT

 private slots:
  void malformedCsvChangesNothing() {
    auto w = gbtest::makeWindow(2000, 10, 60, 2, "csv");
    QVERIFY(gbtest::fitAndWait(*w));
    // Change a role so that "unchanged" is not just "the defaults".
    auto roles = w->dataPanel()->roles();
    roles.learners.removeAll("x4");
    roles.ignored << "x4";
    w->dataPanel()->setRoles(roles);
    const auto dataBefore = w->dataPanel()->dataset();
    const auto rolesBefore = w->dataPanel()->roles();
    const auto shownBefore = w->effectsView()->shownLearners();
    const int riskPointsBefore = w->riskPlot()->riskGraph()->data()->size();
    const QString previewBefore = w->dataPanel()->previewTable()->item(0, 1)->text();

    // Row 3 has too few fields (a text cell would be a factor level now, and NA a missing value).
    const QString bad = writeFile("bad.csv", "y,x1,x2\n1,0.5,0.25\n2,0.5\n");
    QSignalSpy loaded(w->dataPanel(), &DataPanel::loadFinished);
    QVERIFY(w->dataPanel()->openCsv(bad));
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.takeFirst().at(0).toBool(), false);
    const QString error = w->messages()->lastError();
    qInfo("message shown: %s", qPrintable(error));
    QVERIFY2(error.contains("bad.csv"), qPrintable(error));
    QVERIFY2(error.contains(":3:"), qPrintable(error));  // names line 3
    QVERIFY2(error.contains("(the current data is unchanged)"), qPrintable(error));
    QCOMPARE(w->dataPanel()->dataset(), dataBefore);
    QVERIFY(w->dataPanel()->roles() == rolesBefore);
    QCOMPARE(w->effectsView()->shownLearners(), shownBefore);
    QCOMPARE(w->riskPlot()->riskGraph()->data()->size(), riskPointsBefore);
    QCOMPARE(w->dataPanel()->previewTable()->item(0, 1)->text(), previewBefore);
    QCOMPARE(w->controller()->data(), dataBefore);
    QProgressBar* csvBar = barWithTip(*w->dataPanel(), "Progress of the CSV read");
    QVERIFY(csvBar);
    QCOMPARE(csvBar->text(), QString("failed; data unchanged"));  // not a bare 0% beside the old data

    // A good file then loads, with y as the response and the rest learners.
    const QString good = writeFile("good.csv", "a,y,b\n1,2,3\n4,5,6.5\n7,8,9\n");
    QVERIFY(w->dataPanel()->openCsv(good));
    QVERIFY(loaded.wait(10000));
    QCOMPARE(loaded.takeFirst().at(0).toBool(), true);
    QCOMPARE(w->dataPanel()->dataset()->rows(), std::size_t(3));
    QCOMPARE(w->dataPanel()->roles().response, QString("y"));
    QCOMPARE(w->dataPanel()->roles().learners, QStringList({"a", "b"}));
    QCOMPARE(w->dataPanel()->previewTable()->item(1, 2)->text(), QString("6.5"));
    QCOMPARE(csvBar->text(), QString("100%"));
  }

  // A read that fails is an error even when its message holds the word "cancelled" (here the file's name; a column
  // of flight data may be called so): only Cancel makes a cancellation.
  void fileNamedCancelledFailsAsAnError() {
    auto w = gbtest::emptyWindow("csv-cancelled");
    const QString bad = writeFile("cancelled-orders.csv", "y,x1,x2\n1,0.5,0.25\n2,0.5\n");
    QCOMPARE(gbtest::openCsvAndWait(*w, bad), std::optional<bool>(false));  // started, ended, failed
    const QString error = w->messages()->lastError();
    QVERIFY2(error.contains("cancelled-orders.csv:3:"), qPrintable(error));
    QVERIFY2(!error.contains("current data is unchanged"), qPrintable(error));  // there was none
    QProgressBar* csvBar = barWithTip(*w->dataPanel(), "Progress of the CSV read");
    QVERIFY(csvBar);
    QCOMPARE(csvBar->text(), QString("failed"));  // not "data unchanged": there was none
  }

  void badOptionFailsTheFitWithAMessage() {
    auto w = gbtest::makeWindow(500, 5, 10, 1, "badopt");
    // edf 1 is below a 2nd-order P-spline's null space (2): the engine refuses, naming both numbers.
    gb::ModelSettings s = gb::ModelSettings::mboostPreset();
    s.edf = 1.0;
    w->modelPanel()->setSettings(s);
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Failed);
    const QString error = w->messages()->lastError();
    qInfo("message shown: %s", qPrintable(error));
    QVERIFY2(error.contains("edf"), qPrintable(error));
    QVERIFY2(w->statusLine()->fullText().contains("Failed: edf"), qPrintable(w->statusLine()->fullText()));
    // Usable afterwards: fix the option and fit. Until then the failure is said to be the settings' before.
    w->modelPanel()->applyPaperPreset();
    QTRY_VERIFY2(w->statusLine()->fullText().contains("Failed with the data or settings before (changed since: "
                                                      "press Fit): edf"),
                 qPrintable(w->statusLine()->fullText()));
    QVERIFY(w->fitStatus()->fullText().contains("Failed with the data or settings before"));
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->state(), FitState::Finished);
  }

  void unusableBackendIsReported() {
    auto w = gbtest::makeWindow(500, 5, 10, 1, "backend");
    gb::ComputeSettings c;
    c.backend = gb::BackendKind::OpenCl;
    c.kernel = "no-such-kernel";
    w->controller()->setSettings(gb::ModelSettings::paperPreset(), c);
    const int errorsBefore = w->messages()->errorCount();
    QSignalSpy finished(w->controller(), &FitController::jobFinished);
    QVERIFY(w->controller()->fit());
    QVERIFY(finished.wait(30000));
    QCOMPARE(w->controller()->state(), FitState::Failed);
    QCOMPARE(w->messages()->errorCount(), errorsBefore + 1);
    qInfo("message shown: %s", qPrintable(w->messages()->lastError()));
    QVERIFY(!w->messages()->lastError().isEmpty());
    QVERIFY(w->fitButton()->isEnabled());
  }

  void outOfRangeEntryIsReportedNotSwallowed() {
    auto w = gbtest::makeWindow(500, 5, 10, 1, "entry");
    QDoubleSpinBox* nu = spinWithTip<QDoubleSpinBox>(*w->modelPanel(), "Step length nu");
    QVERIFY(nu);
    nu->setValue(0.1);
    const int before = w->messages()->errorCount();
    // Enter on "0": Qt puts 0.1 back; the user is told so, naming the field, the entry and the range.
    nu->selectAll();
    QTest::keyClicks(nu, "0");
    QVERIFY(!nu->hasAcceptableInput());
    QTest::keyClick(nu, Qt::Key_Return);
    QTRY_COMPARE(w->messages()->errorCount(), before + 1);
    const QString error = w->messages()->lastError();
    qInfo("message shown: %s", qPrintable(error));
    QVERIFY2(error.contains("nu: \"0\" is not a value from 0.001 to 1, so nu stays 0.1"), qPrintable(error));
    QCOMPARE(nu->value(), 0.1);
    // An acceptable entry says nothing.
    nu->selectAll();
    QTest::keyClicks(nu, "0.3");
    QTest::keyClick(nu, Qt::Key_Return);
    QTest::qWait(20);
    QCOMPARE(w->messages()->errorCount(), before + 1);
    QCOMPARE(nu->value(), 0.3);
    // The focus leaving an emptied mstop: one message (the box and its line edit both see the focus go).
    QSpinBox* mstop = w->modelPanel()->mstopBox();
    const int kept = mstop->value();
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w.get()));
    mstop->setFocus();
    QTRY_VERIFY(mstop->hasFocus());
    mstop->selectAll();
    QTest::keyClick(mstop, Qt::Key_Delete);
    QVERIFY(!mstop->hasAcceptableInput());
    nu->setFocus();
    QTRY_COMPARE(w->messages()->errorCount(), before + 2);
    QTest::qWait(20);
    QCOMPARE(w->messages()->errorCount(), before + 2);
    QVERIFY2(w->messages()->lastError().contains(
                 QString("mstop: an empty entry is not a value, so mstop stays %1").arg(kept)),
             qPrintable(w->messages()->lastError()));
    QCOMPARE(mstop->value(), kept);
    // F5 (the Fit action, which takes no focus) on an entry not yet corrected: nothing starts, and the entry is named;
    // the panel used to be disabled first, and Qt corrected the entry in silence.
    nu->setFocus();
    QTRY_VERIFY(nu->hasFocus());
    nu->selectAll();
    QTest::keyClicks(nu, "0");
    QVERIFY(!nu->hasAcceptableInput());
    const FitState state = w->controller()->state();
    w->fitAction()->trigger();
    QCOMPARE(w->messages()->errorCount(), before + 3);
    QVERIFY2(w->messages()->lastError().contains("nu: \"0\" is not a value from 0.001 to 1; correct it first "
                                                 "(nothing was started)"),
             qPrintable(w->messages()->lastError()));
    QVERIFY(!w->controller()->isRunning());
    QCOMPARE(w->controller()->state(), state);
  }

  void warningsShowInTheStatusBar() {
    auto w = gbtest::makeWindow(500, 5, 10, 1, "badge");
    WarningBadge* badge = w->warningBadge();
    QVERIFY(badge);
    badge->click();  // whatever the start said (OpenCL's status) is looked at
    QVERIFY(badge->isHidden());
    // One typo among numbers makes the column a factor, as read.csv does: the log line alone was easy to miss.
    QByteArray csv = "y,x1\n";
    for (int i = 0; i < 20; ++i)
      csv += QByteArray::number(i) + "," + (i == 7 ? "O.5" : QByteArray::number(i * 0.05)) + "\n";
    QVERIFY(gbtest::openCsvText(*w, "typo.csv", csv));
    QTRY_VERIFY(badge->isVisible());
    QCOMPARE(badge->unseen(), 1);
    QCOMPARE(badge->text(), QString("1 warning in the log"));
    qInfo("badge tip: %s", qPrintable(badge->toolTip()));
    QVERIFY2(badge->toolTip().contains("column 'x1'") && badge->toolTip().contains("O.5"),
             qPrintable(badge->toolTip()));
    badge->click();
    QVERIFY(badge->isHidden());
    QCOMPARE(badge->unseen(), 0);
  }
};

QTEST_MAIN(ErrorsTest)
#include "test_errors.moc"

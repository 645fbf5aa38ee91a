// Errors reach the user as messages and change nothing: a malformed CSV keeps the previous data, roles and
// plots; an impossible option or an unusable backend fails the fit with a message; the window stays usable.
#include <qcustomplot.h>

#include <QProgressBar>
#include <QtTest>

#include "data/ColumnRolesTable.hpp"
#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/RiskPlot.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

QString writeFile(const QString& name, const QByteArray& text) {
  const QString path = gbtest::scratchPath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly | QIODevice::Truncate);
  f.write(text);
  return path;
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
    // Usable afterwards: fix the option and fit.
    w->modelPanel()->applyPaperPreset();
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
};

QTEST_MAIN(ErrorsTest)
#include "test_errors.moc"

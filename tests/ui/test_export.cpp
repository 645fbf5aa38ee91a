// Export gives what the tab shows: the whole partial-effects grid (not one small plot) and both plots of the
// Selection and Kernel timings tabs, at the size on screen or a chosen one; an effect's CSV holds curves only; the
// default file is named after the plots and lies in the folder last exported to (remembered across restarts).
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QSpinBox>
#include <QTimer>
#include <QtTest>

#include "compute/Booster.hpp"
#include "plots/EffectPlot.hpp"
#include "plots/ExportSizeDialog.hpp"
#include "plots/FitDiagnostics.hpp"
#include "plots/KernelChart.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/ModelSummaryView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotExport.hpp"
#include "plots/RiskPlot.hpp"
#include "plots/SelectionPlot.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

QList<QByteArray> csvLines(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().trimmed().split('\n');
}

// Pixels that are not (nearly) white inside `r`.
int inkIn(const QImage& image, const QRect& r) {
  int ink = 0;
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x) ink += qGray(image.pixel(x, y)) < 200;
  return ink;
}

}  // namespace

class ExportTest : public QObject {
  Q_OBJECT

 private slots:
  void gridExportsWhole() {
    auto w = gbtest::makeWindow(2000, 12, 100, 3, "export-grid");
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    QCoreApplication::processEvents();
    PartialEffectsView* view = w->effectsView();
    const PlotSheet sheet = w->currentSheet();
    QCOMPARE(sheet.name, QString("partial-effects"));
    QCOMPARE(sheet.plots.size(), 12);
    QCOMPARE(sheet.columns, 4);
    const QSize cell = view->plotFor(0)->size();
    const QSize natural = sheet.naturalSize();  // columns may differ by the layout's spare pixel
    QVERIFY2(std::abs(natural.width() - 4 * cell.width()) <= 4 && std::abs(natural.height() - 3 * cell.height()) <= 3,
             qPrintable(QString("%1 x %2 for cells of %3 x %4")
                            .arg(natural.width())
                            .arg(natural.height())
                            .arg(cell.width())
                            .arg(cell.height())));

    const QString png = gbtest::scratchPath("grid.png");
    QFile::remove(png);
    QVERIFY2(w->exportCurrentPlot(png), qPrintable(w->messages()->lastError()));
    const QImage image(png);
    QCOMPARE(image.size(), sheet.naturalSize());  // the grid's size, not one small plot's
    // Every cell holds a plot (axes, labels, a curve): none is blank.
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) {
        const int ink = inkIn(image, QRect(c * cell.width(), r * cell.height(), cell.width(), cell.height()));
        QVERIFY2(ink > 300, qPrintable(QString("cell %1,%2: %3 dark pixels").arg(r).arg(c).arg(ink)));
      }
    // At a chosen size.
    QVERIFY(w->exportCurrentPlot(png, QSize(1600, 1100)));
    QCOMPARE(QImage(png).size(), QSize(1600, 1100));
    for (const char* suffix : {".svg", ".pdf"}) {
      const QString path = gbtest::scratchPath(QString("grid") + suffix);
      QFile::remove(path);
      QVERIFY(w->exportCurrentPlot(path));
      QVERIFY(QFileInfo(path).size() > 1000);
    }
    // The grid's CSV: each learner's curve and (generated data) its true effect, nothing else.
    const QString csv = gbtest::scratchPath("grid.csv");
    QVERIFY(w->exportCurrentPlot(csv));
    const QList<QByteArray> lines = csvLines(csv);
    QCOMPARE(lines.size(), 1 + 2 * 12 * gb::kEffectGridPoints);
  }

  // One effect plot's CSV: the curve's rows and the true effect's (generated data) only (no rug, no knots).
  void effectCsvHoldsCurvesOnly() {
    auto w = gbtest::makeWindow(2000, 4, 60, 6, "export-csv");
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    const int j = w->effectsView()->shownLearners().front();
    EffectPlot* plot = w->effectsView()->plotFor(j);
    QVERIFY(plot->rugGraph()->data()->size() > 100);  // a rug is drawn, and left out below
    const QString path = gbtest::scratchPath("effect.csv");
    exportPlot(*plot, path);
    const QList<QByteArray> lines = csvLines(path);
    QCOMPARE(lines.front(), QByteArray("series,x,y"));
    QCOMPARE(lines.size(), 1 + 2 * gb::kEffectGridPoints);
    const QByteArray series = '"' + plot->effectGraph()->name().toUtf8() + '"';
    const QByteArray truth = '"' + plot->trueEffectGraph()->name().toUtf8() + '"';
    int curveRows = 0, truthRows = 0;
    for (int i = 1; i < lines.size(); ++i) {
      const QByteArray name = lines[i].split(',').front();
      curveRows += name == series;
      truthRows += name == truth;
    }
    QCOMPARE(curveRows, gb::kEffectGridPoints);
    QCOMPARE(truthRows, gb::kEffectGridPoints);
  }

  // What the learner fits exported nothing ("Nothing to export on this tab yet." beside its plot), and the Model
  // summary, which is text and never has a plot, said "yet" too.
  void learnerFitExportsAndTheSummarySaysWhyNot() {
    auto w = gbtest::makeWindow(1500, 6, 40, 3, "export-learnerfit");
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->learnerFitView());
    QCoreApplication::processEvents();
    const QString png = gbtest::scratchPath("learner-fit.png");
    QVERIFY2(w->exportCurrentPlot(png), qPrintable(w->messages()->lastError()));
    QVERIFY(inkIn(QImage(png), QImage(png).rect()) > 300);
    QCOMPARE(w->currentSheet().name, QString("learner-fit"));
    w->showTab(w->summaryView());
    QVERIFY(!w->exportCurrentPlot(gbtest::scratchPath("summary.png")));
    QVERIFY2(w->messages()->lastError().contains("is text, not a plot"), qPrintable(w->messages()->lastError()));
    QVERIFY(!QFileInfo::exists(gbtest::scratchPath("summary.png")));
  }

  // Selection, fitted vs observed and Kernel timings export both their plots, side by side as on screen.
  void pairsExportBothPlots() {
    auto w = gbtest::makeWindow(2000, 8, 80, 2, "export-pairs");
    QVERIFY(gbtest::fitAndWait(*w));
    for (QWidget* tab : {static_cast<QWidget*>(w->selectionPlot()), static_cast<QWidget*>(w->diagnostics()),
                         static_cast<QWidget*>(w->kernelChart())}) {
      w->showTab(tab);
      QCoreApplication::processEvents();
      const PlotSheet sheet = w->currentSheet();
      QCOMPARE(sheet.plots.size(), 2);
      QCOMPARE(sheet.columns, 2);
      const QString png = gbtest::scratchPath(sheet.name + ".png");
      QVERIFY2(w->exportCurrentPlot(png), qPrintable(w->messages()->lastError()));
      const QImage image(png);
      const int left = sheet.plots[0]->width(), right = sheet.plots[1]->width();
      QCOMPARE(image.width(), left + right);
      QCOMPARE(image.height(), std::max(sheet.plots[0]->height(), sheet.plots[1]->height()));
      QVERIFY(inkIn(image, QRect(0, 0, left, image.height())) > 300);
      QVERIFY(inkIn(image, QRect(left, 0, right, image.height())) > 300);
    }
    w->showTab(w->selectionPlot());
    const QString csv = gbtest::scratchPath("selection.csv");
    QVERIFY(w->exportCurrentPlot(csv));
    const QList<QByteArray> lines = csvLines(csv);
    const int bars = w->selectionPlot()->countNames().size();
    QCOMPARE(lines.size(), 1 + 2 * bars);
    // Bars are named by their covariate, not by their position.
    QCOMPARE(lines[1].split(',')[1], '"' + w->selectionPlot()->countNames().front().toUtf8() + '"');
  }

  // The size dialog proposes the on-screen size and returns what the user typed; Cancel returns nothing.
  // A narrow plot (the small multiples in a small window) asks for fewer x ticks: their labels ran into each other.
  void narrowPlotsHaveFewerTicks() {
    PlotWidget plot;
    plot.resize(150, 150);
    plot.show();
    QTRY_COMPARE(plot.xAxis->ticker()->tickCount(), 2);
    plot.resize(700, 300);
    QTRY_COMPARE(plot.xAxis->ticker()->tickCount(), 5);
  }

  void sizeDialog() {
    QList<int> proposed;
    auto answer = [&](int width, int height, bool accept) {
      QTimer::singleShot(0, [&proposed, width, height, accept] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        const QList<QSpinBox*> boxes = dialog->findChildren<QSpinBox*>();
        if (boxes.size() != 2) return dialog->reject();
        proposed = {boxes[0]->value(), boxes[1]->value()};
        boxes[0]->setValue(width);
        boxes[1]->setValue(height);
        accept ? dialog->accept() : dialog->reject();
      });
    };
    answer(900, 500, true);
    QCOMPARE(askExportSize(nullptr, QSize(1234, 567)), std::optional<QSize>(QSize(900, 500)));
    QCOMPARE(proposed, QList<int>({1234, 567}));
    answer(900, 500, false);
    QCOMPARE(askExportSize(nullptr, QSize(800, 600)), std::optional<QSize>());
    QCOMPARE(proposed, QList<int>({800, 600}));
  }

  // The default file: named after the tab's plots, in the last folder exported to, remembered across restarts.
  void defaultNameAndFolder() {
    QFile::remove(gbtest::scratchPath("export-default.ini"));
    const QString folder = QFileInfo(gbtest::scratchPath("exports/x")).absolutePath();
    QDir().mkpath(folder);
    {
      auto w = gbtest::makeWindow(1000, 4, 30, 1, "export-default");
      QVERIFY(gbtest::fitAndWait(*w));
      w->showTab(w->effectsView());
      const PlotSheet sheet = w->currentSheet();
      // Before any export: the working folder, where Save model starts too (it was the home folder).
      QCOMPARE(defaultExportPath(sheet.name, "png"), QDir(QDir::currentPath()).filePath("partial-effects.png"));
      QVERIFY(w->exportCurrentPlot(QDir(folder).filePath("mine.png")));
      QCOMPARE(defaultExportPath(sheet.name, "png"), QDir(folder).filePath("partial-effects.png"));
      w->showTab(w->selectionPlot());
      QCOMPARE(defaultExportPath(w->currentSheet().name, "svg"), QDir(folder).filePath("selection.svg"));
      w->showTab(w->riskPlot());
      QCOMPARE(defaultExportPath(w->currentSheet().name, "png"), QDir(folder).filePath("risk.png"));
    }
    setExportSettingsFile(QString());  // as if another program's settings were active
    auto restarted = std::make_unique<MainWindow>(gbtest::testOptions("export-default"));
    QCOMPARE(defaultExportPath("partial-effects", "png"), QDir(folder).filePath("partial-effects.png"));
  }
};

QTEST_MAIN(ExportTest)
#include "test_export.moc"

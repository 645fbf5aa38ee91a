// The Kernel timings tab: every docs/bench JSON loads or is named, the side legend toggles series, the plots keep
// their size when empty and their titles at 1280 x 820 and 1024 x 700, and a run is drawn while it goes on and
// saved as JSON that loads back to the same series.
#include <QComboBox>
#include <QDir>
#include <QFontMetrics>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QProgressBar>
#include <QSignalSpy>
#include <QtTest>

#include "common/MessageSink.hpp"
#include "plots/KernelChart.hpp"
#include "plots/KernelLegend.hpp"
#include "plots/KernelReportFile.hpp"
#include "plots/MeasuredTicks.hpp"
#include "plots/PlotWidget.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;
using Group = KernelLegend::Group;

namespace {

gb::KernelBenchReport syntheticReport(const std::string& device, double copy, int kernels) {
  gb::KernelBenchReport r;
  r.platform = "test";
  r.device = device;
  r.precision = "float";
  r.copyGigabytesPerSecond = copy;
  for (int kernel = 0; kernel < kernels; ++kernel)
    for (std::size_t n : {1000, 10000, 100000}) {
      gb::KernelTiming t;
      t.kernel = "kernel" + std::to_string(kernel);
      t.operation = "Btg";
      t.granularity = "batched";
      t.rows = n;
      t.k = 16;
      t.covariates = 100;
      t.medianSeconds = t.meanSeconds = t.minSeconds = 1e-6 * double(n) * (kernel + 1);
      t.bytes = 4.0 * double(n) * 100;
      t.gigabytesPerSecond = t.bytes / t.medianSeconds / 1e9;
      t.fractionOfCopy = t.gigabytesPerSecond / copy;
      r.timings.push_back(t);
    }
  return r;
}

// A chart of its own, shown, with a sink that never opens a dialog.
struct Standalone {
  MessageSink sink;
  KernelChart chart{&sink};
  Standalone() {
    sink.setInteractive(false);
    chart.resize(1000, 600);
    chart.show();
    QTest::qWait(20);
  }
};

QList<QCPGraph*> graphsNamed(PlotWidget* plot, const QString& prefix) {
  QList<QCPGraph*> out;
  for (int i = 0; i < plot->graphCount(); ++i)
    if (plot->graph(i)->name().startsWith(prefix)) out << plot->graph(i);
  return out;
}

void clickEntry(KernelLegend* legend, QListWidgetItem* item) {
  QVERIFY(item);
  legend->scrollToItem(item);
  QTest::mouseClick(legend->viewport(), Qt::LeftButton, {}, legend->visualItemRect(item).center());
}

QCPTextElement* titleOf(PlotWidget* plot) { return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0)); }

// Titles, axis labels and legend entries fit where they are drawn.
void checkNothingClipped(KernelChart* k, const QString& where) {
  QVERIFY2(k->minimumSizeHint().width() <= k->width(), qPrintable(where + ": the controls are wider than the tab"));
  for (PlotWidget* p : {k->timePlot(), k->bandwidthPlot()}) {
    QCPTextElement* title = titleOf(p);
    QVERIFY(title);
    const int titleWidth = QFontMetrics(title->font()).horizontalAdvance(title->text());
    QVERIFY2(titleWidth + 10 <= p->width(), qPrintable(where + ": title '" + title->text() + "' is clipped"));
    const QFontMetrics axis(p->yAxis->labelFont());
    QVERIFY2(axis.horizontalAdvance(p->yAxis->label()) <= p->axisRect()->height(),
             qPrintable(where + ": y label '" + p->yAxis->label() + "' is longer than the plot is tall"));
    QVERIFY2(axis.horizontalAdvance(p->xAxis->label()) <= p->axisRect()->width(),
             qPrintable(where + ": x label '" + p->xAxis->label() + "' is longer than the plot is wide"));
  }
  KernelLegend* legend = k->legend();
  const QFontMetrics fm(legend->font());
  for (int i = 0; i < legend->count(); ++i) {
    QListWidgetItem* it = legend->item(i);
    if (it->data(Qt::UserRole + 1) != QVariant(int(Group::Kernel))) continue;  // report labels may elide
    QVERIFY2(legend->visualItemRect(it).width() >= fm.horizontalAdvance(it->text()) + legend->iconSize().width() + 24,
             qPrintable(QString("%1: legend entry '%2' is clipped (%3 px wide)")
                            .arg(where, it->text())
                            .arg(legend->visualItemRect(it).width())));
  }
}

QStringList benchJsonFiles() {
  const QDir dir(QStringLiteral(GB_SOURCE_DIR "/docs/bench"));
  QStringList out;
  for (const QString& name : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) out << dir.filePath(name);
  return out;
}

}  // namespace

class KernelChartTest : public QObject {
  Q_OBJECT

 private slots:
  void everyDocsBenchJsonLoadsOrNamesItsKind() {
    Standalone s;
    const QStringList files = benchJsonFiles();
    QVERIFY(files.size() >= 10);
    int loaded = 0, named = 0;
    for (const QString& path : files) {
      s.chart.clearReports();
      const int errorsBefore = s.sink.errorCount();
      if (s.chart.loadReportFile(path)) {
        ++loaded;
        QCOMPARE(int(s.chart.reports().size()), 1);
        QVERIFY2(!s.chart.reports()[0].second.timings.empty(), qPrintable(path));
        QVERIFY2(s.chart.timePlot()->graphCount() > 0, qPrintable(path + ": loaded but no series drawn"));
        QCOMPARE(s.sink.errorCount(), errorsBefore);
      } else {
        ++named;
        const QString error = s.sink.lastError();
        QCOMPARE(s.sink.errorCount(), errorsBefore + 1);
        QVERIFY2(error.contains(QFileInfo(path).fileName()), qPrintable(error));
        QVERIFY2(error.contains(" is a ") && error.contains("report") && error.contains("kernel reports"),
                 qPrintable(path + ": " + error));
        QVERIFY2(!error.contains("has no \"platform\""), qPrintable(error));
        QVERIFY(s.chart.reports().empty());
      }
    }
    qInfo("docs/bench: %d kernel reports loaded, %d other reports named", loaded, named);
    QVERIFY(loaded >= 1);
    QVERIFY(named >= 1);  // the fit benchmark reports (h100-fit-*.json)
    QVERIFY(QFile::exists(GB_SOURCE_DIR "/docs/bench/h100-fit-1e5.json"));
    s.chart.loadReportFile(GB_SOURCE_DIR "/docs/bench/h100-fit-1e5.json");
    QVERIFY(s.sink.lastError().contains("fit benchmark report (bench fit"));
  }

  // Found devices replace the "looking for devices" placeholder: the first is chosen (Run benchmark uses it).
  void foundDevicesAreChosen() {
    Standalone s;
    QComboBox* device = nullptr;
    for (QComboBox* box : s.chart.findChildren<QComboBox*>())
      if (box->toolTip() == "OpenCL device to benchmark") device = box;
    QVERIFY(device);
    s.chart.setDevices({"device A", "device B"}, "");
    QCOMPARE(device->currentIndex(), 0);
    QCOMPARE(device->currentText(), QString("device A"));
    QVERIFY(device->isEnabled());
    s.chart.setDevices({}, "no platform");
    QCOMPARE(device->currentIndex(), -1);
    QCOMPARE(device->placeholderText(), QString("no OpenCL device"));
  }

  void legendClickHidesAndShowsSeries() {
    Standalone s;
    s.chart.addReport(syntheticReport("GPU A", 3000, 9), "a");
    s.chart.addReport(syntheticReport("GPU B", 1000, 9), "b");
    s.chart.addReport(syntheticReport("CPU C", 20, 9), "c");
    // 27 series, but one legend entry per kernel and per report (plus two headings), not 27.
    QCOMPARE(s.chart.timePlot()->graphCount(), 27);
    QCOMPARE(s.chart.legend()->count(), 9 + 3 + 2);
    KernelLegend* legend = s.chart.legend();
    clickEntry(legend, legend->item(Group::Kernel, "kernel4"));
    QVERIFY(!legend->isShown(Group::Kernel, "kernel4"));
    for (PlotWidget* p : {s.chart.timePlot(), s.chart.bandwidthPlot()}) {
      QCOMPARE(graphsNamed(p, "kernel4 ").size(), 3);
      for (QCPGraph* g : graphsNamed(p, "kernel4 ")) QVERIFY(!g->visible());
      for (QCPGraph* g : graphsNamed(p, "kernel3 ")) QVERIFY(g->visible());
    }
    QCOMPARE(legend->item(Group::Kernel, "kernel4")->checkState(), Qt::Unchecked);
    // A report entry hides that report's series and its copy line; hiding survives a redraw (a new report).
    clickEntry(legend, legend->item(Group::Report, "b"));
    s.chart.addReport(syntheticReport("GPU D", 500, 1), "d");
    for (QCPGraph* g : graphsNamed(s.chart.bandwidthPlot(), "kernel0 - b")) QVERIFY(!g->visible());
    for (QCPGraph* g : graphsNamed(s.chart.bandwidthPlot(), "copy 1000 GB/s")) QVERIFY(!g->visible());
    for (QCPGraph* g : graphsNamed(s.chart.bandwidthPlot(), "kernel0 - a")) QVERIFY(g->visible());
    for (QCPGraph* g : graphsNamed(s.chart.timePlot(), "kernel4 ")) QVERIFY(!g->visible());
    // The y range follows the visible series only: hide every kernel but the fastest.
    for (int kernel = 1; kernel < 9; ++kernel)
      if (legend->isShown(Group::Kernel, QString("kernel%1").arg(kernel)))
        clickEntry(legend, legend->item(Group::Kernel, QString("kernel%1").arg(kernel)));
    QVERIFY(s.chart.timePlot()->yAxis->range().upper < 1e-1 * 2 * 1.01);  // kernel0 peaks at 0.1 s
    clickEntry(legend, legend->item(Group::Kernel, "kernel4"));
    for (QCPGraph* g : graphsNamed(s.chart.timePlot(), "kernel4 - a")) QVERIFY(g->visible());
    QVERIFY(s.chart.timePlot()->yAxis->range().upper > 0.5);  // kernel4 reaches 0.5 s
    // A click on the heading shows every kernel again; the hidden report stays hidden.
    clickEntry(legend, legend->item(0));
    QCOMPARE(legend->item(0)->text(), QString("Kernels (colour)"));
    for (int kernel = 0; kernel < 9; ++kernel) QVERIFY(legend->isShown(Group::Kernel, QString("kernel%1").arg(kernel)));
    QVERIFY(!legend->isShown(Group::Report, "b"));
    for (QCPGraph* g : graphsNamed(s.chart.timePlot(), "kernel7 - a")) QVERIFY(g->visible());
  }

  // Points within the cache where they ran read faster than the copy line and have no floor: each is ringed
  // on the bandwidth plot (not on the time plot), and the ring follows its series' legend entry.
  void inCachePointsAreRinged() {
    Standalone s;
    gb::KernelBenchReport r = syntheticReport("GPU A", 3000, 2);
    for (gb::KernelTiming& t : r.timings)
      if (t.rows == 1000) t.inCache = true, t.fractionOfCopy = 0.0;
    s.chart.addReport(r, "a");
    QCOMPARE(graphsNamed(s.chart.timePlot(), "in cache: ").size(), 0);
    const QList<QCPGraph*> rings = graphsNamed(s.chart.bandwidthPlot(), "in cache: ");
    QCOMPARE(rings.size(), 2);
    for (QCPGraph* g : rings) {
      QCOMPARE(g->data()->size(), 1);
      QCOMPARE(g->data()->at(0)->key, 1000.0);
      QCOMPARE(g->lineStyle(), QCPGraph::lsNone);
      QVERIFY(g->visible());
    }
    QCOMPARE(s.chart.bandwidthPlot()->title(), QString("Effective bandwidth (ringed: in cache)"));
    KernelLegend* legend = s.chart.legend();
    clickEntry(legend, legend->item(Group::Kernel, "kernel1"));
    for (QCPGraph* g : graphsNamed(s.chart.bandwidthPlot(), "in cache: "))
      QCOMPARE(g->visible(), !g->name().contains("kernel1"));
    // A report without in-cache points: no ring, the plain title.
    Standalone plain;
    plain.chart.addReport(syntheticReport("GPU B", 3000, 2), "b");
    QCOMPARE(graphsNamed(plain.chart.bandwidthPlot(), "in cache: ").size(), 0);
    QCOMPARE(plain.chart.bandwidthPlot()->title(), QString("Effective bandwidth"));
  }

  // The rows axis is labelled at the sizes measured: the log ticker read "8·10², 10³, 10³, 10³" for n = 1000 alone
  // and left 10³ unlabelled beside "3·10³ 5·10³ 8·10³ 10⁴". Each report's copy line has its line style and its
  // value in its report's legend entry (run 1's copy was dashed, like run 2's lines in the legend).
  void rowsAxisNamesTheMeasuredSizesAndCopyLinesMatchTheLegend() {
    QCOMPARE(powerOfTenText(1000), QString("10³"));
    QCOMPARE(powerOfTenText(3e4), QString("3·10⁴"));
    QCOMPARE(powerOfTenText(2.5e6), QString("2.5·10⁶"));
    QCOMPARE(powerOfTenText(1e12), QString("10¹²"));
    QCOMPARE(powerOfTenText(500), QString("500"));
    Standalone s;
    gb::KernelBenchReport one = syntheticReport("GPU A", 3000, 1);
    std::erase_if(one.timings, [](const gb::KernelTiming& t) { return t.rows != 1000; });
    s.chart.addReport(one, "a");
    for (PlotWidget* p : {s.chart.timePlot(), s.chart.bandwidthPlot()}) {
      auto ticker = p->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
      QVERIFY(ticker);
      QCOMPARE(ticker->ticks().size(), 1);
      QCOMPARE(ticker->ticks().value(1000.0), QString("10³"));
    }
    s.chart.addReport(syntheticReport("GPU B", 1000, 1), "b");
    auto ticker = s.chart.bandwidthPlot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().values(), (QList<QString>{"10³", "10⁴", "10⁵"}));
    QCOMPARE(s.chart.legend()->item(Group::Report, "b")->text(), QString("b · copy 1000 GB/s"));
    const QList<QCPGraph*> copies = graphsNamed(s.chart.bandwidthPlot(), "copy ");
    QCOMPARE(copies.size(), 2);
    QCOMPARE(copies[0]->pen().style(), Qt::SolidLine);  // run 1's style in the legend
    QCOMPARE(copies[1]->pen().style(), Qt::DashLine);
  }

  // A kernel's colour does not depend on which other kernels are loaded (compact was blue beside one set of reports
  // and orange beside another).
  void eachKernelKeepsItsColour() {
    auto renamed = [](std::vector<std::string> names) {
      gb::KernelBenchReport r = syntheticReport("GPU A", 3000, int(names.size()));
      for (gb::KernelTiming& t : r.timings) t.kernel = names[std::stoul(t.kernel.substr(6))];
      return r;
    };
    auto colourOf = [](Standalone& s, const QString& kernel) {
      const QList<QCPGraph*> graphs = graphsNamed(s.chart.timePlot(), kernel);
      return graphs.isEmpty() ? QColor() : graphs.front()->pen().color();
    };
    Standalone one, two;
    one.chart.addReport(renamed({"clblast", "compact", "splitk"}), "one");
    two.chart.addReport(renamed({"compact", "compact_sorted", "someday", "another", "compact_x/8x4"}), "two");
    QVERIFY(colourOf(one, "compact").isValid());
    QCOMPARE(colourOf(one, "compact"), colourOf(two, "compact"));
    QVERIFY(colourOf(one, "clblast") != colourOf(one, "compact"));
    QVERIFY(colourOf(two, "someday").isValid() && colourOf(two, "someday") != colourOf(two, "compact"));
    QVERIFY(colourOf(two, "someday") != colourOf(two, "compact_sorted"));
    // Two names of no benchmark kernel differ from each other and from every benchmark kernel's colour; a tuned
    // shape of compact_x ("compact_x/8x4", as bench tune names it) is a shade of compact_x's, not a new hue.
    QVERIFY(colourOf(two, "another").isValid() && colourOf(two, "another") != colourOf(two, "someday"));
    for (const char* kernel : {"clblast", "compact", "splitk"})
      QVERIFY(colourOf(one, kernel) != colourOf(two, "someday") && colourOf(one, kernel) != colourOf(two, "another"));
    QCOMPARE(colourOf(two, "compact_x/8x4").hue(), QColor(31, 119, 180).hue());  // compact_x's blue
  }

  // An exported picture of the chart has a legend of the lines shown (the kernels' colours and the reports' copy
  // lines); on screen the side legend stays the only one.
  // Both exports, the sheet's and the bandwidth plot's own (right-click), carry the legend; the screen does not.
  void exportedPictureHasALegend() {
    Standalone s;
    s.chart.addReport(syntheticReport("GPU A", 3000, 3), "a");
    s.chart.addReport(syntheticReport("GPU B", 1000, 3), "b");
    PlotWidget* plot = s.chart.bandwidthPlot();
    QCPLegend* legend = plot->legend;
    QVERIFY(!legend->visible());
    const std::function<void(bool)> hook = plot->pictureHook();
    QVERIFY(hook);
    hook(true);
    QVERIFY(legend->visible());
    QStringList names;
    for (int i = 0; i < legend->itemCount(); ++i)
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i))) names << item->plottable()->name();
    QCOMPARE(names.size(), 3 * 2 + 2);  // 3 kernels of 2 reports, and each report's copy line
    QVERIFY2(names.filter("kernel0").size() == 2 && names.filter("copy").size() == 2, qPrintable(names.join("; ")));
    hook(false);
    QVERIFY(!legend->visible());

    QVector<bool> calls;  // the hook as exports call it, recorded
    plot->setPictureHook([&](bool on) {
      calls << on;
      hook(on);
    });
    const QString sheetPath = gbtest::scratchPath("kernels-legend.png");
    exportSheet(s.chart.exportSheet(), sheetPath, QSize(900, 400));
    QCOMPARE(calls, (QVector<bool>{true, false}));
    QVERIFY(!legend->visible());  // on again only while painted
    QVERIFY(QImage(sheetPath).size() == QSize(900, 400));
    exportSheet(s.chart.exportSheet(), gbtest::scratchPath("kernels-legend.csv"));
    QCOMPARE(calls.size(), 2);  // a table has no legend to draw

    const QString alone = gbtest::scratchPath("bandwidth-legend.png");
    exportPlot(*plot, alone);
    QCOMPARE(calls, (QVector<bool>{true, false, true, false}));
    QVERIFY(!legend->visible());
    plot->setPictureHook({});
    const QString bare = gbtest::scratchPath("bandwidth-bare.png");
    exportPlot(*plot, bare);
    const QImage withLegend(alone), without(bare);
    QVERIFY(!withLegend.isNull() && withLegend.size() == without.size());
    QVERIFY2(withLegend != without, "the plot exported alone was drawn without its legend");
    plot->setPictureHook(hook);
  }

  void emptyStateKeepsUsablePlots() {
    auto w = gbtest::makeWindow(200, 3, 10, 1, "kchart-empty");
    w->resize(1024, 700);
    w->showTab(w->kernelChart());
    QTest::qWait(100);
    KernelChart* k = w->kernelChart();
    QVERIFY(k->reports().empty());
    for (PlotWidget* p : {k->timePlot(), k->bandwidthPlot()}) {
      p->replot();
      QVERIFY2(p->axisRect()->height() >= 150, qPrintable(QString::number(p->axisRect()->height())));
      QVERIFY2(p->axisRect()->width() >= 150, qPrintable(QString::number(p->axisRect()->width())));
      QCOMPARE(p->itemCount(), 1);  // the hint of what to load or run
      auto* hint = qobject_cast<QCPItemText*>(p->item(0));
      QVERIFY(hint && hint->visible() && hint->text().contains("Load JSON") && hint->text().contains("Run benchmark"));
      int widest = 0;
      for (const QString& line : hint->text().split('\n'))
        widest = std::max(widest, QFontMetrics(hint->font()).horizontalAdvance(line));
      QVERIFY2(widest + 12 <= p->axisRect()->width(),
               qPrintable(
                   QString("the hint (%1 px) is wider than the plot (%2 px)").arg(widest).arg(p->axisRect()->width())));
    }
    checkNothingClipped(k, "empty at 1024x700");
    QVERIFY(!k->legend()->isVisible());  // nothing to list: the plots take its place
    // Choices with nothing to choose from (operation, k before any report) are disabled, not blank and live.
    for (QComboBox* combo : k->findChildren<QComboBox*>())
      QVERIFY2(combo->count() > 0 || !combo->isEnabled(), qPrintable(combo->toolTip()));
    // Every selector says what it chooses: a label (its buddy), or it follows the "Show" label in its row and its
    // items name what they are ("k = 16", "batched", "per learner"): "Show Btg k = 16 batched".
    QStringList labelled;
    for (QLabel* label : k->findChildren<QLabel*>())
      if (auto* combo = qobject_cast<QComboBox*>(label->buddy())) labelled << combo->toolTip().section(':', 0, 0);
    for (QComboBox* combo : k->findChildren<QComboBox*>())
      if (!combo->toolTip().startsWith("Basis columns") && !combo->toolTip().startsWith("batched"))
        QVERIFY2(labelled.contains(combo->toolTip().section(':', 0, 0)),
                 qPrintable("no label for the selector: " + combo->toolTip()));
    QVERIFY(k->loadReportFile(GB_SOURCE_DIR "/docs/bench/pocl-float.json"));
    QVERIFY(!k->timePlot()->item(0)->visible());
  }

  void nothingClippedAt1280And1024() {
    auto w = gbtest::makeWindow(200, 3, 10, 1, "kchart-sizes");
    KernelChart* k = w->kernelChart();
    for (const char* name : {"h100-float.json", "h100-double.json", "pocl-float.json"})
      QVERIFY(k->loadReportFile(QStringLiteral(GB_SOURCE_DIR "/docs/bench/") + name));
    k->setGranularity("");  // both: the longest kernel names, e.g. "compact_sorted (batched)"
    for (QSize size : {QSize(1280, 820), QSize(1024, 700)}) {
      w->resize(size);
      w->showTab(k);
      QTest::qWait(100);
      for (PlotWidget* p : {k->timePlot(), k->bandwidthPlot()}) p->replot();
      qInfo("%dx%d: chart %dx%d, axis rects %dx%d and %dx%d, legend %d", size.width(), size.height(), k->width(),
            k->height(), k->timePlot()->axisRect()->width(), k->timePlot()->axisRect()->height(),
            k->bandwidthPlot()->axisRect()->width(), k->bandwidthPlot()->axisRect()->height(), k->legend()->width());
      checkNothingClipped(k, QString("%1x%2").arg(size.width()).arg(size.height()));
      QVERIFY(k->legend()->isVisible());
      for (PlotWidget* p : {k->timePlot(), k->bandwidthPlot()}) {
        QVERIFY(p->axisRect()->width() >= 200);
        QVERIFY(p->axisRect()->height() >= 150);
      }
    }
  }

  void runIsDrawnAsItGoesAndSavedRunLoadsBack() {
    Standalone s;
    QVERIFY(!s.chart.saveRunFile(gbtest::scratchPath("none.json")));
    QVERIFY(s.sink.lastError().contains("No run to save"));
    // Partial results: at each of the run's progress steps, what the chart holds and draws.
    struct Seen {
      int timings, graphs;
      bool running;
    };
    QList<Seen> seen;
    connect(&s.chart, &KernelChart::partialResults, this, [&](int timings) {
      seen.append({timings, s.chart.timePlot()->graphCount(), s.chart.isRunning()});
    });
    // The plots keep their place while the status text changes with every step.
    QSet<int> plotTops;
    connect(&s.chart, &KernelChart::partialResults, this, [&] { plotTops.insert(s.chart.timePlot()->y()); });
    QSignalSpy finished(&s.chart, &KernelChart::benchmarkFinished);
    gb::KernelBenchOptions o;  // the default device: PoCL here
    o.rows = {1000, 4000};
    o.columns = {16};
    o.covariates = 4;
    o.repetitions = 2;
    s.chart.runBenchmark(o);
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(s.sink.lastError()));
    bool drawnBeforeTheEnd = false;
    for (const Seen& p : seen) drawnBeforeTheEnd = drawnBeforeTheEnd || (p.running && p.timings > 0 && p.graphs > 0);
    QVERIFY2(drawnBeforeTheEnd, "no partial results were drawn while the run went on");
    plotTops.insert(s.chart.timePlot()->y());
    QCOMPARE(plotTops.size(), 1);
    QCOMPARE(int(s.chart.reports().size()), 1);
    const gb::KernelBenchReport run = s.chart.reports()[0].second;
    QVERIFY(seen.first().timings < int(run.timings.size()));
    QVERIFY(s.chart.saveButton()->isEnabled());

    const QString path = gbtest::scratchPath("saved-run.json");
    QVERIFY(s.chart.saveRunFile(path));
    QVERIFY(s.chart.loadReportFile(path));
    QCOMPARE(int(s.chart.reports().size()), 2);
    const gb::KernelBenchReport& back = s.chart.reports()[1].second;
    QVERIFY(back.toJson() == run.toJson());  // every field, every value
    QCOMPARE(back.device, run.device);
    QCOMPARE(back.timings.size(), run.timings.size());
    for (std::size_t i = 0; i < run.timings.size(); ++i) {
      QCOMPARE(back.timings[i].medianSeconds, run.timings[i].medianSeconds);
      QCOMPARE(back.timings[i].gigabytesPerSecond, run.timings[i].gigabytesPerSecond);
    }
    // Drawn the same: the run's series and the loaded file's series hold the same points.
    PlotWidget* p = s.chart.timePlot();
    const int half = (p->graphCount()) / 2;
    QVERIFY(half > 0);
    for (int g = 0; g < half; ++g) {
      QCPGraph* a = p->graph(g);
      QCPGraph* b = p->graph(g + half);
      QCOMPARE(b->name().section(" - ", 0, 0), a->name().section(" - ", 0, 0));
      QCOMPARE(b->data()->size(), a->data()->size());
      for (int i = 0; i < a->data()->size(); ++i) QCOMPARE(b->data()->at(i)->value, a->data()->at(i)->value);
    }
  }

  // A fit started while the benchmark runs waited silently for the shared device, and the benchmark kept the
  // timings it took meanwhile: the log says so.
  void aFitBesideTheBenchmarkIsWarnedOf() {
    auto w = gbtest::makeWindow(500, 3, 20, 1, "kchart-shared");
    QStringList warnings;
    connect(w->messages(), &MessageSink::posted, this, [&warnings](Severity s, const QString& text, const QString&) {
      if (s == Severity::Warning) warnings << text;
    });
    QSignalSpy finished(w->kernelChart(), &KernelChart::benchmarkFinished);
    gb::KernelBenchOptions o;
    o.rows = {1000, 2000, 4000, 8000};
    o.columns = {16, 32};
    o.covariates = 4;
    o.repetitions = 2;
    w->kernelChart()->runBenchmark(o);
    QVERIFY(w->kernelChart()->isRunning());
    QVERIFY(gbtest::fitAndWait(*w));
    w->kernelChart()->cancelBenchmark();
    QVERIFY(finished.count() > 0 || finished.wait(240000));
    QVERIFY2(warnings.filter("The kernel benchmark runs beside a fit").size() == 1, qPrintable(warnings.join("\n")));
  }

  void cancelKeepsWhatRanAndSavesIt() {
    Standalone s;
    QSignalSpy finished(&s.chart, &KernelChart::benchmarkFinished);
    bool heard = false;  // Cancel said it was heard (it stayed enabled beside "Running ..." for 15-20 s)
    connect(&s.chart, &KernelChart::partialResults, &s.chart, [&](int timings) {
      // After the first case's 6 Eigen rows (the chart's default view, batched B'g, among them): Cancel is heard
      // before the next row, so cancelling at the first row could leave nothing of the view on show.
      if (timings < 6 || !s.chart.cancelButton()->isEnabled()) return;
      s.chart.cancelBenchmark();
      heard = !s.chart.cancelButton()->isEnabled() && s.chart.statusText().startsWith("Cancelling");
    });
    gb::KernelBenchOptions o;
    o.rows = {1000, 2000, 4000, 8000};
    o.columns = {16, 32};
    o.covariates = 4;
    o.repetitions = 2;
    s.chart.runBenchmark(o);
    QVERIFY(finished.wait(240000));
    QVERIFY(heard);
    QCOMPARE(int(s.chart.reports().size()), 1);
    const auto [label, run] = s.chart.reports()[0];  // a copy: loading below grows reports()
    QVERIFY(run.cancelled);
    // The bar stays where the run stopped, and says that it stopped there.
    const QProgressBar* bar = s.chart.progressBar();
    QVERIFY(bar->value() < bar->maximum());
    QVERIFY2(bar->text().startsWith("cancelled at "), qPrintable(bar->text()));
    // The status names the device once ("run 1 pthread-... (cancelled) (pthread-...)").
    QCOMPARE(s.chart.statusText().count(QString::fromStdString(run.device).section(' ', 0, 0)), 1);
    QVERIFY(!run.timings.empty());
    QVERIFY(run.timings.size() < 8 * 20);  // stopped in the first of 8 cases
    QVERIFY2(label.contains("cancelled"), qPrintable(label));
    QVERIFY(s.chart.timePlot()->graphCount() > 0);
    const QString path = gbtest::scratchPath("cancelled-run.json");
    QVERIFY(s.chart.saveRunFile(path));
    QVERIFY(s.chart.loadReportFile(path));
    QVERIFY(s.chart.reports()[1].second.cancelled);
    QVERIFY(s.chart.reports()[1].second.toJson() == run.toJson());
  }

  // Cancelled before its first timing (at once, while the copy bandwidth is measured): no run is left on the chart
  // or for Save run; a copy-bandwidth line alone had become "run 1".
  void cancelBeforeAnyTimingLeavesNoRun() {
    Standalone s;
    QSignalSpy finished(&s.chart, &KernelChart::benchmarkFinished);
    gb::KernelBenchOptions o;
    o.rows = {1000, 2000};
    o.columns = {16};
    o.covariates = 4;
    o.repetitions = 2;
    s.chart.runBenchmark(o);
    s.chart.cancelBenchmark();
    QVERIFY(finished.wait(240000));
    // Cancel is heard between measurements, and the first is the copy bandwidth's, so no timing was taken.
    QVERIFY2(s.chart.reports().empty(), qPrintable(s.chart.statusText()));
    QVERIFY2(s.chart.statusText().startsWith("Cancelled before the first timing"), qPrintable(s.chart.statusText()));
    QVERIFY(!s.chart.saveRunFile(gbtest::scratchPath("nothing.json")));
  }

  // The CLI's report (gamboost bench kernels --out) loads, and the window's Save run writes the same text for the
  // same report.
  void cliReportLoadsAndSavedTextMatchesTheCli() {
    const QString prefix = gbtest::scratchPath("cli-kernels");
    QProcess cli;
    cli.start(GB_CLI_PATH, {"bench", "kernels", "--rows", "1000", "--k", "16", "--covariates", "3", "--reps", "1",
                            "--kernels", "splitk,compact,eigen", "--out", prefix});
    QVERIFY(cli.waitForFinished(240000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    Standalone s;
    QVERIFY(s.chart.loadReportFile(prefix + ".json"));
    QVERIFY(s.chart.timePlot()->graphCount() >= 3);
    QFile written(prefix + ".json");
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QByteArray cliText = written.readAll();
    const QString again = gbtest::scratchPath("cli-kernels-again.json");
    writeKernelReport(again, s.chart.reports()[0].second);
    QFile ours(again);
    QVERIFY(ours.open(QIODevice::ReadOnly));
    QCOMPARE(ours.readAll(), cliText);
  }
};

QTEST_MAIN(KernelChartTest)
#include "test_kernel_chart.moc"

#include "plots/KernelChart.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "common/Error.hpp"
#include "common/MessageSink.hpp"
#include "common/QtConvert.hpp"
#include "common/SaveDialog.hpp"
#include "common/WindowWords.hpp"
#include "common/WorkerThread.hpp"
#include "plots/KernelLegend.hpp"
#include "plots/KernelReportFile.hpp"
#include "plots/MeasuredTicks.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

// One line on each plot: a kernel (and granularity) of one report, points sorted by n.
struct KernelSeries {
  QString name;
  int report = 0;
  QColor colour;
  QVector<double> rows, seconds, gigabytesPerSecond;
  // The points whose bytes fit within the cache where they ran (KernelTiming::inCache): no copy floor.
  QVector<double> cacheRows, cacheGigabytesPerSecond;
};

namespace {

const QList<QColor> kPalette{QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),   QColor(214, 39, 40),
                             QColor(148, 103, 189), QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127),
                             QColor(188, 189, 34),  QColor(23, 190, 207)};
const QList<Qt::PenStyle> kStyles{Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
const QList<QCPScatterStyle::ScatterShape> kShapes{QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare,
                                                   QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond};
// Each kernel of the benchmark keeps its palette colour whatever else is loaded (slides of two comparisons agree);
// other names get hues of their own (kernelColour).
const QStringList kKernelOrder{"compact_x", "compact", "compact_sorted", "splitk", "clblast", "naive",
                               "v1",        "",  // the palette's grey is the copy lines'
                               "v2",        "eigen"};
constexpr const char* kRingProperty = "gbInCacheRing";  // the in-cache rings' graphs

// A kernel's colour: its own for the benchmark's kernels, a lighter one of the kernel for a tuned shape of it
// ("compact_x/..." as `bench tune` names its rows); other names hues of their own, apart from the palette's.
QColor kernelColour(const std::string& kernel, std::map<std::string, int>& unknown) {
  const QString name = qs(kernel);
  const QString base = name.section('/', 0, 0);
  const int known = base.isEmpty() ? -1 : int(kKernelOrder.indexOf(base));
  if (known >= 0) return kPalette[known].lighter(name.contains('/') ? 130 : 100);
  const int i = unknown.emplace(kernel, int(unknown.size())).first->second;
  return QColor::fromHsvF(std::fmod(0.61 + 0.618034 * i, 1.0), 0.75, 0.75);
}

// Below this a plot is a strip; the chart keeps at least this much height for each plot.
constexpr int kMinimumPlotHeight = 220;
// Narrower than this beside a side legend, a plot moves the legend below the plots.
constexpr int kMinimumSidePlotWidth = 300;

QPushButton* button(const QString& text, const QString& tip) {
  auto* b = new QPushButton(text);
  b->setToolTip(tip);
  return b;
}

void setupLogLog(PlotWidget* plot, const QString& title, const QString& yLabel) {
  plot->setTitle(title);
  plot->xAxis->setLabel(QObject::tr("rows n (log scale)"));
  plot->yAxis->setLabel(yLabel);
  setLogAxis(plot->xAxis, true);
  setLogAxis(plot->yAxis, true);
  plot->legend->setVisible(false);  // KernelLegend, beside the plots, is the one legend of both
  plot->setMinimumHeight(kMinimumPlotHeight);
}

// What an empty chart says in the middle of each plot.
QCPItemText* emptyHint(PlotWidget* plot) {
  auto* text = new QCPItemText(plot);
  text->setPositionAlignment(Qt::AlignCenter);
  text->position->setType(QCPItemPosition::ptAxisRectRatio);
  text->position->setCoords(0.5, 0.5);
  text->setClipToAxisRect(false);
  text->setColor(QColor(70, 70, 70));
  text->setBrush(QColor(255, 255, 255, 230));
  text->setPadding(QMargins(6, 4, 6, 4));
  // Short lines: the hint fits a plot of the window at 1024 x 700.
  text->setText(
      QObject::tr("Nothing to show yet.\nLoad JSON... adds a saved\nreport (docs/bench/*.json);\nRun "
                  "benchmark times\nthe chosen device."));
  return text;
}

// Hands a running benchmark's report so far to the window's thread: the newest replaces the one not yet taken.
struct PartialSlot {
  std::mutex mutex;
  gb::KernelBenchReport report;
  bool fresh = false;
  void put(const gb::KernelBenchReport& r) {
    std::lock_guard<std::mutex> lock(mutex);
    report = r;
    fresh = true;
  }
  bool take(gb::KernelBenchReport* out) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!fresh) return false;
    *out = report;
    fresh = false;
    return true;
  }
};

}  // namespace

KernelChart::KernelChart(MessageSink* sink, QWidget* parent) : QWidget(parent), sink_(sink) {
  worker_ = new WorkerThread(this);
  lastFolder_ = QDir::currentPath();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  buildControls();
  buildPlots();
  connect(run_, &QPushButton::clicked, this, &KernelChart::startFromControls);
  connect(cancel_, &QPushButton::clicked, this, &KernelChart::cancelBenchmark);
  connect(load_, &QPushButton::clicked, this, &KernelChart::loadInteractively);
  connect(clear_, &QPushButton::clicked, this, &KernelChart::clearReports);
  connect(save_, &QPushButton::clicked, this, &KernelChart::saveInteractively);
  connect(operation_, &QComboBox::currentIndexChanged, this, &KernelChart::redraw);
  connect(columns_, &QComboBox::currentIndexChanged, this, &KernelChart::redraw);
  connect(granularity_, &QComboBox::currentIndexChanged, this, &KernelChart::redraw);
  connect(legend_, &KernelLegend::visibilityChanged, this, &KernelChart::redraw);
  refreshFilters();
  redraw();
}

KernelChart::~KernelChart() { shutdown(); }

void KernelChart::buildControls() {
  auto* controls = new QGridLayout;
  auto* deviceLabel = new QLabel(tr("Device"));
  controls->addWidget(deviceLabel, 0, 0);
  device_ = new QComboBox;
  deviceLabel->setBuddy(device_);
  device_->setToolTip(tr("OpenCL device to benchmark"));
  device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  device_->setMinimumContentsLength(12);
  // Wider where the window has room: a device's whole name (pthread-haswell-AMD EPYC) where 1280 pixels allow it.
  device_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  // Until the window's device query answers (setDevices): nothing to choose, nothing to run.
  device_->setPlaceholderText(tr("looking for devices"));
  device_->setEnabled(false);
  controls->addWidget(device_, 0, 1);
  controls->addWidget(new QLabel(tr("Repetitions")), 0, 2);
  repetitions_ = new QSpinBox;
  repetitions_->setRange(1, 1000);
  repetitions_->setValue(10);
  repetitions_->setToolTip(tr("Timed runs per kernel and size after one warm-up (the CLI's default is 50)"));
  repetitions_->setFocusPolicy(Qt::StrongFocus);
  controls->addWidget(repetitions_, 0, 3);
  run_ = button(tr("Run benchmark"), tr("Time every kernel at n = 1e3, 1e4, 1e5 on the chosen device (background); "
                                        "results are drawn as they arrive"));
  cancel_ = button(tr("Cancel"), tr("Stop the running benchmark; what it timed so far stays on the chart"));
  cancel_->setEnabled(false);
  run_->setEnabled(false);
  controls->addWidget(run_, 0, 4);
  controls->addWidget(cancel_, 0, 5);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setToolTip(tr("Benchmark progress"));
  controls->addWidget(progress_, 0, 6, 1, 2);
  load_ = button(tr("Load JSON..."), tr("Add saved kernel reports (docs/bench/*.json, or a run saved here) to "
                                        "compare devices"));
  clear_ = button(tr("Clear"), tr("Remove every report from the chart"));
  save_ = button(tr("Save run..."), tr("Save the latest run as JSON (the format Load JSON reads)"));
  save_->setEnabled(false);
  controls->addWidget(load_, 1, 0, 1, 2);
  controls->addWidget(clear_, 1, 2);
  controls->addWidget(save_, 1, 3);
  // The chart's filters after one label: "Show Btg k = 64 batched" (a label each made the tab wider than 1024 px).
  auto* filters = new QHBoxLayout;
  auto labelled = [filters](const QString& text, QComboBox* combo) {
    auto* label = new QLabel(text);
    label->setBuddy(combo);
    filters->addWidget(label);
    filters->addWidget(combo);
  };
  operation_ = new QComboBox;
  operation_->setToolTip(tr("Operation: Btg: c = B'g (the hot kernel); Bdelta: B delta; solve: the k x k products"));
  labelled(tr("Show"), operation_);
  columns_ = new QComboBox;
  columns_->setToolTip(tr("Basis columns k per learner"));
  filters->addWidget(columns_);
  granularity_ = new QComboBox;
  granularity_->addItem(tr("batched"), "batched");
  granularity_->addItem(tr("per learner"), "per-learner");
  granularity_->addItem(tr("both"), "");
  granularity_->setToolTip(tr("batched: one launch for all covariates; per learner: one launch per covariate"));
  filters->addWidget(granularity_);
  filters->addStretch(1);
  controls->addLayout(filters, 1, 4, 1, 4);
  controls->setColumnStretch(7, 1);
  static_cast<QVBoxLayout*>(layout())->addLayout(controls);
}

void KernelChart::buildPlots() {
  status_ = new QLabel;
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Two lines, always: the plots below keep their place while the text changes (every step of a run).
  status_->setFixedHeight(2 * status_->fontMetrics().lineSpacing() + 2);
  status_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  layout()->addWidget(status_);
  plots_ = new QGridLayout;
  timePlot_ = new PlotWidget;
  timePlot_->setMessageSink(sink_);
  timePlot_->setExportName("kernel-time");
  setupLogLog(timePlot_, tr("Median kernel time"), tr("seconds per call (log scale)"));
  bandwidthPlot_ = new PlotWidget;
  bandwidthPlot_->setMessageSink(sink_);
  bandwidthPlot_->setExportName("kernel-bandwidth");
  bandwidthPlot_->setPictureHook([plot = bandwidthPlot_](bool on) {
    // A picture, of this plot alone or of the sheet, carries the legend that the side widget gives on screen: of the
    // lines shown (kernels in their colours, the reports' copy lines).
    for (int i = 0; i < plot->graphCount(); ++i) {
      QCPGraph* g = plot->graph(i);
      if (on && g->visible() && !g->property(kRingProperty).toBool())
        g->addToLegend();
      else
        g->removeFromLegend();
    }
    plot->legend->setBrush(QColor(255, 255, 255, 225));
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot->legend->setVisible(on && plot->legend->itemCount() > 0);
  });
  setupLogLog(bandwidthPlot_, tr("Effective bandwidth"), tr("GB/s (log scale; grey: copy)"));
  emptyHint_[0] = emptyHint(timePlot_);
  emptyHint_[1] = emptyHint(bandwidthPlot_);
  legend_ = new KernelLegend;
  plots_->addWidget(timePlot_, 0, 0);
  plots_->addWidget(bandwidthPlot_, 0, 1);
  plots_->setColumnStretch(0, 1);
  plots_->setColumnStretch(1, 1);
  plots_->setRowStretch(0, 1);
  static_cast<QVBoxLayout*>(layout())->addLayout(plots_, 1);
  placeLegend();
}

// Beside the plots while each plot keeps kMinimumSidePlotWidth; below them, entries flowing in rows, when the tab
// is narrower (the window at 1024 x 700), so the plots never shrink to slivers. Hidden while there is nothing to list.
void KernelChart::placeLegend() {
  legend_->setVisible(!reports_.empty());
  const bool side = (width() - legend_->sideWidth()) / 2 >= kMinimumSidePlotWidth;
  if (legendSide_ == int(side)) return;
  legendSide_ = int(side);
  plots_->removeWidget(legend_);
  legend_->setPlacement(side ? KernelLegend::Placement::Side : KernelLegend::Placement::Below);
  if (side)
    plots_->addWidget(legend_, 0, 2);
  else
    plots_->addWidget(legend_, 1, 0, 1, 2);
}

void KernelChart::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  placeLegend();
}

void KernelChart::setDevices(const QStringList& devices, const QString& whyNone) {
  device_->clear();
  device_->addItems(devices);
  const bool any = !devices.isEmpty();
  // With a placeholder text Qt leaves the index at -1 (the box kept saying "looking for devices"): choose the first.
  if (any) device_->setCurrentIndex(0);
  device_->setPlaceholderText(any ? QString() : tr("no OpenCL device"));
  run_->setEnabled(any && !isRunning());
  device_->setEnabled(any);
  if (!any)
    status_->setText(tr("No OpenCL device, so no benchmark can run here (%1); saved reports still load.").arg(whyNone));
}

bool KernelChart::loadReportFile(const QString& path) {
  try {
    addReport(readKernelReport(path), QFileInfo(path).completeBaseName());
    lastFolder_ = QFileInfo(path).absolutePath();
    return true;
  } catch (const std::exception& e) {
    sink_->exception(tr("Load benchmark report %1").arg(QFileInfo(path).fileName()), e);
    return false;
  }
}

void KernelChart::addReport(const gb::KernelBenchReport& report, const QString& label) {
  reports_.emplace_back(label, report);
  sink_->info(tr("Kernel chart: %1 (%2, %3 timings, copy %4 GB/s)")
                  .arg(label, qs(report.device))
                  .arg(report.timings.size())
                  .arg(report.copyGigabytesPerSecond, 0, 'f', 1));
  refreshFilters();
  redraw();
}

void KernelChart::clearReports() {
  reports_.clear();
  runIndex_ = lastRun_ = lastBeforeRun_ = -1;
  save_->setEnabled(false);
  refreshFilters();
  redraw();
}

void KernelChart::refreshFilters() {
  std::set<std::string> ops;
  std::set<int> ks;
  for (const auto& [label, r] : reports_)
    for (const auto& t : r.timings) ops.insert(t.operation), ks.insert(t.k);
  const QString op = operation_->currentText();
  const QString k = columns_->currentText();
  operation_->blockSignals(true);
  columns_->blockSignals(true);
  operation_->clear();
  for (const auto& o : ops) operation_->addItem(qs(o));
  columns_->clear();
  for (int v : ks) columns_->addItem(QString("k = %1").arg(v), v);
  operation_->setCurrentIndex(std::max(0, operation_->findText(op.isEmpty() ? "Btg" : op)));
  columns_->setCurrentIndex(std::max(0, columns_->findText(k)));
  operation_->blockSignals(false);
  columns_->blockSignals(false);
  operation_->setEnabled(operation_->count() > 0);
  columns_->setEnabled(columns_->count() > 0);
}

void KernelChart::setGranularity(const QString& g) { granularity_->setCurrentIndex(granularity_->findData(g)); }

void KernelChart::setOperation(const QString& op) { operation_->setCurrentIndex(operation_->findText(op)); }
void KernelChart::setColumns(int k) { columns_->setCurrentIndex(columns_->findData(k)); }

PlotSheet KernelChart::exportSheet() {
  return PlotSheet{{timePlot_, bandwidthPlot_}, 2, QStringLiteral("kernel-timings")};
}

std::vector<KernelSeries> KernelChart::collectSeries(double* lo, double* hi) const {
  const std::string op = ss(operation_->currentText());
  const int k = columns_->currentData().toInt();
  const std::string granularity = ss(granularity_->currentData().toString());
  std::map<std::string, int> unknownKernels;  // names outside kKernelOrder, in the order first seen
  std::vector<KernelSeries> out;
  for (std::size_t r = 0; r < reports_.size(); ++r) {
    // kernel + granularity -> n -> (time, GB/s, in cache)
    std::map<std::string, std::map<double, std::tuple<double, double, bool>>> series;
    for (const auto& t : reports_[r].second.timings) {
      if (t.operation != op || t.k != k || (!granularity.empty() && t.granularity != granularity)) continue;
      // Log axes: a zero (a kernel not timed at this size) would draw a line to -infinity.
      if (!(t.medianSeconds > 0) || !(t.gigabytesPerSecond > 0)) continue;
      const std::string name = t.kernel + (granularity.empty() && t.granularity == "batched" ? " (batched)" : "");
      series[name][double(t.rows)] = {t.medianSeconds, t.gigabytesPerSecond, t.inCache};
      *lo = std::min(*lo, double(t.rows));
      *hi = std::max(*hi, double(t.rows));
    }
    for (const auto& [name, points] : series) {
      KernelSeries s;
      s.name = qs(name);
      s.report = int(r);
      // One colour per kernel; with "both" granularities its batched line is a lighter shade of it.
      const std::string kernel = name.substr(0, name.find(" ("));
      s.colour = kernelColour(kernel, unknownKernels).lighter(kernel == name ? 100 : 150);
      for (const auto& [rows, v] : points) {
        const auto& [seconds, rate, inCache] = v;
        s.rows.append(rows), s.seconds.append(seconds), s.gigabytesPerSecond.append(rate);
        if (inCache) s.cacheRows.append(rows), s.cacheGigabytesPerSecond.append(rate);
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

void KernelChart::drawSeries(const std::vector<KernelSeries>& series) {
  using Group = KernelLegend::Group;
  for (const KernelSeries& s : series) {
    const QString label = reports_[s.report].first;
    QPen pen(s.colour, 1.6, kStyles[s.report % kStyles.size()]);
    QCPScatterStyle scatter(kShapes[s.report % kShapes.size()], 5);
    const bool shown = legend_->isShown(Group::Kernel, s.name) && legend_->isShown(Group::Report, label);
    for (auto [plot, values] : {std::pair{timePlot_, s.seconds}, std::pair{bandwidthPlot_, s.gigabytesPerSecond}}) {
      QCPGraph* g = plot->addGraph();
      g->setName(reports_.size() > 1 ? s.name + " - " + label : s.name);
      g->setPen(pen);
      g->setScatterStyle(scatter);
      g->setData(s.rows, values, true);
      g->setVisible(shown);
    }
    if (s.cacheRows.isEmpty()) continue;
    // A grey ring around each in-cache point: its rate is the cache's, not a fraction of the copy line.
    QCPGraph* ring = bandwidthPlot_->addGraph();
    ring->setName(tr("in cache: ") + (reports_.size() > 1 ? s.name + " - " + label : s.name));
    ring->setLineStyle(QCPGraph::lsNone);
    ring->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(90, 90, 90), 1.2), Qt::NoBrush, 13));
    ring->setData(s.cacheRows, s.cacheGigabytesPerSecond, true);
    ring->setProperty(kRingProperty, true);  // no legend entry: the plot's title says what the rings are
    ring->setVisible(shown);
  }
  bool anyInCache = false;
  for (const KernelSeries& s : series) anyInCache = anyInCache || !s.cacheRows.isEmpty();
  bandwidthPlot_->setTitle(anyInCache ? tr("Effective bandwidth (ringed: in cache)") : tr("Effective bandwidth"));
}

void KernelChart::drawRooflines(double lo, double hi) {
  // Each report's copy line in that report's line style (as in the legend: run 1 solid, run 2 dashed, ...), grey;
  // its value is in the report's legend entry.
  for (std::size_t r = 0; r < reports_.size(); ++r) {
    const auto& [label, report] = reports_[r];
    if (report.copyGigabytesPerSecond <= 0) continue;
    QCPGraph* roof = bandwidthPlot_->addGraph();
    roof->setName(tr("copy %1 GB/s - %2").arg(report.copyGigabytesPerSecond, 0, 'f', 0).arg(qs(report.device)));
    roof->setPen(QPen(QColor(90, 90, 90), 1.4, kStyles[r % kStyles.size()]));
    roof->setData({lo / 2, hi * 2}, {report.copyGigabytesPerSecond, report.copyGigabytesPerSecond});
    roof->setVisible(legend_->isShown(KernelLegend::Group::Report, label));
  }
}

void KernelChart::rescale(double lo, double hi, bool empty) {
  for (PlotWidget* p : {timePlot_, bandwidthPlot_}) {
    bool any = false;
    for (int i = 0; i < p->graphCount(); ++i) any = any || (p->graph(i)->visible() && !p->graph(i)->data()->isEmpty());
    p->rescaleAxes(true);
    p->xAxis->setRange(lo / 1.5, hi * 1.5);
    const QCPRange y = p->yAxis->range();
    if (!any || !(y.lower > 0))
      p->yAxis->setRange(p == timePlot_ ? QCPRange(1e-6, 1e-1) : QCPRange(1, 1e4));
    else
      p->yAxis->setRange(y.lower / 2, y.upper * 2);
    emptyHint_[p == timePlot_ ? 0 : 1]->setVisible(empty);
    p->requestReplot();
  }
}

void KernelChart::redraw() {
  timePlot_->clearPlottables();
  bandwidthPlot_->clearPlottables();
  double lo = HUGE_VAL, hi = 0;
  const std::vector<KernelSeries> series = collectSeries(&lo, &hi);
  const bool empty = lo > hi;
  if (empty) lo = 1e3, hi = 1e5;
  drawSeries(series);
  drawRooflines(lo, hi);
  rescale(lo, hi, reports_.empty());
  std::vector<double> measured;
  for (const KernelSeries& s : series) measured.insert(measured.end(), s.rows.begin(), s.rows.end());
  for (PlotWidget* p : {timePlot_, bandwidthPlot_}) setMeasuredTicks(p->xAxis, measured);
  refreshLegend(series);
  refreshStatus();
}

void KernelChart::refreshLegend(const std::vector<KernelSeries>& series) {
  QList<KernelLegend::Entry> kernels, reports;
  std::set<QString> seen;
  for (const KernelSeries& s : series)
    if (seen.insert(s.name).second)
      kernels.append({s.name, s.name, tr("%1: every report's line of this kernel").arg(s.name), QPen(s.colour, 2)});
  for (std::size_t r = 0; r < reports_.size(); ++r) {
    const auto& [label, report] = reports_[r];
    const QString tip = tr("%1: %2, %3, copy %4 GB/s")
                            .arg(label, qs(report.device), qs(report.precision))
                            .arg(report.copyGigabytesPerSecond, 0, 'f', 1);
    // The copy line's value, which only the tooltip gave: beside the line style that both share.
    const QString text = report.copyGigabytesPerSecond > 0
                             ? tr("%1 · copy %2 GB/s").arg(label).arg(report.copyGigabytesPerSecond, 0, 'f', 0)
                             : label;
    reports.append({label, text, tip, QPen(Qt::black, 1.6, kStyles[r % kStyles.size()])});
  }
  legend_->setEntries(kernels, reports);
  placeLegend();
}

void KernelChart::refreshStatus() {
  if (isRunning()) return;
  QStringList names;
  for (const auto& [label, report] : reports_)  // a run's label already names its device
    names << (label.contains(qs(report.device).section(' ', 0, 1)) ? label : label + " (" + qs(report.device) + ")");
  status_->setText(names.isEmpty() ? tr("No report loaded: Load JSON... or Run benchmark.")
                                   : tr("Showing: ") + names.join("; "));
}

void KernelChart::startFromControls() {
  gb::KernelBenchOptions options;
  options.device = ss(device_->currentText());
  options.repetitions = repetitions_->value();
  runBenchmark(options);
}

QString KernelChart::runLabel(const gb::KernelBenchReport& report, const QString& state) const {
  const QString device = report.device.empty() ? QString() : " " + qs(report.device).section(' ', 0, 1);
  return tr("run %1%2%3").arg(runCount_).arg(device, state.isEmpty() ? QString() : " (" + state + ")");
}

// The run's entry in reports_ (created on its first results) gets the newest report.
void KernelChart::showRun(const gb::KernelBenchReport& report, const QString& state) {
  if (runIndex_ < 0) {
    reports_.emplace_back(QString(), report);
    runIndex_ = int(reports_.size()) - 1;
  }
  reports_[runIndex_] = {runLabel(report, state), report};
  lastRun_ = runIndex_;
  refreshFilters();
  redraw();
}

void KernelChart::runBenchmark(const gb::KernelBenchOptions& given) {
  if (isRunning()) return;
  auto result = std::make_shared<gb::KernelBenchReport>();
  auto slot = std::make_shared<PartialSlot>();
  auto options = given;
  ++runCount_;
  runIndex_ = -1;
  lastBeforeRun_ = lastRun_;
  worker_->disconnect(this, nullptr);
  connect(worker_, &WorkerThread::progress, this, [this, slot](double f, const QString& what) {
    progress_->setValue(static_cast<int>(f * 1000));
    gb::KernelBenchReport sofar;
    if (slot->take(&sofar)) {
      showRun(sofar, tr("running"));
      emit partialResults(int(sofar.timings.size()));
    }
    if (cancelling_) return;  // "Cancelling..." stays until the run ends
    status_->setText(tr("Running (%1 timings so far): %2")
                         .arg(runIndex_ < 0 ? 0 : int(reports_[runIndex_].second.timings.size()))
                         .arg(what));
  });
  connect(worker_, &WorkerThread::finished, this,
          [this, result, slot](bool ok, const QString& error, const QString& details) {
            gb::KernelBenchReport last;
            runEnded(ok, error, details, ok ? *result : (slot->take(&last) ? last : gb::KernelBenchReport{}));
          });
  worker_->start([result, slot, options](TaskWorker& w) mutable {
    options.partial = [slot](const gb::KernelBenchReport& sofar) { slot->put(sofar); };
    options.progress = [&w](double fraction, const std::string& what) {
      w.reportProgress(fraction, qs(what));
      return !w.cancelRequested();
    };
    *result = gb::runKernelBenchmark(options);
  });
  run_->setEnabled(false);
  cancel_->setEnabled(true);
  save_->setEnabled(false);
  progress_->setValue(0);
  progress_->setFormat(QStringLiteral("%p%"));
  cancelling_ = false;
  status_->setText(tr("Starting the benchmark on %1...")
                       .arg(options.device.empty() ? tr("the default device") : qs(options.device)));
  emit benchmarkStarted();
}

void KernelChart::runEnded(bool ok, const QString& error, const QString& details, const gb::KernelBenchReport& result) {
  run_->setEnabled(device_->count() > 0);
  cancel_->setEnabled(false);
  cancelling_ = false;
  if (ok && result.cancelled && result.timings.empty()) {
    // Cancelled before its first timing: no run to draw or save (its copy-bandwidth line alone had become one).
    progress_->setFormat(tr("cancelled at %p%"));
    if (runIndex_ >= 0) {
      reports_.erase(reports_.begin() + runIndex_);
      // An earlier run of this window (the cancelled one was the last added), unless Clear dropped it meanwhile.
      lastRun_ = lastBeforeRun_ < static_cast<int>(reports_.size()) ? lastBeforeRun_ : -1;
      refreshFilters();
      redraw();
    }
    runIndex_ = -1;
    save_->setEnabled(lastRun_ >= 0);
    sink_->info(tr("Kernel benchmark cancelled before its first timing: nothing to show"));
    status_->setText(tr("Cancelled before the first timing: nothing to show."));
    emit benchmarkFinished(ok);
    return;
  }
  if (ok) {
    progress_->setValue(result.cancelled ? progress_->value() : 1000);
    // A cancelled run's bar stays where it stopped, and says so (it read as a run still going).
    if (result.cancelled) progress_->setFormat(tr("cancelled at %p%"));
    showRun(result, result.cancelled ? tr("cancelled") : QString());
  } else if (!result.timings.empty() || runIndex_ >= 0) {
    progress_->setFormat(tr("stopped at %p%"));
    // What was timed before the error stays on the chart, and can be saved.
    showRun(result.timings.empty() ? reports_[runIndex_].second : result, tr("stopped"));
  }
  runIndex_ = -1;
  save_->setEnabled(lastRun_ >= 0);
  if (ok) {
    sink_->info(tr("Kernel benchmark: %1, %2 timings").arg(reports_[lastRun_].first).arg(result.timings.size()));
  } else {
    sink_->error(tr("Kernel benchmark"), error, details);
    status_->setText(tr("Benchmark stopped: %1").arg(inWindowWords(error)));
  }
  emit benchmarkFinished(ok);
}

// Cancel acts between two measurements; one of a large size can take a while on a CPU device, so the button says
// that it was heard (it stayed enabled, with "Running ..." for 15-20 s).
void KernelChart::cancelBenchmark() {
  if (!isRunning()) return;
  worker_->cancel();
  cancelling_ = true;
  cancel_->setEnabled(false);
  status_->setText(tr("Cancelling: the measurement under way finishes first; what was timed stays on the chart."));
}
bool KernelChart::isRunning() const { return worker_->isRunning(); }
QString KernelChart::statusText() const { return status_->text(); }

void KernelChart::shutdown() {
  worker_->cancel();
  worker_->wait();
}

bool KernelChart::saveRunFile(const QString& path) {
  try {
    if (lastRun_ < 0)
      throw gb::InputError(
          ss(tr("No run to save: Run benchmark first (loaded reports are files "
                "already).")));
    writeKernelReport(path, reports_[lastRun_].second);
    lastFolder_ = QFileInfo(path).absolutePath();
    sink_->info(tr("Kernel chart: saved %1 as %2").arg(reports_[lastRun_].first, path));
    return true;
  } catch (const std::exception& e) {
    sink_->exception(tr("Save benchmark run"), e);
    return false;
  }
}

void KernelChart::loadInteractively() {
  const QStringList files =
      QFileDialog::getOpenFileNames(this, tr("Load benchmark reports"), lastFolder_, tr("Benchmark JSON (*.json)"));
  for (const QString& f : files) loadReportFile(f);
}

void KernelChart::saveInteractively() {
  if (lastRun_ < 0) return;
  QString device = qs(reports_[lastRun_].second.device).section(' ', 0, 1).toLower();
  device.replace(QRegularExpression("[^a-z0-9]+"), "-");
  const QString suggested = QDir(lastFolder_).filePath("kernels-" + device + ".json");
  const QString path = saveFileName(this, tr("Save benchmark run"), suggested, tr("Benchmark JSON (*.json)"), "json");
  if (!path.isEmpty()) saveRunFile(path);
}

}  // namespace gbui

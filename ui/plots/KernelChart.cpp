#include "plots/KernelChart.hpp"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <map>
#include <set>

#include "common/Error.hpp"
#include "common/MessageSink.hpp"
#include "common/QtConvert.hpp"
#include "common/WorkerThread.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

namespace {

const QList<QColor> kPalette{QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),   QColor(214, 39, 40),
                             QColor(148, 103, 189), QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127),
                             QColor(188, 189, 34),  QColor(23, 190, 207)};
const QList<Qt::PenStyle> kStyles{Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
const QList<QCPScatterStyle::ScatterShape> kShapes{QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare,
                                                   QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond};

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
}

// One legend for both plots (same colours and line styles), in its own column right of the bandwidth plot so
// it never covers data.
void placeLegendRight(PlotWidget* plot) {
  plot->legend->setVisible(true);
  plot->legend->setFont(QFont(plot->font().family(), 7));
  plot->legend->setRowSpacing(-3);
  plot->legend->setBorderPen(Qt::NoPen);
  auto* grid = plot->plotLayout();
  const int row = grid->rowCount() - 1;
  plot->axisRect()->insetLayout()->take(plot->legend);
  grid->addElement(row, 1, plot->legend);
  grid->setColumnStretchFactor(1, 0.001);
  plot->legend->setMaximumSize(230, QWIDGETSIZE_MAX);
}

}  // namespace

KernelChart::KernelChart(MessageSink* sink, QWidget* parent) : QWidget(parent), sink_(sink) {
  worker_ = new WorkerThread(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* controls = new QGridLayout;
  controls->addWidget(new QLabel(tr("Device")), 0, 0);
  device_ = new QComboBox;
  device_->setToolTip(tr("OpenCL device to benchmark"));
  device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  device_->setMinimumContentsLength(12);
  controls->addWidget(device_, 0, 1);
  controls->addWidget(new QLabel(tr("Repetitions")), 0, 2);
  repetitions_ = new QSpinBox;
  repetitions_->setRange(1, 1000);
  repetitions_->setValue(10);
  repetitions_->setToolTip(tr("Timed runs per kernel and size after one warm-up (the CLI's default is 50)"));
  controls->addWidget(repetitions_, 0, 3);
  run_ = button(tr("Run benchmark"), tr("Time every kernel at n = 1e3, 1e4, 1e5 on the chosen device (background)"));
  cancel_ = button(tr("Cancel"), tr("Stop the running benchmark"));
  cancel_->setEnabled(false);
  controls->addWidget(run_, 0, 4);
  controls->addWidget(cancel_, 0, 5);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setToolTip(tr("Benchmark progress"));
  controls->addWidget(progress_, 0, 6, 1, 2);
  load_ =
      button(tr("Load JSON..."), tr("Add a saved benchmark report (e.g. docs/bench/h100-*.json) to compare devices"));
  clear_ = button(tr("Clear"), tr("Remove every report from the chart"));
  controls->addWidget(load_, 1, 0, 1, 2);
  controls->addWidget(clear_, 1, 2);
  controls->addWidget(new QLabel(tr("Operation")), 1, 3);
  operation_ = new QComboBox;
  operation_->setToolTip(tr("Btg: c = B'g (the hot kernel); Bdelta: B delta; solve: the k x k products"));
  controls->addWidget(operation_, 1, 4);
  columns_ = new QComboBox;
  columns_->setToolTip(tr("Basis columns k per learner"));
  controls->addWidget(columns_, 1, 5);
  granularity_ = new QComboBox;
  granularity_->addItem(tr("batched"), "batched");
  granularity_->addItem(tr("per learner"), "per-learner");
  granularity_->addItem(tr("both"), "");
  granularity_->setToolTip(tr("batched: one launch for all covariates; per learner: one launch per covariate"));
  controls->addWidget(granularity_, 1, 6);
  controls->setColumnStretch(7, 1);
  layout->addLayout(controls);
  status_ = new QLabel;
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(status_);
  auto* plots = new QHBoxLayout;
  timePlot_ = new PlotWidget;
  timePlot_->setMessageSink(sink);
  timePlot_->setExportName("kernel-time");
  setupLogLog(timePlot_, tr("Median kernel time"), tr("time per call (seconds, log scale)"));
  bandwidthPlot_ = new PlotWidget;
  bandwidthPlot_->setMessageSink(sink);
  bandwidthPlot_->setExportName("kernel-bandwidth");
  setupLogLog(bandwidthPlot_, tr("Effective bandwidth (dashed grey: measured copy)"), tr("GB/s (log scale)"));
  placeLegendRight(bandwidthPlot_);
  plots->addWidget(timePlot_, 2);
  plots->addWidget(bandwidthPlot_, 3);
  layout->addLayout(plots, 1);

  connect(run_, &QPushButton::clicked, this, &KernelChart::startFromControls);
  connect(cancel_, &QPushButton::clicked, this, &KernelChart::cancelBenchmark);
  connect(load_, &QPushButton::clicked, this, &KernelChart::loadInteractively);
  connect(clear_, &QPushButton::clicked, this, &KernelChart::clearReports);
  connect(operation_, &QComboBox::currentIndexChanged, this, &KernelChart::redraw);
  connect(columns_, &QComboBox::currentIndexChanged, this, &KernelChart::redraw);
  connect(granularity_, &QComboBox::currentIndexChanged, this, &KernelChart::redraw);
  redraw();
}

KernelChart::~KernelChart() { shutdown(); }

void KernelChart::setDevices(const QStringList& devices, const QString& whyNone) {
  device_->clear();
  device_->addItems(devices);
  const bool any = !devices.isEmpty();
  run_->setEnabled(any);
  device_->setEnabled(any);
  if (!any)
    status_->setText(tr("No OpenCL device, so no benchmark can run here (%1); saved reports still load.").arg(whyNone));
}

bool KernelChart::loadReportFile(const QString& path) {
  try {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
      throw gb::InputError((path + ": cannot read: " + file.errorString()).toStdString());
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(file.readAll().toStdString());
    } catch (const nlohmann::json::exception& e) {
      throw gb::InputError(ss(path) + ": not JSON: " + e.what());
    }
    addReport(gb::KernelBenchReport::fromJson(j), QFileInfo(path).completeBaseName());
    return true;
  } catch (const std::exception& e) {
    sink_->exception(tr("Load benchmark report %1").arg(path), e);
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
}

void KernelChart::setGranularity(const QString& g) { granularity_->setCurrentIndex(granularity_->findData(g)); }

void KernelChart::setOperation(const QString& op) { operation_->setCurrentIndex(operation_->findText(op)); }
void KernelChart::setColumns(int k) { columns_->setCurrentIndex(columns_->findData(k)); }

void KernelChart::redraw() {
  timePlot_->clearPlottables();
  bandwidthPlot_->clearPlottables();
  const std::string op = ss(operation_->currentText());
  const int k = columns_->currentData().toInt();
  const std::string granularity = ss(granularity_->currentData().toString());
  std::map<std::string, int> kernelColor;
  double lo = HUGE_VAL, hi = 0;
  for (std::size_t r = 0; r < reports_.size(); ++r) {
    const auto& [label, report] = reports_[r];
    // series: kernel + granularity -> (n, time, GB/s) sorted by n
    std::map<std::string, std::map<double, std::pair<double, double>>> series;
    for (const auto& t : report.timings) {
      if (t.operation != op || t.k != k || (!granularity.empty() && t.granularity != granularity)) continue;
      std::string name = t.kernel + (granularity.empty() && t.granularity == "batched" ? " (batched)" : "");
      // Log axes: a zero (a kernel not timed at this size) would draw a line to -infinity.
      if (!(t.medianSeconds > 0) || !(t.gigabytesPerSecond > 0)) continue;
      series[name][double(t.rows)] = {t.medianSeconds, t.gigabytesPerSecond};
      lo = std::min(lo, double(t.rows));
      hi = std::max(hi, double(t.rows));
    }
    for (const auto& [name, points] : series) {
      const int c = kernelColor.emplace(name, int(kernelColor.size())).first->second;
      QPen pen(kPalette[c % kPalette.size()], 1.6, kStyles[r % kStyles.size()]);
      QCPScatterStyle scatter(kShapes[r % kShapes.size()], 5);
      const QString legend = reports_.size() > 1 ? qs(name) + " - " + label : qs(name);
      QVector<double> n, time, bw;
      for (const auto& [rows, v] : points) n.append(rows), time.append(v.first), bw.append(v.second);
      for (auto [plot, values] : {std::pair{timePlot_, time}, std::pair{bandwidthPlot_, bw}}) {
        QCPGraph* g = plot->addGraph();
        g->setName(legend);
        g->setPen(pen);
        g->setScatterStyle(scatter);
        g->setData(n, values, true);
      }
    }
  }
  const bool empty = lo > hi;
  if (empty) lo = 1e3, hi = 1e5;
  for (std::size_t r = 0; r < reports_.size(); ++r) {
    const auto& [label, report] = reports_[r];
    if (report.copyGigabytesPerSecond <= 0) continue;
    QCPGraph* roof = bandwidthPlot_->addGraph();
    roof->setName(tr("copy %1 GB/s - %2").arg(report.copyGigabytesPerSecond, 0, 'f', 0).arg(qs(report.device)));
    roof->setPen(QPen(QColor(90, 90, 90), 1.4, r % 2 ? Qt::DashDotDotLine : Qt::DashLine));
    roof->setData({lo / 2, hi * 2}, {report.copyGigabytesPerSecond, report.copyGigabytesPerSecond});
  }
  for (PlotWidget* p : {timePlot_, bandwidthPlot_}) {
    p->rescaleAxes();
    p->xAxis->setRange(lo / 1.5, hi * 1.5);
    const QCPRange y = p->yAxis->range();
    if (empty)
      p->yAxis->setRange(p == timePlot_ ? QCPRange(1e-6, 1e-1) : QCPRange(1, 1e4));
    else if (y.lower > 0)
      p->yAxis->setRange(y.lower / 2, y.upper * 2);
    p->requestReplot();
  }
  QStringList names;
  for (const auto& [label, report] : reports_) names << label + " (" + qs(report.device) + ")";
  if (!isRunning()) status_->setText(names.isEmpty() ? tr("No report loaded.") : tr("Showing: ") + names.join("; "));
}

void KernelChart::startFromControls() {
  gb::KernelBenchOptions options;
  options.device = ss(device_->currentText());
  options.repetitions = repetitions_->value();
  runBenchmark(options);
}

void KernelChart::runBenchmark(const gb::KernelBenchOptions& given) {
  if (isRunning()) return;
  auto result = std::make_shared<gb::KernelBenchReport>();
  auto options = given;
  worker_->disconnect(this, nullptr);
  connect(worker_, &WorkerThread::progress, this, [this](double f, const QString& what) {
    progress_->setValue(static_cast<int>(f * 1000));
    status_->setText(what);
  });
  connect(worker_, &WorkerThread::finished, this,
          [this, result](bool ok, const QString& error, const QString& details) {
            run_->setEnabled(device_->count() > 0);
            cancel_->setEnabled(false);
            if (ok) {
              progress_->setValue(1000);
              addReport(*result, tr("this run"));
            } else {
              sink_->error(tr("Kernel benchmark"), error, details);
              status_->setText(tr("Benchmark stopped: %1").arg(error));
            }
            emit benchmarkFinished(ok);
          });
  worker_->start([result, options](TaskWorker& w) mutable {
    options.progress = [&w](double fraction, const std::string& what) {
      w.reportProgress(fraction, qs(what));
      return !w.cancelRequested();
    };
    *result = gb::runKernelBenchmark(options);
  });
  run_->setEnabled(false);
  cancel_->setEnabled(true);
  progress_->setValue(0);
  status_->setText(tr("Starting the benchmark on %1...").arg(qs(options.device)));
}

void KernelChart::cancelBenchmark() { worker_->cancel(); }
bool KernelChart::isRunning() const { return worker_->isRunning(); }

void KernelChart::shutdown() {
  worker_->cancel();
  worker_->wait();
}

void KernelChart::loadInteractively() {
  const QStringList files =
      QFileDialog::getOpenFileNames(this, tr("Load benchmark reports"), QString(), tr("Benchmark JSON (*.json)"));
  for (const QString& f : files) loadReportFile(f);
}

}  // namespace gbui

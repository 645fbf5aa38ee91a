#include "plots/CrossValidationView.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "common/MessageSink.hpp"
#include "common/QtConvert.hpp"
#include "common/WorkerThread.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/RiskPlot.hpp"

namespace gbui {

namespace {

const QColor kFoldColour(150, 150, 150, 160);
const QColor kMeanColour(214, 39, 40);

}  // namespace

CrossValidationView::CrossValidationView(MessageSink* sink, QWidget* parent)
    : QWidget(parent), sink_(sink), worker_(new WorkerThread(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(buildControls());
  plot_ = new PlotWidget;
  plot_->setMessageSink(sink);
  plot_->setExportName("cvrisk");
  plot_->setTitle(tr("Out-of-bag risk per fold (grey) and their mean"));
  plot_->xAxis->setLabel(tr("iterations"));
  plot_->yAxis->setLabel(lossName(gb::Family::Gaussian));
  plot_->addLayer("cvMean", plot_->layer("main"), QCustomPlot::limAbove);
  mean_ = plot_->addGraph();
  mean_->setName(tr("mean over the folds"));
  mean_->setPen(QPen(kMeanColour, 2.2));
  mean_->setLayer("cvMean");
  line_ = new QCPItemStraightLine(plot_);
  line_->setPen(QPen(kMeanColour, 1, Qt::DashLine));
  line_->setVisible(false);
  text_ = new QCPItemText(plot_);
  text_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  text_->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
  text_->setColor(kMeanColour);
  text_->setVisible(false);
  plot_->setMinimumSize(360, 260);
  layout->addWidget(plot_, 1);
  connect(worker_, &WorkerThread::progress, this, [this](double fraction, const QString&) {
    progress_->setValue(static_cast<int>(fraction * progress_->maximum() + 0.5));
    takeCurves();
  });
  connect(worker_, &WorkerThread::finished, this, &CrossValidationView::onFinished);
  setRunning(false);
}

CrossValidationView::~CrossValidationView() { shutdown(); }

QWidget* CrossValidationView::buildControls() {
  auto* box = new QWidget;
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(4, 4, 4, 0);
  type_ = new QComboBox;
  type_->addItem(tr("bootstrap (B samples)"), int(FoldType::Bootstrap));
  type_->addItem(tr("k-fold (K folds)"), int(FoldType::KFold));
  type_->addItem(tr("subsample (B halves, prob 0.5)"), int(FoldType::Subsample));
  type_->setToolTip(tr("How the folds are drawn (mboost's cv(type = ...)); our own seeded draws, not R's"));
  count_ = new QSpinBox;
  count_->setRange(1, 1000);
  count_->setValue(defaultFoldCount(FoldType::Bootstrap));
  count_->setToolTip(tr("B (bootstrap, subsample) or K (k-fold); mboost's defaults: 25 and 10"));
  seed_ = new QSpinBox;
  seed_->setRange(0, 2147483647);
  seed_->setValue(1);
  seed_->setToolTip(tr("Seed of the folds' generator: the same seed draws the same folds"));
  run_ = new QPushButton(tr("Run cross-validation"));
  run_->setToolTip(tr("Fit every fold to mstop with the current data, roles and model settings"));
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setToolTip(tr("Stop after the current batch of the fold being fitted"));
  use_ = new QPushButton(tr("Use this mstop"));
  use_->setToolTip(tr("Set the model panel's mstop to the chosen value"));
  progress_ = new QProgressBar;
  progress_->setFormat(tr("%v / %m folds"));
  progress_->setToolTip(tr("Folds fitted"));
  status_ = new QLabel(tr("Choose the folds and run: every fold is fitted to the model panel's mstop."));
  status_->setWordWrap(true);
  grid->addWidget(new QLabel(tr("Folds")), 0, 0);
  grid->addWidget(type_, 0, 1);
  grid->addWidget(new QLabel(tr("Count")), 0, 2);
  grid->addWidget(count_, 0, 3);
  grid->addWidget(new QLabel(tr("Seed")), 0, 4);
  grid->addWidget(seed_, 0, 5);
  grid->addWidget(run_, 1, 0, 1, 2);
  grid->addWidget(cancel_, 1, 2, 1, 2);
  grid->addWidget(use_, 1, 4, 1, 2);
  grid->addWidget(progress_, 2, 0, 1, 6);
  grid->addWidget(status_, 3, 0, 1, 6);
  connect(type_, &QComboBox::currentIndexChanged, this, [this] { count_->setValue(defaultFoldCount(foldType())); });
  connect(run_, &QPushButton::clicked, this, &CrossValidationView::runRequested);
  connect(cancel_, &QPushButton::clicked, this, &CrossValidationView::cancel);
  connect(use_, &QPushButton::clicked, this, [this] {
    if (chosen_ >= 1) emit mstopChosen(chosen_);
  });
  return box;
}

FoldType CrossValidationView::foldType() const { return static_cast<FoldType>(type_->currentData().toInt()); }

void CrossValidationView::setFoldType(FoldType type) { type_->setCurrentIndex(type_->findData(int(type))); }

bool CrossValidationView::isRunning() const { return worker_->isRunning(); }

bool CrossValidationView::start(std::shared_ptr<const gb::Dataset> data, const gb::ModelSettings& settings,
                                const gb::ComputeSettings& compute) {
  if (isRunning()) return false;
  if (!data) {
    sink_->error(tr("Cross-validation"), tr("No data: generate the paper's data or open a CSV file first."));
    return false;
  }
  try {
    settings.validate();
  } catch (const std::exception& e) {
    sink_->exception(tr("Cross-validation"), e);
    return false;
  }
  clear();
  job_ = std::make_shared<CvJob>();
  job_->request = {
      std::move(data), settings, compute, foldType(), count_->value(), 0.5, static_cast<std::uint64_t>(seed_->value())};
  job_->curves = std::make_shared<CvCurves>();
  progress_->setRange(0, count_->value());
  progress_->setValue(0);
  plot_->yAxis->setLabel(lossName(settings.family));
  plot_->xAxis->setRange(0, settings.mstop);
  status_->setText(
      tr("Fitting %1 %2 folds to mstop %3 ...").arg(count_->value()).arg(foldTypeName(foldType())).arg(settings.mstop));
  auto job = job_;
  worker_->start([job](TaskWorker& w) { (*job)(w); });
  setRunning(true);
  return true;
}

void CrossValidationView::cancel() {
  if (isRunning()) worker_->cancel();
}

void CrossValidationView::shutdown() {
  if (!isRunning()) return;
  worker_->cancel();
  worker_->wait();
}

void CrossValidationView::clear() {
  for (QCPGraph* g : folds_) plot_->removeGraph(g);
  folds_.clear();
  curves_.clear();
  mean_->data()->clear();
  line_->setVisible(false);
  text_->setVisible(false);
  chosen_ = -1;
  use_->setEnabled(false);
  plot_->requestReplot();
}

void CrossValidationView::takeCurves() {
  if (!job_) return;
  std::vector<std::vector<double>> fresh = job_->curves->take();
  if (fresh.empty()) return;
  for (auto& risk : fresh) {
    QVector<double> keys(static_cast<int>(risk.size()));
    for (int m = 0; m < keys.size(); ++m) keys[m] = m;
    QCPGraph* g = plot_->addGraph();
    g->setName(tr("fold %1").arg(folds_.size() + 1));
    g->setPen(QPen(kFoldColour, 1));
    g->setData(keys, qvec(risk), true);
    folds_ << g;
    curves_.push_back(std::move(risk));
  }
  drawMean(false);
}

void CrossValidationView::drawMean(bool final) {
  const std::vector<double> mean = meanCurve(curves_);
  QVector<double> keys(static_cast<int>(mean.size()));
  for (int m = 0; m < keys.size(); ++m) keys[m] = m;
  mean_->setData(keys, qvec(mean), true);
  plot_->rescaleAxes();
  if (final && !mean.empty()) {
    chosen_ = firstMinimum(mean);
    line_->point1->setCoords(chosen_, 0);
    line_->point2->setCoords(chosen_, 1);
    line_->setVisible(true);
    text_->position->setCoords(chosen_, 0.02);
    text_->setText(tr(" mstop = %1").arg(chosen_));
    text_->setVisible(true);
  }
  plot_->requestReplot();
}

void CrossValidationView::onFinished(bool ok, const QString& error, const QString& details) {
  takeCurves();
  setRunning(false);
  if (!ok) {
    sink_->error(tr("Cross-validation failed"), error, details);
    status_->setText(tr("Failed: %1").arg(error));
    emit finished(false);
    return;
  }
  const int total = static_cast<int>(job_->request.count);
  if (job_->cancelled) {
    status_->setText(tr("Cancelled after %1 of %2 folds; no mstop chosen.").arg(job_->foldsDone).arg(total));
    emit finished(true);
    return;
  }
  drawMean(true);
  use_->setEnabled(chosen_ >= 1);
  const std::vector<double> mean = meanCurve(curves_);
  status_->setText(tr("%1 %2 folds: mean out-of-bag risk %3 at m = 0, minimum %4 at mstop %5%6.")
                       .arg(total)
                       .arg(foldTypeName(job_->request.type))
                       .arg(mean.front(), 0, 'g', 6)
                       .arg(mean[static_cast<std::size_t>(chosen_)], 0, 'g', 6)
                       .arg(chosen_)
                       .arg(chosen_ == 0 ? tr(" (no iteration helps: Use this mstop needs at least 1)") : QString()));
  sink_->info(tr("Cross-validation: %1 %2 folds, chosen mstop %3")
                  .arg(total)
                  .arg(foldTypeName(job_->request.type))
                  .arg(chosen_));
  emit finished(true);
}

void CrossValidationView::setRunning(bool running) {
  run_->setEnabled(!running);
  cancel_->setEnabled(running);
  type_->setEnabled(!running);
  count_->setEnabled(!running);
  seed_->setEnabled(!running);
  if (running) use_->setEnabled(false);
}

}  // namespace gbui

#include "plots/CrossValidationView.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "common/DataFileFilter.hpp"
#include "common/MessageSink.hpp"
#include "common/QtConvert.hpp"
#include "common/WindowWords.hpp"
#include "common/WorkerThread.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/RiskPlot.hpp"
#include "plots/StaleNote.hpp"

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
  clear();
}

CrossValidationView::~CrossValidationView() { shutdown(); }

QWidget* CrossValidationView::buildControls() {
  auto* box = new QWidget;
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(4, 4, 4, 0);
  type_ = new QComboBox;
  type_->addItem(tr("bootstrap (B samples)"), int(FoldType::Bootstrap));
  type_->addItem(tr("k-fold (K folds)"), int(FoldType::KFold));
  type_->addItem(tr("subsample (B samples of prob)"), int(FoldType::Subsample));
  type_->addItem(tr("folds file..."), int(FoldType::FoldsFile));
  type_->setToolTip(
      tr("How the folds are drawn (mboost's cv(type = ...)); our own seeded draws, not R's. A folds "
         "file (e.g. written by R's cv()) gives the folds themselves"));
  count_ = new QSpinBox;
  count_->setRange(1, 1000);
  count_->setValue(defaultFoldCount(FoldType::Bootstrap));
  count_->setToolTip(tr("B (bootstrap, subsample) or K (k-fold); mboost's defaults: 25 and 10"));
  seed_ = new QSpinBox;
  seed_->setRange(0, 2147483647);
  seed_->setValue(1);
  seed_->setToolTip(tr("Seed of the folds' generator: the same seed draws the same folds"));
  prob_ = new QDoubleSpinBox;
  prob_->setRange(0.01, 0.99);
  prob_->setSingleStep(0.05);
  prob_->setValue(0.5);
  prob_->setToolTip(tr("Subsample: the share of the rows each fold is fitted on (mboost's prob)"));
  foldsFile_ = new QLineEdit;
  foldsFile_->setPlaceholderText(tr("CSV of fold weights: one column per fold, one row per data row or per used row"));
  foldsFile_->setToolTip(
      tr("Folds file: non-negative integer weights, a header, one column per fold and one row per "
         "data row, or per row the model uses (as gamboost cv --folds-file); choose \"folds file...\" to browse"));
  run_ = new QPushButton(tr("Run cross-validation"));
  run_->setToolTip(tr("Fit every fold to mstop with the current data, roles and model settings"));
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setToolTip(tr("Stop after the current batch of the fold being fitted"));
  use_ = new QPushButton(tr("Use this mstop"));
  use_->setToolTip(tr("Set the model panel's mstop to the chosen value, and fit the model on show again to it"));
  progress_ = new QProgressBar;
  progress_->setFormat(tr("%v / %m folds"));
  progress_->setToolTip(tr("Folds fitted"));
  status_ = new QLabel;
  status_->setWordWrap(true);
  stale_ = new StaleNote;  // its text is this tab's own (updateStale)
  grid->addWidget(new QLabel(tr("Folds")), 0, 0);
  grid->addWidget(type_, 0, 1);
  grid->addWidget(new QLabel(tr("Count")), 0, 2);
  grid->addWidget(count_, 0, 3);
  grid->addWidget(new QLabel(tr("Seed")), 0, 4);
  grid->addWidget(seed_, 0, 5);
  grid->addWidget(new QLabel(tr("Prob")), 1, 0);
  grid->addWidget(prob_, 1, 1);
  grid->addWidget(new QLabel(tr("File")), 1, 2);
  grid->addWidget(foldsFile_, 1, 3, 1, 3);
  grid->addWidget(run_, 2, 0, 1, 2);
  grid->addWidget(cancel_, 2, 2, 1, 2);
  grid->addWidget(use_, 2, 4, 1, 2);
  grid->addWidget(progress_, 3, 0, 1, 6);
  grid->addWidget(status_, 4, 0, 1, 6);
  grid->addWidget(stale_, 5, 0, 1, 6);
  connect(type_, &QComboBox::currentIndexChanged, this, [this] {
    count_->setValue(defaultFoldCount(foldType()));
    updateControls();
  });
  // Only a user's choice opens the file dialog (activated is not emitted for programmatic changes).
  connect(type_, &QComboBox::activated, this, [this] {
    if (foldType() == FoldType::FoldsFile) chooseFoldsFile();
  });
  connect(run_, &QPushButton::clicked, this, &CrossValidationView::runRequested);
  connect(cancel_, &QPushButton::clicked, this, &CrossValidationView::cancel);
  connect(use_, &QPushButton::clicked, this, [this] {
    if (chosen_ >= 1 && changedSinceRun().isEmpty()) emit mstopChosen(chosen_);
  });
  return box;
}

void CrossValidationView::chooseFoldsFile() {
  if (!sink_->interactive()) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Folds file"), foldsFile_->text(), dataFileFilter());
  if (!path.isEmpty()) foldsFile_->setText(path);
}

void CrossValidationView::updateControls() {
  const bool running = isRunning();
  const FoldType type = foldType();
  count_->setEnabled(!running && type != FoldType::FoldsFile);
  prob_->setEnabled(!running && type == FoldType::Subsample);
  foldsFile_->setEnabled(!running && type == FoldType::FoldsFile);
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
  if (!settings.resamplable()) {  // huber's adaptive delta; the engine's message, said for the window
    sink_->error(tr("Cross-validation"),
                 tr("Set a fixed Huber delta in the model panel to cross-validate huber. The adaptive delta "
                    "(mboost's default) carries the state of the fit before into each fold, so its folds have no "
                    "fit of their own to compare."));
    return false;
  }
  const bool fromFile = foldType() == FoldType::FoldsFile;
  if (fromFile && foldsFile_->text().trimmed().isEmpty()) {
    sink_->error(tr("Cross-validation"), tr("Choose a folds file first (a CSV of fold weights)."));
    return false;
  }
  clear();
  runData_ = data.get();
  runSettings_ = settings;
  adoptModel_ = false;
  job_ = std::make_shared<CvJob>();
  job_->request = {std::move(data),
                   settings,
                   compute,
                   foldType(),
                   count_->value(),
                   prob_->value(),
                   static_cast<std::uint64_t>(seed_->value()),
                   foldsFile_->text().trimmed()};
  job_->curves = std::make_shared<CvCurves>();
  // A percentage while the folds run: folds run together (OpenCL) advance all at once, so "17 / 25 folds" counted
  // iterations beside a status of 0 folds complete. Whole folds at the end (showFoldsDone).
  progress_->setRange(0, 1000);
  progress_->setFormat(tr("%p% of the folds' iterations"));
  progress_->setValue(0);
  plot_->yAxis->setLabel(lossName(settings.family));
  plot_->xAxis->setRange(0, settings.mstop);
  status_->setText(fromFile ? tr("Fitting the folds of %1 to mstop %2 ...").arg(foldsFile_->text()).arg(settings.mstop)
                            : tr("Fitting %1 %2 folds to mstop %3 ...")
                                  .arg(count_->value())
                                  .arg(foldTypeName(foldType()))
                                  .arg(settings.mstop));
  auto job = job_;
  worker_->start([job](TaskWorker& w) { (*job)(w); });
  setRunning(true);
  return true;
}

void CrossValidationView::showFoldsDone(int done, int total) {
  if (total <= 0) return;
  progress_->setRange(0, total);
  progress_->setValue(done);
  progress_->setFormat(tr("%v / %m folds"));
}

void CrossValidationView::cancel() {
  if (!isRunning()) return;
  worker_->cancel();
  // At once, not when the folds stop: a step of many folds on a large model can take seconds (on PoCL, a set-up
  // stage or one iteration of 25 folds at 3 million rows takes tens of seconds), and the button looked ignored.
  cancel_->setEnabled(false);
  progress_->setFormat(tr("cancelling at %p%"));
  status_->setText(tr("Cancelling: the folds stop when the step under way ends."));
}

void CrossValidationView::shutdown() {
  if (!isRunning()) return;
  worker_->cancel();
  worker_->wait();
}

void CrossValidationView::setFamily(gb::Family family) {
  if (!folds_.empty() || plot_->yAxis->label() == lossName(family)) return;
  plot_->yAxis->setLabel(lossName(family));
  plot_->requestReplot();
}

void CrossValidationView::setModel(const gb::Dataset* data, const gb::ModelSettings& settings) {
  currentData_ = data;
  currentSettings_ = settings;
  if (adoptModel_) {
    runData_ = data;
    runSettings_ = settings;
    adoptModel_ = false;
  }
  updateStale();
}

QString CrossValidationView::changedSinceRun() const {
  if (runData_ != currentData_) return tr("the data");
  QStringList keys;
  for (const std::string& key : runSettings_.differencesBesideMstop(currentSettings_)) keys << qs(key);
  return keys.join(", ");
}

void CrossValidationView::updateStale() {
  const QString changed = (chosen_ >= 0 || failed_) && !isRunning() ? changedSinceRun() : QString();
  stale_->setVisible(!changed.isEmpty());
  stale_->setText(failed_ ? tr("Since this run failed the model changed (%1): its message belongs to the model "
                               "before. Run it again for this one.")
                                .arg(changed)
                          : tr("Since this run the model changed (%1): its curves and mstop belong to the model "
                               "before. Run it again to choose mstop for this one.")
                                .arg(changed));
  use_->setEnabled(chosen_ >= 1 && !isRunning() && changed.isEmpty());
}

void CrossValidationView::clear() {
  showPartial({});
  progress_->reset();  // no text: "0 / 100 folds" before any run named a fold count it did not have
  status_->setText(tr("Choose the folds and run: every fold is fitted to the model panel's mstop."));
  for (QCPGraph* g : folds_) plot_->removeGraph(g);
  folds_.clear();
  curves_.clear();
  mean_->data()->clear();
  line_->setVisible(false);
  text_->setVisible(false);
  chosen_ = -1;
  failed_ = false;
  use_->setEnabled(false);
  stale_->setVisible(false);
  plot_->resetRanges();  // not the last run's ranges, which a run that fails before its first fold would keep
  plot_->requestReplot();
}

void CrossValidationView::takeCurves() {
  if (!job_) return;
  std::vector<std::vector<double>> fresh = job_->curves->take();
  bool partialNew = false;
  std::vector<std::vector<double>> partial = job_->curves->takePartial(partialNew);
  if (fresh.empty() && !partialNew) return;
  for (auto& risk : fresh) addFoldGraph(std::move(risk));
  if (partialNew) showPartial(std::move(partial));
  std::vector<std::vector<double>> all = curves_;
  all.insert(all.end(), partialCurves_.begin(), partialCurves_.end());
  drawMean(meanCurve(all), -1);
}

// Folds advancing together (OpenCL) finish at once: their curves so far are drawn dotted as they grow.
void CrossValidationView::showPartial(std::vector<std::vector<double>> curves) {
  for (QCPGraph* g : partial_) plot_->removeGraph(g);
  partial_.clear();
  partialCurves_ = std::move(curves);
  for (const std::vector<double>& risk : partialCurves_) {
    QVector<double> keys(static_cast<int>(risk.size()));
    for (int m = 0; m < keys.size(); ++m) keys[m] = m;
    QCPGraph* g = plot_->addGraph();
    g->setName(tr("fold (running)"));
    g->setPen(QPen(kFoldColour, 1, Qt::DotLine));
    g->setData(keys, qvec(risk), true);
    partial_ << g;
  }
}

void CrossValidationView::addFoldGraph(std::vector<double> risk) {
  QVector<double> keys(static_cast<int>(risk.size()));
  for (int m = 0; m < keys.size(); ++m) keys[m] = m;
  QCPGraph* g = plot_->addGraph();
  g->setName(tr("fold %1").arg(folds_.size() + 1));
  g->setPen(QPen(kFoldColour, 1));
  g->setData(keys, qvec(risk), true);
  folds_ << g;
  curves_.push_back(std::move(risk));
}

void CrossValidationView::drawMean(const std::vector<double>& mean, int chosen) {
  QVector<double> keys(static_cast<int>(mean.size()));
  for (int m = 0; m < keys.size(); ++m) keys[m] = m;
  mean_->setData(keys, qvec(mean), true);
  plot_->rescaleAxes();
  // A margin above and below: the lowest fold's curve, exactly at the range's end, ran along the axis line and
  // looked cut off.
  if (plot_->yAxis->range().size() > 0) plot_->yAxis->scaleRange(1.08, plot_->yAxis->range().center());
  if (chosen >= 0 && !mean.empty()) {
    chosen_ = chosen;
    // A choice at either end of the curve: its line lay on the axis rect's edge and its label outside, so neither
    // showed. A margin of 2% each side, and the label left of the line in the right half.
    const double last = static_cast<double>(mean.size() - 1), margin = std::max(0.5, 0.02 * last);
    plot_->xAxis->setRange(-margin, last + margin);
    line_->point1->setCoords(chosen_, 0);
    line_->point2->setCoords(chosen_, 1);
    line_->setVisible(true);
    text_->setPositionAlignment((chosen_ > 0.6 * last ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    text_->position->setCoords(chosen_, 0.02);
    text_->setText(chosen_ > 0.6 * last ? tr("mstop = %1 ").arg(chosen_) : tr(" mstop = %1").arg(chosen_));
    text_->setVisible(true);
  }
  plot_->requestReplot();
}

void CrossValidationView::onFinished(bool ok, const QString& error, const QString& details) {
  takeCurves();
  setRunning(false);
  if (!ok) {
    sink_->error(tr("Cross-validation failed"), error, details);
    status_->setText(tr("Failed: %1").arg(inWindowWords(error)));  // as the dialog words it
    progress_->setFormat(tr("failed"));                            // the bar's "100%" read as a finished run
    failed_ = true;
    updateStale();
    emit finished(false);
    return;
  }
  const int total = job_->foldCount;
  showFoldsDone(job_->cancelled ? job_->foldsDone : total, total);
  if (job_->cancelled) {
    // Folds run together (OpenCL) are cut within their batch: the bar showed their iterations, not whole folds.
    const bool together = job_->batchIterations >= 0 && job_->foldsDone < job_->batchEnd;
    status_->setText(together ? tr("Cancelled at iteration %1 of %2 of folds %3-%4 (run together; %5 of %6 folds "
                                   "complete); no mstop chosen.")
                                    .arg(job_->batchIterations)
                                    .arg(job_->request.settings.mstop)
                                    .arg(job_->batchBegin + 1)
                                    .arg(job_->batchEnd)
                                    .arg(job_->foldsDone)
                                    .arg(total)
                              : tr("Cancelled after %1 of %2 folds; no mstop chosen.").arg(job_->foldsDone).arg(total));
    sink_->info(tr("Cross-validation cancelled"));
    emit finished(true);
    return;
  }
  const std::vector<double> mean = meanCurve(curves_);
  drawMean(mean, firstMinimum(mean));
  updateStale();
  const gb::ModelSettings& m = job_->request.settings;
  status_->setText(tr("%1 %2 folds of %3 (%4, nu %5): mean out-of-bag risk %6 at m = 0, minimum %7 at mstop %8%9.")
                       .arg(total)
                       .arg(foldTypeName(job_->request.type))
                       .arg(qs(m.response), qs(gb::toString(m.family)))
                       .arg(m.nu)
                       .arg(mean.front(), 0, 'g', 6)
                       .arg(mean[static_cast<std::size_t>(chosen_)], 0, 'g', 6)
                       .arg(chosen_)
                       .arg(chosen_ == 0 ? tr(" (no iteration helps: Use this mstop needs at least 1)")
                            : static_cast<std::size_t>(chosen_) + 1 == mean.size()
                                ? tr(" (the last: the risk may still fall; raise the model's mstop and run again)")
                                : QString()));
  sink_->info(tr("Cross-validation: %1 %2 folds, chosen mstop %3")
                  .arg(total)
                  .arg(foldTypeName(job_->request.type))
                  .arg(chosen_));
  if (job_->dropped > 0)
    sink_->warning(tr("Cross-validation: %1 of %2 folds left out of the mean (no curve), e.g. %3%4; mboost's cvrisk "
                      "leaves such folds out too")
                       .arg(job_->dropped)
                       .arg(total)
                       .arg(qs(job_->firstDropped),
                            job_->firstUnfitted
                                ? QString()
                                : tr(": an unpenalised linear or factor learner's X'WX is singular there")));
  emit finished(true);
}

void CrossValidationView::setRunning(bool running) {
  run_->setEnabled(!running);
  cancel_->setEnabled(running);
  type_->setEnabled(!running);
  seed_->setEnabled(!running);
  updateControls();
  if (running) use_->setEnabled(false);
  stale_->setVisible(false);
  emit runningChanged(running);
}

CvState CrossValidationView::state() const {
  CvState s;
  s.type = foldType();
  s.count = count_->value();
  s.prob = prob_->value();
  s.seed = static_cast<std::uint64_t>(seed_->value());
  s.foldsFile = foldsFile_->text().trimmed();
  if (chosen_ >= 0) {  // a finished run (cleared by a new run, a cancel or new data)
    s.risk = curves_;
    s.mean = meanCurve(curves_);
    s.mstop = chosen_;
  }
  return s;
}

bool CrossValidationView::restore(const CvState& s, gb::Family family) {
  if (isRunning()) return false;
  setFoldType(s.type);
  count_->setValue(s.count);
  prob_->setValue(s.prob);
  seed_->setValue(static_cast<int>(s.seed));
  foldsFile_->setText(s.foldsFile);
  clear();
  if (s.risk.empty() || s.mean.empty() || s.mstop < 0) return true;
  for (const auto& risk : s.risk) addFoldGraph(risk);
  plot_->yAxis->setLabel(lossName(family));
  plot_->xAxis->setRange(0, static_cast<double>(s.mean.size() - 1));
  drawMean(s.mean, s.mstop);
  adoptModel_ = true;  // the session's settings are the window's next report
  use_->setEnabled(chosen_ >= 1);
  status_->setText(tr("From the session: %1 %2 folds, mean out-of-bag risk %3 at m = 0, minimum %4 at mstop %5.")
                       .arg(s.risk.size())
                       .arg(foldTypeName(s.type))
                       .arg(s.mean.front(), 0, 'g', 6)
                       .arg(s.mean[static_cast<std::size_t>(s.mstop)], 0, 'g', 6)
                       .arg(s.mstop));
  return true;
}

}  // namespace gbui

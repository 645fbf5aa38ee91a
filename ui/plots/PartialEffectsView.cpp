#include "plots/PartialEffectsView.hpp"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

#include "common/MessageSink.hpp"
#include "common/WorkerThread.hpp"
#include "model/PartialEffect.hpp"
#include "plots/EffectPlot.hpp"

namespace gbui {

int effectGridColumns(int learners) {
  if (learners <= 1) return 1;
  if (learners <= 4) return 2;
  if (learners <= 9) return 3;
  return 4;
}

PartialEffectsView::PartialEffectsView(MessageSink* sink, QWidget* parent) : QWidget(parent), sink_(sink) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  hint_ = new QLabel(
      tr("Partial effects appear here during a fit: one plot per learner, centred by its mean over the training "
         "rows; learners selected at least once come first, the others stay flat and grey until selected. Click a "
         "plot to enlarge it."));
  hint_->setWordWrap(true);
  layout->addWidget(hint_);
  showTruth_ = new QCheckBox;
  setTruthBox();
  showTruth_->setToolTip(
      tr("Draw the true effect of generated data (dashed red, centred like the estimate; zero "
         "for a covariate without effect). Only for data whose truth is known: generated here, "
         "or a CSV with its .truth.json beside it."));
  connect(showTruth_, &QCheckBox::toggled, this, [this](bool on) {
    wantTruth_ = on;
    applyTruth();
  });
  layout->addWidget(showTruth_, 0, Qt::AlignRight);
  splitter_ = new QSplitter(Qt::Vertical);
  detailBox_ = new QWidget;
  auto* detailLayout = new QVBoxLayout(detailBox_);
  detailLayout->setContentsMargins(0, 0, 0, 0);
  detailLayout->setSpacing(0);
  auto* header = new QHBoxLayout;
  header->addStretch(1);
  auto* close = new QToolButton;
  close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
  close->setText(tr("Close"));
  close->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  close->setAutoRaise(true);
  close->setToolTip(tr("Close the enlarged plot (the grid keeps every plot)"));
  connect(close, &QToolButton::clicked, this, &PartialEffectsView::closeDetail);
  closeDetail_ = close;
  header->addWidget(close);
  detailLayout->addLayout(header);
  detail_ = new EffectPlot(false);
  detail_->setMessageSink(sink_);
  detailLayout->addWidget(detail_, 1);
  detailBox_->hide();
  splitter_->addWidget(detailBox_);
  scroll_ = new QScrollArea;
  scroll_->setWidgetResizable(true);
  gridHost_ = new QWidget;
  grid_ = new QGridLayout(gridHost_);
  grid_->setSpacing(4);
  grid_->setContentsMargins(0, 0, 0, 0);
  scroll_->setWidget(gridHost_);
  connect(scroll_->verticalScrollBar(), &QScrollBar::valueChanged, this, &PartialEffectsView::replotStaleInView);
  connect(splitter_, &QSplitter::splitterMoved, this, &PartialEffectsView::replotStaleInView);
  splitter_->addWidget(scroll_);
  splitter_->setStretchFactor(0, 2);
  splitter_->setStretchFactor(1, 3);
  layout->addWidget(splitter_, 1);
}

void PartialEffectsView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  QTimer::singleShot(0, this, &PartialEffectsView::replotStaleInView);  // once the layout has placed the plots
}

void PartialEffectsView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  QTimer::singleShot(0, this, &PartialEffectsView::replotStaleInView);
}

void PartialEffectsView::clear() {
  qDeleteAll(plots_);
  plots_.clear();
  order_.clear();
  columns_ = 0;
  laidOut_.clear();
  stale_.clear();
  drawn_.clear();
  maxAbs_.clear();
  sharedRange_ = 0.0;
  truthCurves_ = TrueCurves{};
  cancelTruthJob();
  setup_.reset();
  bands_.reset();
  closeDetail();
  hint_->show();
}

QList<int> PartialEffectsView::shownLearners() const {
  QList<int> selected;
  for (auto it = plots_.begin(); it != plots_.end(); ++it)
    if (it.value()->selectedYet()) selected.append(it.key());
  return selected;
}

bool PartialEffectsView::detailOpen() const { return !detailBox_->isHidden(); }

EffectPlot* PartialEffectsView::ensurePlot(int learner) {
  if (EffectPlot* p = plots_.value(learner, nullptr)) return p;
  auto* plot = new EffectPlot(true, gridHost_);
  plot->setMessageSink(sink_);
  plot->setLearner(*setup_, learner);
  plot->setBand(bandFor(learner));
  applyTruthTo(plot, learner);
  connect(plot, &EffectPlot::clicked, this, &PartialEffectsView::enlarge);
  plots_.insert(learner, plot);
  return plot;
}

// A band describes the effect at the bands' mstop: drawn around the curve of another iteration (Replay) the curve
// ran outside its own 95% band, so it is shown only at that iteration.
const gb::LearnerBand* PartialEffectsView::bandFor(int learner) const {
  if (!bands_ || !setup_ || learner < 0 || learner >= static_cast<int>(bands_->learners.size())) return nullptr;
  if (iteration_ != bands_->mstop) return nullptr;
  const gb::LearnerBand& band = bands_->learners[static_cast<std::size_t>(learner)];
  return band.name == setup_->learners[static_cast<std::size_t>(learner)].name ? &band : nullptr;
}

// The largest |value| any plot draws: its curve, and its band when there is one.
double PartialEffectsView::sharedExtent() const {
  double m = 0.0;
  for (std::size_t j = 0; j < maxAbs_.size(); ++j) {
    m = std::max(m, maxAbs_[j]);
    if (truthShown() && j < truthCurves_.maxAbs.size()) m = std::max(m, truthCurves_.maxAbs[j]);
    if (const gb::LearnerBand* b = plots_.contains(static_cast<int>(j)) ? bandFor(static_cast<int>(j)) : nullptr)
      for (const auto* edge : {&b->lower95, &b->upper95})
        for (double v : *edge) m = std::max(m, std::abs(v));
  }
  return m;
}

void PartialEffectsView::setBands(std::shared_ptr<const gb::EffectBands> bands) {
  bands_ = std::move(bands);
  for (auto it = plots_.begin(); it != plots_.end(); ++it) it.value()->setBand(bandFor(it.key()));
  if (detailLearner_ >= 0) detail_->setBand(bandFor(detailLearner_));
  sharedRange_ = sharedExtent() * 1.05;
  for (int learner : plots_.keys()) replotFully(learner);
  if (detailLearner_ >= 0) {
    detail_->setValueRange(sharedRange_);
    detail_->requestReplot();
  }
}

// Selected learners first, each group in learner order; the shape was fixed in startSetup.
void PartialEffectsView::relayout() {
  order_.clear();
  for (int pass = 0; pass < 2; ++pass)
    for (auto it = plots_.begin(); it != plots_.end(); ++it)
      if (it.value()->selectedYet() == (pass == 0)) order_.append(it.key());
  for (int i = 0; i < order_.size(); ++i) {
    EffectPlot* plot = plots_.value(order_[i]);
    grid_->removeWidget(plot);
    grid_->addWidget(plot, i / columns_, i % columns_);
    plot->show();
  }
}

// Every learner gets its plot now, flat until selected, so the grid has its final shape from the first snapshot.
void PartialEffectsView::startSetup(std::shared_ptr<const FitSetup> setup) {
  clear();
  setup_ = std::move(setup);
  const int learners = static_cast<int>(setup_->learners.size());
  drawn_.assign(setup_->learners.size(), Eigen::VectorXd());
  maxAbs_.assign(setup_->learners.size(), 0.0);
  computeTruthCurves();
  columns_ = effectGridColumns(learners);
  for (int j = 0; j < learners; ++j) ensurePlot(j)->setSelectedYet(false);
  for (int c = 0; c < 4; ++c) grid_->setColumnStretch(c, c < columns_ ? 1 : 0);
  relayout();
}

bool PartialEffectsView::updateCurves(const FitSnapshot& snapshot, QList<int>& changed) {
  bool reordered = false;
  for (std::size_t j = 0; j < snapshot.coefficients.size() && j < drawn_.size(); ++j) {
    EffectPlot* plot = plots_.value(static_cast<int>(j));
    const bool selected = j < snapshot.counts.size() && snapshot.counts[j] > 0;
    if (plot->selectedYet() != selected) {
      plot->setSelectedYet(selected);
      reordered = true;
    }
    const Eigen::VectorXd& gamma = snapshot.coefficients[j];
    if (gamma.size() != setup_->basisMeans[j].size()) continue;  // not this set-up's learner
    if (drawn_[j].size() == gamma.size() && drawn_[j] == gamma) continue;
    const EffectCurve curve = centredEffect(*setup_, j, gamma);
    plot->setCurve(curve);
    double m = 0.0;
    for (double v : curve.y) m = std::max(m, std::abs(v));
    maxAbs_[j] = m;
    drawn_[j] = gamma;
    changed.append(static_cast<int>(j));
    if (static_cast<int>(j) == detailLearner_) {
      detail_->setCurve(curve);
      detail_->setSelectedYet(selected);
    }
  }
  return reordered;
}

// A plot out of view (scrolled away, or the tab hidden) only takes the new range; it is drawn when it comes into
// view (replotStaleInView), so a grid of 100 learners costs only the plots on screen per update.
void PartialEffectsView::replotFully(int learner) {
  EffectPlot* plot = plots_.value(learner);
  plot->setValueRange(sharedRange_);
  laidOut_.insert(learner);
  if (plot->visibleRegion().isEmpty()) {
    stale_.insert(learner);
    return;
  }
  stale_.remove(learner);
  plot->requestReplot();
  ++replotsLastUpdate_;
}

void PartialEffectsView::replotStaleInView() {
  for (int learner : QSet<int>(stale_))
    if (EffectPlot* plot = plots_.value(learner, nullptr); plot && !plot->visibleRegion().isEmpty()) {
      stale_.remove(learner);
      plot->requestReplot();
    }
}

void PartialEffectsView::replotChanged(const QList<int>& changed, bool reordered) {
  const double range = sharedExtent();
  const bool rescale = range > sharedRange_ || range < sharedRange_ / 1.15;
  if (rescale) sharedRange_ = range * 1.05;
  replotsLastUpdate_ = 0;
  for (auto it = plots_.begin(); it != plots_.end(); ++it) {
    const bool fresh = !laidOut_.contains(it.key());
    if (rescale || fresh || (reordered && changed.contains(it.key())) ||
        (changed.contains(it.key()) && stale_.contains(it.key()))) {
      replotFully(it.key());
    } else if (changed.contains(it.key())) {
      if (it.value()->visibleRegion().isEmpty()) {
        stale_.insert(it.key());
        continue;
      }
      it.value()->replotCurveOnly();
      ++replotsLastUpdate_;
    }
  }
  if (detailLearner_ >= 0 && (rescale || changed.contains(detailLearner_))) {
    detail_->setValueRange(sharedRange_);
    detail_->requestReplot();
  }
}

void PartialEffectsView::showSnapshot(const FitSnapshot& snapshot) {
  if (!snapshot.setup) return;
  if (snapshot.setup != setup_) startSetup(snapshot.setup);
  const bool bandsBefore = bands_ && iteration_ == bands_->mstop;
  iteration_ = snapshot.iteration;
  if (bands_ && bandsBefore != (iteration_ == bands_->mstop)) setBands(bands_);  // shown or hidden for this iteration
  hint_->setVisible(plots_.isEmpty());  // gone with the first snapshot, so the grid's height stays put
  QList<int> changed;
  const bool reordered = updateCurves(snapshot, changed);
  if (reordered) relayout();
  replotChanged(changed, reordered);
  if (reordered) QTimer::singleShot(0, this, &PartialEffectsView::replotStaleInView);  // plots moved into view
}

void PartialEffectsView::enlarge(int learner) {
  if (!setup_ || learner < 0 || learner >= static_cast<int>(drawn_.size())) return;
  detailLearner_ = learner;
  detail_->setLearner(*setup_, learner);
  detail_->setBand(bandFor(learner));
  applyTruthTo(detail_, learner);
  detail_->setSelectedYet(plots_.value(learner)->selectedYet());
  if (drawn_[learner].size() > 0) detail_->setCurve(centredEffect(*setup_, learner, drawn_[learner]));
  detail_->setValueRange(sharedRange_);
  if (detailBox_->isHidden()) {
    detailBox_->show();
    // Enlarged plot and grid share the height, so at least one row of small plots stays in view.
    const int h = splitter_->height();
    splitter_->setSizes({h * 45 / 100, h - h * 45 / 100});
  }
  detail_->requestReplot();
}

void PartialEffectsView::closeDetail() {
  detailLearner_ = -1;
  detailBox_->hide();
}

PlotSheet PartialEffectsView::exportSheet() const {
  PlotSheet sheet;
  sheet.name = QStringLiteral("partial-effects");
  sheet.columns = std::max(1, columns_);
  for (int j : order_) sheet.plots.append(plots_.value(j));
  return sheet;
}

}  // namespace gbui

namespace gbui {

bool PartialEffectsView::truthShown() const { return truth_ && showTruth_->isChecked(); }

void PartialEffectsView::setTruth(std::shared_ptr<const gb::TrueEffects> truth) {
  truth_ = truth && truth->effectKnown() ? std::move(truth) : nullptr;
  setTruthBox();
  computeTruthCurves();
  applyTruth();
}

// Ticked only where true effects are known and the user wants them: data without a truth shows the box unticked and
// greyed, saying why, and the user's choice comes back with the next data that has one.
void PartialEffectsView::setTruthBox() {
  const bool known = truth_ != nullptr;
  const QSignalBlocker quiet(showTruth_);
  showTruth_->setChecked(known && wantTruth_);
  showTruth_->setEnabled(known);
  showTruth_->setText(known ? tr("Show true effects") : tr("Show true effects (none known for this data)"));
}

// Small data at once; large data on a worker thread, so that the start of a fit never waits on passes over millions
// of rows: the true curves appear when ready, unless the set-up or the truth changed meanwhile.
void PartialEffectsView::computeTruthCurves() {
  truthCurves_ = TrueCurves{};
  cancelTruthJob();
  if (!setup_ || !truth_) return;
  if (trueCurvesWork(*setup_, *truth_) > kTruthWorkAtOnce) {
    startTruthJob();
    return;
  }
  try {
    truthCurves_ = trueCurves(*setup_, *truth_);
  } catch (const std::exception& e) {
    truthCurves_ = TrueCurves{};
    warnNoTruth(QString::fromStdString(e.what()));
  }
}

struct PartialEffectsView::PendingTruth {
  std::shared_ptr<const FitSetup> setup;
  std::shared_ptr<const gb::TrueEffects> truth;
  TrueCurves curves;  // written on the worker; read after the thread has been joined (WorkerThread::finished)
};

void PartialEffectsView::startTruthJob() {
  auto pending = std::make_shared<PendingTruth>();
  pending->setup = setup_;
  pending->truth = truth_;
  pendingTruth_ = pending;
  auto* job = new WorkerThread(this);  // one per job: a superseded one is cancelled and ends on its own
  truthJob_ = job;
  connect(job, &WorkerThread::finished, this, [this, job, pending](bool ok, const QString& error, const QString&) {
    job->deleteLater();
    if (pending != pendingTruth_) return;  // superseded or cancelled
    pendingTruth_.reset();
    if (!ok) return warnNoTruth(error);
    truthCurves_ = std::move(pending->curves);
    applyTruth();
  });
  job->start([pending](TaskWorker& w) {
    pending->curves = trueCurves(*pending->setup, *pending->truth, [&w] { return w.cancelRequested(); });
  });
}

void PartialEffectsView::cancelTruthJob() {
  pendingTruth_.reset();
  if (truthJob_) truthJob_->cancel();
  truthJob_ = nullptr;
}

void PartialEffectsView::warnNoTruth(const QString& why) {
  if (sink_) sink_->warning(tr("No true effects shown: %1").arg(why));
}

void PartialEffectsView::applyTruthTo(EffectPlot* plot, int learner) const {
  const auto j = static_cast<std::size_t>(learner);
  if (truthShown() && learner >= 0 && j < truthCurves_.x.size())
    plot->setTrueCurve(truthCurves_.x[j], truthCurves_.y[j]);
  else
    plot->setTrueCurve({}, {});
}

// The check box or the truth changed: every plot gets (or loses) its true curve, with the shared range redone.
void PartialEffectsView::applyTruth() {
  for (auto it = plots_.begin(); it != plots_.end(); ++it) applyTruthTo(it.value(), it.key());
  if (!setup_) return;
  sharedRange_ = sharedExtent() * 1.05;
  for (int learner : plots_.keys()) replotFully(learner);
  if (detailLearner_ >= 0) {
    applyTruthTo(detail_, detailLearner_);
    detail_->setValueRange(sharedRange_);
    detail_->requestReplot();
  }
}

}  // namespace gbui

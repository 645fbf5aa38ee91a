#include "plots/PartialEffectsView.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

#include "plots/EffectPlot.hpp"

namespace gbui {

namespace {
constexpr int kColumns = 4;
}

PartialEffectsView::PartialEffectsView(MessageSink* sink, QWidget* parent) : QWidget(parent), sink_(sink) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  hint_ =
      new QLabel(tr("Partial effects appear here during a fit: one plot per covariate selected at least once, "
                    "centred by its mean over the training rows. Click a plot to enlarge it."));
  hint_->setWordWrap(true);
  layout->addWidget(hint_);
  splitter_ = new QSplitter(Qt::Vertical);
  detail_ = new EffectPlot(false);
  detail_->setMessageSink(sink_);
  detail_->hide();
  splitter_->addWidget(detail_);
  scroll_ = new QScrollArea;
  scroll_->setWidgetResizable(true);
  gridHost_ = new QWidget;
  grid_ = new QGridLayout(gridHost_);
  grid_->setSpacing(4);
  grid_->setContentsMargins(0, 0, 0, 0);
  scroll_->setWidget(gridHost_);
  splitter_->addWidget(scroll_);
  splitter_->setStretchFactor(0, 2);
  splitter_->setStretchFactor(1, 3);
  layout->addWidget(splitter_, 1);
}

void PartialEffectsView::clear() {
  qDeleteAll(plots_);
  plots_.clear();
  laidOut_.clear();
  drawn_.clear();
  maxAbs_.clear();
  sharedRange_ = 0.0;
  setup_.reset();
  bands_.reset();
  detailLearner_ = -1;
  detail_->hide();
}

EffectPlot* PartialEffectsView::ensurePlot(int learner) {
  if (EffectPlot* p = plots_.value(learner, nullptr)) return p;
  auto* plot = new EffectPlot(true, gridHost_);
  plot->setMessageSink(sink_);
  plot->setLearner(*setup_, learner);
  plot->setBand(bandFor(learner));
  connect(plot, &EffectPlot::clicked, this, &PartialEffectsView::enlarge);
  plots_.insert(learner, plot);
  return plot;
}

const gb::LearnerBand* PartialEffectsView::bandFor(int learner) const {
  if (!bands_ || !setup_ || learner < 0 || learner >= static_cast<int>(bands_->learners.size())) return nullptr;
  const gb::LearnerBand& band = bands_->learners[static_cast<std::size_t>(learner)];
  return band.name == setup_->learners[static_cast<std::size_t>(learner)].name ? &band : nullptr;
}

// The largest |value| any shown plot draws: its curve, and its band when there is one.
double PartialEffectsView::sharedExtent() const {
  double m = 0.0;
  for (std::size_t j = 0; j < maxAbs_.size(); ++j) {
    m = std::max(m, maxAbs_[j]);
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
  for (EffectPlot* plot : plots_) {
    plot->setValueRange(sharedRange_);
    plot->requestReplot();
  }
  if (detailLearner_ >= 0) {
    detail_->setValueRange(sharedRange_);
    detail_->requestReplot();
  }
}

void PartialEffectsView::relayout() {
  int i = 0;
  for (EffectPlot* plot : plots_) {  // QMap: learner order
    grid_->removeWidget(plot);
    grid_->addWidget(plot, i / kColumns, i % kColumns);
    plot->show();
    ++i;
  }
}

void PartialEffectsView::showSnapshot(const FitSnapshot& snapshot) {
  if (!snapshot.setup) return;
  if (snapshot.setup != setup_) {
    clear();
    setup_ = snapshot.setup;
    drawn_.assign(setup_->learners.size(), Eigen::VectorXd());
    maxAbs_.assign(setup_->learners.size(), 0.0);
  }
  hint_->setVisible(plots_.isEmpty() && snapshot.iteration == 0);
  QList<int> changed;
  bool added = false;
  for (std::size_t j = 0; j < snapshot.counts.size(); ++j) {
    if (snapshot.counts[j] == 0) continue;
    const Eigen::VectorXd& gamma = snapshot.coefficients[j];
    if (drawn_[j].size() == gamma.size() && drawn_[j] == gamma) continue;
    added |= !plots_.contains(static_cast<int>(j));
    EffectPlot* plot = ensurePlot(static_cast<int>(j));
    const EffectCurve curve = centredEffect(*setup_, j, gamma);
    plot->setCurve(curve);
    double m = 0.0;
    for (double v : curve.y) m = std::max(m, std::abs(v));
    maxAbs_[j] = m;
    drawn_[j] = gamma;
    changed.append(static_cast<int>(j));
    if (static_cast<int>(j) == detailLearner_) detail_->setCurve(curve);
  }
  if (added) relayout();
  const double range = sharedExtent();
  const bool rescale = range > sharedRange_ || range < sharedRange_ / 1.15;
  if (rescale) sharedRange_ = range * 1.05;
  replotsLastUpdate_ = 0;
  for (auto it = plots_.begin(); it != plots_.end(); ++it) {
    const bool fresh = added && it.value()->effectGraph()->data()->size() > 0 && !laidOut_.contains(it.key());
    if (rescale || fresh) {
      it.value()->setValueRange(sharedRange_);
      it.value()->requestReplot();
      laidOut_.insert(it.key());
    } else if (changed.contains(it.key())) {
      it.value()->replotCurveOnly();
    } else {
      continue;
    }
    ++replotsLastUpdate_;
  }
  if (detailLearner_ >= 0 && (rescale || changed.contains(detailLearner_))) {
    detail_->setValueRange(sharedRange_);
    detail_->requestReplot();
  }
}

void PartialEffectsView::enlarge(int learner) {
  if (!setup_ || learner < 0 || learner >= static_cast<int>(drawn_.size())) return;
  detailLearner_ = learner;
  detail_->setLearner(*setup_, learner);
  detail_->setBand(bandFor(learner));
  if (drawn_[learner].size() > 0) detail_->setCurve(centredEffect(*setup_, learner, drawn_[learner]));
  detail_->setValueRange(sharedRange_);
  if (detail_->isHidden()) {
    // Enlarged plot and grid share the height, so at least one row of small plots stays in view.
    const int h = splitter_->height();
    splitter_->setSizes({h * 45 / 100, h - h * 45 / 100});
  }
  detail_->show();
  detail_->requestReplot();
}

}  // namespace gbui

#pragma once
// One small plot per covariate selected at least once, updated live; clicking one enlarges it above the grid.
// Only plots whose coefficients changed are recomputed and replotted; all share one value range so effects
// compare at a glance (the range is widened, and everything replotted, only when it changes by > 15%). Bootstrap
// bands of the fit, when given, shade behind every curve and count in the shared range.
#include <QMap>
#include <QSet>
#include <QWidget>
#include <memory>

#include "compute/EffectBands.hpp"
#include "fit/FitSnapshot.hpp"

class QGridLayout;
class QLabel;
class QScrollArea;
class QSplitter;

namespace gbui {

class EffectPlot;
class MessageSink;

class PartialEffectsView : public QWidget {
  Q_OBJECT
 public:
  explicit PartialEffectsView(MessageSink* sink, QWidget* parent = nullptr);

  void showSnapshot(const FitSnapshot& snapshot);
  void clear();
  // The bands of the fit on show (null: none). They belong to the current set-up (a new fit's clears them).
  void setBands(std::shared_ptr<const gb::EffectBands> bands);
  const gb::EffectBands* bands() const { return bands_.get(); }

  QList<int> shownLearners() const { return plots_.keys(); }
  EffectPlot* plotFor(int learner) const { return plots_.value(learner, nullptr); }
  EffectPlot* detailPlot() const { return detail_; }
  void enlarge(int learner);
  int replotsLastUpdate() const { return replotsLastUpdate_; }

 private:
  void relayout();
  EffectPlot* ensurePlot(int learner);
  const gb::LearnerBand* bandFor(int learner) const;
  double sharedExtent() const;

  MessageSink* sink_;
  QSplitter* splitter_;
  EffectPlot* detail_;
  QScrollArea* scroll_;
  QWidget* gridHost_;
  QGridLayout* grid_;
  QLabel* hint_;
  std::shared_ptr<const FitSetup> setup_;
  std::shared_ptr<const gb::EffectBands> bands_;
  QMap<int, EffectPlot*> plots_;
  QSet<int> laidOut_;                   // plots that had one full replot with the shared range
  std::vector<Eigen::VectorXd> drawn_;  // coefficients each plot shows
  std::vector<double> maxAbs_;          // per learner, of its drawn curve
  double sharedRange_ = 0.0;
  int detailLearner_ = -1;
  int replotsLastUpdate_ = 0;
};

}  // namespace gbui

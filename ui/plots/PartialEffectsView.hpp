#pragma once
// One small plot per learner, updated live: the learners selected at least once first (in learner order), then the
// others as flat grey zero curves marked "not selected yet". The grid's shape (rows x columns) follows from the
// number of learners alone, so it is set once per fit set-up and never jumps while a fit runs. Clicking a plot
// enlarges it above the grid (with a close button). Only plots whose coefficients changed are recomputed and
// replotted; all share one value range so effects compare at a glance (the range is widened, and everything
// replotted, only when it changes by > 15%); plots out of view are drawn when they come into view. Bootstrap bands of
// the fit, when given, shade behind every curve and count in the shared range. When the data has a truth (generated
// data), every spline or linear plot also draws the true effect, centred over the training rows like the estimate
// (zero for an uninformative covariate), unless "Show true effects" is unchecked.
#include <QMap>
#include <QPointer>
#include <QSet>
#include <QWidget>
#include <memory>

#include "compute/EffectBands.hpp"
#include "data/TrueEffects.hpp"
#include "fit/FitSnapshot.hpp"
#include "plots/EffectCurves.hpp"
#include "plots/PlotExport.hpp"

class QAbstractButton;
class QCheckBox;
class QGridLayout;
class QLabel;
class QScrollArea;
class QSplitter;

namespace gbui {

class EffectPlot;
class MessageSink;
class WorkerThread;

// Columns of the grid for `learners` plots: 1, 2 (up to 4), 3 (up to 9), else 4.
int effectGridColumns(int learners);

class PartialEffectsView : public QWidget {
  Q_OBJECT
 public:
  explicit PartialEffectsView(MessageSink* sink, QWidget* parent = nullptr);

  void showSnapshot(const FitSnapshot& snapshot);
  void clear();
  // The bands of the fit on show (null: none). They belong to the current set-up (a new fit's clears them).
  void setBands(std::shared_ptr<const gb::EffectBands> bands);
  const gb::EffectBands* bands() const { return bands_.get(); }
  // The truth of the data on show (null: none, or its effect cannot be drawn); it belongs to the data, so clear()
  // keeps it.
  void setTruth(std::shared_ptr<const gb::TrueEffects> truth);
  const gb::TrueEffects* truth() const { return truth_.get(); }
  QCheckBox* showTruthBox() const { return showTruth_; }
  bool truthShown() const;
  // True while the true curves of a large data set are computed on a worker thread (drawn when ready).
  bool truthPending() const { return pendingTruth_ != nullptr; }
  // Training rows times learners with an effect up to which the true curves are computed at once.
  static constexpr double kTruthWorkAtOnce = 2e6;

  // Learners selected at least once (their fitted curves drawn), in learner order.
  QList<int> shownLearners() const;
  // Every learner's plot in grid order (row by row): the selected ones first.
  QList<int> gridOrder() const { return order_; }
  int gridColumns() const { return columns_; }
  int gridRows() const { return columns_ > 0 ? (static_cast<int>(order_.size()) + columns_ - 1) / columns_ : 0; }
  EffectPlot* plotFor(int learner) const { return plots_.value(learner, nullptr); }
  EffectPlot* detailPlot() const { return detail_; }
  bool detailOpen() const;
  QAbstractButton* closeDetailButton() const { return closeDetail_; }
  void enlarge(int learner);
  void closeDetail();
  int replotsLastUpdate() const { return replotsLastUpdate_; }
  // Plots out of view whose picture is behind their data (drawn once they come into view).
  int stalePlots() const { return static_cast<int>(stale_.size()); }
  // The whole grid, for Export: every plot in grid order and the grid's columns.
  PlotSheet exportSheet() const;

 protected:
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void replotFully(int learner);
  void replotStaleInView();
  void startSetup(std::shared_ptr<const FitSetup> setup);
  // Draws the snapshot's coefficients into the plots that changed; true when the set of selected learners changed.
  bool updateCurves(const FitSnapshot& snapshot, QList<int>& changed);
  void replotChanged(const QList<int>& changed, bool reordered);
  void relayout();
  EffectPlot* ensurePlot(int learner);
  const gb::LearnerBand* bandFor(int learner) const;
  double sharedExtent() const;
  void setTruthBox();
  void computeTruthCurves();
  void startTruthJob();
  void cancelTruthJob();
  void warnNoTruth(const QString& why);
  void applyTruthTo(EffectPlot* plot, int learner) const;
  void applyTruth();

  MessageSink* sink_;
  QSplitter* splitter_;
  QWidget* detailBox_;
  EffectPlot* detail_;
  QAbstractButton* closeDetail_;
  QScrollArea* scroll_;
  QWidget* gridHost_;
  QGridLayout* grid_;
  QLabel* hint_;
  QCheckBox* showTruth_;
  bool wantTruth_ = true;  // the user's choice, kept while data without a truth unticks the box
  std::shared_ptr<const FitSetup> setup_;
  std::shared_ptr<const gb::EffectBands> bands_;
  int iteration_ = -1;  // of the snapshot on show (bands are drawn at their own mstop only)
  std::shared_ptr<const gb::TrueEffects> truth_;
  TrueCurves truthCurves_;  // per learner: the true curve on its grid (empty: none)
  struct PendingTruth;
  std::shared_ptr<PendingTruth> pendingTruth_;
  QPointer<WorkerThread> truthJob_;
  QMap<int, EffectPlot*> plots_;
  QList<int> order_;  // grid order
  int columns_ = 0;
  QSet<int> laidOut_;                   // plots that had one full replot with the shared range
  QSet<int> stale_;                     // plots out of view, to draw when they come into view
  std::vector<Eigen::VectorXd> drawn_;  // coefficients each plot shows
  std::vector<double> maxAbs_;          // per learner, of its drawn curve
  double sharedRange_ = 0.0;
  int detailLearner_ = -1;
  int replotsLastUpdate_ = 0;
};

}  // namespace gbui

#pragma once
// "What the learner fits" (teaching): the current negative gradient u = -dloss/df (for gaussian the residuals
// y - f) against the covariate of the learner that wins the next iteration, with that learner's fit to u drawn
// through the points and the step nu times that fit which the iteration adds. Worked out on the host from the
// snapshot's fitted values (engine/compute/LearnerStep), so it needs a finished job (Step or Fit), not a refit.
#include <QWidget>
#include <optional>

#include "compute/LearnerStep.hpp"
#include "fit/FitSnapshot.hpp"

class QLabel;
class QCPGraph;

namespace gbui {

class MessageSink;
class PlotWidget;

class LearnerFitView : public QWidget {
  Q_OBJECT
 public:
  explicit LearnerFitView(MessageSink* sink, QWidget* parent = nullptr);
  void showSnapshot(const FitSnapshot& snapshot);
  void clear();
  // Nothing drawn, and why (the caption).
  void explain(const QString& why);

  PlotWidget* plot() const { return plot_; }
  QLabel* caption() const { return caption_; }
  int learner() const { return step_ ? step_->learner : -1; }
  // The winning learner's unshrunk fit to u at its covariate's grid (empty when nothing is shown).
  const std::vector<double>& fitX() const { return fitX_; }
  const std::vector<double>& fitY() const { return fitY_; }
  std::size_t pointsShown() const;

 private:
  // A spline or linear learner's axis is its covariate; a factor's its levels, named, with the fit as a point each;
  // none (nullptr): an unnamed number axis.
  void setXAxisFor(const gb::Learner* l);

  QLabel* caption_;
  PlotWidget* plot_;
  QCPGraph* points_;
  QCPGraph* fit_;
  QCPGraph* added_;
  std::optional<gb::LearnerStep> step_;
  std::vector<double> fitX_, fitY_;
};

}  // namespace gbui

#pragma once
// One covariate's centred partial effect on the family's link scale: a spline as a curve with its data rug (short
// translucent ticks at the bottom, of at most kRugTicks rows) and interior knots (ticks on the top axis; the x axis
// is named after the covariate), a linear term as a line with its rug, a factor as one point per level
// with the level names on the x axis (every m-th name where they would overlap: LevelTicker); behind the curve, when a
// fit has them, its bootstrap bands (95% lighter, 90% darker; a factor's as a step per level); for generated data, the
// true partial effect as a thin dashed line under the estimate (the tooltip, and the enlarged plot's legend, say "true
// effect").
#include "compute/EffectBands.hpp"
#include "plots/EffectCurves.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

// The rug's pen alpha for `ticks` ticks: opaque for a few, fainter as they get denser (overlaps darken).
int rugAlpha(std::size_t ticks);

class EffectPlot : public PlotWidget {
  Q_OBJECT
 public:
  EffectPlot(bool compact, QWidget* parent = nullptr);

  // Draws the static parts (rug, knots, labels, the x axis's ticks) of learner `j`.
  void setLearner(const FitSetup& setup, int learner);
  int learner() const { return learner_; }
  void setCurve(const EffectCurve& curve);
  // The data rug from a covariate's values (a bounded sample spread over the rows).
  void setRug(const std::vector<double>& x);
  static constexpr std::size_t kRugTicks = 400;
  QCPGraph* rugGraph() const { return rug_; }
  // Where the top axis marks the interior knots (empty for linear and factor learners).
  QVector<double> knotTicks() const;
  // A learner not selected yet shows a flat, grey, dashed zero curve and a grey title that says so.
  void setSelectedYet(bool selected);
  bool selectedYet() const { return selectedYet_; }
  void setValueRange(double maxAbs);
  QCPGraph* effectGraph() const { return effect_; }
  // The bands on the curve's grid (null: none). The caller keeps the band alive only for this call.
  void setBand(const gb::LearnerBand* band);
  // lower95, lower90, upper90, upper95: empty graphs when the plot has no band.
  QList<QCPGraph*> bandGraphs() const { return {lower95_, lower90_, upper90_, upper95_}; }
  // The true partial effect on the curve's grid, centred like the estimate; empty x removes it.
  void setTrueCurve(const std::vector<double>& x, const std::vector<double>& y);
  bool hasTrueCurve() const { return !truth_->data()->isEmpty(); }
  QCPGraph* trueEffectGraph() const { return truth_; }
  // Redraws only the curve's own buffered layer (axes, rug and knots stay as drawn): valid while the axis
  // ranges are unchanged, and a fraction of a full replot's cost.
  void replotCurveOnly();

 signals:
  void clicked(int learner);

 protected:
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  void setXAxisFor(const FitSetup& setup, const gb::Learner& l);
  void updateTruthNote();

  bool compact_;
  bool selectedYet_ = true;
  bool factorAxis_ = false;  // the learner on show is a factor: its bands are one interval per level
  int learner_ = -1;
  QString curveTitle_;
  QString baseToolTip_;
  QCPGraph* effect_ = nullptr;
  QCPGraph* rug_ = nullptr;
  QCPGraph* truth_ = nullptr;
  QCPGraph* lower95_ = nullptr;
  QCPGraph* upper95_ = nullptr;
  QCPGraph* lower90_ = nullptr;
  QCPGraph* upper90_ = nullptr;
};

}  // namespace gbui

#include "plots/EffectPlot.hpp"

#include <QMouseEvent>

#include "common/QtConvert.hpp"

namespace gbui {

EffectPlot::EffectPlot(bool compact, QWidget* parent) : PlotWidget(parent), compact_(compact) {
  // Rug and knots hang off yAxis2 with a fixed [0, 1] range so they stay put whatever the effect's range.
  yAxis2->setRange(0, 1);
  yAxis2->setVisible(false);
  knots_ = addGraph(xAxis, yAxis2);
  knots_->setLineStyle(QCPGraph::lsImpulse);
  knots_->setPen(QPen(QColor(150, 150, 150), 0, Qt::DotLine));
  knots_->setName(tr("interior knots"));
  rug_ = addGraph(xAxis, yAxis2);
  rug_->setLineStyle(QCPGraph::lsImpulse);
  rug_->setPen(QPen(QColor(90, 90, 90, 120)));
  rug_->setName(tr("data rug"));
  addLayer("effect", layer("main"), QCustomPlot::limAbove);
  layer("effect")->setMode(QCPLayer::lmBuffered);
  effect_ = addGraph();
  effect_->setLayer("effect");
  effect_->setPen(QPen(QColor(31, 119, 180), compact ? 1.6 : 2.2));
  effect_->setAdaptiveSampling(false);
  if (compact) {
    setMinimumSize(200, 150);
    axisRect()->setMinimumMargins(QMargins(2, 2, 2, 2));
    styleAxes(axisRect(), 8);
    // Small multiples keep short axis titles (the covariate's name goes on x in setLearner) so that every
    // plot still says what its axes are and in which units.
    QFont small = font();
    small.setPointSize(7);
    xAxis->setLabelFont(small);
    yAxis->setLabelFont(small);
    yAxis->setLabel(tr("centred f (response units)"));
  } else {
    setMinimumSize(300, 220);
    xAxis->setLabel(tr("covariate value"));
    yAxis->setLabel(tr("centred partial effect (response units)"));
  }
  setExportName("partial-effect");
}

void EffectPlot::setLearner(const FitSetup& setup, int learner) {
  learner_ = learner;
  const gb::Learner& l = setup.learners[learner];
  effect_->setName(qs(l.name) + tr(" (centred)"));
  setExportName("partial-effect-" + qs(l.name));
  const QString title = compact_
                            ? qs(l.name) + tr(" (centred)")
                            : tr("%1: f(x) minus its mean over the %2 training rows").arg(qs(l.name)).arg(setup.rows);
  setTitle(title);
  if (compact_) xAxis->setLabel(qs(l.name));
  setToolTip(tr("Partial effect of %1, centred by its mean over the %2 training rows (rug: data, dotted lines: "
                "interior knots; lambda %3, edf %4). Click to enlarge; right-click to export.")
                 .arg(qs(l.name))
                 .arg(setup.rows)
                 .arg(l.lambda, 0, 'g', 4)
                 .arg(l.edf, 0, 'g', 4));
  QVector<double> knots = qvec(l.basis.interiorKnots());
  knots_->setData(knots, QVector<double>(knots.size(), 1.0), true);
  const QVector<double> rug = qvec(rugSample(setup.covariate(learner)));
  rug_->setData(rug, QVector<double>(rug.size(), 0.05));
  xAxis->setRange(l.basis.lo(), l.basis.hi());
  effect_->data()->clear();
  requestReplot();
}

void EffectPlot::setCurve(const EffectCurve& curve) { effect_->setData(qvec(curve.x), qvec(curve.y), true); }

void EffectPlot::replotCurveOnly() { effect_->layer()->replot(); }

void EffectPlot::setValueRange(double maxAbs) {
  const double m = maxAbs > 0 ? maxAbs * 1.08 : 1.0;
  yAxis->setRange(-m, m);
}

void EffectPlot::mouseReleaseEvent(QMouseEvent* event) {
  PlotWidget::mouseReleaseEvent(event);
  if (event->button() == Qt::LeftButton && learner_ >= 0) emit clicked(learner_);
}

}  // namespace gbui

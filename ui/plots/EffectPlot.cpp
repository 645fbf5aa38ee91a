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
  addLayer("bands", layer("main"), QCustomPlot::limBelow);
  // Each band is the fill between its lower and upper graph (QCustomPlot's channel fill), with no outline.
  auto bandEdge = [this](const QString& name) {
    QCPGraph* g = addGraph();
    g->setLayer("bands");
    g->setPen(Qt::NoPen);
    g->setName(name);
    g->setAdaptiveSampling(false);
    return g;
  };
  lower95_ = bandEdge(tr("95% bootstrap band, lower"));
  upper95_ = bandEdge(tr("95% bootstrap band"));
  upper95_->setChannelFillGraph(lower95_);
  upper95_->setBrush(QColor(31, 119, 180, 45));
  lower90_ = bandEdge(tr("90% bootstrap band, lower"));
  upper90_ = bandEdge(tr("90% bootstrap band"));
  upper90_->setChannelFillGraph(lower90_);
  upper90_->setBrush(QColor(31, 119, 180, 80));
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
    yAxis->setLabel(tr("centred f(x)"));
  } else {
    setMinimumSize(300, 220);
    xAxis->setLabel(tr("covariate value"));
    yAxis->setLabel(tr("centred partial effect f(x)"));
  }
  setExportName("partial-effect");
}

namespace {

QString typeNote(const gb::Learner& l) {
  switch (l.type) {
    case gb::LearnerType::Linear:
      return QObject::tr("linear term b0 + b1 x; rug: data");
    case gb::LearnerType::Factor:
      return QObject::tr("factor, one point per level, the first level the reference");
    default:
      return QObject::tr("rug: data, dotted lines: interior knots");
  }
}

}  // namespace

void EffectPlot::setLearner(const FitSetup& setup, int learner) {
  learner_ = learner;
  const gb::Learner& l = setup.learners[learner];
  effect_->setName(qs(l.name) + tr(" (centred)"));
  setExportName("partial-effect-" + qs(l.name));
  const QString title = compact_
                            ? qs(l.name) + tr(" (centred)")
                            : tr("%1: f(x) minus its mean over the %2 training rows").arg(qs(l.name)).arg(setup.rows);
  setTitle(title);
  // The response and the scale f lives on: mboost's Binomial boosts half the log-odds, Poisson the log rate.
  const QString scale = qs(setup.family.scaleName());
  yAxis->setLabel(compact_ ? tr("%1: f(x) — %2").arg(qs(setup.responseName), scale)
                           : tr("%1: centred f(x) — %2").arg(qs(setup.responseName), scale));
  setToolTip(tr("Partial effect of %1 on %2 (%3), centred by its mean over the %4 training rows (%5; lambda %6, "
                "edf %7). Click to enlarge; right-click to export.")
                 .arg(qs(l.name), qs(setup.responseName), scale)
                 .arg(setup.rows)
                 .arg(typeNote(l))
                 .arg(l.lambda, 0, 'g', 4)
                 .arg(l.edf, 0, 'g', 4));
  setXAxisFor(setup, l);
  effect_->data()->clear();
  requestReplot();
}

void EffectPlot::setXAxisFor(const FitSetup& setup, const gb::Learner& l) {
  const bool factor = l.type == gb::LearnerType::Factor;
  QVector<double> knots;
  if (l.isSpline()) knots = qvec(l.basis.interiorKnots());
  knots_->setData(knots, QVector<double>(knots.size(), 1.0), true);
  QVector<double> rug;
  if (!factor) rug = qvec(rugSample(setup.covariate(learner_)));
  rug_->setData(rug, QVector<double>(rug.size(), 0.05));
  effect_->setLineStyle(factor ? QCPGraph::lsNone : QCPGraph::lsLine);
  for (QCPGraph* g : bandGraphs()) g->setLineStyle(factor ? QCPGraph::lsStepCenter : QCPGraph::lsLine);
  effect_->setScatterStyle(factor ? QCPScatterStyle(QCPScatterStyle::ssDisc, compact_ ? 6 : 9)
                                  : QCPScatterStyle(QCPScatterStyle::ssNone));
  if (factor) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t level = 0; level < l.levels.size(); ++level)
      ticker->addTick(static_cast<double>(level), qs(l.levels[level]));
    xAxis->setTicker(ticker);
    xAxis->setRange(-0.5, static_cast<double>(l.levels.size()) - 0.5);
  } else {
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    xAxis->setRange(l.basis.lo(), l.basis.hi());
  }
  if (compact_)
    xAxis->setLabel(qs(l.name));
  else
    xAxis->setLabel(factor ? tr("level of %1").arg(qs(l.name)) : tr("%1 (covariate value)").arg(qs(l.name)));
}

void EffectPlot::setCurve(const EffectCurve& curve) { effect_->setData(qvec(curve.x), qvec(curve.y), true); }

void EffectPlot::setBand(const gb::LearnerBand* band) {
  if (!band) {
    for (QCPGraph* g : bandGraphs()) g->data()->clear();
    return;
  }
  const QVector<double> x = qvec(band->x);
  lower95_->setData(x, qvec(band->lower95), true);
  upper95_->setData(x, qvec(band->upper95), true);
  lower90_->setData(x, qvec(band->lower90), true);
  upper90_->setData(x, qvec(band->upper90), true);
}

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

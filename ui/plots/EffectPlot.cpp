#include "plots/EffectPlot.hpp"

#include <QMouseEvent>
#include <algorithm>
#include <limits>

#include "common/QtConvert.hpp"
#include "plots/LevelTicker.hpp"
#include "plots/PlotExport.hpp"

namespace gbui {

EffectPlot::EffectPlot(bool compact, QWidget* parent) : PlotWidget(parent), compact_(compact) {
  // The rug hangs off yAxis2 with a fixed [0, 1] range so it stays put whatever the effect's range; its ticks are
  // short and translucent, so where they pile up the strip darkens (a density, readable at any number of rows).
  yAxis2->setRange(0, 1);
  yAxis2->setVisible(false);
  rug_ = addGraph(xAxis, yAxis2);
  rug_->setLineStyle(QCPGraph::lsImpulse);
  rug_->setAdaptiveSampling(false);  // adaptive sampling would merge ticks and lose the density
  rug_->setName(tr("data rug"));
  markDecoration(rug_);
  // Interior knots: ticks on the top axis, no lines across the plot.
  xAxis2->setVisible(true);
  xAxis2->setTickLabels(false);
  xAxis2->setSubTicks(false);
  xAxis2->setTickLengthIn(compact ? 4 : 6);
  xAxis2->setTickLengthOut(0);
  xAxis2->setTickPen(QPen(QColor(200, 90, 20), 1.2));
  xAxis2->setBasePen(QPen(QColor(160, 160, 160)));
  xAxis2->grid()->setVisible(false);
  xAxis2->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), xAxis2,
          qOverload<const QCPRange&>(&QCPAxis::setRange));
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
  // The truth sits on the main layer: above the bands, below the estimate's own layer.
  truth_ = addGraph();
  truth_->setPen(QPen(QColor(200, 40, 40), compact ? 1.0 : 1.4, Qt::DashLine));
  truth_->setAdaptiveSampling(false);
  addLayer("effect", layer("main"), QCustomPlot::limAbove);
  layer("effect")->setMode(QCPLayer::lmBuffered);
  effect_ = addGraph();
  effect_->setLayer("effect");
  effect_->setPen(QPen(QColor(31, 119, 180), compact ? 1.6 : 2.2));
  effect_->setAdaptiveSampling(false);
  if (compact) {
    setMinimumSize(145, 150);  // four columns fit beside the panels at 1024 x 700
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
    yAxis->setLabel(tr("centred partial effect f(x)"));
  }
  setExportName("partial-effect");
}

int rugAlpha(std::size_t ticks) {
  // Up to 30 ticks each dark; from there each fainter: at the bound of 400 a tick is 15% black, so a strip
  // darkens only where several ticks share a pixel (dense data), and never turns into a solid band.
  if (ticks <= 30) return 200;
  return std::clamp(static_cast<int>(6000 / static_cast<double>(ticks)), 40, 200);
}

namespace {

QString typeNote(const gb::Learner& l) {
  switch (l.type) {
    case gb::LearnerType::Linear:
      return QObject::tr("linear term b0 + b1 x; rug: data");
    case gb::LearnerType::Factor:
      return QObject::tr("factor, one point per level, the first level the reference");
    default:
      return QObject::tr("rug: data, ticks on the top edge: interior knots");
  }
}

}  // namespace

void EffectPlot::setLearner(const FitSetup& setup, int learner) {
  learner_ = learner;
  const gb::Learner& l = setup.learners[learner];
  effect_->setName(qs(l.name) + tr(" (centred)"));
  setExportName("partial-effect-" + qs(l.name));
  // Small plots: the name alone (the grid's caption says every curve is centred), so that it fits at 1024 x 700.
  curveTitle_ =
      compact_ ? qs(l.name) : tr("%1: f(x) minus its mean over the %2 training rows").arg(qs(l.name)).arg(setup.rows);
  setTitle(curveTitle_);
  // The response and the scale f lives on: mboost's Binomial boosts half the log-odds, Poisson the log rate.
  const QString scale = qs(setup.family.scaleName());
  // Small plots: the scale without its note ("half log-odds (mboost's Binomial)" was clipped at both ends at 1280 x
  // 820); the tooltip and the enlarged plot say it whole.
  yAxis->setLabel(compact_ ? tr("%1: f(x) — %2").arg(qs(setup.responseName), scale.section(" (", 0, 0))
                           : tr("%1: centred f(x) — %2").arg(qs(setup.responseName), scale));
  baseToolTip_ = (tr("Partial effect of %1 on %2 (%3), centred by its mean over the %4 training rows (%5; lambda %6, "
                     "edf %7). Click to enlarge; right-click to export.")
                      .arg(qs(l.name), qs(setup.responseName), scale)
                      .arg(setup.rows)
                      .arg(typeNote(l))
                      .arg(l.lambda, 0, 'g', 4)
                      .arg(l.edf, 0, 'g', 4));
  truth_->setName(qs(l.name) + tr(" true effect (centred)"));
  truth_->data()->clear();
  updateTruthNote();
  setXAxisFor(setup, l);
  effect_->data()->clear();
  setSelectedYet(true);
  requestReplot();
}

void EffectPlot::setXAxisFor(const FitSetup& setup, const gb::Learner& l) {
  const bool factor = l.type == gb::LearnerType::Factor;
  auto knotTicker = QSharedPointer<QCPAxisTickerText>::create();
  if (l.isSpline())
    for (double knot : l.basis.interiorKnots()) knotTicker->addTick(knot, QString());
  xAxis2->setTicker(knotTicker);
  setRug(factor ? std::vector<double>() : setup.covariate(learner_));
  effect_->setLineStyle(factor ? QCPGraph::lsNone : QCPGraph::lsLine);
  factorAxis_ = factor;
  effect_->setScatterStyle(factor ? QCPScatterStyle(QCPScatterStyle::ssDisc, compact_ ? 6 : 9)
                                  : QCPScatterStyle(QCPScatterStyle::ssNone));
  if (factor) {
    setLevelAxis(xAxis, l.levels);
  } else {
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    xAxis->grid()->setZeroLinePen(yAxis->grid()->zeroLinePen());
    // 4% beyond the covariate's range on each side, as R's plots pad: rug ticks and curve ends at the range's ends
    // stay off the frame.
    const double pad = 0.04 * (l.basis.hi() - l.basis.lo());
    xAxis->setRange(l.basis.lo() - pad, l.basis.hi() + pad);
  }
  xAxis->setLabel(qs(l.name));  // the covariate's own name, as mboost's and mgcv's plots label it
}

void EffectPlot::setRug(const std::vector<double>& x) {
  const std::vector<double> sample = rugSample(x, kRugTicks);
  rug_->setData(qvec(sample), QVector<double>(static_cast<int>(sample.size()), 0.06));
  rug_->setPen(QPen(QColor(60, 60, 60, rugAlpha(sample.size())), 0));
}

QVector<double> EffectPlot::knotTicks() const {
  const auto ticker = xAxis2->ticker().dynamicCast<QCPAxisTickerText>();
  return ticker ? QVector<double>(ticker->ticks().keyBegin(), ticker->ticks().keyEnd()) : QVector<double>();
}

void EffectPlot::setSelectedYet(bool selected) {
  selectedYet_ = selected;
  setTitleMuted(!selected);
  QPen pen = effect_->pen();
  pen.setColor(selected ? QColor(31, 119, 180) : QColor(170, 170, 170));
  pen.setStyle(selected ? Qt::SolidLine : Qt::DashLine);
  effect_->setPen(pen);
  if (compact_ && learner_ >= 0) setTitle(selected ? curveTitle_ : curveTitle_ + tr(" (not selected)"));
}

void EffectPlot::setCurve(const EffectCurve& curve) { effect_->setData(qvec(curve.x), qvec(curve.y), true); }

void EffectPlot::setTrueCurve(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty())
    truth_->data()->clear();
  else
    truth_->setData(qvec(x), qvec(y), true);
  updateTruthNote();
}

void EffectPlot::updateTruthNote() {
  const bool shown = hasTrueCurve();
  setToolTip(shown
                 ? baseToolTip_ + "\n" + tr("Dashed red: the true effect of the generated data, centred the same way.")
                 : baseToolTip_);
  if (compact_) return;  // a small plot has no room for a legend; its tooltip says it
  legend->clearItems();
  if (shown) {
    effect_->addToLegend();
    truth_->addToLegend();
  }
  legend->setVisible(shown);
}

void EffectPlot::setBand(const gb::LearnerBand* band) {
  if (!band) {
    for (QCPGraph* g : bandGraphs()) g->data()->clear();
    return;
  }
  const std::pair<QCPGraph*, const std::vector<double>*> edges[] = {
      {lower95_, &band->lower95}, {upper95_, &band->upper95}, {lower90_, &band->lower90}, {upper90_, &band->upper90}};
  if (!factorAxis_) {
    for (const auto& [graph, values] : edges) graph->setData(qvec(band->x), qvec(*values), true);
    return;
  }
  // A factor's levels are not an ordered axis: each gets its own interval, centred on its point and half a level
  // wide, and a gap (NaN) parts it from the next, so that no fill runs between two levels.
  constexpr double kHalfWidth = 0.25;
  const double gap = std::numeric_limits<double>::quiet_NaN();
  for (const auto& [graph, values] : edges) {
    QVector<double> keys, shown;
    for (std::size_t i = 0; i < band->x.size() && i < values->size(); ++i) {
      keys << band->x[i] - kHalfWidth << band->x[i] + kHalfWidth << band->x[i] + 2 * kHalfWidth;
      shown << (*values)[i] << (*values)[i] << gap;
    }
    graph->setData(keys, shown, true);
  }
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

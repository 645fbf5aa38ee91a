#include "plots/RiskPlot.hpp"

#include <QCheckBox>
#include <QVBoxLayout>

#include "common/QtConvert.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

QString lossName(gb::Family family) {
  switch (family) {
    case gb::Family::Binomial:
    case gb::Family::Poisson:
    case gb::Family::Gamma:
    case gb::Family::NegBin:
      return QObject::tr("negative log-likelihood");
    case gb::Family::Laplace:
      return QObject::tr("mean absolute error");
    case gb::Family::Huber:
      return QObject::tr("Huber loss");
    case gb::Family::Quantile:
      return QObject::tr("check loss");
    case gb::Family::Expectile:
      return QObject::tr("asymmetric squared error");
    case gb::Family::AdaExp:
      return QObject::tr("exponential loss");
    default:
      return QObject::tr("mean squared error");
  }
}

RiskPlot::RiskPlot(MessageSink* sink, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  logBox_ = new QCheckBox(tr("Logarithmic risk axis"));
  logBox_->setToolTip(tr("Show the risk on a log scale (the late iterations' small gains become visible)"));
  layout->addWidget(logBox_);
  plot_ = new PlotWidget;
  plot_->setMessageSink(sink);
  plot_->setExportName("risk");
  plot_->setTitle(tr("Training risk per iteration"));
  plot_->xAxis->setLabel(tr("iteration m"));
  plot_->yAxis->setLabel(tr("risk: %1").arg(lossName(gb::Family::Gaussian)));
  risk_ = plot_->addGraph();
  risk_->setName(tr("risk"));
  risk_->setPen(QPen(QColor(31, 119, 180), 1.8));
  current_ = plot_->addGraph();
  current_->setName(tr("current iteration"));
  current_->setLineStyle(QCPGraph::lsNone);
  current_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(214, 39, 40), QColor(214, 39, 40), 8));
  marker_ = new QCPItemStraightLine(plot_);
  marker_->setPen(QPen(QColor(214, 39, 40, 140), 1, Qt::DashLine));
  marker_->setVisible(false);
  layout->addWidget(plot_, 1);
  connect(logBox_, &QCheckBox::toggled, this, &RiskPlot::setLogScale);
}

void RiskPlot::clear() {
  risk_->data()->clear();
  current_->data()->clear();
  marker_->setVisible(false);
  drawnPoints_ = 0;
  plot_->yAxis->setLabel(tr("risk"));  // the loss is the next fit's family's
  plot_->resetRanges();
  plot_->requestReplot();
}

void RiskPlot::setLogScale(bool on) {
  if (logBox_->isChecked() != on) logBox_->setChecked(on);
  setLogAxis(plot_->yAxis, on);
  plot_->yAxis->rescale();
  plot_->requestReplot();
}

void RiskPlot::showSnapshot(const FitSnapshot& s) {
  if (s.pathRisk.size() == drawnPoints_) return;  // nothing new: no replot
  if (s.setup) {
    const bool weighted = !s.setup->settings.weights.empty();
    plot_->yAxis->setLabel(
        tr("risk: %1%2")
            .arg(lossName(s.setup->settings.family), weighted ? tr(" (weighted mean over the rows)") : QString()));
  }
  const int n = static_cast<int>(s.pathRisk.size());
  QVector<double> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = i;
  risk_->setData(keys, qvec(s.pathRisk), true);
  current_->setData({double(s.iteration)}, {s.pathRisk.back()}, true);
  marker_->point1->setCoords(s.iteration, 0);
  marker_->point2->setCoords(s.iteration, 1);
  marker_->setVisible(true);
  // Margins of 2% beyond the last iteration and below a risk of 0: the current iteration's dot (8 px) is drawn whole
  // at the end of a fit and at a risk near 0 (half of it was clipped by the axis rect).
  const double last = std::max(s.target, s.iteration);
  plot_->xAxis->setRange(0, last + std::max(0.5, 0.02 * last));
  bool found = false;
  QCPRange r = risk_->getValueRange(found, QCP::sdBoth);
  if (found) {
    if (plot_->yAxis->scaleType() == QCPAxis::stLogarithmic)
      plot_->yAxis->setRange(r.lower / 1.3, r.upper * 1.3);
    else
      plot_->yAxis->setRange(-0.02 * r.upper, r.upper * 1.05);
  }
  drawnPoints_ = s.pathRisk.size();
  plot_->requestReplot();
}

}  // namespace gbui

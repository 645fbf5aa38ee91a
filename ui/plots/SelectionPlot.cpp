#include "plots/SelectionPlot.hpp"

#include <QVBoxLayout>

#include "common/QtConvert.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

namespace {

QCPBars* makeBars(PlotWidget* plot, const QString& name, const QColor& color) {
  auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
  bars->setName(name);
  bars->setPen(QPen(color.darker(130)));
  bars->setBrush(color);
  bars->setWidth(0.7);
  return bars;
}

void setNameTicks(PlotWidget* plot, const FitSetup& setup, const QVector<double>& keys) {
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (double k : keys) ticker->addTick(k, qs(setup.learners[static_cast<std::size_t>(k)].name));
  plot->xAxis->setTicker(ticker);
  plot->xAxis->setTickLabelRotation(keys.size() > 12 ? 60 : 0);
  plot->xAxis->setRange(keys.isEmpty() ? -0.5 : keys.front() - 0.7, keys.isEmpty() ? 0.5 : keys.back() + 0.7);
}

}  // namespace

SelectionPlot::SelectionPlot(MessageSink* sink, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  countsPlot_ = new PlotWidget;
  countsPlot_->setMessageSink(sink);
  countsPlot_->setExportName("selection-frequencies");
  countsPlot_->setTitle(tr("Selection frequency per covariate (selected ones)"));
  countsPlot_->yAxis->setLabel(tr("times selected (iterations)"));
  countsPlot_->xAxis->setLabel(tr("covariate"));
  counts_ = makeBars(countsPlot_, tr("selections"), QColor(31, 119, 180));
  reductionPlot_ = new PlotWidget;
  reductionPlot_->setMessageSink(sink);
  reductionPlot_->setExportName("risk-reduction");
  reductionPlot_->setTitle(tr("Total risk reduction per covariate"));
  reductionPlot_->yAxis->setLabel(tr("risk reduction (units of the risk)"));
  reductionPlot_->xAxis->setLabel(tr("covariate"));
  reductions_ = makeBars(reductionPlot_, tr("risk reduction"), QColor(44, 160, 44));
  layout->addWidget(countsPlot_, 1);
  layout->addWidget(reductionPlot_, 1);
}

void SelectionPlot::clear() {
  counts_->data()->clear();
  reductions_->data()->clear();
  drawnCounts_.clear();
  countsPlot_->requestReplot();
  reductionPlot_->requestReplot();
}

void SelectionPlot::showSnapshot(const FitSnapshot& s) {
  if (!s.setup || s.counts == drawnCounts_) return;
  QVector<double> keys, counts, reductions;
  for (std::size_t j = 0; j < s.counts.size(); ++j) {
    if (s.counts[j] == 0) continue;
    keys.append(static_cast<double>(j));
    counts.append(s.counts[j]);
    reductions.append(s.riskReductions[j]);
  }
  counts_->setData(keys, counts, true);
  reductions_->setData(keys, reductions, true);
  for (PlotWidget* plot : {countsPlot_, reductionPlot_}) {
    setNameTicks(plot, *s.setup, keys);
    plot->yAxis->rescale();
    plot->yAxis->setRangeLower(0);
    plot->yAxis->setRangeUpper(plot->yAxis->range().upper * 1.08 + 1e-12);
    plot->requestReplot();
  }
  drawnCounts_ = s.counts;
}

}  // namespace gbui

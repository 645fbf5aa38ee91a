#include "plots/SelectionPlot.hpp"

#include <QHBoxLayout>
#include <QScrollArea>
#include <algorithm>
#include <numeric>

#include "common/QtConvert.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

namespace {

constexpr int kPixelsPerBar = 16;  // one line of the 8-pt tick labels, and a gap

PlotWidget* makePlot(MessageSink* sink, const QString& exportName, const QString& title, const QString& valueLabel) {
  auto* plot = new PlotWidget;
  plot->setMessageSink(sink);
  plot->setExportName(exportName);
  plot->setTitle(title);
  plot->xAxis->setLabel(valueLabel);
  plot->yAxis->setRangeReversed(true);  // the largest bar on top
  plot->yAxis->setSubTicks(false);
  plot->yAxis->setTickLength(0, 0);
  plot->yAxis->grid()->setVisible(false);
  plot->xAxis->grid()->setZeroLinePen(Qt::NoPen);
  plot->setMinimumSize(260, 160);
  return plot;
}

QCPBars* makeBars(PlotWidget* plot, const QString& name, const QColor& color) {
  auto* bars = new QCPBars(plot->yAxis, plot->xAxis);  // keys on the vertical axis: horizontal bars
  bars->setName(name);
  bars->setPen(Qt::NoPen);
  bars->setBrush(color);
  bars->setWidth(0.7);
  return bars;
}

// Learners with a count, largest `value` first (ties: learner order).
std::vector<std::size_t> sortedSelected(const std::vector<int>& counts, const std::vector<double>& value) {
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < counts.size(); ++j)
    if (counts[j] > 0) order.push_back(j);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return value[a] > value[b]; });
  return order;
}

// Draws `value` of the learners in `order` as bars 0, 1, ... named on the vertical axis; returns the names.
QStringList drawBars(PlotWidget* plot, QCPBars* bars, const FitSetup& setup, const std::vector<std::size_t>& order,
                     const std::vector<double>& value) {
  QVector<double> keys, values;
  QStringList names;
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (std::size_t i = 0; i < order.size(); ++i) {
    keys.append(static_cast<double>(i));
    values.append(value[order[i]]);
    names.append(qs(setup.learners[order[i]].name));
    ticker->addTick(static_cast<double>(i), names.back());
  }
  bars->setData(keys, values, true);
  plot->yAxis->setTicker(ticker);
  plot->yAxis->setRange(-0.6, std::max<double>(0.6, static_cast<double>(order.size()) - 0.4));
  double top = 0.0;
  for (double v : values) top = std::max(top, v);
  plot->xAxis->setRange(0, top > 0 ? top * 1.08 : 1.0);
  plot->setMinimumHeight(std::max(160, 90 + kPixelsPerBar * static_cast<int>(order.size())));
  plot->requestReplot();
  return names;
}

}  // namespace

SelectionPlot::SelectionPlot(MessageSink* sink, QWidget* parent) : QWidget(parent) {
  auto* outer = new QHBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  auto* host = new QWidget;
  auto* layout = new QHBoxLayout(host);
  layout->setContentsMargins(2, 2, 2, 2);
  countsPlot_ = makePlot(sink, "selection-proportions", tr("Selection proportion per covariate"),
                         tr("share of the iterations that selected it"));
  counts_ = makeBars(countsPlot_, tr("selection proportion"), QColor(31, 119, 180));
  reductionPlot_ = makePlot(sink, "risk-reduction", tr("Total risk reduction per covariate"),
                            tr("risk reduction (units of the risk)"));
  reductions_ = makeBars(reductionPlot_, tr("risk reduction"), QColor(44, 160, 44));
  layout->addWidget(countsPlot_, 1);
  layout->addWidget(reductionPlot_, 1);
  scroll->setWidget(host);
  outer->addWidget(scroll);
}

void SelectionPlot::clear() {
  counts_->data()->clear();
  reductions_->data()->clear();
  countNames_.clear();
  reductionNames_.clear();
  drawnCounts_.clear();
  countsPlot_->setTitle(tr("Selection proportion per covariate"));  // not the last fit's iteration count
  for (PlotWidget* plot : {countsPlot_, reductionPlot_}) {
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot->resetRanges();
    plot->requestReplot();
  }
}

void SelectionPlot::showSnapshot(const FitSnapshot& s) {
  if (!s.setup || s.counts == drawnCounts_) return;
  const double iterations = std::accumulate(s.counts.begin(), s.counts.end(), 0.0);
  std::vector<double> share(s.counts.size());
  for (std::size_t j = 0; j < s.counts.size(); ++j) share[j] = iterations > 0 ? s.counts[j] / iterations : 0.0;
  std::vector<double> reduction = s.riskReductions;
  reduction.resize(s.counts.size(), 0.0);
  countNames_ = drawBars(countsPlot_, counts_, *s.setup, sortedSelected(s.counts, share), share);
  reductionNames_ = drawBars(reductionPlot_, reductions_, *s.setup, sortedSelected(s.counts, reduction), reduction);
  countsPlot_->setTitle(iterations == 1
                            ? tr("Selection proportion per covariate (1 iteration)")
                            : tr("Selection proportion per covariate (%1 iterations)").arg(iterations, 0, 'f', 0));
  drawnCounts_ = s.counts;
}

PlotSheet SelectionPlot::exportSheet() const {
  PlotSheet sheet;
  sheet.name = QStringLiteral("selection");
  sheet.columns = 2;
  sheet.plots = {countsPlot_, reductionPlot_};
  return sheet;
}

}  // namespace gbui

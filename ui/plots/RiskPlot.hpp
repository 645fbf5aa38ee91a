#pragma once
// Training risk sum(w loss) / sum(w) against the iteration (risk[0]: the offset alone), current iteration marked;
// the y axis names the family's loss.
#include <QWidget>

#include "fit/FitSnapshot.hpp"

class QCheckBox;
class QCPGraph;
class QCPItemStraightLine;

namespace gbui {

class MessageSink;
class PlotWidget;

// What the risk of a family is: "mean squared error" (gaussian), "negative log-likelihood" (binomial, poisson),
// "mean absolute error" (laplace), "Huber loss", "check loss" (quantile).
QString lossName(gb::Family family);

class RiskPlot : public QWidget {
  Q_OBJECT
 public:
  explicit RiskPlot(MessageSink* sink, QWidget* parent = nullptr);
  void showSnapshot(const FitSnapshot& snapshot);
  void clear();
  void setLogScale(bool on);
  PlotWidget* plot() const { return plot_; }
  QCPGraph* riskGraph() const { return risk_; }
  QCPGraph* currentGraph() const { return current_; }  // one dot: the current iteration's risk
  QCheckBox* logScaleBox() const { return logBox_; }

 private:
  PlotWidget* plot_;
  QCPGraph* risk_;
  QCPGraph* current_;
  QCPItemStraightLine* marker_;
  QCheckBox* logBox_;
  std::size_t drawnPoints_ = 0;
};

}  // namespace gbui

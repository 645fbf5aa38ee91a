#pragma once
// How often each covariate was selected and how much risk it removed in total (covariates selected at least once).
#include <QWidget>

#include "fit/FitSnapshot.hpp"

class QCPBars;

namespace gbui {

class MessageSink;
class PlotWidget;

class SelectionPlot : public QWidget {
  Q_OBJECT
 public:
  explicit SelectionPlot(MessageSink* sink, QWidget* parent = nullptr);
  void showSnapshot(const FitSnapshot& snapshot);
  void clear();
  PlotWidget* countsPlot() const { return countsPlot_; }
  PlotWidget* reductionPlot() const { return reductionPlot_; }
  QCPBars* countBars() const { return counts_; }
  QCPBars* reductionBars() const { return reductions_; }

 private:
  PlotWidget* countsPlot_;
  PlotWidget* reductionPlot_;
  QCPBars* counts_;
  QCPBars* reductions_;
  std::vector<int> drawnCounts_;
};

}  // namespace gbui

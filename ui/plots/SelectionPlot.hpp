#pragma once
// Which covariates the fit chose, as mboost shows it: the proportion of iterations that selected each learner
// (count / iterations, = count / mstop once the fit is done), and the total risk each one removed; covariates
// selected at least once, each plot sorted largest first, as horizontal bars named on the vertical axis (one line
// per name, so names never overlap; the plots grow and scroll when there are many).
#include <QWidget>

#include "fit/FitSnapshot.hpp"
#include "plots/PlotExport.hpp"

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
  // Bar i (key i, drawn i-th from the top) belongs to the learner named countNames()[i] (reductionNames()[i]).
  QCPBars* countBars() const { return counts_; }
  QCPBars* reductionBars() const { return reductions_; }
  QStringList countNames() const { return countNames_; }
  QStringList reductionNames() const { return reductionNames_; }
  // Both plots, side by side, for Export.
  PlotSheet exportSheet() const;

 private:
  PlotWidget* countsPlot_;
  PlotWidget* reductionPlot_;
  QCPBars* counts_;
  QCPBars* reductions_;
  QStringList countNames_, reductionNames_;
  std::vector<int> drawnCounts_;
};

}  // namespace gbui

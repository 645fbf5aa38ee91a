#pragma once
// How well the fit matches the data, on the response scale (the mean, the probability, the rate): fitted against
// observed (one point per used row, with the line fitted = observed) and the residual observed - fitted against
// the fitted value (binomial: observed 0/1). Drawn from a job's last snapshot, the one that carries the fitted
// values, so it shows the state where a fit stopped or finished.
#include <QWidget>
#include <memory>

#include "fit/FitSnapshot.hpp"
#include "plots/PlotExport.hpp"

class QCPGraph;
class QLabel;

namespace gbui {

class MessageSink;
class PlotWidget;

class FitDiagnostics : public QWidget {
  Q_OBJECT
 public:
  explicit FitDiagnostics(MessageSink* sink, QWidget* parent = nullptr);
  void showSnapshot(const FitSnapshot& snapshot);
  void clear();

  PlotWidget* fittedPlot() const { return fittedPlot_; }
  PlotWidget* residualPlot() const { return residualPlot_; }
  QCPGraph* fittedGraph() const { return fitted_; }
  QCPGraph* residualGraph() const { return residuals_; }
  // Both plots, side by side, for Export.
  PlotSheet exportSheet() const;

 private:
  void label(const FitSetup& setup, int iteration);

  QLabel* hint_;
  PlotWidget* fittedPlot_;
  PlotWidget* residualPlot_;
  QCPGraph* fitted_;
  QCPGraph* residuals_;
  std::shared_ptr<const std::vector<double>> drawn_;  // the fitted values on show
};

}  // namespace gbui

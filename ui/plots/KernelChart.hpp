#pragma once
// Kernel timings (design.md section 5): median time and GB/s against n per kernel, log-log, with each device's
// measured copy bandwidth as a roofline. Runs gb::runKernelBenchmark on a worker thread, drawing its results as
// they arrive, or loads saved reports (docs/bench/*.json) so devices compare side by side: one colour per kernel,
// one line style per report, and a side legend (KernelLegend) whose entries hide and show series.
#include <QWidget>
#include <memory>
#include <vector>

#include "bench/KernelBenchmark.hpp"
#include "plots/PlotExport.hpp"

class QComboBox;
class QGridLayout;
class QCPItemText;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace gbui {

class KernelLegend;
class MessageSink;
class PlotWidget;
class WorkerThread;
struct KernelSeries;

class KernelChart : public QWidget {
  Q_OBJECT
 public:
  explicit KernelChart(MessageSink* sink, QWidget* parent = nullptr);
  ~KernelChart() override;

  // Device names for the "run" combo (OpenCL devices only).
  void setDevices(const QStringList& devices, const QString& whyNone);
  // A kernel report (gamboost bench kernels); any other file gets a message saying which kind it is.
  bool loadReportFile(const QString& path);
  void addReport(const gb::KernelBenchReport& report, const QString& label);
  void clearReports();
  const std::vector<std::pair<QString, gb::KernelBenchReport>>& reports() const { return reports_; }

  // Runs in the background; results are drawn as they arrive (reports() holds the run so far).
  void runBenchmark(const gb::KernelBenchOptions& options);
  void cancelBenchmark();
  bool isRunning() const;
  void shutdown();
  // Saves the latest run (finished, cancelled or stopped) as the CLI's JSON; false, with a message, if none.
  bool saveRunFile(const QString& path);
  bool hasRun() const { return lastRun_ >= 0; }

  PlotWidget* timePlot() const { return timePlot_; }
  PlotWidget* bandwidthPlot() const { return bandwidthPlot_; }
  // Both plots side by side; a picture of them carries a legend of the series shown (on screen the KernelLegend
  // beside the plots is the legend, and a picture without it could not be read).
  PlotSheet exportSheet();
  KernelLegend* legend() const { return legend_; }
  QPushButton* saveButton() const { return save_; }
  QPushButton* cancelButton() const { return cancel_; }
  const QProgressBar* progressBar() const { return progress_; }
  QString statusText() const;
  void setOperation(const QString& op);
  void setColumns(int k);
  // "batched", "per-learner" or "" (both).
  void setGranularity(const QString& g);

 signals:
  void benchmarkStarted();
  void benchmarkFinished(bool ok);
  // A run's results so far were drawn (timings: how many rows the run has now).
  void partialResults(int timings);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void buildControls();
  void placeLegend();
  void buildPlots();
  void redraw();
  std::vector<KernelSeries> collectSeries(double* lo, double* hi) const;
  void drawSeries(const std::vector<KernelSeries>& series);
  void drawRooflines(double lo, double hi);
  void rescale(double lo, double hi, bool empty);
  void refreshLegend(const std::vector<KernelSeries>& series);
  void refreshStatus();
  void refreshFilters();
  void showRun(const gb::KernelBenchReport& report, const QString& state);
  void runEnded(bool ok, const QString& error, const QString& details, const gb::KernelBenchReport& result);
  void startFromControls();
  void loadInteractively();
  void saveInteractively();
  QString runLabel(const gb::KernelBenchReport& report, const QString& state) const;

  MessageSink* sink_;
  QComboBox* device_;
  QSpinBox* repetitions_;
  QPushButton* run_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QPushButton* load_;
  QPushButton* clear_;
  QPushButton* save_;
  QComboBox* operation_;
  QComboBox* columns_;
  QComboBox* granularity_;
  QLabel* status_;
  PlotWidget* timePlot_;
  PlotWidget* bandwidthPlot_;
  QCPItemText* emptyHint_[2];
  KernelLegend* legend_;
  QGridLayout* plots_;
  int legendSide_ = -1;  // -1: not placed yet, 0: below the plots, 1: beside them
  WorkerThread* worker_;
  std::vector<std::pair<QString, gb::KernelBenchReport>> reports_;
  int runCount_ = 0;
  bool cancelling_ = false;  // Cancel pressed: the measurement under way finishes first
  int runIndex_ = -1;        // reports_ entry of the run in progress
  int lastRun_ = -1;         // reports_ entry of the latest run (what Save run writes)
  int lastBeforeRun_ = -1;   // lastRun_ when the running benchmark started
  QString lastFolder_;
};

}  // namespace gbui

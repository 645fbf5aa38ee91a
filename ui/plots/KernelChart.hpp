#pragma once
// Kernel timings (design.md section 5): median time and GB/s against n per kernel, log-log, with each device's
// measured copy bandwidth as a roofline. Runs gb::runKernelBenchmark on a worker thread, or loads saved reports
// (docs/bench/*.json) so devices compare side by side (one line style per report).
#include <QWidget>
#include <vector>

#include "bench/KernelBenchmark.hpp"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace gbui {

class MessageSink;
class PlotWidget;
class WorkerThread;

class KernelChart : public QWidget {
  Q_OBJECT
 public:
  explicit KernelChart(MessageSink* sink, QWidget* parent = nullptr);
  ~KernelChart() override;

  // Device names for the "run" combo (OpenCL devices only).
  void setDevices(const QStringList& devices, const QString& whyNone);
  bool loadReportFile(const QString& path);
  void addReport(const gb::KernelBenchReport& report, const QString& label);
  void clearReports();
  const std::vector<std::pair<QString, gb::KernelBenchReport>>& reports() const { return reports_; }

  void runBenchmark(const gb::KernelBenchOptions& options);
  void cancelBenchmark();
  bool isRunning() const;
  void shutdown();

  PlotWidget* timePlot() const { return timePlot_; }
  PlotWidget* bandwidthPlot() const { return bandwidthPlot_; }
  void setOperation(const QString& op);
  void setColumns(int k);
  // "batched", "per-learner" or "" (both).
  void setGranularity(const QString& g);

 signals:
  void benchmarkFinished(bool ok);

 private:
  void redraw();
  void refreshFilters();
  void startFromControls();
  void loadInteractively();

  MessageSink* sink_;
  QComboBox* device_;
  QSpinBox* repetitions_;
  QPushButton* run_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QPushButton* load_;
  QPushButton* clear_;
  QComboBox* operation_;
  QComboBox* columns_;
  QComboBox* granularity_;
  QLabel* status_;
  PlotWidget* timePlot_;
  PlotWidget* bandwidthPlot_;
  WorkerThread* worker_;
  std::vector<std::pair<QString, gb::KernelBenchReport>> reports_;
};

}  // namespace gbui

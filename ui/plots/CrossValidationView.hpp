#pragma once
// The "Cross-validation" tab (mboost's cvrisk and plot.cvrisk): fold type (bootstrap B, k-fold K, subsample B with
// prob, or a folds file as gamboost cv --folds-file reads it), their count and seed; "Run cross-validation" fits every
// fold off the window's thread with the same data, roles and settings as a Fit; each fold's out-of-bag risk curve
// appears in grey as it finishes, their mean in colour, and the chosen mstop (the first minimum of the mean) as a
// vertical line with its value. "Use this mstop" hands the value to the model panel. state()/restore() carry the
// controls and a finished run's curves through a session file.
#include <QWidget>
#include <memory>
#include <vector>

#include "fit/CvJob.hpp"

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace gbui {

class MessageSink;
class PlotWidget;
class WorkerThread;

class CrossValidationView : public QWidget {
  Q_OBJECT
 public:
  explicit CrossValidationView(MessageSink* sink, QWidget* parent = nullptr);
  ~CrossValidationView() override;

  // Starts a run with these data and settings (the type, count and seed come from the controls). False (and an
  // error to the sink) without data, with bad settings, or while a run is going.
  bool start(std::shared_ptr<const gb::Dataset> data, const gb::ModelSettings& settings,
             const gb::ComputeSettings& compute);
  void cancel();
  // Cancels a run and waits for its thread (closing the window).
  void shutdown();
  void clear();
  // The model's family: names the risk axis while no folds are drawn (drawn folds keep their run's name).
  void setFamily(gb::Family family);
  // The window's data and model settings now. A finished run made with other data or settings (mstop aside) is
  // marked stale, naming what changed, and its mstop is not offered ("Use this mstop" off) until they match again.
  void setModel(const gb::Dataset* data, const gb::ModelSettings& settings);
  bool isRunning() const;

  FoldType foldType() const;
  void setFoldType(FoldType type);
  // The controls, and after a finished run its curves, mean and chosen mstop (for the session file).
  CvState state() const;
  // Sets the controls and, when the state holds a run, draws its curves and mstop as a finished run would (the loss
  // of `family` on the y axis). Not while running (false).
  bool restore(const CvState& state, gb::Family family = gb::Family::Gaussian);
  PlotWidget* plot() const { return plot_; }
  QComboBox* typeBox() const { return type_; }
  QSpinBox* countBox() const { return count_; }
  QSpinBox* seedBox() const { return seed_; }
  QDoubleSpinBox* probBox() const { return prob_; }
  QLineEdit* foldsFileEdit() const { return foldsFile_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QPushButton* useButton() const { return use_; }
  QLabel* statusLabel() const { return status_; }
  const QList<QCPGraph*>& foldGraphs() const { return folds_; }
  QCPGraph* meanGraph() const { return mean_; }
  QCPItemStraightLine* mstopLine() const { return line_; }
  QCPItemText* mstopText() const { return text_; }
  // The first minimum of the mean after a completed run; -1 before one (or after a cancelled or failed one).
  int chosenMstop() const { return chosen_; }

 signals:
  // The user pressed "Run cross-validation": the window answers with start(...).
  void runRequested();
  // "Use this mstop".
  void mstopChosen(int mstop);
  // After a run ended (ok false: failed, already reported to the sink).
  void finished(bool ok);
  // A run started or ended (the window keeps new data out while one runs).
  void runningChanged(bool running);

 private:
  QWidget* buildControls();
  void takeCurves();
  void addFoldGraph(std::vector<double> risk);
  void showPartial(std::vector<std::vector<double>> curves);
  // The mean curve; with chosen >= 0 also the mstop line and its label.
  void drawMean(const std::vector<double>& mean, int chosen);
  void updateControls();
  void chooseFoldsFile();
  void onFinished(bool ok, const QString& error, const QString& details);
  void showFoldsDone(int done, int total);
  void setRunning(bool running);
  // What differs between the run's model and the window's ("" when nothing), and the stale note and Use button.
  QString changedSinceRun() const;
  void updateStale();

  MessageSink* sink_;
  WorkerThread* worker_;
  std::shared_ptr<CvJob> job_;
  QComboBox* type_;
  QSpinBox* count_;
  QSpinBox* seed_;
  QDoubleSpinBox* prob_;
  QLineEdit* foldsFile_;
  QPushButton* run_;
  QPushButton* cancel_;
  QPushButton* use_;
  QProgressBar* progress_;
  QLabel* status_;
  QLabel* stale_;
  PlotWidget* plot_;
  QCPGraph* mean_;
  QCPItemStraightLine* line_;
  QCPItemText* text_;
  QList<QCPGraph*> folds_;
  QList<QCPGraph*> partial_;  // folds running together: their curves so far (dotted), replaced at each chunk
  std::vector<std::vector<double>> partialCurves_;
  std::vector<std::vector<double>> curves_;
  int chosen_ = -1;
  bool failed_ = false;  // the last run failed: its message, like a chosen mstop, belongs to the model it ran
  // The model of the run on show and the window's: data (identity) and settings. A restored session's run takes the
  // first model the window reports after it (the session's own).
  const gb::Dataset* runData_ = nullptr;
  const gb::Dataset* currentData_ = nullptr;
  gb::ModelSettings runSettings_, currentSettings_;
  bool adoptModel_ = false;
};

}  // namespace gbui

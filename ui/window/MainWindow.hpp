#pragma once
// The studio's main window: data and model panels (left, scrollable), Fit / Pause / Step / Cancel, the plot
// tabs (partial effects, risk, fitted vs observed, selection, learner race, edf/lambda, kernel timings,
// cross-validation) and the log (bottom).
#include <QMainWindow>
#include <QPointer>
#include <functional>
#include <memory>
#include <optional>

#include "common/MessageSink.hpp"
#include "compute/ComputeDevices.hpp"
#include "data/DataSource.hpp"
#include "fit/CvJob.hpp"
#include "fit/FitController.hpp"
#include "plots/PlotExport.hpp"
#include "window/SettingsStore.hpp"
#include "window/StudioOptions.hpp"

namespace gb {
struct Model;
}

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTabWidget;

namespace gbui {

class BandsController;
class CrossValidationView;
class DataPanel;
class EdfExplorer;
class FitDiagnostics;
class KernelChart;
class LearnerFitView;
class LearnerRaceView;
class ModelSummaryView;
class ReplayBar;
class LogPanel;
class ModelPanel;
class PartialEffectsView;
class PlotWidget;
class RiskPlot;
class SelectionPlot;
class StaleNote;
class TaskWorker;
class WarningBadge;
class WorkerThread;

class ElidedLabel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const StudioOptions& options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  MessageSink* messages() { return &sink_; }
  FitController* controller() { return controller_; }
  DataPanel* dataPanel() const { return dataPanel_; }
  ModelPanel* modelPanel() const { return modelPanel_; }
  PartialEffectsView* effectsView() const { return effects_; }
  RiskPlot* riskPlot() const { return risk_; }
  FitDiagnostics* diagnostics() const { return diagnostics_; }
  SelectionPlot* selectionPlot() const { return selection_; }
  LearnerRaceView* raceView() const { return race_; }
  LearnerFitView* learnerFitView() const { return learnerFit_; }
  ModelSummaryView* summaryView() const { return summary_; }
  ReplayBar* replayBar() const { return replayBar_; }
  // The line over the views of the fit that have no stale line of their own (Partial effects, Risk, Fitted vs
  // observed, Selection, Learner race, What the learner fits), shown while the model differs from the fit on show.
  StaleNote* fitStaleNote() const { return fitStale_; }
  // What the views show: the latest snapshot, or the replayed iteration while the scrubber is moved back.
  const FitSnapshot& shownSnapshot() const;
  EdfExplorer* edfExplorer() const { return edf_; }
  KernelChart* kernelChart() const { return kernels_; }
  CrossValidationView* cvView() const { return cv_; }
  BandsController* bandsController() const { return bands_; }
  QTabWidget* plotTabs() const { return tabs_; }
  QWidget* leftPanel() const { return leftPanel_; }
  QPushButton* fitButton() const { return fitButton_; }
  QPushButton* pauseButton() const { return pauseButton_; }
  QPushButton* stepButton() const { return stepButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QAction* fitAction() const { return fitAction_; }
  QAction* pauseAction() const { return pauseAction_; }
  QAction* cancelAction() const { return cancelAction_; }
  QAction* generateAction() const { return generateAction_; }
  QProgressBar* fitProgress() const { return fitProgress_; }
  // The Fit group's one-line status (its whole text: fullText()); the status bar's line shows the same.
  ElidedLabel* fitStatus() const { return fitStatus_; }
  ElidedLabel* statusLine() const { return statusLine_; }
  QLabel* iterationLabel() const { return iterationLabel_; }
  WarningBadge* warningBadge() const { return warningBadge_; }
  QMenu* viewMenu() const { return viewMenu_; }
  QMenu* helpMenu() const { return helpMenu_; }
  // Help > Keyboard shortcuts: every action with a shortcut, as the dialog lists them.
  QString shortcutsText() const;
  // Help > documentation: (title, file) of every document found beside the program or its source tree.
  QList<QPair<QString, QString>> documents() const;
  // The document Help last opened (tests: without dialogs the file is named, not opened).
  QString lastOpenedDocument() const { return lastDocument_; }

  // The model panel's settings with the roles table's response, weights and learners: what Fit fits and a session
  // saves.
  gb::ModelSettings modelSettings() const;
  // Pushes the panels' settings and roles to the controller (done before every Fit/Step as well).
  void syncSettings();
  void useChosenMstop(int mstop);
  // The plot of the current tab (the enlarged effect when open, else the tab's first plot).
  PlotWidget* currentPlot() const;
  // What "Export plot" writes: every plot the current tab shows (the whole effects grid, both plots of a pair).
  PlotSheet currentSheet() const;
  QString nothingToExport() const;  // the message when currentSheet() is empty
  void showTab(QWidget* page);
  void warnSharedDevice();  // a log warning: the kernel benchmark and a fit run at once

  // File actions without dialogs (the menu actions ask for the path, then call these).
  bool saveModel(const QString& path);
  bool saveSession(const QString& path);
  bool openSession(const QString& path);
  // A picture at `size` pixels (empty: as on screen).
  bool exportCurrentPlot(const QString& path, QSize size = {});
  // The devices found (the start's background query): the model panel's choices; at the first start (no saved
  // settings) the run command's demo device, the default OpenCL device, is chosen.
  void useDevices(const gb::ComputeDeviceList& list);
  // Model files (MainWindowModel.cpp), on a worker thread. Open model shows a saved model.json or result.json as a
  // finished fit over the loaded data without fitting (modelOpened when done); Predict writes the current model's
  // predictions for a CSV file and reports the rows outside the training range (predictionFinished). Both return
  // false, after a message, when they cannot start. currentModel: the idle fit's (iteration > 0), else the opened
  // one, else null.
  bool openModel(const QString& path);
  // Files named on the command line (`gamboost-studio [data.csv] [model.json | result.json] | [session.gbs.json]`):
  // a session opens as a session; a CSV is read, and a model named with it opens once the CSV is read (a model
  // alone opens over the data on show). A missing file is a message naming it.
  bool openPaths(const QStringList& paths);
  bool predictCsv(const QString& dataPath, const QString& outPath);
  std::shared_ptr<const gb::Model> currentModel() const;

 signals:
  void modelOpened(bool ok);
  void predictionFinished(bool ok);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildPanels();
  void buildPlots();
  void buildActions();
  void buildMenus();
  // Open model and Predict (MainWindowModel.cpp).
  struct OpenedModel {
    std::shared_ptr<const gb::Model> model;
    std::optional<FitSnapshot> snapshot;  // none without data
    int fitsAtStart = 0;                  // fitsStarted_ when Open model began
  };
  struct PredictionDone {
    std::size_t rows = 0, extrapolated = 0, missing = 0, columns = 1;  // columns: prediction (and response)
    QString report, missingReport;  // missingReport: rows predicted NA for a missing covariate, if any
  };
  using ModelJobDone = std::function<void(bool ok, const QString& error, const QString& details)>;
  void buildModelActions();
  bool modelJobFree(const QString& title);
  void runModelJob(std::function<void(TaskWorker&)> work, ModelJobDone done);
  bool installOpenedModel(const QString& path, OpenedModel& opened, const std::shared_ptr<const gb::Dataset>& data);
  void reportPrediction(const PredictionDone& p, const QString& dataPath, const QString& outPath);
  void restoreState(const StudioOptions& options);
  void fitOnScreen();
  void saveState();
  void startDeviceQuery();
  void onSnapshot(const FitSnapshot& snapshot);
  void onStateChanged(FitState state);
  void onDataChanged();
  void leaveDemoMstop();
  void leaveCvMstop();
  void leaveDemoPrecision();
  // Every view of the session's state (status line and bar, progress, Fit/Resume, iteration) from SessionState.
  void refreshSession();
  void updateDataActions();
  // Empties every fit view (new data, or a fresh fit setting up: nothing of the old fit may stay on show).
  void clearFitViews();
  // The iteration scrubber (MainWindowReplay.cpp): the bar above the tabs, its choice and Reset.
  QWidget* withReplayBar(QWidget* tabs);
  void updateReplayBar();
  void updateFitStale(bool changedSinceFit);  // fitStale_ for the tab on show
  void replayIteration(int m);
  void resetFit();
  void buildHelpMenu();
  void buildViewMenu();
  void openDocument(const QString& path);
  // First start: the default OpenCL device, as the run command's demo uses (else the CPU backend stays).
  void applyDemoDevice(const gb::ComputeDeviceList& list);
  void refreshView(QWidget* page);
  void updateRecentMenu();
  // A session's roles and Cross-validation tab, once its CSV has been read.
  void applyPendingRoles();
  // Syncs the settings; false (and an error titled `what`) when no column is a learner.
  bool readyToRun(const QString& what);
  void startCrossValidation();
  void exportInteractively();
  // Bootstrap bands after a finished fit when the model panel asks for them (MainWindowBands.cpp).
  void connectBands();
  void startBands();

  MessageSink sink_;
  FitController* controller_;
  SettingsStore store_;
  DataPanel* dataPanel_ = nullptr;
  ModelPanel* modelPanel_ = nullptr;
  QWidget* leftPanel_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  PartialEffectsView* effects_ = nullptr;
  RiskPlot* risk_ = nullptr;
  FitDiagnostics* diagnostics_ = nullptr;
  SelectionPlot* selection_ = nullptr;
  LearnerRaceView* race_ = nullptr;
  LearnerFitView* learnerFit_ = nullptr;
  ModelSummaryView* summary_ = nullptr;
  ReplayBar* replayBar_ = nullptr;
  StaleNote* fitStale_ = nullptr;
  int replayAt_ = -1;     // the replayed iteration, -1: the latest
  FitSnapshot replayed_;  // its snapshot (fit/Replay.hpp)
  EdfExplorer* edf_ = nullptr;
  KernelChart* kernels_ = nullptr;
  CrossValidationView* cv_ = nullptr;
  BandsController* bands_ = nullptr;
  LogPanel* log_ = nullptr;
  QPushButton* fitButton_ = nullptr;
  QPushButton* pauseButton_ = nullptr;
  QPushButton* stepButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QProgressBar* fitProgress_ = nullptr;
  ElidedLabel* fitStatus_ = nullptr;
  ElidedLabel* statusLine_ = nullptr;
  QLabel* iterationLabel_ = nullptr;
  WarningBadge* warningBadge_ = nullptr;
  QAction* fitAction_ = nullptr;
  QAction* pauseAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* cancelAction_ = nullptr;
  QAction* openAction_ = nullptr;
  QAction* saveSessionAction_ = nullptr;
  QAction* openSessionAction_ = nullptr;
  QAction* saveModelAction_ = nullptr;
  QAction* exportAction_ = nullptr;
  QAction* quitAction_ = nullptr;
  QAction* generateAction_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QMenu* helpMenu_ = nullptr;
  QString lastDocument_;
  bool firstStart_ = false;  // no saved settings: the demo's data, settings and device
  // The first start's mstop 1000 (the demo's) is still untouched: data of the user's own gets mboost's 100.
  bool demoMstop_ = false;
  // The mstop that "Use this mstop" last set, chosen by cross-validation on the data then shown (0: none): new data
  // gets mboost's default instead, with a line in the log, where the model panel still holds it.
  int cvMstop_ = 0;
  // The first start's demo device when it computes in double: data of the user's own gets double, not float.
  std::optional<gb::ComputeSettings> demoCompute_;
  int raceIteration_ = -1;  // the iteration the Learner race tab shows (-1: none)
  WorkerThread* deviceQuery_ = nullptr;
  std::optional<ColumnRoles> pendingRoles_;                  // applied once a session's CSV has been read
  std::optional<std::pair<CvState, gb::Family>> pendingCv_;  // likewise (new data clears the Cross-validation tab)
  QString sessionModelPath_;
  std::shared_ptr<const gb::Model> openedModel_;  // the model Open model shows (until the next fit starts)
  QString pendingFingerprint_;  // the session's data fingerprint, checked once its data is there ("": not checked)
  QString pendingModelPath_;    // a CSV session's model, opened once its data is read
  QAction* openModelAction_ = nullptr;
  QAction* predictAction_ = nullptr;
  WorkerThread* modelJob_ = nullptr;  // Open model's and Predict's work
  int fitsStarted_ = 0;               // fits started in this window (a fit started meanwhile wins over Open model)
};

}  // namespace gbui

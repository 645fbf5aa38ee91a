#include "window/MainWindow.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "common/QtConvert.hpp"
#include "common/WorkerThread.hpp"
#include "compute/ComputeDevices.hpp"
#include "data/DataPanel.hpp"
#include "fit/BandsController.hpp"
#include "model/ModelPanel.hpp"
#include "plots/CrossValidationView.hpp"
#include "plots/EdfExplorer.hpp"
#include "plots/FitDiagnostics.hpp"
#include "plots/KernelChart.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/ModelSummaryView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/RiskPlot.hpp"
#include "plots/SelectionPlot.hpp"
#include "window/ElidedLabel.hpp"
#include "window/EntryGuard.hpp"
#include "window/InternalTooltips.hpp"
#include "window/LogPanel.hpp"
#include "window/SessionState.hpp"
#include "window/WarningBadge.hpp"
#include "window/WheelGuard.hpp"

void gbInitStudioResources();

namespace gbui {

namespace {

QScrollArea* scrolling(QWidget* content) {
  auto* area = new QScrollArea;
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  area->setWidget(content);
  area->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  return area;
}

// The first start is the run command's demo (scripts/run.sh): the paper's data with n = 10000 and seed 1, mboost's
// learners and step length (nu 0.1) with mstop 1000, on the default OpenCL device (else the CPU backend).
constexpr int kDemoMstop = 1000;

gb::ModelSettings firstStartSettings() {
  gb::ModelSettings s = gb::ModelSettings::mboostPreset();
  s.mstop = kDemoMstop;
  return s;
}

gb::PaperDataSpec demoDataSpec() {
  gb::PaperDataSpec spec;
  spec.rows = 10000;
  spec.seed = 1;
  return spec;
}

}  // namespace

MainWindow::MainWindow(const StudioOptions& options, QWidget* parent)
    : QMainWindow(parent), store_(options.settingsFile) {
  gbInitStudioResources();
  setExportSettingsFile(options.settingsFile);
  setWindowTitle(tr("GAMBoost Studio"));
  setWindowIcon(QIcon(":/icons/gamboost-studio.svg"));
  sink_.setInteractive(options.interactive);
  sink_.setDialogParent(this);
  controller_ = new FitController(&sink_, this);
  buildPanels();
  buildPlots();
  buildActions();
  buildModelActions();
  buildMenus();
  connect(&sink_, &MessageSink::posted, log_, &LogPanel::append);
  connect(&sink_, &MessageSink::posted, warningBadge_, &WarningBadge::note);
  connect(controller_, &FitController::snapshotReady, this, &MainWindow::onSnapshot);
  connect(controller_, &FitController::stateChanged, this, &MainWindow::onStateChanged);
  connect(controller_, &FitController::jobFinished, this, [this] {
    // Views on hidden tabs were skipped during the run; the final state is drawn everywhere once.
    for (int i = 0; i < tabs_->count(); ++i) refreshView(tabs_->widget(i));
  });
  connectBands();
  connect(dataPanel_, &DataPanel::dataChanged, this, &MainWindow::onDataChanged);
  connect(dataPanel_, &DataPanel::rolesChanged, this, &MainWindow::syncSettings);
  connect(dataPanel_, &DataPanel::loadFinished, this, [this](bool ok) {
    if (ok) applyPendingRoles();
    pendingRoles_.reset();
    pendingCv_.reset();
    refreshSession();
  });
  connect(dataPanel_, &DataPanel::recentFileUsed, this, [this](const QString& path) {
    store_.addRecentFile(path);
    updateRecentMenu();
  });
  connect(modelPanel_, &ModelPanel::settingsChanged, this, &MainWindow::syncSettings);
  connect(tabs_, &QTabWidget::currentChanged, this, [this](int i) {
    refreshView(tabs_->widget(i));
    updateFitStale(controller_->changedSinceFit());
  });
  restoreState(options);
  connect(modelPanel_->mstopBox(), &QSpinBox::valueChanged, this, [this] { demoMstop_ = false; });
  new WheelGuard(leftPanel_);
  connect(new EntryGuard(leftPanel_), &EntryGuard::rejected, this,
          [this](const QString& message) { sink_.error(tr("Entry not accepted"), message); });
  onStateChanged(FitState::Idle);
  if (options.listDevices) startDeviceQuery();
  if (options.generateOnStart) {
    // A restart reopens the last data file; the first start (or after generated data) generates.
    const QString last = options.restoreSettings ? store_.lastDataFile() : QString();
    if (!last.isEmpty()) pendingRoles_ = store_.lastDataRoles();  // as they were at the close (applyPendingRoles)
    if (last.isEmpty() || !QFileInfo::exists(last) || !dataPanel_->openCsv(last)) {
      pendingRoles_.reset();
      dataPanel_->generate();
    }
  }
  refreshSession();
  tooltipQtInternals(this);
}

MainWindow::~MainWindow() {
  controller_->shutdown();
  bands_->shutdown();
  cv_->shutdown();
  dataPanel_->shutdown();
  kernels_->shutdown();
}

void MainWindow::buildPanels() {
  dataPanel_ = new DataPanel(&sink_);
  modelPanel_ = new ModelPanel;
  auto* side = new QTabWidget;
  side->addTab(scrolling(dataPanel_), tr("Data"));
  side->addTab(scrolling(modelPanel_), tr("Model"));
  side->setTabToolTip(0, tr("Generate or open data; preview; column roles"));
  side->setTabToolTip(1, tr("Spline, penalty, edf, boosting and compute settings"));

  auto* run = new QGroupBox(tr("Fit"));
  auto* grid = new QGridLayout(run);
  fitButton_ = new QPushButton(tr("Fit"));
  pauseButton_ = new QPushButton(tr("Pause"));
  stepButton_ = new QPushButton(tr("Step"));
  cancelButton_ = new QPushButton(tr("Cancel"));
  grid->addWidget(fitButton_, 0, 0);
  grid->addWidget(pauseButton_, 0, 1);
  grid->addWidget(stepButton_, 0, 2);
  grid->addWidget(cancelButton_, 0, 3);
  fitProgress_ = new QProgressBar;
  fitProgress_->setToolTip(tr("Iterations done of mstop"));
  fitProgress_->setFormat("%v / %m");
  grid->addWidget(fitProgress_, 1, 0, 1, 4);
  fitStatus_ = new ElidedLabel(3);  // 3 lines: the buttons above never move as the text changes length
  grid->addWidget(fitStatus_, 2, 0, 1, 4);

  leftPanel_ = new QWidget;
  auto* layout = new QVBoxLayout(leftPanel_);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(side, 1);
  layout->addWidget(run);
  leftPanel_->setMinimumWidth(300);
  leftPanel_->setMaximumWidth(520);
  auto* dock = new QDockWidget(tr("Data and model"));
  dock->setObjectName("panelsDock");
  dock->setWidget(leftPanel_);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                    QDockWidget::DockWidgetClosable);  // closable: the View menu's entries toggle it
  addDockWidget(Qt::LeftDockWidgetArea, dock);

  log_ = new LogPanel;
  auto* logDock = new QDockWidget(tr("Log"));
  logDock->setObjectName("logDock");
  logDock->setWidget(log_);
  logDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                       QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::BottomDockWidgetArea, logDock);
  resizeDocks({logDock}, {110}, Qt::Vertical);

  // The status as a stretching one-line label, not a temporary message: a message is cut off without a mark where
  // the iteration label begins, while this one ends in an ellipsis and holds its whole text in the tooltip.
  statusLine_ = new ElidedLabel;
  statusBar()->addWidget(statusLine_, 1);
  iterationLabel_ = new QLabel;
  statusBar()->addPermanentWidget(iterationLabel_);
  warningBadge_ = new WarningBadge;
  statusBar()->addPermanentWidget(warningBadge_);
  connect(warningBadge_, &WarningBadge::showLog, this, [this, logDock] {
    logDock->show();
    logDock->raise();
    log_->ensureCursorVisible();
  });
}

void MainWindow::buildPlots() {
  tabs_ = new QTabWidget;
  tabs_->setDocumentMode(true);
  effects_ = new PartialEffectsView(&sink_);
  risk_ = new RiskPlot(&sink_);
  diagnostics_ = new FitDiagnostics(&sink_);
  selection_ = new SelectionPlot(&sink_);
  race_ = new LearnerRaceView(&sink_);
  learnerFit_ = new LearnerFitView(&sink_);
  summary_ = new ModelSummaryView;
  edf_ = new EdfExplorer(&sink_);
  kernels_ = new KernelChart(&sink_);
  cv_ = new CrossValidationView(&sink_);
  // The benchmark and a fit or cross-validation share the device (and on PoCL the cores): the fit waits, and the
  // timings measured meanwhile include its load. Said in the log when either starts beside the other.
  connect(kernels_, &KernelChart::benchmarkStarted, this, [this] {
    if (controller_->isRunning() || cv_->isRunning()) warnSharedDevice();
  });
  connect(cv_, &CrossValidationView::runRequested, this, &MainWindow::startCrossValidation);
  connect(cv_, &CrossValidationView::mstopChosen, this, &MainWindow::useChosenMstop);
  connect(cv_, &CrossValidationView::runningChanged, this, [this] { updateDataActions(); });
  const std::pair<QWidget*, QString> pages[] = {
      {effects_, tr("Partial effects")},
      {risk_, tr("Risk")},
      {cv_, tr("Cross-validation")},  // third: on show without scrolling the tab bar at 1024 px, where mstop is chosen
      {diagnostics_, tr("Fitted vs observed")},
      {selection_, tr("Selection")},
      {summary_, tr("Model summary")},
      {race_, tr("Learner race")},
      {learnerFit_, tr("What the learner fits")},
      {edf_, tr("edf / lambda")},
      {kernels_, tr("Kernel timings")},
  };
  for (const auto& [page, title] : pages) tabs_->addTab(page, title);
  auto tip = [this](QWidget* page, const QString& text) { tabs_->setTabToolTip(tabs_->indexOf(page), text); };
  tip(effects_, tr("One plot per covariate, centred by its mean over the training rows"));
  tip(risk_, tr("Training risk per iteration"));
  tip(diagnostics_, tr("Fitted values and residuals against the data on the response scale, one point per used "
                       "row (when a fit stops)"));
  tip(selection_, tr("Selection frequencies and risk reduction per covariate"));
  tip(summary_, tr("The model in figures (as the command line's fit summary) and each learner's share of the risk "
                   "reduction (mboost's varimp)"));
  tip(race_, tr("Teaching mode: every candidate's RSS reduction in one iteration (use Step)"));
  tip(learnerFit_, tr("Teaching mode: the negative gradient of every row against the next winner's covariate, with "
                      "the winner's fit to it (use Step)"));
  tip(edf_, tr("edf as a function of lambda under both definitions"));
  tip(kernels_, tr("OpenCL kernel benchmark: time and bandwidth against n"));
  tip(cv_, tr("Out-of-bag risk per fold and its mean: choose mstop by resampling (mboost's cvrisk)"));
  setCentralWidget(withReplayBar(tabs_));
}

void MainWindow::showTab(QWidget* page) { tabs_->setCurrentWidget(page); }

void MainWindow::warnSharedDevice() {
  sink_.warning(
      tr("The kernel benchmark runs beside a fit or cross-validation: they share the host's cores (and "
         "the device, where the fit runs on OpenCL), so the fit is slower and the benchmark's timings from "
         "now on include the fit's work. Run the benchmark alone for figures to keep."));
}

// "Use this mstop" sets the model's mstop; a fit of this model on show with another number of iterations is refitted
// to it, so that the views, Save model and Predict use the model cross-validation chose (as mboost's
// mstop(model) <- mstop(cvm)). The views kept the old fit, which Save model saved, with no notice.
void MainWindow::useChosenMstop(int mstop) {
  modelPanel_->mstopBox()->setValue(mstop);
  cvMstop_ = mstop;
  const int shown = controller_->lastSnapshot().iteration;
  if (controller_->isRunning() || shown == 0 || shown == mstop || controller_->changedSinceFit()) return;
  sink_.info(tr("Use this mstop: the fit on show ran %1 iterations; fitting again to %2, the mstop cross-validation "
                "chose")
                 .arg(shown)
                 .arg(mstop));
  fitAction_->trigger();
}

gb::ModelSettings MainWindow::modelSettings() const {
  gb::ModelSettings s = modelPanel_->settings();
  const ColumnRoles roles = dataPanel_->roles();
  if (!roles.response.isEmpty()) s.response = ss(roles.response);
  auto names = [](const QStringList& list) {
    std::vector<std::string> out;
    for (const QString& name : list) out.push_back(ss(name));
    return out;
  };
  // The roles name every learner, so the engine's "all three empty: y ~ ." never applies to a window's fit (the
  // table's detected roles are that formula already); Fit refuses when no column is a learner.
  s.learners = names(roles.learners);
  s.linears = names(roles.linears);
  s.factors = names(roles.factors);
  s.weights = ss(roles.weights);
  return s;
}

void MainWindow::syncSettings() {
  const gb::ModelSettings s = modelSettings();
  controller_->setSettings(s, modelPanel_->compute());
  cv_->setFamily(s.family);
  cv_->setModel(dataPanel_->dataset().get(), s);
  refreshSession();  // Resume only while Fit would really continue with these settings
}

void MainWindow::onDataChanged() {
  controller_->setData(dataPanel_->dataset());
  effects_->setTruth(dataPanel_->truth());  // the true curves of generated data travel with the data
  // New data: the fit on show belongs to the old data. Forget it (state idle, no Resume) and empty its views.
  if (!controller_->isRunning()) {
    controller_->reset();
    clearFitViews();
  }
  leaveDemoMstop();
  leaveCvMstop();
  leaveDemoPrecision();
  syncSettings();
  if (!cv_->isRunning()) cv_->clear();
}

// The demo's mstop 1000 suits the paper's data (20 informative learners, n = 10000; its cross-validation chooses
// about 1000). On a CSV of the user's own it would overfit (airquality chose Day 580 times), so a first start that
// has not touched mstop gives such data mboost's default instead, once, and says so.
void MainWindow::leaveDemoMstop() {
  if (!demoMstop_ || dataPanel_->source().kind != DataSourceSpec::Kind::Csv) return;
  const int mboostDefault = gb::ModelSettings{}.mstop;
  if (modelPanel_->mstopBox()->value() == kDemoMstop) {
    modelPanel_->mstopBox()->setValue(mboostDefault);
    sink_.info(tr("mstop %1 (mboost's default) for this data; the first start's %2 was for the demo's data. The "
                  "Cross-validation tab chooses mstop from the data.")
                   .arg(mboostDefault)
                   .arg(kDemoMstop));
  }
  demoMstop_ = false;
}

// An mstop chosen by cross-validation belongs to the data it was chosen on: on other data it silently carried over
// (the paper data's 579 fitted airquality's Day 287 times). Where it is still the mstop in use, new data gets
// mboost's default, and the log says so.
void MainWindow::leaveCvMstop() {
  const int chosen = std::exchange(cvMstop_, 0);
  if (chosen <= 0 || modelPanel_->mstopBox()->value() != chosen) return;
  const int mboostDefault = gb::ModelSettings{}.mstop;
  if (chosen == mboostDefault) return;
  modelPanel_->mstopBox()->setValue(mboostDefault);
  sink_.info(tr("mstop %1 (mboost's default) for this data; %2 was chosen by cross-validation for the data before. "
                "The Cross-validation tab chooses mstop for this data.")
                 .arg(mboostDefault)
                 .arg(chosen));
}

void MainWindow::clearFitViews() {
  effects_->clear();
  risk_->clear();
  diagnostics_->clear();
  selection_->clear();
  race_->clear();
  learnerFit_->clear();
  summary_->clear();
  edf_->clear();
  raceIteration_ = -1;
  replayAt_ = -1;
  updateReplayBar();
}

void MainWindow::onSnapshot(const FitSnapshot& s) {
  refreshSession();
  // A race from another iteration than the model's next one would mislead: the race view empties until the run
  // ends (its last snapshot carries the next iteration's race).
  if (!s.race && raceIteration_ >= 0) {
    race_->clear();
    raceIteration_ = -1;
  }
  replayAt_ = -1;  // a new snapshot (a job's, or an opened model): the scrubber comes back to the latest
  updateReplayBar();
  // Only the visible view draws during a run (switching tabs draws the latest snapshot there).
  refreshView(tabs_->currentWidget());
}

void MainWindow::refreshView(QWidget* page) {
  const FitSnapshot& s = shownSnapshot();
  if (!s.setup) return;
  if (page == effects_)
    effects_->showSnapshot(s);
  else if (page == risk_)
    risk_->showSnapshot(s);
  else if (page == diagnostics_)
    diagnostics_->showSnapshot(s);
  else if (page == selection_)
    selection_->showSnapshot(s);
  else if (page == race_ && s.race) {
    race_->showSnapshot(s);
    raceIteration_ = s.race->iteration;
  } else if (page == learnerFit_)
    learnerFit_->showSnapshot(s);
  else if (page == summary_)
    summary_->showSnapshot(s);
  else if (page == edf_)
    edf_->setSetup(s.setup);
}

void MainWindow::onStateChanged(FitState state) {
  const bool running = state == FitState::Running;
  fitAction_->setEnabled(!running);
  stepAction_->setEnabled(!running);
  pauseAction_->setEnabled(running);
  cancelAction_->setEnabled(running);
  saveModelAction_->setEnabled(!running && currentModel());
  updateDataActions();
  modelPanel_->setEnabled(!running);
  if (running && kernels_->isRunning()) warnSharedDevice();
  // A fresh fit starts without a snapshot: the previous fit's plots go while the new one sets up. A failed fit
  // leaves none either (FitController drops it): its views empty.
  if ((running || state == FitState::Failed) && !controller_->lastSnapshot().setup) clearFitViews();
  updateReplayBar();
  refreshSession();
}

// New data while a fit or a cross-validation runs would leave its views (or its chosen mstop) on the old data,
// shown as the new data's: the data actions wait for both.
void MainWindow::updateDataActions() {
  if (!generateAction_ || !cv_) return;  // during construction
  const bool busy = controller_->isRunning() || cv_->isRunning();
  generateAction_->setEnabled(!busy);
  openAction_->setEnabled(!busy);
  openSessionAction_->setEnabled(!busy);
  recentMenu_->setEnabled(!busy && !recentMenu_->isEmpty());
  dataPanel_->setEnabled(!controller_->isRunning());
}

void MainWindow::refreshSession() {
  if (!fitStatus_ || !fitAction_) return;  // during construction
  SessionFacts facts;
  facts.data = dataPanel_->dataset().get();
  facts.dataLoading = dataPanel_->isLoading();
  facts.state = controller_->state();
  facts.canResume = controller_->canResume();
  facts.mstop = modelPanel_->settings().mstop;
  facts.snapshot = &controller_->lastSnapshot();
  facts.failure = controller_->failure();
  facts.failureOutdated = controller_->failureOutdated();
  facts.changedSinceFit = controller_->changedSinceFit();
  const SessionView view = describeSession(facts);
  if (!bands_ || !bands_->isRunning()) {  // the bootstrap bands use the bar and the line while they run
    fitProgress_->setMaximum(view.progressMaximum);
    fitProgress_->setValue(view.progressValue);
    fitStatus_->setFullText(view.status);
  }
  if (summary_ && edf_) {  // a view of the fit on show says so while the model differs from it
    summary_->setChangedSinceFit(facts.changedSinceFit);
    edf_->setChangedSinceFit(facts.changedSinceFit);
    updateFitStale(facts.changedSinceFit);
  }
  if (fitAction_->text() != view.fitLabel) fitAction_->setText(view.fitLabel);
  const FitSnapshot& shown = shownSnapshot();
  iterationLabel_->setText(replayAt_ >= 0 && shown.setup
                               ? tr("replaying iteration %1 of %2, risk %3")
                                     .arg(shown.iteration)
                                     .arg(controller_->lastSnapshot().iteration)
                                     .arg(shown.pathRisk.empty() ? 0.0 : shown.pathRisk.back(), 0, 'g', 5)
                               : view.iteration);
  statusLine_->setFullText(view.status);
}

void MainWindow::startDeviceQuery() {
  deviceQuery_ = new WorkerThread(this);
  auto result = std::make_shared<gb::ComputeDeviceList>();
  connect(deviceQuery_, &WorkerThread::finished, this, [this, result] { useDevices(*result); });
  deviceQuery_->start([result](TaskWorker&) { *result = gb::listComputeDevices(); });
}

void MainWindow::useDevices(const gb::ComputeDeviceList& list) {
  modelPanel_->setDevices(list);  // keeps the choices, also restored ones that waited for the list
  if (firstStart_) applyDemoDevice(list);
  QStringList openCl;
  for (const auto& d : list.devices)
    if (d.backend == "opencl") openCl << qs(d.name);
  kernels_->setDevices(openCl, qs(list.openClStatus));
  if (!list.openClStatus.empty())
    sink_.warning(tr("OpenCL: %1").arg(qs(list.openClStatus)));
  else
    sink_.info(tr("OpenCL devices: %1").arg(openCl.join(", ")));
}

void MainWindow::applyDemoDevice(const gb::ComputeDeviceList& list) {
  for (const auto& d : list.devices) {
    if (d.backend != "opencl" || !d.isDefault) continue;
    gb::ComputeSettings c;
    c.backend = gb::BackendKind::OpenCl;
    c.device = d.name;
    modelPanel_->setCompute(c);
    sink_.info(tr("First start: the run command's demo settings on %1 (OpenCL).").arg(qs(d.name)));
    if (d.fp64) demoCompute_ = modelPanel_->compute();  // as the panel holds it (the device by address)
    leaveDemoPrecision();  // the data may be the user's already (a file named on the command line)
    return;
  }
}

// The demo fits in float, OpenCL's default, for speed on its generated data. Data of the user's own is fitted in
// double where the device has it, so that a first fit agrees with mboost to double precision, not to float's 1e-7.
// Once, and only while the compute settings are still the demo's untouched; the log says so.
void MainWindow::leaveDemoPrecision() {
  if (!demoCompute_ || dataPanel_->source().kind != DataSourceSpec::Kind::Csv) return;
  const gb::ComputeSettings now = modelPanel_->compute();
  if (now.backend == demoCompute_->backend && now.device == demoCompute_->device &&
      now.kernel == demoCompute_->kernel && now.precision == gb::Precision::Default) {
    gb::ComputeSettings exact = now;
    exact.precision = gb::Precision::Double;
    modelPanel_->setCompute(exact);
    sink_.info(
        tr("Precision double for this data (the demo's float is for speed; Model > Compute > Precision "
           "offers float)."));
  }
  demoCompute_.reset();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // Closing mid-fit: cancel and join every worker before the window goes (no thread outlives its data).
  controller_->shutdown();
  bands_->shutdown();
  cv_->shutdown();
  dataPanel_->shutdown();
  kernels_->shutdown();
  if (deviceQuery_) deviceQuery_->wait();
  saveState();
  event->accept();
}

// Within the screen's available area: the first start's 1280 x 820 (or a size saved on a larger screen) on a
// 1280 x 800 screen hid the status bar below the screen's edge.
void MainWindow::fitOnScreen() {
  const QScreen* s = screen();
  if (!s) return;
  const QRect area = s->availableGeometry();
  const QSize frame = frameGeometry().size() - geometry().size();  // the window manager's, once shown
  const QSize within = size().boundedTo(area.size() - frame);
  if (within != size()) resize(within);
  QRect placed = frameGeometry();
  if (area.contains(placed)) return;
  placed.moveBottom(std::min(placed.bottom(), area.bottom()));
  placed.moveRight(std::min(placed.right(), area.right()));
  placed.moveTop(std::max(placed.top(), area.top()));
  placed.moveLeft(std::max(placed.left(), area.left()));
  move(placed.topLeft());
}

void MainWindow::restoreState(const StudioOptions& options) {
  resize(1280, 820);
  fitOnScreen();
  modelPanel_->setSettings(firstStartSettings());
  dataPanel_->setGeneratorSpec(demoDataSpec());
  firstStart_ = !options.restoreSettings || !store_.hasSavedSettings();
  demoMstop_ = firstStart_;
  if (!options.restoreSettings) return;
  if (auto s = store_.modelSettings()) modelPanel_->setSettings(*s);
  if (auto c = store_.computeSettings()) modelPanel_->setCompute(*c);
  if (auto g = store_.generatorSpec()) dataPanel_->setGeneratorSpec(*g);
  if (!store_.geometry().isEmpty() && restoreGeometry(store_.geometry())) fitOnScreen();
  if (!store_.windowState().isEmpty()) QMainWindow::restoreState(store_.windowState());
  updateRecentMenu();
}

void MainWindow::saveState() {
  store_.setModelSettings(modelPanel_->settings());
  store_.setComputeSettings(modelPanel_->computeToSave());
  store_.setGeneratorSpec(dataPanel_->generatorSpec());
  const DataSourceSpec& source = dataPanel_->source();
  const bool csv = source.kind == DataSourceSpec::Kind::Csv;
  store_.setLastDataFile(csv ? source.path : QString());
  store_.setLastDataRoles(csv && dataPanel_->dataset() ? std::optional<ColumnRoles>(dataPanel_->roles())
                                                       : std::nullopt);
  store_.setWindow(saveGeometry(), QMainWindow::saveState());
  store_.sync();
}

}  // namespace gbui

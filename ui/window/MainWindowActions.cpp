// MainWindow: actions, menus and the file operations behind them (model, session, export, recent files).
#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QKeySequence>
#include <QMenuBar>
#include <QPushButton>
#include <QTabWidget>
#include <QToolBar>
#include <algorithm>

#include "common/Error.hpp"
#include "common/QtConvert.hpp"
#include "common/SaveDialog.hpp"
#include "data/DataPanel.hpp"
#include "model/Model.hpp"
#include "model/ModelPanel.hpp"
#include "plots/CrossValidationView.hpp"
#include "plots/EdfExplorer.hpp"
#include "plots/EffectPlot.hpp"
#include "plots/ExportSizeDialog.hpp"
#include "plots/FitDiagnostics.hpp"
#include "plots/KernelChart.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/ModelSummaryView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotExport.hpp"
#include "plots/RiskPlot.hpp"
#include "plots/SelectionPlot.hpp"
#include "window/EntryGuard.hpp"
#include "window/MainWindow.hpp"
#include "window/ReplayBar.hpp"
#include "window/SessionFile.hpp"
#include "window/SessionState.hpp"

namespace gbui {

namespace {

QAction* action(QObject* parent, const QString& text, const QString& tip, const QList<QKeySequence>& keys = {}) {
  auto* a = new QAction(text, parent);
  a->setToolTip(tip);
  a->setStatusTip(tip);
  a->setShortcuts(keys);
  return a;
}

void bindButton(QPushButton* button, QAction* a) {
  QObject::connect(button, &QPushButton::clicked, a, &QAction::trigger);
  auto sync = [button, a] {
    button->setEnabled(a->isEnabled());
    button->setText(a->text());
    button->setToolTip(a->toolTip() + (a->shortcut().isEmpty() ? QString() : " (" + a->shortcut().toString() + ")"));
  };
  QObject::connect(a, &QAction::changed, button, sync);
  sync();
}

}  // namespace

void MainWindow::buildActions() {
  auto beforeRun = [this] { return readyToRun(tr("Fit")); };
  fitAction_ = action(this, tr("Fit"), tr("Fit the model to mstop iterations, or resume a paused fit"),
                      {QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
  pauseAction_ =
      action(this, tr("Pause"), tr("Pause the fit after the current batch (Fit resumes)"), {QKeySequence(Qt::Key_F6)});
  stepAction_ =
      action(this, tr("Step"), tr("Run exactly one boosting iteration (teaching mode: see the Learner race tab)"),
             {QKeySequence(Qt::Key_F10)});
  cancelAction_ =
      action(this, tr("Cancel"),
             tr("Stop the fit and drop it: its plots stay on show, the next Fit or Step starts afresh at iteration 0 "
                "(Pause keeps a fit to resume)"),
             {QKeySequence(Qt::Key_Escape)});
  connect(fitAction_, &QAction::triggered, this, [this, beforeRun] {
    if (beforeRun()) controller_->fit();
  });
  connect(stepAction_, &QAction::triggered, this, [this, beforeRun] {
    // Replaying an earlier iteration of the fit on show (its settings unchanged): Step shows the next one (it ran
    // iteration mstop + 1). With changed settings Step starts afresh, as the status line says.
    if (replayAt_ >= 0 && !controller_->isRunning() && !controller_->changedSinceFit()) {
      replayBar_->slider()->setValue(replayAt_ + 1);
      return;
    }
    if (!beforeRun()) return;
    const bool stepped = controller_->step();
    // A step past mstop made it the fit's mstop: the panel says so (the signature already holds it).
    if (stepped && modelPanel_->mstopBox()->value() < controller_->modelSettings().mstop)
      modelPanel_->mstopBox()->setValue(controller_->modelSettings().mstop);
    if (stepped && tabs_->currentWidget() == effects_) showTab(race_);
  });
  connect(pauseAction_, &QAction::triggered, controller_, &FitController::pause);
  connect(cancelAction_, &QAction::triggered, controller_, &FitController::cancel);
  bindButton(fitButton_, fitAction_);
  bindButton(pauseButton_, pauseAction_);
  bindButton(stepButton_, stepAction_);
  bindButton(cancelButton_, cancelAction_);

  openAction_ =
      action(this, tr("Open CSV..."), tr("Read a CSV file: numbers, text columns (factors), NA cells, R's row names"),
             {QKeySequence::Open});
  generateAction_ =
      action(this, tr("Generate paper data"), tr("Generate the paper's simulated data (Data tab settings)"),
             {QKeySequence(Qt::CTRL | Qt::Key_G)});
  openSessionAction_ = action(this, tr("Open session..."), tr("Reopen a saved session (data, roles, settings)"),
                              {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)});
  saveSessionAction_ =
      action(this, tr("Save session..."), tr("Save data source, roles, settings and the model"), {QKeySequence::Save});
  saveModelAction_ = action(this, tr("Save model..."), tr("Save the fitted model as the engine's model.json"),
                            {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)});
  exportAction_ =
      action(this, tr("Export plot..."), tr("Export the current tab's plot as PNG, SVG, PDF or its data as CSV"),
             {QKeySequence(Qt::CTRL | Qt::Key_E)});
  quitAction_ = action(this, tr("Quit"), tr("Close the window (a running fit is cancelled)"), {QKeySequence::Quit});
  connect(openAction_, &QAction::triggered, dataPanel_->openButton(), &QPushButton::click);
  connect(generateAction_, &QAction::triggered, dataPanel_, &DataPanel::generate);
  connect(quitAction_, &QAction::triggered, this, &QWidget::close);
  connect(saveModelAction_, &QAction::triggered, this, [this] {
    const QString path = saveFileName(this, tr("Save model"), "model.json", tr("Model JSON (*.json)"), "json");
    if (!path.isEmpty()) saveModel(path);
  });
  connect(saveSessionAction_, &QAction::triggered, this, [this] {
    const QString path = saveFileName(this, tr("Save session"), "session.gbs.json", tr("Session (*.json)"), "json");
    if (!path.isEmpty()) saveSession(path);
  });
  connect(openSessionAction_, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), tr("Session (*.json)"));
    if (!path.isEmpty()) openSession(path);
  });
  connect(exportAction_, &QAction::triggered, this, &MainWindow::exportInteractively);

  auto* bar = addToolBar(tr("Fit"));
  bar->setObjectName("fitToolBar");
  for (QAction* a : {fitAction_, pauseAction_, stepAction_, cancelAction_}) bar->addAction(a);
  // Wide enough for "Resume": the buttons after it moved sideways when a paused fit renamed it.
  if (QWidget* fitTool = bar->widgetForAction(fitAction_)) {
    const QFontMetrics metrics(fitTool->font());
    fitTool->setMinimumWidth(
        fitTool->sizeHint().width() - metrics.horizontalAdvance(fitAction_->text()) +
        std::max(metrics.horizontalAdvance(fitButtonLabel(true)), metrics.horizontalAdvance(fitButtonLabel(false))));
  }
  bar->addSeparator();
  bar->addAction(openAction_);
  bar->addAction(saveSessionAction_);
  bar->addAction(exportAction_);
}

bool MainWindow::readyToRun(const QString& what) {
  if (const QString entry = EntryGuard::unacceptableEntry(*leftPanel_); !entry.isEmpty()) {
    sink_.error(what, tr("%1; correct it first (nothing was started).").arg(entry));
    return false;
  }
  syncSettings();
  const ColumnRoles roles = dataPanel_->roles();
  if (dataPanel_->dataset() && roles.learners.isEmpty() && roles.linears.isEmpty() && roles.factors.isEmpty()) {
    sink_.error(what, tr("No learner column: give at least one column the role spline, linear or factor (Data tab)."));
    return false;
  }
  return true;
}

void MainWindow::startCrossValidation() {
  if (!readyToRun(tr("Cross-validation"))) return;
  if (kernels_->isRunning()) warnSharedDevice();
  cv_->start(controller_->data(), controller_->modelSettings(), controller_->computeSettings());
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(generateAction_);
  file->addAction(openAction_);
  recentMenu_ = file->addMenu(tr("Recent files"));
  file->addSeparator();
  file->addAction(openSessionAction_);
  file->addAction(saveSessionAction_);
  file->addAction(saveModelAction_);
  file->addAction(openModelAction_);
  file->addAction(predictAction_);
  file->addAction(exportAction_);
  file->addSeparator();
  file->addAction(quitAction_);
  QMenu* fit = menuBar()->addMenu(tr("F&it"));
  for (QAction* a : {fitAction_, pauseAction_, stepAction_, cancelAction_}) fit->addAction(a);
  fit->addSeparator();
  QAction* timeBudget = fit->addAction(tr("Time budget in the log"), controller_, &FitController::setTimeBudget);
  timeBudget->setCheckable(true);
  timeBudget->setObjectName("timeBudgetAction");
  timeBudget->setToolTip(tr("Fits started from now on write where their time went (stages, kernels) to the log"));
  fit->addSeparator();
  fit->addAction(tr("Preset: Paper"), modelPanel_, &ModelPanel::applyPaperPreset);
  fit->addAction(tr("Preset: mboost defaults"), modelPanel_, &ModelPanel::applyMboostPreset);
  buildViewMenu();
  buildHelpMenu();
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  if (!recentMenu_) return;
  recentMenu_->clear();
  for (const QString& path : store_.recentFiles()) {
    const bool session = path.endsWith(".gbs.json");
    recentMenu_
        ->addAction(QFileInfo(path).fileName(), this,
                    [this, path, session] {
                      if (session)
                        openSession(path);
                      else
                        dataPanel_->openCsv(path);
                    })
        ->setToolTip(path);
  }
  recentMenu_->setEnabled(!recentMenu_->isEmpty());
  updateDataActions();  // not while a fit or cross-validation runs
}

PlotWidget* MainWindow::currentPlot() const {
  QWidget* page = tabs_->currentWidget();
  if (page == effects_) {
    if (effects_->detailPlot()->isVisible()) return effects_->detailPlot();
    const QList<int> shown = effects_->shownLearners();
    return shown.isEmpty() ? nullptr : effects_->plotFor(shown.front());
  }
  if (page == risk_) return risk_->plot();
  if (page == diagnostics_) return diagnostics_->fittedPlot();
  if (page == selection_) return selection_->countsPlot();
  if (page == race_) return race_->plot();
  if (page == learnerFit_) return learnerFit_->pointsShown() > 0 ? learnerFit_->plot() : nullptr;
  if (page == edf_) return edf_->plot();
  if (page == kernels_) return kernels_->bandwidthPlot();
  if (page == cv_) return cv_->plot();
  return nullptr;
}

PlotSheet MainWindow::currentSheet() const {
  QWidget* page = tabs_->currentWidget();
  if (page == effects_) return effects_->exportSheet();
  if (page == selection_) return selection_->exportSheet();
  if (page == diagnostics_) return diagnostics_->exportSheet();
  if (page == kernels_) return kernels_->exportSheet();
  PlotSheet sheet;
  if (PlotWidget* plot = currentPlot()) {
    sheet.plots = {plot};
    sheet.name = plot->exportName();
  }
  return sheet;
}

// Why Export has nothing: the summary is text and never has a plot ("yet" misled there); other tabs wait for a fit.
QString MainWindow::nothingToExport() const {
  if (tabs_->currentWidget() == static_cast<QWidget*>(summary_))
    return tr("The %1 tab is text, not a plot: it has nothing to export as a picture.")
        .arg(tabs_->tabText(tabs_->currentIndex()).remove('&'));
  return tr("Nothing to export on this tab yet.");
}

// The file (named after the tab's plots, in the folder last exported to), then a picture's size.
void MainWindow::exportInteractively() {
  const PlotSheet sheet = currentSheet();
  if (sheet.plots.isEmpty()) {
    sink_.error(tr("Export"), nothingToExport());
    return;
  }
  QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), defaultExportPath(sheet.name, "png"),
                                              tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf);;CSV data (*.csv)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += ".png";
  QSize size;
  if (!path.endsWith(".csv", Qt::CaseInsensitive)) {
    const std::optional<QSize> chosen = askExportSize(this, sheet.naturalSize());
    if (!chosen) return;
    size = *chosen;
  }
  exportCurrentPlot(path, size);
}

bool MainWindow::exportCurrentPlot(const QString& path, QSize size) {
  const PlotSheet sheet = currentSheet();
  if (sheet.plots.isEmpty()) {
    sink_.error(tr("Export"), nothingToExport());
    return false;
  }
  try {
    exportSheet(sheet, path, size);
    rememberExportFolder(path);
    sink_.info(tr("Exported %1").arg(path));
    return true;
  } catch (const std::exception& e) {
    sink_.exception(tr("Export"), e);
    return false;
  }
}

bool MainWindow::saveModel(const QString& path) {
  const auto model = currentModel();
  if (!model) {
    sink_.error(tr("Save model"), tr("No fitted model yet (or a fit is running)."));
    return false;
  }
  try {
    model->save(ss(path));
    sink_.info(tr("Saved the model (%1 iterations) to %2").arg(model->pathLearner.size()).arg(path));
    return true;
  } catch (const std::exception& e) {
    sink_.exception(tr("Save model"), e);
    return false;
  }
}

bool MainWindow::saveSession(const QString& path) {
  syncSettings();
  Session s;
  s.data = dataPanel_->source();
  s.roles = dataPanel_->roles();
  s.settings = modelSettings();  // with the roles' response and learners, which the file's "roles" repeats
  s.compute = modelPanel_->computeToSave();
  s.cv = cv_->state();
  s.bands = modelPanel_->bandReplicates();
  if (const auto data = dataPanel_->dataset()) s.dataFingerprint = dataFingerprint(*data);
  if (currentModel()) {
    QString base = path;
    if (base.endsWith(".json")) base.chop(5);
    if (base.endsWith(".gbs")) base.chop(4);
    s.modelPath = base + ".model.json";
    if (!saveModel(s.modelPath)) return false;
  }
  try {
    gbui::saveSession(path, s);
    store_.addRecentFile(path);
    updateRecentMenu();
    sink_.info(tr("Saved the session to %1").arg(path));
    return true;
  } catch (const std::exception& e) {
    sink_.exception(tr("Save session"), e);
    return false;
  }
}

bool MainWindow::openSession(const QString& path) {
  if (controller_->isRunning() || cv_->isRunning()) {
    sink_.error(tr("Open session"), tr("A fit or cross-validation is running: cancel it first."));
    return false;
  }
  try {
    const Session s = loadSession(path);
    // A data file moved or deleted since: refused before anything changes (its settings were applied to the data
    // on show, and the log said "Opened session", beside the dialog saying the data was unchanged).
    if (s.data.kind == DataSourceSpec::Kind::Csv && !QFileInfo(s.data.path).isFile())
      throw gb::InputError(ss(path) + ": its data file " + ss(s.data.path) +
                           " is not there (moved or deleted?); nothing was changed. Put the file back at that path "
                           "(or edit the session's \"data\" \"path\"), then open the session again.");
    // Whatever the session brings, the fit on show is not its fit: idle, "not fitted", no Resume.
    controller_->reset();
    clearFitViews();
    demoMstop_ = false;   // the session's mstop is the user's
    firstStart_ = false;  // and its compute settings: the device list must not put the demo's over them
    modelPanel_->setSettings(s.settings);
    modelPanel_->setCompute(s.compute);
    modelPanel_->setBandReplicates(s.bands);
    sessionModelPath_ = s.modelPath;
    if (s.data.kind != DataSourceSpec::Kind::None) {
      // The data is generated or read on a worker thread; its roles, the Cross-validation tab and the model
      // follow once it is there (loadFinished: applyPendingRoles, and MainWindowModel.cpp for the model).
      pendingRoles_ = s.roles;
      pendingCv_.emplace(s.cv, s.settings.family);
      pendingModelPath_ = s.modelPath;
      pendingFingerprint_ = s.dataFingerprint;
      if (s.data.kind == DataSourceSpec::Kind::Paper) dataPanel_->setGeneratorSpec(s.data.paper);
      if (!(s.data.kind == DataSourceSpec::Kind::Paper ? dataPanel_->generate() : dataPanel_->openCsv(s.data.path)))
        return false;
    } else {
      cv_->restore(s.cv, s.settings.family);
    }
    syncSettings();
    store_.addRecentFile(path);
    updateRecentMenu();
    sink_.info(tr("Opened session %1").arg(path));
    if (s.bands > 0 && !s.modelPath.isEmpty())  // the box stays checked, for the next fit
      sink_.warning(tr("Bootstrap bands are not kept in a session: its model comes back without them. Fit again to "
                       "draw them (%1 refits).")
                        .arg(s.bands));
    // The saved model comes back as it was fitted, without a refit (with data: once the data is there).
    if (!s.modelPath.isEmpty() && s.data.kind == DataSourceSpec::Kind::None) openModel(s.modelPath);
    return true;
  } catch (const std::exception& e) {
    sink_.exception(tr("Open session"), e);
    return false;
  }
}

void MainWindow::applyPendingRoles() {
  const QString saved = std::exchange(pendingFingerprint_, QString());
  const auto data = dataPanel_->dataset();
  if (!saved.isEmpty() && data && dataFingerprint(*data) != saved) {
    // The session's model and curves were fitted to other values: shown beside this data they would mislead.
    if (pendingCv_) pendingCv_->first.risk.clear();
    pendingModelPath_.clear();
    sink_.error(tr("Open session"),
                tr("The data changed since the session was saved (%1): its roles and settings are restored, but "
                   "not its model or cross-validation curves, which were fitted to the old values. Fit again.")
                    .arg(qs(data->source)));
  }
  if (pendingCv_) cv_->restore(pendingCv_->first, pendingCv_->second);
  pendingCv_.reset();
  if (!pendingRoles_) return;
  dataPanel_->setRoles(*pendingRoles_);
  syncSettings();
}

}  // namespace gbui

// MainWindow: model files. Open model shows a saved model.json or result.json as a finished fit over the loaded
// data, without fitting (ui/fit/ModelOpen.hpp); Predict applies the current model to a CSV file and reports the
// rows outside the training range and the rows predicted NA for a missing covariate.
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QTabWidget>
#include <memory>
#include <utility>

#include "common/DataFileFilter.hpp"
#include "common/QtConvert.hpp"
#include "common/SaveDialog.hpp"
#include "common/WorkerThread.hpp"
#include "compute/Booster.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "data/DataPanel.hpp"
#include "fit/ModelOpen.hpp"
#include "model/Model.hpp"
#include "model/ModelPanel.hpp"
#include "plots/CrossValidationView.hpp"
#include "window/MainWindow.hpp"

namespace gbui {

namespace {

QStringList names(const std::vector<std::string>& list) {
  QStringList out;
  for (const auto& n : list) out << qs(n);
  return out;
}

// The roles table's view of the model: its response, weights and learners; every other column ignored.
ColumnRoles rolesOf(const gb::ModelSettings& s, const gb::Dataset& data) {
  ColumnRoles r;
  r.response = qs(s.response);
  r.learners = names(s.learners);
  r.linears = names(s.linears);
  r.factors = names(s.factors);
  r.weights = qs(s.weights);
  for (const auto& n : data.names) {
    const QString name = qs(n);
    if (name != r.response && name != r.weights && !r.learners.contains(name) && !r.linears.contains(name) &&
        !r.factors.contains(name))
      r.ignored << name;
  }
  return r;
}

// Families whose f is not the mean: binomial and adaexp (half the log-odds) and poisson (the log rate).
bool hasResponseScale(const gb::Model& model) {
  return gb::isBinary(model.settings.family) || model.settings.family == gb::Family::Poisson ||
         model.settings.family == gb::Family::Gamma || model.settings.family == gb::Family::NegBin;
}

QString extrapolationReport(const gb::Prediction& p, std::size_t rows, const std::vector<ColumnExtrapolation>& cols) {
  if (p.extrapolatedRows == 0) return QObject::tr("Every row lies within the model's training range.");
  QString text = QObject::tr(
                     "%1 of %2 rows lie outside the model's training range; there the splines continue "
                     "linearly, so read those predictions with care.")
                     .arg(p.extrapolatedRows)
                     .arg(rows);
  for (const ColumnExtrapolation& c : cols)
    text += "\n" + QObject::tr("%1: rows below the training range [%4, %5]: %2, above it: %3 (new data: %6 to %7)")
                       .arg(qs(c.name))
                       .arg(c.below)
                       .arg(c.above)
                       .arg(c.lo, 0, 'g', 6)
                       .arg(c.hi, 0, 'g', 6)
                       .arg(c.min, 0, 'g', 6)
                       .arg(c.max, 0, 'g', 6);
  return text;
}

}  // namespace

void MainWindow::buildModelActions() {
  modelJob_ = new WorkerThread(this);
  openModelAction_ = new QAction(tr("Open model..."), this);
  openModelAction_->setToolTip(
      tr("Show a saved model.json or result.json as a finished fit over the loaded data, without refitting"));
  predictAction_ = new QAction(tr("Predict on CSV..."), this);
  predictAction_->setToolTip(
      tr("Apply the current model to a CSV file and write its predictions; reports rows outside the training range"));
  for (QAction* a : {openModelAction_, predictAction_}) a->setStatusTip(a->toolTip());
  connect(openModelAction_, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), QString(), tr("Model JSON (*.json)"));
    if (!path.isEmpty()) openModel(path);
  });
  connect(predictAction_, &QAction::triggered, this, [this] {
    const QString in = QFileDialog::getOpenFileName(this, tr("Predict: data"), QString(), dataFileFilter());
    if (in.isEmpty()) return;
    const QFileInfo info(in);
    const QString suggested = info.absoluteDir().filePath(info.completeBaseName() + ".predictions.csv");
    const QString out = saveFileName(this, tr("Predict: save predictions"), suggested, tr("CSV files (*.csv)"), "csv");
    if (!out.isEmpty()) predictCsv(in, out);
  });
  // A model shown from a file stops being the current one when a fit starts.
  connect(controller_, &FitController::stateChanged, this, [this](FitState s) {
    if (s != FitState::Running) return;
    openedModel_.reset();
    ++fitsStarted_;
  });
  // A session opens its model once its data is generated or read, queued so that the session's roles and
  // Cross-validation tab (applied by the window's own loadFinished handler) are in place first.
  // The path is taken when the queued call runs: the window's handler may drop it first (a session whose data
  // changed since it was saved, applyPendingRoles).
  connect(dataPanel_, &DataPanel::loadFinished, this, [this](bool ok) {
    if (!ok) {
      pendingModelPath_.clear();
      return;
    }
    QMetaObject::invokeMethod(
        this,
        [this] {
          const QString path = std::exchange(pendingModelPath_, QString());
          if (!path.isEmpty()) openModel(path);
        },
        Qt::QueuedConnection);
  });
}

bool MainWindow::openPaths(const QStringList& paths) {
  if (dataPanel_->isLoading()) {
    // The first start's demo data is still being generated: the files named win. Cancel it and open them when the
    // worker has stopped (a read or generate refuses to start while another runs).
    dataPanel_->cancelLoading();
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(dataPanel_, &DataPanel::loadFinished, this, [this, paths, once](bool) {
      disconnect(*once);
      QMetaObject::invokeMethod(
          this, [this, paths] { openPaths(paths); }, Qt::QueuedConnection);
    });
    return true;
  }
  if (controller_->isRunning() || cv_->isRunning()) {  // files dropped on the window while one runs
    sink_.error(tr("Open"), tr("A fit or cross-validation is running: cancel it first."));
    return false;
  }
  QString csv, model;
  for (const QString& path : paths) {
    if (!QFileInfo(path).isFile()) {
      sink_.error(tr("Open"), tr("%1: no such file").arg(path));
      return false;
    }
    if (path.endsWith(".gbs.json")) return openSession(path);
    (path.endsWith(".json", Qt::CaseInsensitive) ? model : csv) = path;
  }
  if (csv.isEmpty()) return model.isEmpty() || openModel(model);
  pendingModelPath_ = model;  // opened once the CSV is read (above)
  return dataPanel_->openCsv(csv);
}

std::shared_ptr<const gb::Model> MainWindow::currentModel() const {
  if (auto booster = controller_->booster(); booster && booster->iteration() > 0)
    return std::make_shared<const gb::Model>(booster->model());
  return openedModel_;
}

bool MainWindow::modelJobFree(const QString& title) {
  if (!controller_->isRunning() && !modelJob_->isRunning()) return true;
  sink_.error(title, tr("A fit, Open model or Predict is still running: wait for it or cancel it first."));
  return false;
}

void MainWindow::runModelJob(std::function<void(TaskWorker&)> work, ModelJobDone done) {
  auto connection = std::make_shared<QMetaObject::Connection>();
  *connection = connect(modelJob_, &WorkerThread::finished, this,
                        [connection, done](bool ok, const QString& error, const QString& details) {
                          disconnect(*connection);
                          done(ok, error, details);
                        });
  modelJob_->start(std::move(work));
}

bool MainWindow::openModel(const QString& path) {
  const QString title = tr("Open model");
  if (!modelJobFree(title)) return false;
  const auto data = dataPanel_->dataset();
  auto result = std::make_shared<OpenedModel>();
  result->fitsAtStart = fitsStarted_;
  const std::string source = ss(QFileInfo(path).fileName());
  // Reading the file, the learners' set-up over the data and the fitted values run on the worker.
  runModelJob(
      [result, path, data, source](TaskWorker&) {
        result->model = std::make_shared<const gb::Model>(gb::Model::load(ss(path)));
        if (data) result->snapshot = snapshotOfModel(*result->model, data, source);
      },
      [this, result, path, data, title](bool ok, const QString& error, const QString& details) {
        if (!ok) sink_.error(title, error, details);
        ok = ok && installOpenedModel(path, *result, data);
        emit modelOpened(ok);
      });
  sink_.info(tr("Opening model %1 ...").arg(path));
  return true;
}

bool MainWindow::installOpenedModel(const QString& path, OpenedModel& opened,
                                    const std::shared_ptr<const gb::Dataset>& data) {
  const QString title = tr("Open model");
  const gb::Model& model = *opened.model;
  if (!opened.snapshot) {
    QStringList columns{qs(model.settings.response)};
    for (const auto& l : model.learners) columns << qs(l.name);
    sink_.error(title, tr("%1 holds a model of %2 iterations, but no data is loaded. Its effects need the training "
                          "data (columns %3) for the rug and the centring: generate or open it (Data tab), then "
                          "open the model again.")
                           .arg(path)
                           .arg(model.pathLearner.size())
                           .arg(columns.join(", ")));
    return false;
  }
  if (fitsStarted_ != opened.fitsAtStart) {  // the user pressed Fit or Step meanwhile: that fit is what shows
    sink_.info(tr("A fit started while %1 was being opened: the model is not shown.").arg(path));
    return false;
  }
  if (dataPanel_->dataset() != data) {
    sink_.error(title, tr("The data changed while %1 was being opened: open it again.").arg(path));
    return false;
  }
  // The panels show what the model was fitted with (so that Fit refits the same model), then the views draw it.
  const gb::ModelSettings settings = settingsOfModel(model);
  demoMstop_ = false;  // the model's mstop is the user's
  modelPanel_->setSettings(settings);
  dataPanel_->setRoles(rolesOf(settings, *data));
  syncSettings();
  openedModel_ = opened.model;
  controller_->installSnapshot(std::move(*opened.snapshot));
  for (int i = 0; i < tabs_->count(); ++i) refreshView(tabs_->widget(i));
  sink_.info(tr("Opened model %1: %2 learners, %3 iterations, shown without refitting")
                 .arg(path)
                 .arg(model.learners.size())
                 .arg(model.pathLearner.size()));
  return true;
}

bool MainWindow::predictCsv(const QString& dataPath, const QString& outPath) {
  const QString title = tr("Predict");
  const auto model = currentModel();
  if (!model) {
    sink_.error(title, tr("No model yet: press Fit, or open a saved model (File > Open model...)."));
    return false;
  }
  if (QFileInfo(dataPath).absoluteFilePath() == QFileInfo(outPath).absoluteFilePath()) {
    sink_.error(title, tr("The predictions would overwrite the data file %1: choose another file.").arg(dataPath));
    return false;
  }
  if (!modelJobFree(title)) return false;
  auto result = std::make_shared<PredictionDone>();
  runModelJob(
      [model, dataPath, outPath, result](TaskWorker&) {
        const gb::Dataset data = gb::readCsv(ss(dataPath));
        gb::Prediction p = model->predict(data);
        result->rows = data.rows();
        result->extrapolated = p.extrapolatedRows;
        result->report = extrapolationReport(p, data.rows(), extrapolationByColumn(*model, data, p.values));
        result->missing = p.missingRows;
        if (p.missingRows > 0) result->missingReport = qs(gb::missingRowsNote(p, data.rows())) + ".";
        gb::Dataset table;
        table.names = {"prediction"};
        table.columns.push_back(p.values);
        if (hasResponseScale(*model)) {  // the probability or rate beside f, as `predict --type response` writes it
          model->toResponseScale(p.values, ss(dataPath));
          table.names.push_back("response");
          table.columns.push_back(std::move(p.values));
        }
        result->columns = table.names.size();
        gb::writeFileAtomically(ss(outPath), [&table](std::ostream& out) { gb::writeCsv(out, table); });
      },
      [this, result, dataPath, outPath, title](bool ok, const QString& error, const QString& details) {
        if (ok)
          reportPrediction(*result, dataPath, outPath);
        else
          sink_.error(title, error + tr(" (nothing was written)"), details);
        emit predictionFinished(ok);
      });
  sink_.info(tr("Predicting %1 ...").arg(dataPath));
  return true;
}

void MainWindow::reportPrediction(const PredictionDone& p, const QString& dataPath, const QString& outPath) {
  sink_.info(tr("Predicted %1 rows of %2 into %3 (column prediction: f on the link scale%4)")
                 .arg(p.rows)
                 .arg(dataPath, outPath,
                      p.columns > 1 ? tr("; column response: the probability or rate, as predict --type response")
                                    : QString()));
  if (p.missing > 0) sink_.warning(p.missingReport);
  if (p.extrapolated == 0)
    sink_.info(p.report);
  else
    sink_.warning(p.report);
  QStringList said;  // what a dialog repeats: rows predicted NA, rows extrapolated
  if (p.missing > 0) said << p.missingReport;
  if (p.extrapolated > 0) said << p.report;
  if (!said.isEmpty() && sink_.interactive()) QMessageBox::information(this, tr("Predict"), said.join("\n"));
}

}  // namespace gbui

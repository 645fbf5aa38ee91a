#include "data/DataPanel.hpp"

#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

#include "common/DataFileFilter.hpp"
#include "common/MessageSink.hpp"
#include "common/QtConvert.hpp"
#include "common/SystemResources.hpp"
#include "common/WorkerThread.hpp"
#include "data/ColumnRolesTable.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvText.hpp"
#include "data/GenerateJob.hpp"
#include "data/TrueEffects.hpp"

namespace gbui {

namespace {

constexpr int kPreviewRows = 20;

QSpinBox* spin(int lo, int hi, int value, const QString& tip) {
  auto* s = new QSpinBox;
  s->setRange(lo, hi);
  s->setValue(value);
  s->setToolTip(tip);
  s->setGroupSeparatorShown(true);
  return s;
}

}  // namespace

DataPanel::DataPanel(MessageSink* sink, QWidget* parent) : QWidget(parent), sink_(sink) {
  loader_ = new WorkerThread(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(buildGeneratorBox());
  layout->addWidget(buildFileBox());

  sourceLabel_ = new QLabel(tr("No data yet."));
  sourceLabel_->setWordWrap(true);
  layout->addWidget(sourceLabel_);
  preview_ = new QTableWidget;
  preview_->setToolTip(tr("The first %1 rows of the data").arg(kPreviewRows));
  preview_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  preview_->setMinimumHeight(120);
  preview_->horizontalHeader()->setDefaultSectionSize(80);
  preview_->setWordWrap(false);
  layout->addWidget(new QLabel(tr("Preview (first rows)")));
  layout->addWidget(preview_);
  roles_ = new ColumnRolesTable;
  roles_->setMinimumHeight(140);
  layout->addWidget(new QLabel(tr("Column roles")));
  layout->addWidget(roles_);

  connect(generate_, &QPushButton::clicked, this, &DataPanel::generate);
  connect(cancelGenerate_, &QPushButton::clicked, this, &DataPanel::cancelLoading);
  connect(open_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open CSV"), QString(), dataFileFilter());
    if (!path.isEmpty()) openCsv(path);
  });
  connect(cancelLoad_, &QPushButton::clicked, this, &DataPanel::cancelLoading);
  connect(roles_, &ColumnRolesTable::rolesChanged, this, &DataPanel::rolesChanged);
  connect(loader_, &WorkerThread::progress, this, [this](double f, const QString&) {
    (job_ == Job::Generate ? genProgress_ : progress_)->setValue(int(f * 1000));
  });
  for (QSpinBox* s : {rows_, covariates_}) connect(s, &QSpinBox::valueChanged, this, &DataPanel::updateEstimate);
  updateEstimate();
  showSourceInUse();
}

QGroupBox* DataPanel::buildGeneratorBox() {
  auto* gen = new QGroupBox;
  genBox_ = gen;
  auto* outer = new QVBoxLayout(gen);
  genToggle_ = new QToolButton;
  genToggle_->setText(tr("Settings"));
  genToggle_->setCheckable(true);
  genToggle_->setChecked(true);
  genToggle_->setArrowType(Qt::DownArrow);
  genToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  genToggle_->setAutoRaise(true);
  genToggle_->setToolTip(tr("Show or hide the generator's settings (hidden while a CSV file holds the data)"));
  outer->addWidget(genToggle_);
  genSettings_ = new QWidget;
  auto* form = new QFormLayout(genSettings_);
  form->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(genSettings_);
  connect(genToggle_, &QToolButton::toggled, this, [this](bool shown) {
    genSettings_->setVisible(shown);
    genToggle_->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
  });
  rows_ = spin(10, 50'000'000, 5000, tr("Rows n (the paper: 1e3 to 1e6)"));
  covariates_ = spin(1, 10000, 100, tr("Covariates p, each x ~ U(0, 1)"));
  informative_ = spin(0, 10000, 20, tr("How many covariates carry 10 sin(2 pi x); chosen by the seed"));
  noise_ = new QDoubleSpinBox;
  noise_->setDecimals(6);
  noise_->setRange(0.0, 1e6);
  noise_->setValue(1e-3);
  noise_->setSingleStep(0.001);
  noise_->setToolTip(tr("Variance of the Gaussian noise added to y"));
  seed_ = spin(0, 2'000'000'000, 1, tr("Random seed: the same seed gives the same data on any machine"));
  form->addRow(tr("Rows"), rows_);
  form->addRow(tr("Covariates"), covariates_);
  form->addRow(tr("Informative"), informative_);
  form->addRow(tr("Noise variance"), noise_);
  form->addRow(tr("Seed"), seed_);
  estimate_ = new QLabel;
  estimate_->setWordWrap(true);
  estimate_->setToolTip(tr("Memory the generated table will take, against what this machine has free now"));
  form->addRow(estimate_);
  auto* actions = new QFormLayout;
  outer->addLayout(actions);
  generate_ = new QPushButton(tr("Generate"));
  generate_->setToolTip(tr("Generate the paper's data with these settings (replaces the current data)"));
  cancelGenerate_ = new QPushButton(tr("Cancel"));
  cancelGenerate_->setToolTip(tr("Stop generating (the current data stays)"));
  cancelGenerate_->setEnabled(false);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(generate_);
  buttons->addWidget(cancelGenerate_);
  actions->addRow(buttons);
  genProgress_ = new QProgressBar;
  genProgress_->setRange(0, 1000);
  genProgress_->setValue(0);
  genProgress_->setToolTip(tr("Progress of Generate"));
  actions->addRow(genProgress_);
  return gen;
}

QGroupBox* DataPanel::buildFileBox() {
  auto* fileBox = new QGroupBox;
  fileBox_ = fileBox;
  auto* fileLayout = new QVBoxLayout(fileBox);
  auto* buttons = new QHBoxLayout;
  open_ = new QPushButton(tr("Open CSV..."));
  open_->setToolTip(
      tr("Read a CSV file with a header row: numbers, text columns (factors), NA cells, R's row names (Ctrl+O)"));
  cancelLoad_ = new QPushButton(tr("Cancel"));
  cancelLoad_->setToolTip(tr("Stop reading the CSV file (the current data stays)"));
  cancelLoad_->setEnabled(false);
  buttons->addWidget(open_);
  buttons->addWidget(cancelLoad_);
  fileLayout->addLayout(buttons);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setToolTip(tr("Progress of the CSV read"));
  fileLayout->addWidget(progress_);
  return fileBox;
}

DataPanel::~DataPanel() { shutdown(); }

gb::PaperDataSpec DataPanel::generatorSpec() const {
  gb::PaperDataSpec s;
  s.rows = static_cast<std::size_t>(rows_->value());
  s.covariates = covariates_->value();
  s.informative = informative_->value();
  s.noiseVariance = noise_->value();
  s.seed = static_cast<std::uint64_t>(seed_->value());
  return s;
}

void DataPanel::setGeneratorSpec(const gb::PaperDataSpec& s) {
  rows_->setValue(static_cast<int>(s.rows));
  covariates_->setValue(s.covariates);
  informative_->setValue(s.informative);
  noise_->setValue(s.noiseVariance);
  seed_->setValue(static_cast<int>(s.seed));
}

bool DataPanel::acceptSpec(const gb::PaperDataSpec& spec) {
  const QString title = tr("Generate data");
  if (spec.informative > spec.covariates) {
    sink_->error(title,
                 tr("Informative (%1) cannot exceed Covariates (%2).").arg(spec.informative).arg(spec.covariates));
    return false;
  }
  const std::uint64_t bytes = estimatedGenerateBytes(spec), available = gb::availableMemoryBytes();
  const QString need = tr("%1 rows of %2 columns need about %3 of memory; %4 is free.")
                           .arg(QLocale().toString(qulonglong(spec.rows)))
                           .arg(spec.covariates + 1)
                           .arg(qs(gb::describeBytes(bytes)), qs(gb::describeBytes(available)));
  switch (judgeMemory(bytes, available)) {
    case MemoryVerdict::Fine:
      return true;
    case MemoryVerdict::TooLarge:
      sink_->error(title, need + " " + tr("That leaves nothing for the fit: lower Rows or Covariates."));
      return false;
    case MemoryVerdict::Large:
      break;
  }
  if (!sink_->interactive()) {
    sink_->warning(need);
    return true;
  }
  const auto answer = QMessageBox::question(this, title, need + "\n\n" + tr("Generate this much data?"),
                                            QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
  if (answer == QMessageBox::Yes) return true;
  sink_->info(tr("Generate not started (%1)").arg(need));
  return false;
}

void DataPanel::updateEstimate() {
  const std::uint64_t bytes = estimatedGenerateBytes(generatorSpec()), available = gb::availableMemoryBytes();
  QString text = tr("Memory: about %1 (%2 free).").arg(qs(gb::describeBytes(bytes)), qs(gb::describeBytes(available)));
  switch (judgeMemory(bytes, available)) {
    case MemoryVerdict::Fine:
      break;
    case MemoryVerdict::Large:
      text += " " + tr("Large: Generate asks first.");
      break;
    case MemoryVerdict::TooLarge:
      text += " " + tr("Too large: lower Rows or Covariates.");
      break;
  }
  estimate_->setText(text);
}

QString DataPanel::unchangedNote() const { return data_ ? tr(" (the current data is unchanged)") : QString(); }

bool DataPanel::notBusy(const QString& title) {
  if (!loader_->isRunning()) return true;
  sink_->error(title, tr("Data is still being read or generated: wait for it or press Cancel."));
  return false;
}

bool DataPanel::runJob(Job job, TaskWorker::Work work, JobDone done) {
  if (!notBusy(job == Job::Generate ? tr("Generate data") : tr("Open CSV"))) return false;
  auto connection = std::make_shared<QMetaObject::Connection>();
  *connection = connect(loader_, &WorkerThread::finished, this,
                        [this, connection, job, done](bool ok, const QString& error, const QString& details) {
                          disconnect(*connection);
                          job_ = Job::None;
                          setBusy(false);
                          const bool cancelled = !ok && loader_->cancelRequested();
                          showOutcome(job, ok, cancelled);
                          done(ok, cancelled, error, details);
                        });
  job_ = job;
  startBar(barOf(job));
  loader_->start(std::move(work));
  setBusy(true);
  return true;
}

void DataPanel::setBusy(bool busy) {
  // The job's Cancel takes the focus before its Generate or Open button is disabled: Qt moved the focus of a
  // disabled button to the next widget in the chain (the preview table), and the panel's scroll area followed it,
  // taking the Cancel out of view.
  // At the job's end the same in reverse: Generate and Open come back first and take the focus from a Cancel.
  if (busy) {
    QPushButton* cancel = job_ == Job::Generate ? cancelGenerate_ : cancelLoad_;
    cancelGenerate_->setEnabled(job_ == Job::Generate);
    cancelLoad_->setEnabled(job_ == Job::Read);
    if (generate_->hasFocus() || open_->hasFocus()) cancel->setFocus(Qt::OtherFocusReason);
    generate_->setEnabled(false);
    open_->setEnabled(false);
    return;
  }
  generate_->setEnabled(true);
  open_->setEnabled(true);
  if (cancelGenerate_->hasFocus()) generate_->setFocus(Qt::OtherFocusReason);
  if (cancelLoad_->hasFocus()) open_->setFocus(Qt::OtherFocusReason);
  cancelGenerate_->setEnabled(false);
  cancelLoad_->setEnabled(false);
}

bool DataPanel::generate() {
  const gb::PaperDataSpec spec = generatorSpec();
  if (!notBusy(tr("Generate data")) || !acceptSpec(spec)) return false;
  auto result = std::make_shared<std::shared_ptr<GeneratedData>>();
  auto work = [result, spec](TaskWorker& w) { *result = generateInWorker(spec, w); };
  auto done = [this, result](bool ok, bool cancelled, const QString& error, const QString& details) {
    if (ok) {
      installGenerated((*result)->paper, (*result)->missing);
      result->reset();
    } else if (cancelled) {
      sink_->info(tr("Generate cancelled; the data is unchanged"));
    } else {
      sink_->error(tr("Generate data"), error + unchangedNote(), details);
    }
    emit loadFinished(ok);
  };
  DataSourceSpec what;
  what.kind = DataSourceSpec::Kind::Paper;
  what.paper = spec;
  sink_->info(tr("Generating %1 ...").arg(what.describe()));
  return runJob(Job::Generate, std::move(work), std::move(done));
}

bool DataPanel::generateNow() {
  const gb::PaperDataSpec spec = generatorSpec();
  if (!notBusy(tr("Generate data")) || !acceptSpec(spec)) return false;
  try {
    gb::PaperData paper = gb::generatePaperData(spec);
    installGenerated(paper, std::vector<std::size_t>(paper.data.cols(), 0));
    return true;
  } catch (const std::exception& e) {
    sink_->exception(tr("Generate data"), e);
    return false;
  }
}

void DataPanel::installGenerated(gb::PaperData& paper, const std::vector<std::size_t>& missing) {
  DataSourceSpec source;
  source.kind = DataSourceSpec::Kind::Paper;
  source.paper = paper.spec;
  QStringList informative;
  for (const auto& n : paper.informative) informative << qs(n);
  truth_ = std::make_shared<const gb::TrueEffects>(gb::trueEffectsOf(paper));
  install(std::make_shared<const gb::Dataset>(std::move(paper.data)), source, missing);
  sink_->info(tr("Generated %1; informative: %2").arg(source.describe(), informative.join(", ")));
}

bool DataPanel::openCsv(const QString& path) {
  if (loader_->isRunning()) return false;
  auto result = std::make_shared<std::shared_ptr<gb::Dataset>>();
  auto missing = std::make_shared<std::vector<std::size_t>>();
  auto truth = std::make_shared<std::shared_ptr<const gb::TrueEffects>>();
  auto truthProblem = std::make_shared<QString>();
  auto done = [this, result, missing, truth, truthProblem, path](bool ok, bool cancelled, const QString& error,
                                                                 const QString& details) {
    if (ok) {
      DataSourceSpec source;
      source.kind = DataSourceSpec::Kind::Csv;
      source.path = path;
      const gb::Dataset& read = **result;  // said before install, whose listeners may add their own notes
      sink_->info(tr("Read %1: %2 rows, %3 columns").arg(path).arg(read.rows()).arg(read.cols()) +
                  (read.rowLabelsNote.empty() ? QString() : "; " + qs(read.rowLabelsNote)));
      if (!read.textColumnsNote.empty()) sink_->warning(qs(read.textColumnsNote));
      adoptCsvTruth(*truth, *truthProblem);
      install(std::move(*result), source, *missing);
      if (gb::csv::headerIsNumbers(data_->names))
        sink_->warning(tr("%1: line 1 holds only numbers, so its values became the column names and the first data "
                          "row is missing. Is the header row missing? R's write.csv writes one.")
                           .arg(path));
      emit recentFileUsed(path);
    } else if (cancelled) {
      sink_->info(tr("Reading %1 cancelled; the data is unchanged").arg(path));
    } else {
      sink_->error(tr("Open CSV"), error + unchangedNote(), details);
    }
    emit loadFinished(ok);
  };
  auto work = [result, missing, truth, truthProblem, path](TaskWorker& w) {
    auto data = gb::readCsv(ss(path), {}, [&w](std::uint64_t done, std::uint64_t total) {
      w.reportProgress(total ? double(done) / double(total) : 0.0, {});
      return !w.cancelRequested();
    });
    // Counted here, not in the roles table: a scan of every cell has no place on the window's thread.
    for (std::size_t c = 0; c < data.cols(); ++c) missing->push_back(data.missingCount(c));
    *result = std::make_shared<gb::Dataset>(std::move(data));
    try {  // a truth file that cannot be used costs the overlay, not the data
      if (auto t = gb::readTrueEffects(ss(path))) *truth = std::make_shared<const gb::TrueEffects>(std::move(*t));
    } catch (const std::exception& e) {
      *truthProblem = QString::fromStdString(e.what());
    }
  };
  sink_->info(tr("Reading %1 ...").arg(path));
  return runJob(Job::Read, std::move(work), std::move(done));
}

QProgressBar* DataPanel::barOf(Job job) const { return job == Job::Generate ? genProgress_ : progress_; }

void DataPanel::startBar(QProgressBar* bar) {
  bar->setFormat(QStringLiteral("%p%"));
  bar->setValue(0);
}

// A job's bar ends full, or empty saying why (the data is then unchanged); a job that brings new data empties the
// other source's bar, which would otherwise still show its own last load.
void DataPanel::showOutcome(Job job, bool ok, bool cancelled) {
  QProgressBar* bar = barOf(job);
  bar->setFormat(ok          ? QStringLiteral("%p%")
                 : cancelled ? tr("cancelled")
                 : data_     ? tr("failed; data unchanged")
                             : tr("failed"));
  bar->setValue(ok ? 1000 : 0);
  if (ok) startBar(barOf(job == Job::Generate ? Job::Read : Job::Generate));
}

bool DataPanel::isLoading() const { return loader_->isRunning(); }
void DataPanel::cancelLoading() { loader_->cancel(); }

void DataPanel::shutdown() {
  loader_->cancel();
  loader_->wait();
}

ColumnRoles DataPanel::roles() const { return roles_->roles(); }
void DataPanel::setRoles(const ColumnRoles& roles) { roles_->setRoles(roles); }

void DataPanel::useDataset(std::shared_ptr<const gb::Dataset> data) {
  if (!data || loader_->isRunning()) return;
  std::vector<std::size_t> missing;
  for (std::size_t c = 0; c < data->cols(); ++c) missing.push_back(data->missingCount(c));
  truth_.reset();
  install(std::move(data), DataSourceSpec{}, missing);
}

void DataPanel::install(std::shared_ptr<const gb::Dataset> data, const DataSourceSpec& source,
                        const std::vector<std::size_t>& missing) {
  data_ = std::move(data);
  source_ = source;
  const QString what = source.kind == DataSourceSpec::Kind::None
                           ? tr("data set %1").arg(data_->source.empty() ? tr("in memory") : qs(data_->source))
                           : source.describe();
  sourceLabel_->setText(tr("%1 (%2 rows, %3 columns)").arg(what).arg(data_->rows()).arg(data_->cols()));
  sourceLabel_->setToolTip(sourceLabel_->text());
  fillPreview();
  roles_->setColumns(*data_, missing);
  showSourceInUse();
  emit dataChanged();
}

void DataPanel::showSourceInUse() {
  const bool paper = data_ && source_.kind == DataSourceSpec::Kind::Paper;
  const bool file = data_ && source_.kind == DataSourceSpec::Kind::Csv;
  genBox_->setTitle(paper ? tr("Paper's simulated data (in use)") : tr("Paper's simulated data"));
  fileBox_->setTitle(file ? tr("CSV file (in use)") : tr("CSV file"));
  if (paper || file) genToggle_->setChecked(paper);
}

void DataPanel::adoptCsvTruth(std::shared_ptr<const gb::TrueEffects> truth, const QString& problem) {
  truth_ = std::move(truth);
  if (!problem.isEmpty())
    sink_->warning(tr("The truth file beside the data is not usable, so no true effects are shown: %1").arg(problem));
  else if (truth_ && !truth_->effectKnown())
    sink_->warning(tr("%1: the effect \"%2\" is not one the window can draw (it draws \"%3\"); no true effects "
                      "are shown")
                       .arg(qs(truth_->source), qs(truth_->effect), qs(gb::kPaperEffectFormula)));
  else if (truth_)
    sink_->info(tr("True effects from %1 (informative: %2)")
                    .arg(qs(truth_->source))
                    .arg(static_cast<int>(truth_->informative.size())));
}

namespace {

// A cell as R prints it: NA for a missing value, a text column's level, else the number.
QString cellText(const gb::Dataset& data, int c, int r) {
  const double v = data.columns[c][r];
  if (std::isnan(v)) return QStringLiteral("NA");
  const auto& levels = data.levelsOf(static_cast<std::size_t>(c));
  if (data.isText(static_cast<std::size_t>(c)) && v >= 0 && v < static_cast<double>(levels.size()))
    return qs(levels[static_cast<std::size_t>(v)]);
  return QString::number(v, 'g', 6);
}

}  // namespace

void DataPanel::fillPreview() {
  const int rows = static_cast<int>(std::min<std::size_t>(kPreviewRows, data_->rows()));
  const int cols = static_cast<int>(data_->cols());
  preview_->clear();
  preview_->setRowCount(rows);
  preview_->setColumnCount(cols);
  QStringList headers;
  for (const auto& n : data_->names) headers << qs(n);
  preview_->setHorizontalHeaderLabels(headers);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) preview_->setItem(r, c, new QTableWidgetItem(cellText(*data_, c, r)));
  preview_->scrollToTop();  // a new file's first rows, not the old one's scroll position
  preview_->horizontalScrollBar()->setValue(0);
}

}  // namespace gbui

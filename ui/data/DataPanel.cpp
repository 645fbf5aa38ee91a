#include "data/DataPanel.hpp"

#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "common/MessageSink.hpp"
#include "common/QtConvert.hpp"
#include "common/WorkerThread.hpp"
#include "data/ColumnRolesTable.hpp"
#include "data/CsvReader.hpp"

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

  auto* gen = new QGroupBox(tr("Paper's simulated data"));
  auto* form = new QFormLayout(gen);
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
  generate_ = new QPushButton(tr("Generate"));
  generate_->setToolTip(tr("Generate the paper's data with these settings (replaces the current data)"));
  form->addRow(generate_);
  layout->addWidget(gen);

  auto* fileBox = new QGroupBox(tr("CSV file"));
  auto* fileLayout = new QVBoxLayout(fileBox);
  auto* buttons = new QHBoxLayout;
  open_ = new QPushButton(tr("Open CSV..."));
  open_->setToolTip(tr("Read a numeric CSV file with a header row (Ctrl+O)"));
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
  layout->addWidget(fileBox);

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
  connect(open_, &QPushButton::clicked, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open CSV"), QString(), tr("CSV files (*.csv *.txt);;All files (*)"));
    if (!path.isEmpty()) openCsv(path);
  });
  connect(cancelLoad_, &QPushButton::clicked, this, &DataPanel::cancelLoading);
  connect(roles_, &ColumnRolesTable::rolesChanged, this, &DataPanel::rolesChanged);
  connect(loader_, &WorkerThread::progress, this,
          [this](double f, const QString&) { progress_->setValue(int(f * 1000)); });
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

bool DataPanel::generate() {
  const gb::PaperDataSpec spec = generatorSpec();
  try {
    gb::PaperData paper = gb::generatePaperData(spec);
    DataSourceSpec source;
    source.kind = DataSourceSpec::Kind::Paper;
    source.paper = spec;
    QStringList informative;
    for (const auto& n : paper.informative) informative << qs(n);
    install(std::make_shared<const gb::Dataset>(std::move(paper.data)), source);
    sink_->info(tr("Generated %1; informative: %2").arg(source.describe(), informative.join(", ")));
    return true;
  } catch (const std::exception& e) {
    sink_->exception(tr("Generate data"), e);
    return false;
  }
}

bool DataPanel::openCsv(const QString& path) {
  if (loader_->isRunning()) return false;
  auto result = std::make_shared<std::shared_ptr<gb::Dataset>>();
  auto connection = std::make_shared<QMetaObject::Connection>();
  *connection =
      connect(loader_, &WorkerThread::finished, this,
              [this, result, path, connection](bool ok, const QString& error, const QString& details) {
                disconnect(*connection);
                open_->setEnabled(true);
                cancelLoad_->setEnabled(false);
                if (ok) {
                  DataSourceSpec source;
                  source.kind = DataSourceSpec::Kind::Csv;
                  source.path = path;
                  install(std::move(*result), source);
                  sink_->info(tr("Read %1: %2 rows, %3 columns").arg(path).arg(data_->rows()).arg(data_->cols()));
                  emit recentFileUsed(path);
                } else if (error.contains("cancelled")) {
                  sink_->info(tr("Reading %1 cancelled; the data is unchanged").arg(path));
                } else {
                  sink_->error(tr("Open CSV"), error + tr(" (the current data is unchanged)"), details);
                }
                progress_->setValue(ok ? 1000 : 0);
                emit loadFinished(ok);
              });
  loader_->start([result, path](TaskWorker& w) {
    auto data = gb::readCsv(ss(path), {}, [&w](std::uint64_t done, std::uint64_t total) {
      w.reportProgress(total ? double(done) / double(total) : 0.0, {});
      return !w.cancelRequested();
    });
    *result = std::make_shared<gb::Dataset>(std::move(data));
  });
  open_->setEnabled(false);
  cancelLoad_->setEnabled(true);
  progress_->setValue(0);
  sink_->info(tr("Reading %1 ...").arg(path));
  return true;
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
  install(std::move(data), DataSourceSpec{});
}

void DataPanel::install(std::shared_ptr<const gb::Dataset> data, const DataSourceSpec& source) {
  data_ = std::move(data);
  source_ = source;
  const QString what = source.kind == DataSourceSpec::Kind::None
                           ? tr("data set %1").arg(data_->source.empty() ? tr("in memory") : qs(data_->source))
                           : source.describe();
  sourceLabel_->setText(tr("%1 (%2 rows, %3 columns)").arg(what).arg(data_->rows()).arg(data_->cols()));
  sourceLabel_->setToolTip(sourceLabel_->text());
  fillPreview();
  roles_->setColumns(*data_);
  emit dataChanged();
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
}

}  // namespace gbui

#pragma once
// The data side: generate the paper's simulated data or read a CSV file (on a worker thread, with progress),
// preview the first rows and assign column roles. A failed read changes nothing.
#include <QWidget>
#include <functional>
#include <memory>

#include "data/DataSource.hpp"
#include "data/Dataset.hpp"

class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QToolButton;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace gb {
struct TrueEffects;
}

namespace gbui {

class ColumnRolesTable;
class MessageSink;
class TaskWorker;
class WorkerThread;

class DataPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DataPanel(MessageSink* sink, QWidget* parent = nullptr);
  ~DataPanel() override;

  std::shared_ptr<const gb::Dataset> dataset() const { return data_; }
  const DataSourceSpec& source() const { return source_; }
  // The truth behind the data (generated here, or a CSV's "<csv>.truth.json"); null when there is none.
  std::shared_ptr<const gb::TrueEffects> truth() const { return truth_; }
  ColumnRoles roles() const;
  void setRoles(const ColumnRoles& roles);

  gb::PaperDataSpec generatorSpec() const;
  void setGeneratorSpec(const gb::PaperDataSpec& spec);
  // Starts generating from the spin boxes on a worker thread (progress, Cancel; loadFinished when done); false (and
  // a message) on bad options, a table too large for the memory, or a read or generate still running. Above 1 GiB
  // it asks first (interactive) or warns (tests, scripts).
  bool generate();
  // The same on the calling thread, for scripts, benchmarks and tests that need the data at once.
  bool generateNow();
  bool openCsv(const QString& path);  // starts the background read; false if one is running
  // Data made elsewhere (a script, a test): installed as it is; a session cannot bring it back.
  void useDataset(std::shared_ptr<const gb::Dataset> data);
  bool isLoading() const;  // a CSV read or a generate is running
  void cancelLoading();
  void shutdown();

  QPushButton* generateButton() const { return generate_; }
  QPushButton* cancelGenerateButton() const { return cancelGenerate_; }
  QLabel* memoryEstimateLabel() const { return estimate_; }
  QPushButton* openButton() const { return open_; }
  QTableWidget* previewTable() const { return preview_; }
  QGroupBox* generatorBox() const { return genBox_; }
  QGroupBox* fileBox() const { return fileBox_; }
  QToolButton* generatorSettingsToggle() const { return genToggle_; }
  ColumnRolesTable* rolesTable() const { return roles_; }

 signals:
  void dataChanged();
  void rolesChanged();
  // After a background read ended (ok: the data was replaced).
  void loadFinished(bool ok);
  void recentFileUsed(const QString& path);

 private:
  enum class Job { None, Read, Generate };
  // `cancelled`: the job failed after Cancel was pressed (the worker's flag, not the message: a file or column named
  // "cancelled" must not turn a read error into a cancellation).
  using JobDone = std::function<void(bool ok, bool cancelled, const QString& error, const QString& details)>;
  QGroupBox* buildGeneratorBox();
  QGroupBox* buildFileBox();
  // Checks the spec in the window's words and its memory (asks or refuses); false after a message.
  bool acceptSpec(const gb::PaperDataSpec& spec);
  void updateEstimate();
  bool notBusy(const QString& title);  // false (and a message) while a read or generate runs
  // " (the current data is unchanged)" after a failed read, or nothing where there is no data yet.
  QString unchangedNote() const;
  bool runJob(Job job, std::function<void(TaskWorker&)> work, JobDone done);
  QProgressBar* barOf(Job job) const;  // the job's data source's progress bar
  static void startBar(QProgressBar* bar);
  void showOutcome(Job job, bool ok, bool cancelled);
  void setBusy(bool busy);
  void installGenerated(gb::PaperData& paper, const std::vector<std::size_t>& missing);
  // missing: per column, counted off the window's thread.
  void install(std::shared_ptr<const gb::Dataset> data, const DataSourceSpec& source,
               const std::vector<std::size_t>& missing);
  void fillPreview();
  // The two sources' titles say which one holds the data; the generator's settings fold away while a file does.
  void showSourceInUse();
  // Takes a CSV's truth file as read on the worker (or why it was not usable) and says so in the log.
  void adoptCsvTruth(std::shared_ptr<const gb::TrueEffects> truth, const QString& problem);

  MessageSink* sink_;
  QSpinBox* rows_;
  QSpinBox* covariates_;
  QSpinBox* informative_;
  QDoubleSpinBox* noise_;
  QSpinBox* seed_;
  QPushButton* generate_;
  QPushButton* open_;
  QPushButton* cancelLoad_;
  QPushButton* cancelGenerate_;
  QProgressBar* progress_;
  QProgressBar* genProgress_;
  QLabel* estimate_;
  QGroupBox* genBox_;
  QGroupBox* fileBox_;
  QToolButton* genToggle_;
  QWidget* genSettings_;
  Job job_ = Job::None;
  QLabel* sourceLabel_;
  QTableWidget* preview_;
  ColumnRolesTable* roles_;
  WorkerThread* loader_;
  std::shared_ptr<const gb::Dataset> data_;
  DataSourceSpec source_;
  std::shared_ptr<const gb::TrueEffects> truth_;
};

}  // namespace gbui

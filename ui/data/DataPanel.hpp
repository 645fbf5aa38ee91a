#pragma once
// The data side: generate the paper's simulated data or read a CSV file (on a worker thread, with progress),
// preview the first rows and assign column roles. A failed read changes nothing.
#include <QWidget>
#include <memory>

#include "data/DataSource.hpp"
#include "data/Dataset.hpp"

class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace gbui {

class ColumnRolesTable;
class MessageSink;
class WorkerThread;

class DataPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DataPanel(MessageSink* sink, QWidget* parent = nullptr);
  ~DataPanel() override;

  std::shared_ptr<const gb::Dataset> dataset() const { return data_; }
  const DataSourceSpec& source() const { return source_; }
  ColumnRoles roles() const;
  void setRoles(const ColumnRoles& roles);

  gb::PaperDataSpec generatorSpec() const;
  void setGeneratorSpec(const gb::PaperDataSpec& spec);
  bool generate();                    // from the spin boxes; false (and a message) on bad options
  bool openCsv(const QString& path);  // starts the background read; false if one is running
  // Data made elsewhere (a script, a test): installed as it is; a session cannot bring it back.
  void useDataset(std::shared_ptr<const gb::Dataset> data);
  bool isLoading() const;
  void cancelLoading();
  void shutdown();

  QPushButton* generateButton() const { return generate_; }
  QPushButton* openButton() const { return open_; }
  QTableWidget* previewTable() const { return preview_; }
  ColumnRolesTable* rolesTable() const { return roles_; }

 signals:
  void dataChanged();
  void rolesChanged();
  // After a background read ended (ok: the data was replaced).
  void loadFinished(bool ok);
  void recentFileUsed(const QString& path);

 private:
  void install(std::shared_ptr<const gb::Dataset> data, const DataSourceSpec& source);
  void fillPreview();

  MessageSink* sink_;
  QSpinBox* rows_;
  QSpinBox* covariates_;
  QSpinBox* informative_;
  QDoubleSpinBox* noise_;
  QSpinBox* seed_;
  QPushButton* generate_;
  QPushButton* open_;
  QPushButton* cancelLoad_;
  QProgressBar* progress_;
  QLabel* sourceLabel_;
  QTableWidget* preview_;
  ColumnRolesTable* roles_;
  WorkerThread* loader_;
  std::shared_ptr<const gb::Dataset> data_;
  DataSourceSpec source_;
};

}  // namespace gbui

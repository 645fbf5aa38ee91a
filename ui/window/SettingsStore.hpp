#pragma once
// What the studio remembers between runs (QSettings): model and compute settings, the generator spec, window
// geometry and state, recent files. A file path instead of the platform default keeps tests and benchmark runs
// away from the user's settings.
#include <QByteArray>
#include <QSettings>
#include <QStringList>
#include <memory>
#include <optional>

#include "data/DataSource.hpp"
#include "data/PaperData.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

namespace gbui {

class SettingsStore {
 public:
  // Empty path: the platform's settings for the application's organisation and name.
  explicit SettingsStore(const QString& path = {});

  bool hasSavedSettings() const;
  std::optional<gb::ModelSettings> modelSettings() const;
  void setModelSettings(const gb::ModelSettings& s);
  std::optional<gb::ComputeSettings> computeSettings() const;
  void setComputeSettings(const gb::ComputeSettings& s);
  std::optional<gb::PaperDataSpec> generatorSpec() const;
  void setGeneratorSpec(const gb::PaperDataSpec& s);

  QByteArray geometry() const;
  QByteArray windowState() const;
  void setWindow(const QByteArray& geometry, const QByteArray& state);

  // The CSV file on show when the window closed ("" after generated data): a restart reopens it.
  QString lastDataFile() const;
  void setLastDataFile(const QString& path);
  // That file's column roles (response, learners, ...), which the restart gives it back; none after generated data.
  std::optional<ColumnRoles> lastDataRoles() const;
  void setLastDataRoles(const std::optional<ColumnRoles>& roles);

  QStringList recentFiles() const;
  void addRecentFile(const QString& path);
  static constexpr int kMaxRecent = 8;

  void sync() { settings_->sync(); }

 private:
  std::unique_ptr<QSettings> settings_;
};

}  // namespace gbui

#include "window/SettingsStore.hpp"

#include <QFileInfo>
#include <nlohmann/json.hpp>

#include "window/SessionFile.hpp"

namespace gbui {

namespace {

// Settings are stored as the engine's JSON so they follow the same validation as the CLI's files; a value
// that no longer parses (an older version, a hand edit) is treated as absent rather than failing the start.
template <class T>
std::optional<T> fromJsonText(const QVariant& v) {
  if (!v.isValid()) return std::nullopt;
  try {
    T out;
    nlohmann::json::parse(v.toString().toStdString()).get_to(out);
    return out;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

template <class T>
QString toJsonText(const T& value) {
  return QString::fromStdString(nlohmann::json(value).dump());
}

}  // namespace

SettingsStore::SettingsStore(const QString& path)
    : settings_(path.isEmpty() ? std::make_unique<QSettings>()
                               : std::make_unique<QSettings>(path, QSettings::IniFormat)) {}

bool SettingsStore::hasSavedSettings() const { return settings_->contains("model/settings"); }

std::optional<gb::ModelSettings> SettingsStore::modelSettings() const {
  return fromJsonText<gb::ModelSettings>(settings_->value("model/settings"));
}
void SettingsStore::setModelSettings(const gb::ModelSettings& s) {
  settings_->setValue("model/settings", toJsonText(s));
}

std::optional<gb::ComputeSettings> SettingsStore::computeSettings() const {
  return fromJsonText<gb::ComputeSettings>(settings_->value("model/compute"));
}
void SettingsStore::setComputeSettings(const gb::ComputeSettings& s) {
  settings_->setValue("model/compute", toJsonText(s));
}

std::optional<gb::PaperDataSpec> SettingsStore::generatorSpec() const {
  if (!settings_->contains("data/rows")) return std::nullopt;
  gb::PaperDataSpec s;
  s.rows = settings_->value("data/rows").toULongLong();
  s.covariates = settings_->value("data/covariates").toInt();
  s.informative = settings_->value("data/informative").toInt();
  s.noiseVariance = settings_->value("data/noise_var").toDouble();
  s.seed = settings_->value("data/seed").toULongLong();
  return s;
}

void SettingsStore::setGeneratorSpec(const gb::PaperDataSpec& s) {
  settings_->setValue("data/rows", qulonglong(s.rows));
  settings_->setValue("data/covariates", s.covariates);
  settings_->setValue("data/informative", s.informative);
  settings_->setValue("data/noise_var", s.noiseVariance);
  settings_->setValue("data/seed", qulonglong(s.seed));
}

QByteArray SettingsStore::geometry() const { return settings_->value("window/geometry").toByteArray(); }
QByteArray SettingsStore::windowState() const { return settings_->value("window/state").toByteArray(); }
void SettingsStore::setWindow(const QByteArray& geometry, const QByteArray& state) {
  settings_->setValue("window/geometry", geometry);
  settings_->setValue("window/state", state);
}

QString SettingsStore::lastDataFile() const { return settings_->value("data/last_file").toString(); }
void SettingsStore::setLastDataFile(const QString& path) {
  settings_->setValue("data/last_file", path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath());
}

std::optional<ColumnRoles> SettingsStore::lastDataRoles() const {
  return settings_->contains("data/last_roles") ? rolesFromText(settings_->value("data/last_roles").toString())
                                                : std::nullopt;
}

void SettingsStore::setLastDataRoles(const std::optional<ColumnRoles>& roles) {
  if (roles)
    settings_->setValue("data/last_roles", rolesToText(*roles));
  else
    settings_->remove("data/last_roles");
}

QStringList SettingsStore::recentFiles() const { return settings_->value("recent/files").toStringList(); }

void SettingsStore::addRecentFile(const QString& path) {
  QStringList files = recentFiles();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecent) files.removeLast();
  settings_->setValue("recent/files", files);
}

}  // namespace gbui

#pragma once
// A session file (JSON): the data (generator spec or CSV path), column roles, model and compute settings, the path
// of a saved model.json, and the Cross-validation tab (its controls and a finished run's curves). Reopening
// regenerates or rereads the data and restores everything else.
#include <QString>
#include <optional>

#include "data/DataSource.hpp"
#include "fit/CvJob.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {
struct Dataset;
}

namespace gbui {

struct Session {
  DataSourceSpec data;
  ColumnRoles roles;
  gb::ModelSettings settings;
  gb::ComputeSettings compute;
  QString modelPath;  // empty: no model saved
  int bands = 0;      // "bands": B of the bootstrap bands a finished fit gets, 0 off (older sessions have none)
  CvState cv;         // "cross_validation" (optional in the file: older sessions have none)
  // "data.fingerprint": dataFingerprint() of the data the session was saved with ("" in older files). A CSV that
  // changed since then is reread with the session's settings, but its model and cross-validation curves belonged
  // to the old values and are not restored.
  QString dataFingerprint;
};

// A hash (FNV-1a, 64 bits, hex) of a data set's names, kinds, levels and every value's bits.
QString dataFingerprint(const gb::Dataset& data);

// Column roles as the session file's "roles" object, in JSON text (the settings store keeps the last file's so);
// rolesFromText gives none for text that is not such an object.
QString rolesToText(const ColumnRoles& roles);
std::optional<ColumnRoles> rolesFromText(const QString& text);

// Relative paths in the file are resolved against the session file's directory.
void saveSession(const QString& path, const Session& session);  // atomic; throws gb::InputError
Session loadSession(const QString& path);                       // throws gb::InputError "<path>: ..."

}  // namespace gbui

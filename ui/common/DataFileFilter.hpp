#pragma once
// The file dialogs that pick a data table (Open CSV, Predict, a folds file) offer the same names: what the reader
// takes (R's write.csv and write.table files, tab-separated files, tables aligned by spaces), then any file.
#include <QCoreApplication>
#include <QFileInfo>
#include <QString>

namespace gbui {

inline QString dataFileFilter() {
  return QCoreApplication::translate("gbui", "Data tables (*.csv *.txt *.tsv *.dat);;All files (*)");
}

// A name typed into a save dialog without an extension gets the dialog's own ("irsession" -> "irsession.json"), so
// that the matching open dialog, which filters by it, lists the file (Qt's static dialogs add none).
inline QString withDefaultSuffix(const QString& path, const QString& suffix) {
  return path.isEmpty() || !QFileInfo(path).suffix().isEmpty() ? path : path + "." + suffix;
}

}  // namespace gbui

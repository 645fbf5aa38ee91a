#pragma once
// The file dialogs that pick a data table (Open CSV, Predict, a folds file) offer the same names: what the reader
// takes (R's write.csv and write.table files, tab-separated files, tables aligned by spaces), then any file.
#include <QCoreApplication>
#include <QString>

namespace gbui {

inline QString dataFileFilter() {
  return QCoreApplication::translate("gbui", "Data tables (*.csv *.txt *.tsv *.dat);;All files (*)");
}

}  // namespace gbui

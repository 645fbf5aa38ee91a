#pragma once
// The window's save dialogs (Save model, Save session, Save benchmark run, Predict's output): a name typed without an
// extension gets the dialog's own ("irsession" -> "irsession.json"), so that the matching open dialog, which filters
// by it, lists the file. Qt adds it before it asks whether to replace an existing file of that name (its static
// getSaveFileName adds none, and a suffix added afterwards would replace a file without asking).
#include <QFileDialog>
#include <QString>

namespace gbui {

// Configures `dialog` as such a save dialog.
inline void makeSaveDialog(QFileDialog& dialog, const QString& suggested, const QString& filter,
                           const QString& suffix) {
  dialog.setAcceptMode(QFileDialog::AcceptSave);
  dialog.setNameFilter(filter);
  dialog.setDefaultSuffix(suffix);
  dialog.selectFile(suggested);
}

// The path chosen, or "" when cancelled.
inline QString saveFileName(QWidget* parent, const QString& title, const QString& suggested, const QString& filter,
                            const QString& suffix) {
  QFileDialog dialog(parent, title);
  makeSaveDialog(dialog, suggested, filter, suffix);
  return dialog.exec() == QDialog::Accepted ? dialog.selectedFiles().value(0) : QString();
}

}  // namespace gbui

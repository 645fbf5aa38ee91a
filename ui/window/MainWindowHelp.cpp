// MainWindow: the View menu (panels, tool bar, one entry per plot tab) and the Help menu (About, the documents
// beside the program or in its source tree, the keyboard shortcuts).
#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QTabWidget>
#include <QToolBar>
#include <QUrl>

#include "window/MainWindow.hpp"

namespace gbui {

namespace {

// The folder holding README.md and docs/: the program's folder or one above it (the build tree sits inside the
// source tree; an installed copy keeps them beside the program).
QString documentRoot() {
  QDir dir(QCoreApplication::applicationDirPath());
  for (int up = 0; up < 5; ++up) {
    if (QFileInfo::exists(dir.filePath("README.md")) && QFileInfo(dir.filePath("docs")).isDir())
      return dir.absolutePath();
    if (!dir.cdUp()) break;
  }
  return {};
}

}  // namespace

void MainWindow::buildViewMenu() {
  viewMenu_ = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* dock : findChildren<QDockWidget*>()) {
    QAction* toggle = dock->toggleViewAction();
    toggle->setToolTip(tr("Show or hide the %1 panel").arg(dock->windowTitle()));
    toggle->setStatusTip(toggle->toolTip());
    viewMenu_->addAction(toggle);
  }
  for (QToolBar* bar : findChildren<QToolBar*>()) {
    QAction* toggle = bar->toggleViewAction();
    toggle->setText(tr("%1 tool bar").arg(bar->windowTitle()));
    viewMenu_->addAction(toggle);
  }
  viewMenu_->addSeparator();
  for (int i = 0; i < tabs_->count(); ++i) {
    QWidget* page = tabs_->widget(i);
    QAction* a = viewMenu_->addAction(tabs_->tabText(i), this, [this, page] { showTab(page); });
    if (i < 9) a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    if (i == 9) a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));  // the tenth tab (Cross-validation)
    a->setStatusTip(tabs_->tabToolTip(i));
  }
}

void MainWindow::buildHelpMenu() {
  helpMenu_ = menuBar()->addMenu(tr("&Help"));
  QMenu* docs = helpMenu_->addMenu(tr("Documentation"));
  for (const auto& [title, path] : documents()) docs->addAction(title, this, [this, path] { openDocument(path); });
  docs->setEnabled(!docs->isEmpty());
  QAction* keys = helpMenu_->addAction(tr("Keyboard shortcuts"), this, [this] {
    if (sink_.interactive())
      QMessageBox::information(this, tr("Keyboard shortcuts"), shortcutsText());
    else
      sink_.info(shortcutsText());
  });
  keys->setShortcut(QKeySequence::HelpContents);
  helpMenu_->addSeparator();
  helpMenu_->addAction(tr("About GAMBoost Studio"), this, [this] {
    const QString text =
        tr("GAMBoost Studio: gradient-boosted generalised additive models (mboost's gamboost with bbs, bols "
           "learners) whose hot loop runs on any OpenCL device or the CPU. The window and the gamboost command "
           "line give the same fits.");
    if (sink_.interactive())
      QMessageBox::about(this, tr("About GAMBoost Studio"), text);
    else
      sink_.info(text);
  });
}

QList<QPair<QString, QString>> MainWindow::documents() const {
  QList<QPair<QString, QString>> out;
  const QString root = documentRoot();
  if (root.isEmpty()) return out;
  out.append({tr("README (getting started)"), QDir(root).filePath("README.md")});
  const QFileInfoList files = QDir(QDir(root).filePath("docs")).entryInfoList({"*.md"}, QDir::Files, QDir::Name);
  for (const QFileInfo& f : files) out.append({f.completeBaseName(), f.absoluteFilePath()});
  return out;
}

void MainWindow::openDocument(const QString& path) {
  lastDocument_ = path;
  // Without dialogs (tests, screenshots) nothing opens outside the window; the log names the file.
  if (!sink_.interactive() || !QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
    sink_.info(tr("Documentation: %1").arg(path));
}

QString MainWindow::shortcutsText() const {
  QStringList lines;
  for (QAction* a : findChildren<QAction*>()) {
    if (a->shortcut().isEmpty()) continue;
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    // Not a tab: a message box does not align tab stops, and the key ran into the action ("Ctrl+Shift+OOpen").
    lines << QString("%1  —  %2").arg(keys.join(", "), QString(a->text()).remove('&'));
  }
  lines.sort();
  lines.removeDuplicates();
  return tr("Keyboard shortcuts:\n") + lines.join("\n");
}

}  // namespace gbui

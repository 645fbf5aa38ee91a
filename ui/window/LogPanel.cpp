#include "window/LogPanel.hpp"

#include <QScrollBar>
#include <QTime>

namespace gbui {

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setMaximumBlockCount(5000);
  setToolTip(tr("Messages, warnings and errors of this session (with details such as kernel build logs)"));
  QFont mono(QStringLiteral("DejaVu Sans Mono"));
  mono.setStyleHint(QFont::Monospace);
  mono.setPointSize(9);
  setFont(mono);
}

void LogPanel::append(Severity severity, const QString& text, const QString& details) {
  // Follows the newest line where the view was at the end (a wrapped line left the newest one below the view, since
  // appendPlainText measured the end before the wrapped lines' layout); a user reading older lines stays there.
  const QScrollBar* bar = verticalScrollBar();
  const bool following = bar->value() >= bar->maximum() - 1;
  const char* tag = severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "info";
  appendPlainText(QStringLiteral("%1 %2: %3").arg(QTime::currentTime().toString("HH:mm:ss"), tag, text));
  if (!details.isEmpty()) {
    QString indented = details.trimmed();
    indented.replace('\n', "\n    ");
    appendPlainText("    " + indented);
  }
  if (!following) return;
  moveCursor(QTextCursor::End);
  ensureCursorVisible();
  verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

}  // namespace gbui

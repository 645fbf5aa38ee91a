#include "window/LogPanel.hpp"

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
  const char* tag = severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "info";
  appendPlainText(QStringLiteral("%1 %2: %3").arg(QTime::currentTime().toString("HH:mm:ss"), tag, text));
  if (!details.isEmpty()) {
    QString indented = details.trimmed();
    indented.replace('\n', "\n    ");
    appendPlainText("    " + indented);
  }
}

}  // namespace gbui

#include "common/MessageSink.hpp"

#include <QMessageBox>
#include <QWidget>

#include "common/Error.hpp"
#include "common/WindowWords.hpp"

namespace gbui {

void MessageSink::exception(const QString& title, const std::exception& e) {
  QString details;
  if (const auto* compute = dynamic_cast<const gb::ComputeError*>(&e))
    details = QString::fromStdString(compute->details());
  error(title, QString::fromStdString(e.what()), details);
}

void MessageSink::post(Severity severity, const QString& title, const QString& rawText, const QString& details) {
  const QString text = inWindowWords(rawText);  // the engine names CLI options; the window names its controls
  if (severity == Severity::Error) {
    lastError_ = title.isEmpty() ? text : title + ": " + text;
    lastErrorDetails_ = details;
    ++errorCount_;
  }
  emit posted(severity, title.isEmpty() ? text : title + ": " + text, details);
  if (severity != Severity::Error || !interactive_) return;
  // Window-modal but not exec(): the event loop, and with it a running fit's live view, keeps going.
  auto* box = new QMessageBox(QMessageBox::Critical, title.isEmpty() ? tr("Error") : title, text, QMessageBox::Ok,
                              dialogParent_.data());
  if (!details.isEmpty()) box->setDetailedText(details);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

}  // namespace gbui

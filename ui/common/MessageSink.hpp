#pragma once
// The one route every message takes: the log panel always, a dialog only when interactive. Tests switch dialogs
// off and read lastError(), so no modal window can ever block a test.
#include <QObject>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <exception>

namespace gbui {

enum class Severity { Info, Warning, Error };

class MessageSink : public QObject {
  Q_OBJECT
  Q_PROPERTY(QString lastError READ lastError)

 public:
  explicit MessageSink(QObject* parent = nullptr) : QObject(parent) {}

  // Off: no dialogs at all (tests, benchmarks, screenshots).
  void setInteractive(bool on) { interactive_ = on; }
  bool interactive() const { return interactive_; }
  // Parent window of the dialogs.
  void setDialogParent(QWidget* w) { dialogParent_ = w; }

  void info(const QString& text) { post(Severity::Info, {}, text, {}); }
  void warning(const QString& text) { post(Severity::Warning, {}, text, {}); }
  void error(const QString& title, const QString& text, const QString& details = {}) {
    post(Severity::Error, title, text, details);
  }
  // Turns any exception (gb::InputError, gb::ComputeError with its details, anything else) into an error message.
  void exception(const QString& title, const std::exception& e);

  QString lastError() const { return lastError_; }
  QString lastErrorDetails() const { return lastErrorDetails_; }
  int errorCount() const { return errorCount_; }

 signals:
  // Every message, for the log panel.
  void posted(gbui::Severity severity, const QString& text, const QString& details);

 private:
  void post(Severity severity, const QString& title, const QString& text, const QString& details);

  bool interactive_ = true;
  QPointer<QWidget> dialogParent_;
  QString lastError_, lastErrorDetails_;
  int errorCount_ = 0;
};

}  // namespace gbui

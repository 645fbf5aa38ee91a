#pragma once
// Warnings go to the log only (a dialog is for errors), and a log line is easy to miss: a column read as text for
// one typo cell, an edf the learner cannot reach. The badge in the status bar counts the warnings not yet looked
// at, names the latest in its tooltip, and shows the log when clicked; it hides once looked at.
#include <QToolButton>

#include "common/MessageSink.hpp"

namespace gbui {

class WarningBadge : public QToolButton {
  Q_OBJECT
 public:
  explicit WarningBadge(QWidget* parent = nullptr);

  int unseen() const { return unseen_; }

 public slots:
  // Connected to MessageSink::posted: counts the warnings.
  void note(gbui::Severity severity, const QString& text, const QString& details);

 signals:
  // Clicked: the log should come into view. The count is cleared.
  void showLog();

 private:
  int unseen_ = 0;
};

}  // namespace gbui

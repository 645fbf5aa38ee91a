#include "window/WarningBadge.hpp"

#include <QStyle>

namespace gbui {

WarningBadge::WarningBadge(QWidget* parent) : QToolButton(parent) {
  setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
  setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  setAutoRaise(true);
  setAccessibleName(tr("Unread warnings"));
  setToolTip(tr("Warnings not yet looked at; click to show the log"));
  hide();
  connect(this, &QToolButton::clicked, this, [this] {
    unseen_ = 0;
    hide();
    emit showLog();
  });
}

void WarningBadge::note(Severity severity, const QString& text, const QString& /*details*/) {
  if (severity != Severity::Warning) return;  // an error has its dialog
  ++unseen_;
  setText(unseen_ == 1 ? tr("1 warning in the log") : tr("%1 warnings in the log").arg(unseen_));
  setToolTip(tr("Latest: %1\nClick to show the log.").arg(text));
  show();
}

}  // namespace gbui

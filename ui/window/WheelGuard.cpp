#include "window/WheelGuard.hpp"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace gbui {

namespace {

// The spin box or combo box `w` belongs to (a spin box's line edit is a child of it), or null.
QWidget* valueControl(QWidget* w) {
  for (int depth = 0; w && depth < 2; ++depth, w = w->parentWidget())
    if (qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w)) return w;
  return nullptr;
}

}  // namespace

WheelGuard::WheelGuard(QWidget* root) : QObject(root), root_(root) {
  qApp->installEventFilter(this);
  // Controls polished before the guard existed (a layout's size hints polish them) never pass it a Polish event.
  for (QWidget* w : root->findChildren<QWidget*>()) clickFocusOnly(w);
}

void WheelGuard::clickFocusOnly(QWidget* widget) const {
  QWidget* control = valueControl(widget);
  // Qt gives a wheel-focus control the focus before any filter sees a real wheel: click or tab focus only.
  if (control && control->focusPolicy() == Qt::WheelFocus) control->setFocusPolicy(Qt::StrongFocus);
}

bool WheelGuard::guards(QObject* watched) const {
  auto* widget = qobject_cast<QWidget*>(watched);
  QWidget* control = widget ? valueControl(widget) : nullptr;
  return control && root_ && root_->isAncestorOf(control);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if ((type != QEvent::Wheel && type != QEvent::Polish) || !guards(watched)) return false;
  QWidget* control = valueControl(static_cast<QWidget*>(watched));
  clickFocusOnly(control);
  if (type == QEvent::Polish) return false;
  if (control->hasFocus() || control->isAncestorOf(QApplication::focusWidget())) return false;
  // Not for this control: ignored, so Qt hands the wheel to the parent (the panel's scroll area scrolls).
  event->ignore();
  return true;
}

}  // namespace gbui

#pragma once
// Scrolling a panel must never change a value: spin boxes and combo boxes under `root` take the mouse wheel only
// while they have the keyboard focus; otherwise the wheel scrolls the panel (the event goes on to the parent).
// Covers the controls made later too (the column-role combos appear with the data), as it filters the application.
#include <QObject>
#include <QPointer>

class QWidget;

namespace gbui {

class WheelGuard : public QObject {
  Q_OBJECT
 public:
  // Watches until `root` (or this guard, a child of root) goes.
  explicit WheelGuard(QWidget* root);

  // True for the controls it guards: a spin box or a combo box (or a part of one) under root.
  bool guards(QObject* watched) const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void clickFocusOnly(QWidget* widget) const;

  QPointer<QWidget> root_;
};

}  // namespace gbui

#include "window/EntryGuard.hpp"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QTimer>

namespace gbui {

namespace {

// The spin box `w` belongs to (its line edit is a child of it), or null.
QAbstractSpinBox* spinBoxOf(QObject* watched) {
  auto* w = qobject_cast<QWidget*>(watched);
  for (int depth = 0; w && depth < 2; ++depth, w = w->parentWidget())
    if (auto* box = qobject_cast<QAbstractSpinBox*>(w)) return box;
  return nullptr;
}

bool isCorrectionMoment(const QEvent& event) {
  if (event.type() == QEvent::FocusOut) return true;
  if (event.type() != QEvent::KeyPress) return false;
  const int key = static_cast<const QKeyEvent&>(event).key();
  return key == Qt::Key_Return || key == Qt::Key_Enter;
}

QString rangeText(const QAbstractSpinBox& box) {
  if (const auto* d = qobject_cast<const QDoubleSpinBox*>(&box))
    return QObject::tr("from %1 to %2").arg(d->minimum(), 0, 'g', 12).arg(d->maximum(), 0, 'g', 12);
  if (const auto* i = qobject_cast<const QSpinBox*>(&box))
    return QObject::tr("from %1 to %2").arg(i->minimum()).arg(i->maximum());
  return {};
}

// The entry without the box's prefix and suffix.
QString typedText(const QAbstractSpinBox& box) {
  if (const auto* d = qobject_cast<const QDoubleSpinBox*>(&box)) return d->cleanText();
  if (const auto* i = qobject_cast<const QSpinBox*>(&box)) return i->cleanText();
  return box.text();
}

}  // namespace

EntryGuard::EntryGuard(QWidget* root) : QObject(root), root_(root) { qApp->installEventFilter(this); }

QString EntryGuard::fieldName(const QAbstractSpinBox& box) {
  // A form's label names its field, or the row's widget that holds it (a check box and a spin box in a pair).
  const QWidget* w = &box;
  for (int depth = 0; w && w->parentWidget() && depth < 3; ++depth, w = w->parentWidget())
    for (const QFormLayout* form : w->parentWidget()->findChildren<QFormLayout*>())
      if (const auto* label = qobject_cast<const QLabel*>(form->labelForField(const_cast<QWidget*>(w)))) {
        QString name = label->text();
        name.remove('&');
        if (name.endsWith(':')) name.chop(1);
        if (!name.trimmed().isEmpty()) return name.trimmed();
      }
  if (!box.toolTip().isEmpty()) return box.toolTip().section(':', 0, 0);
  return box.objectName().isEmpty() ? tr("a value") : box.objectName();
}

QString EntryGuard::unacceptableEntry(const QWidget& root) {
  QAbstractSpinBox* box = spinBoxOf(QApplication::focusWidget());
  if (!box || !root.isAncestorOf(box) || box->hasAcceptableInput()) return {};
  const QString typed = typedText(*box);
  return tr("%1: %2").arg(fieldName(*box), typed.trimmed().isEmpty()
                                               ? tr("an empty entry is not a value")
                                               : tr("\"%1\" is not a value %2").arg(typed, rangeText(*box)));
}

bool EntryGuard::eventFilter(QObject* watched, QEvent* event) {
  if (!isCorrectionMoment(*event)) return false;
  QAbstractSpinBox* box = spinBoxOf(watched);
  if (!box || !root_ || !root_->isAncestorOf(box) || box->isReadOnly() || !box->isEnabled()) return false;
  if (box->hasAcceptableInput() || box->property("gbEntryPending").toBool()) return false;
  // The box and its line edit may both see one focus change: one report, made once Qt has corrected the entry.
  box->setProperty("gbEntryPending", true);
  reportAfterCorrection(box, typedText(*box));
  return false;  // Qt corrects it as always
}

void EntryGuard::reportAfterCorrection(QAbstractSpinBox* box, const QString& typed) {
  QPointer<QAbstractSpinBox> guarded(box);
  QTimer::singleShot(0, this, [this, guarded, typed] {
    if (!guarded) return;
    guarded->setProperty("gbEntryPending", false);
    const QString field = fieldName(*guarded);
    const QString what = typed.trimmed().isEmpty() ? tr("an empty entry is not a value")
                                                   : tr("\"%1\" is not a value %2").arg(typed, rangeText(*guarded));
    emit rejected(tr("%1: %2, so %1 stays %3").arg(field, what, guarded->text()));
  });
}

}  // namespace gbui

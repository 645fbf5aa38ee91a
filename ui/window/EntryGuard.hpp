#pragma once
// A spin box given a number outside its range (nu 0, mstop 0) or no number at all puts back the value it had
// without a word (Qt's CorrectToPreviousValue), so a fit then runs with a value the user did not choose. The guard
// watches the spin boxes under `root` at the two moments Qt corrects an entry, the focus leaving and Enter, and
// where the text typed is not acceptable it reports the field, the text, the range and the value kept.
// Like WheelGuard it filters the application, so it covers the controls made later too.
#include <QObject>
#include <QPointer>
#include <QString>

class QAbstractSpinBox;
class QWidget;

namespace gbui {

class EntryGuard : public QObject {
  Q_OBJECT
 public:
  // Watches until `root` (or this guard, a child of root) goes.
  explicit EntryGuard(QWidget* root);

  // The name a message gives the spin box: its form label ("nu"), else its tooltip, else its object name.
  static QString fieldName(const QAbstractSpinBox& box);
  // Where the keyboard focus is in a spin box under `root` whose text is not acceptable (F5 pressed on "0": the fit
  // would start with the value before, and the box is disabled before Qt corrects it): "nu: \"0\" is not a value
  // from 0.001 to 1"; else "".
  static QString unacceptableEntry(const QWidget& root);

 signals:
  // One line, e.g. "nu: \"0\" is not a value from 0.001 to 1, so nu stays 0.1".
  void rejected(const QString& message);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void reportAfterCorrection(QAbstractSpinBox* box, const QString& typed);

  QPointer<QWidget> root_;
};

}  // namespace gbui

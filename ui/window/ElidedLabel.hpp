#pragma once
// A one-line label of fixed height: a long text is elided on the right and shown whole in the tooltip, so the
// widgets around it never move when the text changes length (the Fit group's status under its buttons).
#include <QLabel>

namespace gbui {

class ElidedLabel : public QLabel {
  Q_OBJECT
 public:
  explicit ElidedLabel(QWidget* parent = nullptr);
  void setFullText(const QString& text);
  const QString& fullText() const { return full_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void elide();
  QString full_;
};

}  // namespace gbui

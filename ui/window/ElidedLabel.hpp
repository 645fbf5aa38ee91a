#pragma once
// A label of fixed height and a fixed number of lines: the text is wrapped at word boundaries, and what does not fit
// the last line is elided on the right and shown whole in the tooltip, so the widgets around it never move when the
// text changes length (the Fit group's status under its buttons, the status bar's line).
#include <QLabel>

namespace gbui {

class ElidedLabel : public QLabel {
  Q_OBJECT
 public:
  explicit ElidedLabel(int lines = 1, QWidget* parent = nullptr);
  void setFullText(const QString& text);
  const QString& fullText() const { return full_; }
  int lines() const { return lines_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void elide();
  QString full_;
  int lines_ = 1;
};

}  // namespace gbui

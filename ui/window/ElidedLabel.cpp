#include "window/ElidedLabel.hpp"

#include <QResizeEvent>

namespace gbui {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
  setWordWrap(false);
  setTextFormat(Qt::PlainText);
  // Ignored width: the text never widens the panel; fixed height: one line, whatever the text.
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  setFixedHeight(fontMetrics().height() + 4);
}

void ElidedLabel::setFullText(const QString& text) {
  if (text == full_) return;
  full_ = text;
  setToolTip(text);
  elide();
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  elide();
}

void ElidedLabel::elide() { setText(fontMetrics().elidedText(full_, Qt::ElideRight, std::max(0, width() - 2))); }

}  // namespace gbui

#include "window/ElidedLabel.hpp"

#include <QResizeEvent>
#include <QTextLayout>
#include <algorithm>

namespace gbui {

ElidedLabel::ElidedLabel(int lines, QWidget* parent) : QLabel(parent), lines_(std::max(1, lines)) {
  setWordWrap(false);  // the lines are broken here, so that the last one can be elided
  setTextFormat(Qt::PlainText);
  setAlignment(Qt::AlignLeft | Qt::AlignTop);
  // Ignored width: the text never widens the panel; fixed height: the same lines, whatever the text.
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  setFixedHeight(lines_ * fontMetrics().lineSpacing() + 4);
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

void ElidedLabel::elide() {
  const int width = std::max(0, this->width() - 2);
  QStringList shown;
  QTextLayout layout(full_, font());
  layout.beginLayout();
  int start = 0;
  while (shown.size() + 1 < lines_) {
    QTextLine line = layout.createLine();
    if (!line.isValid()) break;
    line.setLineWidth(width);
    shown << full_.mid(line.textStart(), line.textLength()).trimmed();
    start = line.textStart() + line.textLength();
  }
  layout.endLayout();
  const QString rest = full_.mid(start).trimmed();
  if (!rest.isEmpty() || shown.isEmpty()) shown << fontMetrics().elidedText(rest, Qt::ElideRight, width);
  setText(shown.join(QLatin1Char('\n')));
}

}  // namespace gbui

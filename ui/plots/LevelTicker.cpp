#include "plots/LevelTicker.hpp"

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

#include "common/QtConvert.hpp"

namespace gbui {

LevelTicker::LevelTicker(const QCPAxis* axis, const QStringList& levels) : axis_(axis) {
  for (int level = 0; level < levels.size(); ++level) addTick(level, levels[level]);
}

int LevelTicker::widestLabel() const {
  const QFont font = axis_->tickLabelFont();
  if (widest_ < 0 || font != measuredFont_) {
    const QFontMetrics metrics(font);
    widest_ = 0;
    for (const QString& name : mTicks)
      widest_ = std::max(widest_, metrics.horizontalAdvance(metrics.elidedText(name, Qt::ElideRight, kMaxLabelPixels)));
    measuredFont_ = font;
  }
  return widest_;
}

int LevelTicker::stride(const QCPRange& range) const {
  const int width = axis_->axisRect() ? axis_->axisRect()->width() : 0;
  const double shown = std::max(1.0, std::floor(range.upper) - std::ceil(range.lower) + 1.0);
  if (width <= 0) return 1;  // not laid out yet: the next replot has the width
  const double fit = std::max(1.0, std::floor(double(width) / double(widestLabel() + kLabelGapPixels)));
  return static_cast<int>(std::max(1.0, std::ceil(shown / fit)));
}

double LevelTicker::getTickStep(const QCPRange& range) { return stride(range); }

// An unlabelled small tick at each level between two named ones (up to 19 of them; beyond, only the named).
int LevelTicker::getSubTickCount(double tickStep) {
  const int m = static_cast<int>(std::lround(tickStep));
  return m > 1 && m <= 20 ? m - 1 : 0;
}

QString LevelTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
  const QString name = mTicks.value(std::round(tick));  // empty past the levels
  return QFontMetrics(axis_->tickLabelFont()).elidedText(name, Qt::ElideRight, kMaxLabelPixels);
}

// The named levels in the range (multiples of the stride, so names stay put when the range moves), and one tick
// more on each side, for the small ticks between; QCPAxisTicker::generate trims what lies outside the range.
QVector<double> LevelTicker::createTickVector(double tickStep, const QCPRange& range) {
  const double m = std::max(1.0, std::round(tickStep));
  const double first = std::max(std::floor(std::ceil(range.lower) / m) * m, 0.0) - m;
  const double last = std::min(std::floor(range.upper), double(mTicks.size() - 1)) + m;
  QVector<double> ticks;
  for (double level = first; level <= last && ticks.size() < 100000; level += m) ticks << level;
  return ticks;
}

void setLevelAxis(QCPAxis* axis, const std::vector<std::string>& levels) {
  QStringList names;
  for (const std::string& level : levels) names << levelLabel(level);
  axis->setTicker(QSharedPointer<LevelTicker>::create(axis, names));
  axis->setRange(-0.5, static_cast<double>(levels.size()) - 0.5);
  axis->grid()->setZeroLinePen(Qt::NoPen);  // level 0 is the first level, not a zero: no line of its own
}

}  // namespace gbui

#pragma once
// The x axis of a factor's effect plot: one point per level at 0, 1, ..., with the level names as tick labels. Where
// the names do not all fit the axis's width, only every m-th level is named (m the smallest stride at which they
// fit, recomputed at each replot, so resizing or zooming adapts) and the others get an unlabelled small tick. A
// name longer than kMaxLabelPixels is elided. The names are QCPAxisTickerText's ticks() (level -> full name).
#include <qcustomplot.h>

#include <string>
#include <vector>

namespace gbui {

class LevelTicker : public QCPAxisTickerText {
 public:
  // `axis` is the axis this ticker is set on; it must outlive the ticker (the axis owns it).
  LevelTicker(const QCPAxis* axis, const QStringList& levels);
  static constexpr int kMaxLabelPixels = 120;
  static constexpr int kLabelGapPixels = 8;
  // Every how many levels a name is drawn, for the visible range and the axis's current width and font.
  int stride(const QCPRange& range) const;

 protected:
  double getTickStep(const QCPRange& range) override;
  int getSubTickCount(double tickStep) override;
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
  QVector<double> createTickVector(double tickStep, const QCPRange& range) override;

 private:
  int widestLabel() const;  // pixels, in the axis's tick label font (names elided to kMaxLabelPixels)

  const QCPAxis* axis_;
  mutable QFont measuredFont_;
  mutable int widest_ = -1;
};

// A factor's x axis: its levels named (R's spelling of each, levelLabel) at 0, 1, ..., the range half a level past
// both ends, and no zero line at the first level. The effect plots and What the learner fits share it.
void setLevelAxis(QCPAxis* axis, const std::vector<std::string>& levels);

}  // namespace gbui

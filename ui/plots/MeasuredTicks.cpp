#include "plots/MeasuredTicks.hpp"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "plots/PlotWidget.hpp"

namespace gbui {

QString powerOfTenText(double value) {
  if (!(value > 0) || !std::isfinite(value)) return QString::number(value);
  const int exponent = static_cast<int>(std::floor(std::log10(value) + 1e-12));
  if (exponent < 3) return QString::number(value, 'g', 4);
  static const QString superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  QString power = "10";
  for (const QChar digit : QString::number(exponent)) power += superscripts[digit.digitValue()];
  const double mantissa = value / std::pow(10.0, exponent);
  if (std::abs(mantissa - 1.0) < 1e-9) return power;
  return QString::number(mantissa, 'g', 3) + "·" + power;
}

void setMeasuredTicks(QCPAxis* axis, std::vector<double> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.empty() || values.size() > static_cast<std::size_t>(kMaxMeasuredTicks)) {
    setLogAxis(axis, true);
    return;
  }
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (const double v : values) ticker->addTick(v, powerOfTenText(v));
  axis->setTicker(ticker);
}

}  // namespace gbui

#pragma once
// Tick labels at the values a log axis really shows data at (the kernel chart's row counts): QCustomPlot's log
// ticker labels its sub-decade ticks with one rounded mantissa, so that 1000 and 1200 both read "10³" and a range
// within one decade showed "8·10², 10³, 10³, 10³".
#include <QString>
#include <vector>

class QCPAxis;

namespace gbui {

// 1000 -> "10³", 3000 -> "3·10³", 2500 -> "2.5·10³", 1 -> "1".
QString powerOfTenText(double value);

// Ticks at `values` (distinct, positive) labelled by powerOfTenText where there are at most kMaxMeasuredTicks of them;
// the log ticker otherwise.
constexpr int kMaxMeasuredTicks = 8;
void setMeasuredTicks(QCPAxis* axis, std::vector<double> values);

}  // namespace gbui

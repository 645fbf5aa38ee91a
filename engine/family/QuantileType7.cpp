#include "family/QuantileType7.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/Error.hpp"

namespace gb {

namespace {

// The 1-based index of R's type 7 into n sorted values, and the quantile between the two order statistics at it.
double rIndex(double n, double p) { return 1.0 + std::max(n - 1.0, 0.0) * p; }

double between(double xLo, double xHi, double index) {
  const double lo = std::floor(index);
  if (!(index > lo) || xHi == xLo) return xLo;
  const double h = index - lo;
  return (1.0 - h) * xLo + h * xHi;
}

}  // namespace

double quantileType7(std::vector<double> values, double p) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const double index = rIndex(static_cast<double>(values.size()), p);
  const auto lo = static_cast<std::size_t>(std::floor(index)) - 1;  // 0-based
  const auto hi = std::min(static_cast<std::size_t>(std::ceil(index)) - 1, values.size() - 1);
  return between(values[lo], values[hi], index);
}

double replicatedQuantileType7(const std::vector<double>& y, const std::vector<double>& w, double p) {
  constexpr double kMaxTotal = 9007199254740992.0;  // 2^53: every count below it is exact in a double
  std::vector<std::size_t> order;
  double total = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (w[i] == 0.0) continue;
    order.push_back(i);
    total += w[i];
    if (!(total <= kMaxTotal))
      throw InputError(optionMessage("--weights",
                                     "quantile: its offset is the median of y with each row repeated w "
                                     "times, and the weights add up to more than 2^53"));
  }
  if (order.empty()) return std::nan("");
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return y[a] < y[b]; });
  const double index = rIndex(total, p);
  const double lo = std::floor(index) - 1.0, hi = std::min(std::ceil(index) - 1.0, total - 1.0);  // 0-based ranks
  double seen = 0.0, xLo = 0.0, xHi = 0.0;  // rows of the sorted, repeated response before the current one
  for (std::size_t i : order) {
    if (seen <= lo && lo < seen + w[i]) xLo = y[i];
    if (seen <= hi && hi < seen + w[i]) {
      xHi = y[i];
      break;
    }
    seen += w[i];
  }
  return between(xLo, xHi, index);
}

}  // namespace gb

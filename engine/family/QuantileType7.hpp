#pragma once
// R's quantile(x, p, type = 7), as R 4.x computes it: index = 1 + (n - 1) p, lo = floor(index), h = index - lo, and
// (1 - h) x[lo] + h x[lo + 1] where h > 0 and the two differ, else x[lo]. Compiled without fused multiply-adds
// (engine/CMakeLists.txt), so that the last bit is R's: QuantReg's offset and the bootstrap bands' percentiles.
#include <vector>

namespace gb {

// Of the values (copied and sorted); NaN for none.
double quantileType7(std::vector<double> values, double p);
// The same of y[rep(1:n, w)] for non-negative integer weights w, without forming it (weights of 1e9 would need
// gigabytes); InputError naming --weights when they add up to more than 2^53.
double replicatedQuantileType7(const std::vector<double>& y, const std::vector<double>& w, double p);

}  // namespace gb

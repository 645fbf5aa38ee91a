#pragma once
// The power sums behind the Gram matrices of several weight sets at once (the folds of a cross-validation), for
// gramMatrices (learner/GramMatrix.hpp). Per block of rows, the rows are counting-sorted (stably) by interval and
// parity, and each interval's sums of a few sets at a time are kept in registers across its rows, instead of a
// read-modify-write of memory per row and set: 2.8-3.0 -> 1.2 ns per row and set on one core of the 2-core machine,
// 1.75-2.14 -> 1.36-1.52 ns on both (docs/performance.md). The additions are those of a pass per set, in the same
// order, so every set's sums are bit for bit those of its own pass (the file is compiled without contracted
// multiply-adds, as GramMatrix.cpp is).
#include <cstddef>

#include "spline/SplineBasis.hpp"

namespace gb {

// Values per interval of one set's sums: the 2 degree + 1 powers padded to a multiple of 4.
constexpr int powerSumWidth(int degree) { return (2 * degree + 1 + 3) / 4 * 4; }

// sums[((f * 2 + h) * intervals + q) * powerSumWidth + m] += w_f[i] u_i^m over the rows i of interval q with i % 2
// == h (GramMatrix.cpp's two copies of the sums), for each of the `sets` weight vectors (null: every weight 1). Its
// sort costs O(intervals) a block of rows besides O(rows), as small as the k x k Grams are (k = intervals + degree).
void foldPowerSums(const SplineBasis& basis, const double* x, std::size_t n, const double* const* weights, int sets,
                   double* sums);

// Rows per block, shared with GramMatrix.cpp's pass; even, so that a row's parity in its block is its parity.
constexpr std::size_t kFoldPowerSumRows = 2048;

// What both passes compute per row, in the same operations, so that their sums agree bit for bit.
// Four doubles side by side (GCC/Clang vector extensions: one AVX register on x86).
using PowerQuad = double __attribute__((vector_size(32)));
// Interval q[r] and local coordinate u[r] of the rows xb[0..rows), with the division, floor and clamp of
// SplineBasis::evaluateFast; branch-free, so that GCC vectorises it.
inline void locateRows(const SplineBasis& basis, const double* xb, std::size_t rows, int* q, double* u) {
  const double lo = basis.lo(), dx = basis.spacing();
  const int last = basis.numIntervals() - 1;
  for (std::size_t r = 0; r < rows; ++r) {  // for t > -1 truncation is floor and clamping
    const double t = (xb[r] - lo) / dx;
    int c = static_cast<int>(t);  // written so that GCC vectorises it (std::min/max forms it does not)
    c = c < last ? c : last;
    c = c > 0 ? c : 0;
    q[r] = c;
    u[r] = t - c;
  }
}
// 1, u, u^2, u^3, and u^4 in u4.
inline PowerQuad firstPowers(double u, double& u4) {
  const double u2 = u * u;
  u4 = u2 * u2;
  return PowerQuad{1.0, u, u2, u2 * u};
}

}  // namespace gb

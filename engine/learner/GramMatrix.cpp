#include "learner/GramMatrix.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "common/RunProfile.hpp"

namespace gb {

namespace {

// Lanes of the range scan: independent minima, maxima and finiteness sums, so the loop vectorises.
constexpr int kLanes = 8;
// Rows per block of the Gram pass: interval and local coordinate for a block first (vectorised, with the division
// of SplineBasis::evaluateFast), then the power sums row by row.
constexpr std::size_t kGramBlock = 2048;
constexpr std::size_t kRowsPerLine = 8;  // doubles in a 64-byte cache line

}  // namespace

CovariateScan scanCovariate(const double* x, std::size_t n) {
  std::array<double, kLanes> mn, mx, bad;
  mn.fill(x[0]);
  mx.fill(x[0]);
  bad.fill(0.0);
  const std::size_t whole = n / kLanes * kLanes;
  for (std::size_t i = 0; i < whole; i += kLanes)
    for (int k = 0; k < kLanes; ++k) {
      const double v = x[i + k];
      mn[k] = v < mn[k] ? v : mn[k];
      mx[k] = v > mx[k] ? v : mx[k];
      bad[k] += v - v;  // 0 for a finite value, NaN for inf or NaN (and NaN stays)
    }
  for (std::size_t i = whole; i < n; ++i) {
    mn[0] = x[i] < mn[0] ? x[i] : mn[0];
    mx[0] = x[i] > mx[0] ? x[i] : mx[0];
    bad[0] += x[i] - x[i];
  }
  CovariateScan scan{*std::min_element(mn.begin(), mn.end()), *std::max_element(mx.begin(), mx.end()), n};
  double anyBad = 0.0;
  for (double b : bad) anyBad += b;
  if (anyBad != 0.0 || std::isnan(anyBad))
    for (std::size_t i = 0; i < n && !scan.hasNaN; ++i)
      if (!std::isfinite(x[i])) {
        scan.firstNonFinite = std::min(scan.firstNonFinite, i);
        scan.hasNaN = std::isnan(x[i]);
      }
  return scan;
}

namespace {

// Four doubles side by side (GCC/Clang vector extensions: one AVX register on x86).
using Quad = double __attribute__((vector_size(32)));

// S[q][m] += w u^m (m = 0..2D, padded to M, a multiple of 4: the extra powers are summed and never used) over the
// rows. Two copies of the sums (even and odd rows) so that neighbouring rows in the same interval do not wait on each
// other's store. Per block: interval and local coordinate of every row first (branch-free, so it vectorises, with the
// division, floor and clamp of SplineBasis::evaluateFast), then per row M / 4 vector read-modify-writes.
template <int D>
void powerSums(const SplineBasis& basis, const double* x, std::size_t n, const double* weights, double* sums) {
  constexpr int M = (2 * D + 1 + 3) / 4 * 4;
  const double lo = basis.lo(), dx = basis.spacing();
  const int last = basis.numIntervals() - 1;
  double* s1 = sums + static_cast<std::size_t>(basis.numIntervals()) * M;
  alignas(32) std::array<int, kGramBlock> q;
  alignas(32) std::array<double, kGramBlock> u;
  auto add = [](double* s, double wi, double ui) {
    const double u2 = ui * ui;
    Quad p = Quad{1.0, ui, u2, u2 * ui} * wi;
    for (int k = 0; k < M / 4; ++k, p *= u2 * u2) {
      Quad acc;
      std::memcpy(&acc, s + 4 * k, sizeof acc);
      acc += p;
      std::memcpy(s + 4 * k, &acc, sizeof acc);
    }
  };
  for (std::size_t begin = 0; begin < n; begin += kGramBlock) {
    const std::size_t rows = std::min(n - begin, kGramBlock);
    const double* xb = x + begin;
    for (std::size_t r = 0; r < rows; ++r) {  // for t > -1 truncation is floor and clamping
      const double t = (xb[r] - lo) / dx;
      int c = static_cast<int>(t);  // written so that GCC vectorises it (std::min/max forms it does not)
      c = c < last ? c : last;
      c = c > 0 ? c : 0;
      q[r] = c;
      u[r] = t - c;
    }
    const double* w = weights ? weights + begin : nullptr;
    // The next block's x (and w) is fetched while this one's sums are added, so that the memory stream and the adds
    // overlap (the locate loop alone waits on memory): 1.9 -> 1.45 ns a row on one core of the 2-core machine.
    const bool nextBlock = begin + 2 * kGramBlock <= n;
    std::size_t r = 0;
    for (; r + 1 < rows; r += 2) {
      if (nextBlock && r % kRowsPerLine == 0) {
        __builtin_prefetch(xb + kGramBlock + r);
        if (w) __builtin_prefetch(w + kGramBlock + r);
      }
      add(sums + q[r] * M, w ? w[r] : 1.0, u[r]);
      add(s1 + q[r + 1] * M, w ? w[r + 1] : 1.0, u[r + 1]);
    }
    if (r < rows) add(sums + q[r] * M, w ? w[r] : 1.0, u[r]);
  }
}

template <int D>
Eigen::MatrixXd gramOf(const SplineBasis& basis, const double* x, std::size_t n, const double* weights) {
  constexpr int W = D + 1;
  constexpr int M = (2 * D + 1 + 3) / 4 * 4;
  const int intervals = basis.numIntervals();
  std::vector<double> sums(2 * static_cast<std::size_t>(intervals) * M, 0.0);
  powerSums<D>(basis, x, n, weights, sums.data());
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(basis.numColumns(), basis.numColumns());
  for (int q = 0; q < intervals; ++q) {
    const double* s0 = sums.data() + static_cast<std::size_t>(q) * M;
    const double* s1 = s0 + static_cast<std::size_t>(intervals) * M;
    double h[2 * D + 1];
    for (int m = 0; m <= 2 * D; ++m) h[m] = s0[m] + s1[m];
    for (int a = 0; a < W; ++a)
      for (int b = a; b < W; ++b) {
        double g = 0.0;
        for (int s = 0; s < W; ++s)
          for (int t = 0; t < W; ++t) g += basis.poly(q, a, s) * basis.poly(q, b, t) * h[s + t];
        gram(q + a, q + b) += g;
        if (b != a) gram(q + b, q + a) += g;
      }
  }
  return gram;
}

template <std::size_t... I>
constexpr auto gramTable(std::index_sequence<I...>) {
  return std::array<Eigen::MatrixXd (*)(const SplineBasis&, const double*, std::size_t, const double*), sizeof...(I)>{
      &gramOf<int(I) + 1>...};
}

}  // namespace

Eigen::MatrixXd gramMatrix(const SplineBasis& basis, const double* x, std::size_t n, const double* weights) {
  const ScopedStage timed("basis and Gram", n * sizeof(double) * (weights ? 2 : 1));
  static constexpr auto table = gramTable(std::make_index_sequence<SplineBasis::kMaxDegree>{});
  return table[static_cast<std::size_t>(basis.degree() - 1)](basis, x, n, weights);
}

}  // namespace gb

#include "learner/GramMatrix.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "common/RunProfile.hpp"
#include "learner/FoldPowerSums.hpp"

namespace gb {

namespace {

// Lanes of the range scan: independent minima, maxima and finiteness sums, so the loop vectorises.
constexpr int kLanes = 8;
// Rows per block of the Gram pass: interval and local coordinate for a block first (vectorised, with the division
// of SplineBasis::evaluateFast), then the power sums row by row.
constexpr std::size_t kGramBlock = kFoldPowerSumRows;
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

using Quad = PowerQuad;

// S[q][m] += w u^m (m = 0..2D, padded to M, a multiple of 4: the extra powers are summed and never used) over the
// rows (w null: every weight 1), into two copies of the sums (2 x intervals x M: even and odd rows) so that
// neighbouring rows in the same interval do not wait on each other's store. Per block: interval and local coordinate
// of every row first (branch-free, so it vectorises, with the division, floor and clamp of
// SplineBasis::evaluateFast), then per row M / 4 vector read-modify-writes. foldPowerSums adds the same products in
// the same order for several weight vectors.
template <int D>
void powerSums(const SplineBasis& basis, const double* x, std::size_t n, const double* weights, double* sums) {
  constexpr int M = powerSumWidth(D);
  const std::size_t copy = static_cast<std::size_t>(basis.numIntervals()) * M;  // one copy of the sums
  alignas(32) std::array<int, kGramBlock> q;
  alignas(32) std::array<double, kGramBlock> u;
  // Row i's powers 1, u, u^2, ... times its weight, into copy `half` of the sums.
  auto add = [&](std::size_t i, std::size_t r, std::size_t half) {
    double u4;
    const Quad base = firstPowers(u[r], u4);
    double* s = sums + half * copy + static_cast<std::size_t>(q[r]) * M;
    Quad p = base * (weights ? weights[i] : 1.0);
    for (int k = 0; k < M / 4; ++k, p *= u4) {
      Quad acc;
      std::memcpy(&acc, s + 4 * k, sizeof acc);
      acc += p;
      std::memcpy(s + 4 * k, &acc, sizeof acc);
    }
  };
  for (std::size_t begin = 0; begin < n; begin += kGramBlock) {
    const std::size_t rows = std::min(n - begin, kGramBlock);
    const double* xb = x + begin;
    locateRows(basis, xb, rows, q.data(), u.data());
    // The next block's x (and weights) is fetched while this one's sums are added, so that the memory stream and the
    // adds overlap (the locate loop alone waits on memory): 1.9 -> 1.45 ns a row on one core of the 2-core machine.
    const bool nextBlock = begin + 2 * kGramBlock <= n;
    std::size_t r = 0;
    for (; r + 1 < rows; r += 2) {
      if (nextBlock && r % kRowsPerLine == 0) {
        __builtin_prefetch(xb + kGramBlock + r);
        if (weights) __builtin_prefetch(weights + begin + kGramBlock + r);
      }
      add(begin + r, r, 0);
      add(begin + r + 1, r + 1, 1);
    }
    if (r < rows) add(begin + r, r, 0);
  }
}

// G = sum over intervals q of Poly_q H_q Poly_q', H_q[s][t] = S_q,s+t, from the two copies of one set's sums.
template <int D>
Eigen::MatrixXd gramFromSums(const SplineBasis& basis, const double* sums) {
  constexpr int W = D + 1;
  constexpr int M = powerSumWidth(D);
  const int intervals = basis.numIntervals();
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(basis.numColumns(), basis.numColumns());
  for (int q = 0; q < intervals; ++q) {
    const double* s0 = sums + static_cast<std::size_t>(q) * M;
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

template <int D>
std::vector<Eigen::MatrixXd> gramsOf(const SplineBasis& basis, const double* x, std::size_t n,
                                     const std::vector<const double*>& weights) {
  constexpr int M = powerSumWidth(D);
  const std::size_t set = 2 * static_cast<std::size_t>(basis.numIntervals()) * M;
  std::vector<double> sums(weights.size() * set, 0.0);
  if (weights.size() == 1)
    powerSums<D>(basis, x, n, weights.front(), sums.data());
  else
    foldPowerSums(basis, x, n, weights.data(), static_cast<int>(weights.size()), sums.data());
  std::vector<Eigen::MatrixXd> grams;
  for (std::size_t f = 0; f < weights.size(); ++f) grams.push_back(gramFromSums<D>(basis, sums.data() + f * set));
  return grams;
}

template <std::size_t... I>
constexpr auto gramTable(std::index_sequence<I...>) {
  return std::array<std::vector<Eigen::MatrixXd> (*)(const SplineBasis&, const double*, std::size_t,
                                                     const std::vector<const double*>&),
                    sizeof...(I)>{&gramsOf<int(I) + 1>...};
}

}  // namespace

Eigen::MatrixXd gramMatrix(const SplineBasis& basis, const double* x, std::size_t n, const double* weights) {
  const ScopedStage timed("basis and Gram", n * sizeof(double) * (weights ? 2 : 1));
  static constexpr auto table = gramTable(std::make_index_sequence<SplineBasis::kMaxDegree>{});
  return table[static_cast<std::size_t>(basis.degree() - 1)](basis, x, n, {weights}).front();
}

std::vector<Eigen::MatrixXd> gramMatrices(const SplineBasis& basis, const double* x, std::size_t n,
                                          const std::vector<const double*>& weights) {
  const ScopedStage timed("basis and Gram", n * sizeof(double) * (1 + weights.size()));
  static constexpr auto table = gramTable(std::make_index_sequence<SplineBasis::kMaxDegree>{});
  if (weights.empty()) return {};
  return table[static_cast<std::size_t>(basis.degree() - 1)](basis, x, n, weights);
}

}  // namespace gb

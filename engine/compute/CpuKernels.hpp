#pragma once
// The CPU backend's row loops, templated on the spline degree so the inner loops unroll. Every loop works on
// x itself (interval + local coordinate), never on a stored basis. Internal to boost/CpuBackend.cpp.
#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "spline/SplineBasis.hpp"

namespace gb::cpu {

// Where a row falls on a learner's basis: interval q (clamped like SplineBasis::intervalOf) and u = t - q.
struct Locator {
  double lo, inverseSpacing;
  int lastInterval;
  int locate(double x, double* u) const {
    const double t = (x - lo) * inverseSpacing;
    int q = static_cast<int>(t);
    q = q < 0 ? 0 : (q > lastInterval ? lastInterval : q);
    *u = t - q;
    return q;
  }
};

// The basis of one learner as the backend sees it: where rows fall and the polynomial table of SplineBasis,
// transposed to polyBySpan[(q * W + s) * W + r] (W = degree + 1) so that Horner's rule runs on vectors over r.
struct BasisView {
  Locator loc;
  const double* polyBySpan;
};
std::vector<double> transposedPolynomials(const std::vector<double>& poly, int intervals, int degree);
// The view of `basis` whose table, transposedPolynomials of basis.polynomialTable(), is at polyBySpan.
BasisView basisView(const SplineBasis& basis, const double* polyBySpan);

// Four rows side by side in a 4-wide vector (GCC/Clang vector extensions: AVX on x86, plain code elsewhere).
using RowQuad = double __attribute__((vector_size(32)));

// Locator::locate over rows [0, rows) of x into q and u, written so that GCC vectorises it (the same arithmetic and
// clamping as locate, so the same intervals and local coordinates).
inline void locateRows(const Locator& loc, const double* __restrict x, std::size_t rows, int* __restrict q,
                       double* __restrict u) {
  for (std::size_t r = 0; r < rows; ++r) {
    const double t = (x[r] - loc.lo) * loc.inverseSpacing;
    int c = static_cast<int>(t);
    c = c < loc.lastInterval ? c : loc.lastInterval;
    c = c > 0 ? c : 0;
    q[r] = c;
    u[r] = t - c;
  }
}

// Rows per piece of the two-stage row loops: where every row falls first (vectorised), then the accumulation.
constexpr std::size_t kLocateRows = 512;

// Asks for the next piece of a streamed array while this one is worked on (the hardware prefetcher alone left the
// vectorised locate waiting on memory: perf attributed a sixth of the cross-product pass to that load).
inline void prefetchPiece(const double* next, std::size_t rows) {
  for (std::size_t r = 0; r < rows; r += 8) __builtin_prefetch(next + r);
}

// M[q][s] += g u^s over rows [begin, end). Two accumulator copies (even/odd rows) so that neighbouring rows
// in the same interval do not wait on each other's store. Per piece of kLocateRows rows: locateRows, then per row
// the degree+1 powers and one contiguous read-modify-write of M[q][0..D] (a single 4-wide vector for cubic splines).
template <int D>
void accumulateMoments(const BasisView& b, const double* x, const double* g, std::size_t begin, std::size_t end,
                       double* m0, double* m1) {
  constexpr int W = D + 1;
  auto add = [](double* __restrict m, double gi, double u) {
    if constexpr (W == 4) {
      const double gu = gi * u, gu2 = gu * u;
      RowQuad acc;
      std::memcpy(&acc, m, sizeof acc);
      acc += RowQuad{gi, gu, gu2, gu2 * u};
      std::memcpy(m, &acc, sizeof acc);
    } else {
      double pw[W];
      pw[0] = gi;
      for (int s = 1; s < W; ++s) pw[s] = pw[s - 1] * u;
      for (int s = 0; s < W; ++s) m[s] += pw[s];
    }
  };
  alignas(32) int q[kLocateRows];
  alignas(32) double u[kLocateRows];
  for (std::size_t piece = begin; piece < end; piece += kLocateRows) {
    const std::size_t rows = std::min(end - piece, kLocateRows);
    if (piece + rows < end) prefetchPiece(x + piece + rows, std::min(end - piece - rows, kLocateRows));
    locateRows(b.loc, x + piece, rows, q, u);
    const double* gp = g + piece;
    std::size_t r = 0;
    for (; r + 1 < rows; r += 2) {
      add(m0 + q[r] * W, gp[r], u[r]);
      add(m1 + q[r + 1] * W, gp[r + 1], u[r + 1]);
    }
    if (r < rows) add(m0 + q[r] * W, gp[r], u[r]);
  }
}

// mu += f, g -= f with f the selected learner's step as a per-interval polynomial A[q][s]; returns sum g^2.
template <int D>
double updateRows(const BasisView& b, const double* x, const double* A, std::size_t begin, std::size_t end, double* g,
                  double* mu) {
  constexpr int W = D + 1;
  double ss = 0.0;
  alignas(32) int qs[kLocateRows];
  alignas(32) double us[kLocateRows];
  for (std::size_t piece = begin; piece < end; piece += kLocateRows) {
    const std::size_t rows = std::min(end - piece, kLocateRows);
    locateRows(b.loc, x + piece, rows, qs, us);
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t i = piece + r;
      const double* a = A + qs[r] * W;
      double f = a[D];
      for (int s = D - 1; s >= 0; --s) f = f * us[r] + a[s];
      mu[i] += f;
      const double res = g[i] - f;
      g[i] = res;
      ss += res * res;
    }
  }
  return ss;
}

// f[i - begin] += the step A[q][s] of one learner at rows [begin, end): several learners' steps summed per row, so
// that g and mu take them in one pass (the CPU backend's waiting steps). Horner's rule as in updateRows, so a single
// learner's f is bit for bit updateRows's.
template <int D>
void addStepRows(const BasisView& b, const double* x, const double* A, std::size_t begin, std::size_t end, double* f) {
  constexpr int W = D + 1;
  alignas(32) int qs[kLocateRows];
  alignas(32) double us[kLocateRows];
  for (std::size_t piece = begin; piece < end; piece += kLocateRows) {
    const std::size_t rows = std::min(end - piece, kLocateRows);
    locateRows(b.loc, x + piece, rows, qs, us);
    double* fp = f + (piece - begin);
    for (std::size_t r = 0; r < rows; ++r) {
      const double* a = A + qs[r] * W;
      double v = a[D];
      for (int s = D - 1; s >= 0; --s) v = v * us[r] + a[s];
      fp[r] += v;
    }
  }
}

// The degree+1 non-zero basis values at each row of [begin, end): first[i - begin], w[(i - begin) * W + r].
template <int D>
void basisRows(const BasisView& b, const double* x, std::size_t begin, std::size_t end, int* first, double* w) {
  constexpr int W = D + 1;
  using Vec = Eigen::Array<double, W, 1>;
  for (std::size_t i = begin; i < end; ++i) {
    double u;
    const int q = b.loc.locate(x[i], &u);
    const double* p = b.polyBySpan + static_cast<std::size_t>(q) * W * W;
    Vec v = Eigen::Map<const Vec>(p + D * W);
    for (int s = D - 1; s >= 0; --s) v = v * u + Eigen::Map<const Vec>(p + s * W);
    Eigen::Map<Vec>(w + (i - begin) * W) = v;
    first[i - begin] = q;
  }
}

// B_j'B_l over a block of rows, given learner l's rows from basisRows<DL>, accumulated per column of B_j'B_l and
// interval of j: P[((ql + t) * intervalsJ + qj) * WJ + r] += b_{qj+r}(x_j) b_{ql+t}(x_l). Each of a row's WL updates
// is one WJ-vector (j's basis values times one broadcast weight of l) that another row's update either hits exactly
// or misses, so store-to-load forwarding always works; writing straight into the k x k matrix overlaps neighbouring
// rows' updates partially. P is k_l x intervalsJ x WJ doubles: 16 KB at knots 20, within L1. The earlier layout, one
// WJ x WL block per pair of intervals, took 56 KB there and was 11-25% slower (median 18%) on the 2-core Zen 3
// machine (32 KB of L1; docs/perf/cpu.md).
template <int DJ, int DL>
void accumulateCrossPairs(const BasisView& bj, const double* xj, std::size_t begin, std::size_t end, const int* firstL,
                          const double* wL, double* P) {
  constexpr int WJ = DJ + 1, WL = DL + 1;
  using VecJ = Eigen::Array<double, WJ, 1>;
  using VecL = Eigen::Array<double, WL, 1>;
  using Block = Eigen::Matrix<double, WJ, WL>;  // column t holds j's WJ weights times b_{ql+t}
  const double* const poly = bj.polyBySpan;     // a local: the stores into P could otherwise alias bj
  const int intervalsJ = bj.loc.lastInterval + 1;
  const Eigen::OuterStride<> columnStride(static_cast<Eigen::Index>(intervalsJ) * WJ);
  alignas(32) int qs[kLocateRows];
  alignas(32) double us[kLocateRows];
  for (std::size_t piece = begin; piece < end; piece += kLocateRows) {
    const std::size_t rows = std::min(end - piece, kLocateRows);
    if (piece + rows < end) prefetchPiece(xj + piece + rows, std::min(end - piece - rows, kLocateRows));
    locateRows(bj.loc, xj + piece, rows, qs, us);
    for (std::size_t r = 0; r < rows; ++r) {
      const int q = qs[r];
      const double u = us[r];
      const std::size_t i = piece + r - begin;
      // Horner over s with vectors over r (the table is stored [q][s][r]).
      const double* p = poly + static_cast<std::size_t>(q) * WJ * WJ;
      VecJ v = Eigen::Map<const VecJ>(p + DJ * WJ);
      for (int s = DJ - 1; s >= 0; --s) v = v * u + Eigen::Map<const VecJ>(p + s * WJ);
      const VecL wl = Eigen::Map<const VecL>(wL + i * WL);
      double* const at = P + (static_cast<std::size_t>(firstL[i]) * intervalsJ + q) * WJ;
      if constexpr (WJ == 1) {  // Eigen stores a 1 x WL block by rows, so its columns would not take the stride
        for (int t = 0; t < WL; ++t) at[static_cast<std::size_t>(t) * intervalsJ] += v[0] * wl[t];
      } else {
        Eigen::Map<Block, 0, Eigen::OuterStride<>> block(at, columnStride);
        block.noalias() += v.matrix() * wl.matrix().transpose();
      }
    }
  }
}

// The rows of one learner grouped by interval (a counting sort, once per fit): row order[r] lies in interval q for
// start[q] <= r < start[q + 1], at local coordinate u[r]. The moments then accumulate in registers, interval by
// interval, reading the gradient through `order` (it stays in cache), instead of read-modify-writes of moment bins.
struct SortedRows {
  std::vector<std::uint32_t> order, start;
  std::vector<double> u;
  std::size_t bytes() const { return order.size() * 4 + u.size() * 8 + start.size() * 4; }
};
// The rows of x by interval; with `skip` (n flags), the rows whose flag is set are left out (a fold's rows of weight
// 0, whose w u adds only zeros to the moments).
SortedRows sortRows(const BasisView& b, const double* x, std::size_t n, int intervals,
                    const std::vector<bool>* skip = nullptr);

// M[q][s] = sum of g u^s over the rows of interval q (overwrites M). Four rows at a time, each in its own lane of
// the vector accumulators (four independent chains of additions; the gathered g built from four scalar loads,
// which measured faster than a hardware gather on this project's AMD machine: docs/performance.md).
template <int D>
void sortedMoments(const SortedRows& rows, int intervals, const double* g, double* M) {
  constexpr int W = D + 1;
  const std::uint32_t* order = rows.order.data();
  const double* u = rows.u.data();
  for (int q = 0; q < intervals; ++q) {
    RowQuad a[W] = {};
    std::uint32_t r = rows.start[static_cast<std::size_t>(q)];
    const std::uint32_t e = rows.start[static_cast<std::size_t>(q) + 1];
    for (; r + 3 < e; r += 4) {
      RowQuad p = {g[order[r]], g[order[r + 1]], g[order[r + 2]], g[order[r + 3]]};
      RowQuad t;
      std::memcpy(&t, u + r, sizeof t);
      for (int s = 0; s < W; ++s) {
        a[s] += p;
        p *= t;
      }
    }
    double m[W];
    for (int s = 0; s < W; ++s) m[s] = (a[s][0] + a[s][1]) + (a[s][2] + a[s][3]);
    for (; r < e; ++r) {
      double p = g[order[r]];
      for (int s = 0; s < W; ++s) {
        m[s] += p;
        p *= u[r];
      }
    }
    for (int s = 0; s < W; ++s) M[q * W + s] = m[s];
  }
}

using SortedMomentsFn = void (*)(const SortedRows&, int, const double*, double*);
SortedMomentsFn sortedMomentsKernel(int degree);

using MomentsFn = void (*)(const BasisView&, const double*, const double*, std::size_t, std::size_t, double*, double*);
using UpdateFn = double (*)(const BasisView&, const double*, const double*, std::size_t, std::size_t, double*, double*);
using StepRowsFn = void (*)(const BasisView&, const double*, const double*, std::size_t, std::size_t, double*);
using BasisRowsFn = void (*)(const BasisView&, const double*, std::size_t, std::size_t, int*, double*);
using CrossFn = void (*)(const BasisView&, const double*, std::size_t, std::size_t, const int*, const double*, double*);

// C (kj x kl, row-major) += the partial sums P of accumulateCrossPairs (kl = intervalsL + wl - 1 columns of
// intervalsJ x wj); P is zeroed for the next block of rows.
void foldCrossPairs(double* P, int intervalsJ, int wj, int intervalsL, int wl, int kl, double* C);

// Degree 0..5 -> the instantiation (degree 0: a factor's level indicators, compute/CpuLearnerRows.hpp).
MomentsFn momentsKernel(int degree);
UpdateFn updateKernel(int degree);
StepRowsFn stepRowsKernel(int degree);
BasisRowsFn basisRowsKernel(int degree);
CrossFn crossKernel(int degreeJ, int degreeL);

}  // namespace gb::cpu

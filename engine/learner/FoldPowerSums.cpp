#include "learner/FoldPowerSums.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace gb {

namespace {

using Quad = PowerQuad;
// Sets whose sums an interval's run of rows keeps in registers at once: 4 x (M / 4) accumulators, independent
// chains of additions (1.22 ns a row and set with 4 on this machine; 2: 1.53, 5: 1.47, 8: 1.45).
constexpr int kSetsTogether = 4;

// One block's rows sorted by (interval, parity): rows start[key] .. start[key + 1] of order/base/u4, key = 2 q + h.
struct SortedBlock {
  std::vector<std::uint16_t> order;  // the row within the block
  std::vector<Quad> base;            // 1, u, u^2, u^3 of that row
  std::vector<double> u4;            // u^4
  std::vector<std::uint32_t> start;
  std::vector<int> q;
  std::vector<double> u;
};

// Adds sets f0 .. f0 + G - 1 of the block's rows to their sums: per run (interval and parity) the sums are loaded,
// the run's rows added in row order, and the sums stored, so each sum sees the additions of its own pass.
template <int M, int G>
void addSets(const SortedBlock& s, const double* const* weights, int f0, std::size_t begin, std::size_t copy,
             double* sums) {
  constexpr int QN = M / 4;
  const double* w[G];
  for (int g = 0; g < G; ++g) w[g] = weights[f0 + g] ? weights[f0 + g] + begin : nullptr;
  const int keys = static_cast<int>(s.start.size()) - 1;
  for (int key = 0; key < keys; ++key) {
    const std::uint32_t b = s.start[static_cast<std::size_t>(key)], e = s.start[static_cast<std::size_t>(key) + 1];
    if (b == e) continue;
    const std::size_t at = static_cast<std::size_t>(key & 1) * copy + static_cast<std::size_t>(key >> 1) * M;
    double* set[G];
    Quad acc[G][QN];
    for (int g = 0; g < G; ++g) {
      set[g] = sums + static_cast<std::size_t>(f0 + g) * 2 * copy + at;
      for (int k = 0; k < QN; ++k) std::memcpy(&acc[g][k], set[g] + 4 * k, sizeof(Quad));
    }
    for (std::uint32_t pos = b; pos < e; ++pos) {
      const std::uint16_t r = s.order[pos];
      const Quad base = s.base[pos];
      const double u4 = s.u4[pos];
      for (int g = 0; g < G; ++g) {
        Quad p = base * (w[g] ? w[g][r] : 1.0);
        for (int k = 0; k < QN; ++k, p *= u4) acc[g][k] += p;
      }
    }
    for (int g = 0; g < G; ++g)
      for (int k = 0; k < QN; ++k) std::memcpy(set[g] + 4 * k, &acc[g][k], sizeof(Quad));
  }
}

// Interval and local coordinate of the block's rows (locateRows), then a stable counting sort by key 2 q + (row
// parity).
void sortBlock(const SplineBasis& basis, const double* xb, std::size_t rows, SortedBlock& s) {
  locateRows(basis, xb, rows, s.q.data(), s.u.data());
  std::fill(s.start.begin(), s.start.end(), 0u);
  for (std::size_t r = 0; r < rows; ++r) ++s.start[static_cast<std::size_t>(2 * s.q[r]) + (r & 1) + 1];
  for (std::size_t k = 1; k < s.start.size(); ++k) s.start[k] += s.start[k - 1];
  for (std::size_t r = 0; r < rows; ++r) {  // start[key] advances to the key's end; shifted back below
    const std::uint32_t pos = s.start[static_cast<std::size_t>(2 * s.q[r]) + (r & 1)]++;
    s.order[pos] = static_cast<std::uint16_t>(r);
    s.base[pos] = firstPowers(s.u[r], s.u4[pos]);
  }
  for (std::size_t k = s.start.size() - 1; k > 0; --k) s.start[k] = s.start[k - 1];
  s.start[0] = 0;
}

template <int D>
void sumsOf(const SplineBasis& basis, const double* x, std::size_t n, const double* const* weights, int sets,
            double* sums) {
  constexpr int M = powerSumWidth(D);
  const std::size_t copy = static_cast<std::size_t>(basis.numIntervals()) * M;  // one copy of one set's sums
  SortedBlock s;
  s.order.resize(kFoldPowerSumRows);
  s.base.resize(kFoldPowerSumRows);
  s.u4.resize(kFoldPowerSumRows);
  s.q.resize(kFoldPowerSumRows);
  s.u.resize(kFoldPowerSumRows);
  s.start.resize(2 * static_cast<std::size_t>(basis.numIntervals()) + 1);
  for (std::size_t begin = 0; begin < n; begin += kFoldPowerSumRows) {
    const std::size_t rows = std::min(n - begin, kFoldPowerSumRows);
    sortBlock(basis, x + begin, rows, s);
    if (begin + 2 * kFoldPowerSumRows <= n) {  // the next block's x and weights, fetched while this one is added
      constexpr std::size_t kLine = 8;         // doubles in a 64-byte cache line
      for (std::size_t r = 0; r < kFoldPowerSumRows; r += kLine) __builtin_prefetch(x + begin + kFoldPowerSumRows + r);
      for (int f = 0; f < sets; ++f)
        if (weights[f])
          for (std::size_t r = 0; r < kFoldPowerSumRows; r += kLine)
            __builtin_prefetch(weights[f] + begin + kFoldPowerSumRows + r);
    }
    int f = 0;
    for (; f + kSetsTogether <= sets; f += kSetsTogether) addSets<M, kSetsTogether>(s, weights, f, begin, copy, sums);
    for (; f < sets; ++f) addSets<M, 1>(s, weights, f, begin, copy, sums);
  }
}

template <std::size_t... I>
constexpr auto sumsTable(std::index_sequence<I...>) {
  return std::array<void (*)(const SplineBasis&, const double*, std::size_t, const double* const*, int, double*),
                    sizeof...(I)>{&sumsOf<int(I) + 1>...};
}

}  // namespace

void foldPowerSums(const SplineBasis& basis, const double* x, std::size_t n, const double* const* weights, int sets,
                   double* sums) {
  static constexpr auto table = sumsTable(std::make_index_sequence<SplineBasis::kMaxDegree>{});
  table[static_cast<std::size_t>(basis.degree() - 1)](basis, x, n, weights, sets, sums);
}

}  // namespace gb

#include "compute/CpuKernels.hpp"

#include <array>
#include <utility>

#include "common/Error.hpp"

namespace gb::cpu {

namespace {

constexpr int kDegrees = 5;
constexpr std::size_t kTable = kDegrees + 1;  // degrees 0 (a factor's indicators) to kDegrees

void checkDegree(int degree) {
  if (degree < 0 || degree > kDegrees) throw ComputeError("cpu backend: unsupported degree " + std::to_string(degree));
}

template <std::size_t... I>
constexpr std::array<MomentsFn, sizeof...(I)> momentsTable(std::index_sequence<I...>) {
  return {&accumulateMoments<int(I)>...};
}
template <std::size_t... I>
constexpr std::array<UpdateFn, sizeof...(I)> updateTable(std::index_sequence<I...>) {
  return {&updateRows<int(I)>...};
}
template <std::size_t... I>
constexpr std::array<StepRowsFn, sizeof...(I)> stepRowsTable(std::index_sequence<I...>) {
  return {&addStepRows<int(I)>...};
}
template <std::size_t... I>
constexpr std::array<BasisRowsFn, sizeof...(I)> basisRowsTable(std::index_sequence<I...>) {
  return {&basisRows<int(I)>...};
}
template <std::size_t... I>
constexpr std::array<SortedMomentsFn, sizeof...(I)> sortedMomentsTable(std::index_sequence<I...>) {
  return {&sortedMoments<int(I)>...};
}
// Index I = dj * kTable + dl.
template <std::size_t... I>
constexpr std::array<CrossFn, sizeof...(I)> crossTable(std::index_sequence<I...>) {
  return {&accumulateCrossPairs<int(I / kTable), int(I % kTable)>...};
}

}  // namespace

MomentsFn momentsKernel(int degree) {
  static constexpr auto table = momentsTable(std::make_index_sequence<kTable>{});
  checkDegree(degree);
  return table[static_cast<std::size_t>(degree)];
}

SortedMomentsFn sortedMomentsKernel(int degree) {
  static constexpr auto table = sortedMomentsTable(std::make_index_sequence<kTable>{});
  checkDegree(degree);
  return table[static_cast<std::size_t>(degree)];
}

SortedRows sortRows(const BasisView& b, const double* x, std::size_t n, int intervals, const std::vector<bool>* skip) {
  SortedRows rows;
  std::vector<int> interval(n);
  std::vector<double> local(n);
  rows.start.assign(static_cast<std::size_t>(intervals) + 1, 0);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (skip && (*skip)[i]) continue;
    interval[i] = b.loc.locate(x[i], &local[i]);
    ++rows.start[static_cast<std::size_t>(interval[i]) + 1];
    ++kept;
  }
  for (int q = 0; q < intervals; ++q) rows.start[q + 1] += rows.start[q];
  std::vector<std::uint32_t> next(rows.start.begin(), rows.start.end() - 1);
  rows.order.resize(kept);
  rows.u.resize(kept);
  for (std::size_t i = 0; i < n; ++i) {
    if (skip && (*skip)[i]) continue;
    const std::uint32_t r = next[static_cast<std::size_t>(interval[i])]++;
    rows.order[r] = static_cast<std::uint32_t>(i);
    rows.u[r] = local[i];
  }
  return rows;
}

UpdateFn updateKernel(int degree) {
  static constexpr auto table = updateTable(std::make_index_sequence<kTable>{});
  checkDegree(degree);
  return table[static_cast<std::size_t>(degree)];
}

StepRowsFn stepRowsKernel(int degree) {
  static constexpr auto table = stepRowsTable(std::make_index_sequence<kTable>{});
  checkDegree(degree);
  return table[static_cast<std::size_t>(degree)];
}

BasisRowsFn basisRowsKernel(int degree) {
  static constexpr auto table = basisRowsTable(std::make_index_sequence<kTable>{});
  checkDegree(degree);
  return table[static_cast<std::size_t>(degree)];
}

CrossFn crossKernel(int degreeJ, int degreeL) {
  static constexpr auto table = crossTable(std::make_index_sequence<kTable * kTable>{});
  checkDegree(degreeJ);
  checkDegree(degreeL);
  return table[static_cast<std::size_t>(degreeJ) * kTable + static_cast<std::size_t>(degreeL)];
}

std::vector<double> transposedPolynomials(const std::vector<double>& poly, int intervals, int degree) {
  const int W = degree + 1;
  std::vector<double> out(poly.size());
  for (int q = 0; q < intervals; ++q)
    for (int r = 0; r < W; ++r)
      for (int s = 0; s < W; ++s)
        out[(static_cast<std::size_t>(q) * W + s) * W + r] = poly[(static_cast<std::size_t>(q) * W + r) * W + s];
  return out;
}

BasisView basisView(const SplineBasis& basis, const double* polyBySpan) {
  return {{basis.lo(), 1.0 / basis.spacing(), basis.numIntervals() - 1}, polyBySpan};
}

void foldCrossPairs(double* P, int intervalsJ, int wj, int intervalsL, int wl, int kl, double* C) {
  const int columns = intervalsL + wl - 1;
  for (int b = 0; b < columns; ++b)
    for (int qj = 0; qj < intervalsJ; ++qj) {
      double* part = P + (static_cast<std::size_t>(b) * intervalsJ + qj) * wj;
      for (int r = 0; r < wj; ++r) {
        C[static_cast<std::size_t>(qj + r) * kl + b] += part[r];
        part[r] = 0.0;
      }
    }
}

}  // namespace gb::cpu

#include "bench/KernelBenchData.hpp"

#include <cmath>
#include <limits>
#include <random>

#include "common/Error.hpp"

namespace gb::kbench {
namespace {

constexpr int kDegree = 3;

double roundTo(double v, bool dbl) { return dbl ? v : static_cast<double>(static_cast<float>(v)); }

std::vector<double> uniformVector(std::size_t n, double lo, double hi, std::mt19937_64& rng, bool dbl) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double& e : v) e = roundTo(dist(rng), dbl);
  return v;
}

// B_j(x) coefficients' product with v over the learner's nonzero columns: sum_r w_r v[first + r].
Reference forwardReference(const CaseData& d, int learner) {
  Reference r{std::vector<double>(d.rows), std::vector<double>(d.rows)};
  const double* dl = d.delta.data() + static_cast<std::size_t>(learner) * d.k;
  const SplineBasis& basis = d.bases[learner];
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < d.rows; ++i) {
    double w[SplineBasis::kMaxDegree + 1];
    const int first = basis.evaluateFast(d.x[learner][i], w);
    double sum = 0.0, abs = 0.0;
    for (int q = 0; q <= kDegree; ++q) {
      sum += w[q] * dl[first + q];
      abs += std::abs(w[q] * dl[first + q]);
    }
    r.value[i] = sum;
    r.scale[i] = abs;
  }
  return r;
}

}  // namespace

CaseData makeCase(std::size_t rows, int k, int learners, std::uint64_t seed, bool dbl) {
  if (k < kDegree + 2)
    throw InputError(optionMessage("--k", std::to_string(k) + " columns are too few: a cubic basis needs at least " +
                                              std::to_string(kDegree + 2)));
  CaseData d;
  d.rows = rows;
  d.k = k;
  d.learners = learners;
  d.selected = learners / 2;
  std::mt19937_64 rng(seed * 1000003u + rows * 131u + static_cast<std::uint64_t>(k));
  d.x.resize(learners);
  for (auto& x : d.x) x = uniformVector(rows, 0.0, 1.0, rng, true);
  const SplineSpec spec{k - kDegree - 1, kDegree, Boundary::Extended};
  for (const auto& x : d.x) {
    double lo = x[0], hi = x[0];
    for (double v : x) lo = std::min(lo, v), hi = std::max(hi, v);
    d.bases.emplace_back(lo, hi, spec);
  }
  d.g = uniformVector(rows, -1.0, 1.0, rng, dbl);
  d.delta = uniformVector(static_cast<std::size_t>(learners) * k, -1.0, 1.0, rng, dbl);
  d.y = uniformVector(rows, 5.0, 9.0, rng, dbl);
  d.mu = uniformVector(rows, 6.0, 8.0, rng, dbl);

  const std::size_t cols = static_cast<std::size_t>(learners) * k;
  d.btg = Reference{std::vector<double>(cols, 0.0), std::vector<double>(cols, 0.0)};
#pragma omp parallel for schedule(dynamic, 1)
  for (int j = 0; j < learners; ++j) {
    double* c = d.btg.value.data() + static_cast<std::size_t>(j) * k;
    double* s = d.btg.scale.data() + static_cast<std::size_t>(j) * k;
    double w[SplineBasis::kMaxDegree + 1];
    for (std::size_t i = 0; i < rows; ++i) {
      const int first = d.bases[j].evaluateFast(d.x[j][i], w);
      for (int q = 0; q <= kDegree; ++q) {
        c[first + q] += w[q] * d.g[i];
        s[first + q] += std::abs(w[q] * d.g[i]);
      }
    }
  }
  d.forwardFirst = forwardReference(d, 0);
  d.forwardSelected = forwardReference(d, d.selected);
  return d;
}

template <typename Real>
void fillDenseRows(const CaseData& d, int firstLearner, int count, std::size_t rowBegin, std::size_t rowEnd,
                   Real* out) {
  const std::size_t cols = static_cast<std::size_t>(count) * d.k;
#pragma omp parallel for schedule(static)
  for (std::size_t i = rowBegin; i < rowEnd; ++i) {
    Real* row = out + (i - rowBegin) * cols;
    std::fill(row, row + cols, Real(0));
    double w[SplineBasis::kMaxDegree + 1];
    for (int j = 0; j < count; ++j) {
      const int learner = firstLearner + j;
      const int first = d.bases[learner].evaluateFast(d.x[learner][i], w);
      for (int q = 0; q <= kDegree; ++q) row[static_cast<std::size_t>(j) * d.k + first + q] = static_cast<Real>(w[q]);
    }
  }
}
template void fillDenseRows<float>(const CaseData&, int, int, std::size_t, std::size_t, float*);
template void fillDenseRows<double>(const CaseData&, int, int, std::size_t, std::size_t, double*);

double maxScaledError(const std::vector<double>& got, const Reference& ref) {
  double worst = 0.0;
  for (std::size_t i = 0; i < ref.value.size(); ++i) {
    const double scale = ref.scale[i] > 0.0 ? ref.scale[i] : 1.0;
    const double e = i < got.size() ? std::abs(got[i] - ref.value[i]) / scale : INFINITY;
    if (!(e <= worst)) worst = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
  }
  return worst;
}

}  // namespace gb::kbench

#include "compute/CpuExactPass.hpp"

#include <algorithm>

#include "common/ParallelErrors.hpp"
#include "compute/CpuKernels.hpp"

namespace gb::cpu {

namespace {

// Rows per block of the moments pass: g's block (32 KiB) stays in L1 while a thread streams each learner's x.
constexpr std::size_t kMomentBlockRows = 4096;

// (B_j'g)_{q+r} = sum_s poly(q, r, s) M[q][s], from the two copies of the moments.
void momentsToCoefficients(const LearnerRows& L, const double* moments, double* c) {
  const int W = L.degree + 1;
  const double* m0 = moments + L.momentOffset;
  const double* m1 = m0 + L.intervals * W;
  double* cj = c + L.coefOffset;
  const double* poly = L.poly.data();
  std::fill_n(cj, L.k, 0.0);
  for (int q = 0; q < L.intervals; ++q)
    for (int r = 0; r < W; ++r) {
      double sum = 0.0;
      for (int s = 0; s < W; ++s) sum += poly[(q * W + r) * W + s] * (m0[q * W + s] + m1[q * W + s]);
      cj[q + r] += sum;
    }
}

}  // namespace

void exactCoefficients(const std::vector<LearnerRows>& learners, const std::vector<std::size_t>& which, const double* g,
                       std::size_t n, int chunkLearners, int team, double* moments, double* c) {
  const auto per = static_cast<std::size_t>(chunkLearners);
  const int chunks = chunksOf(which.size(), per);
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
  for (int ch = 0; ch < chunks; ++ch) {
    const auto [tb, te] = chunk(ch, per, which.size());
    for (std::size_t t = tb; t < te; ++t) {
      const LearnerRows& L = learners[which[t]];
      std::fill_n(moments + L.momentOffset, 2 * L.intervals * (L.degree + 1), 0.0);
    }
    for (std::size_t b = 0; b < n; b += kMomentBlockRows) {
      const std::size_t e = std::min(n, b + kMomentBlockRows);
      for (std::size_t t = tb; t < te; ++t) {
        const LearnerRows& L = learners[which[t]];
        double* m0 = moments + L.momentOffset;
        momentsKernel(L.degree)(L.view, L.x, g, b, e, m0, m0 + L.intervals * (L.degree + 1));
      }
    }
    for (std::size_t t = tb; t < te; ++t) momentsToCoefficients(learners[which[t]], moments, c);
  }
}

std::vector<double> stepPolynomial(const std::vector<double>& table, int intervals, int degree, const double* step) {
  const int W = degree + 1;
  std::vector<double> poly(static_cast<std::size_t>(intervals) * W, 0.0);
  for (int q = 0; q < intervals; ++q)
    for (int s = 0; s < W; ++s) {
      double sum = 0.0;
      for (int r = 0; r < W; ++r) sum += table[static_cast<std::size_t>((q * W + r) * W + s)] * step[q + r];
      poly[static_cast<std::size_t>(q * W + s)] = sum;
    }
  return poly;
}

std::vector<double> stepPolynomial(const SplineBasis& basis, const double* step) {
  return stepPolynomial(basis.polynomialTable(), basis.numIntervals(), basis.degree(), step);
}

RowSums applySteps(const std::vector<LearnerRows>& learners, const std::vector<std::size_t>& todo,
                   const std::vector<std::vector<double>>& polys, std::size_t n, int threads, std::size_t chunkRows,
                   const StepTargets& to) {
  std::vector<StepRowsFn> kernels;
  for (std::size_t l : todo) kernels.push_back(stepRowsKernel(learners[l].degree));
  const int chunks = chunksOf(n, chunkRows);
  std::vector<double> sums(static_cast<std::size_t>(chunks), 0.0), oobSums(sums.size(), 0.0);
  ParallelErrors errors;
#pragma omp parallel num_threads(threads)
  {
    std::vector<double> f;
    errors.run([&] { f.resize(chunkRows); });
#pragma omp for schedule(dynamic, 1)
    for (int ch = 0; ch < chunks; ++ch) {
      if (f.size() != chunkRows) continue;  // this thread's buffer failed: thrown below
      const auto range = chunk(ch, chunkRows, n);
      const std::size_t b = range.first, e = range.second;
      std::fill_n(f.begin(), e - b, 0.0);
      for (std::size_t t = 0; t < todo.size(); ++t) {
        const LearnerRows& L = learners[todo[t]];
        kernels[t](L.view, L.x, polys[t].data(), b, e, f.data());
      }
      if (to.mu)
        for (std::size_t i = b; i < e; ++i) to.mu[i] += f[i - b];
      if (!to.g) continue;
      double ss = 0.0, oob = 0.0;
      for (std::size_t i = b; i < e; ++i) {
        const double res = to.g[i] - f[i - b];
        to.g[i] = res;
        ss += (to.w ? to.w[i] : 1.0) * res * res;
        if (to.oob) oob += to.oob[i] * res * res;
      }
      sums[static_cast<std::size_t>(ch)] = ss;
      oobSums[static_cast<std::size_t>(ch)] = oob;
    }
  }
  errors.rethrow();
  RowSums total;
  for (std::size_t ch = 0; ch < sums.size(); ++ch) {
    total.weighted += sums[ch];
    total.outOfBag += oobSums[ch];
  }
  return total;
}

}  // namespace gb::cpu

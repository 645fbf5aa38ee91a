#include "compute/CpuExactPass.hpp"

#include <algorithm>

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

}  // namespace gb::cpu

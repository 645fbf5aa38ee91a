#pragma once
// The CPU backend's learners as its row loops see them, and its cross-product pass: B_j'B_l for a set of learners j
// and one learner l, in one pass over their x (compute/CpuBackend.cpp).
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "compute/CpuKernels.hpp"
#include "learner/Learner.hpp"

namespace gb::cpu {

// One learner of the backend: its covariate, its basis view, and where its values lie in the backend's arrays. Every
// learner is a piecewise polynomial in the backend's eyes (CpuLearnerRows.hpp): a spline over its knot intervals, a
// linear term as degree 1 on one interval (its columns 1 and x - centre), a factor as degree 0 with one interval per
// level (its columns the level indicators; `indicators` says the learner's own are the intercept and the treatment
// contrasts).
struct LearnerRows {
  const double* x = nullptr;
  const Learner* learner = nullptr;
  BasisView view{};
  std::vector<double> poly;        // poly[(q (degree+1) + r) (degree+1) + s]: u^s in column q + r on interval q
  std::vector<double> polyBySpan;  // the same transposed, [q][s][r]; view.polyBySpan points here
  int degree = 0, k = 0, intervals = 0;
  bool indicators = false;       // a factor: the backend's columns are the L level indicators
  double centre = 0.0;           // a linear term: the backend's columns are 1 and x - centre
  std::size_t momentOffset = 0;  // into the moments (two copies of intervals x (degree+1))
  std::size_t coefOffset = 0;    // into c and the rows of a cross-product block
};

// Work in chunks of `size` out of `total`: how many, and chunk `index`'s range [first, second).
inline int chunksOf(std::size_t total, std::size_t size) { return static_cast<int>((total + size - 1) / size); }
inline std::pair<std::size_t, std::size_t> chunk(int index, std::size_t size, std::size_t total) {
  const std::size_t b = static_cast<std::size_t>(index) * size;
  return {b, std::min(total, b + size)};
}

// Doubles of one learner's partial sums in l's pass (the largest over the learners), a whole number of cache lines so
// that every learner's sums start on one (j's vectors of degree + 1 doubles then never straddle a line for degree 1
// or 3).
std::size_t crossPairDoubles(const std::vector<LearnerRows>& learners, std::size_t l);

// B_j'B_l for every j of todo into C (row-major, totalCoefs x k_l: j's rows at its coefOffset; other rows untouched),
// with at most maxTeam threads and scratchBytes of partial sums (at least crossPairDoubles doubles). In chunks of
// learners, the rows stream in blocks: l's basis rows once per block, then every j of the chunk accumulates its partial
// sums (one buffer per j), folded into C every few blocks and at the end. The fold points depend only on the rows, so
// the sums do not depend on the number of threads.
// With weights (null: every weight 1), B_j'W B_l: l's basis rows are weighted.
void crossPass(const std::vector<LearnerRows>& learners, std::size_t n, std::size_t l,
               const std::vector<std::size_t>& todo, const double* weights, std::size_t scratchBytes, int maxTeam,
               double* C);

}  // namespace gb::cpu

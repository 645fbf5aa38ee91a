#pragma once
// The CPU backend's exact B_j'g from interval moments, and a step as interval polynomials (compute/CpuBackend.cpp).
#include <cstddef>
#include <vector>

#include "compute/CpuCrossPass.hpp"

namespace gb::cpu {

// c_j = B_j'g exactly for the learners in `which` (c at each learner's coefOffset; moments, at its momentOffset, is
// scratch): on interval q, M[q][s] = sum g u^s in one pass over x_j, then (B_j'g)_{q+r} = sum_s poly(q, r, s) M[q][s].
// Chunks of `chunkLearners` learners are handed out dynamically to at most `team` threads; each streams its learners'
// x in blocks of rows, so that g's block stays in L1.
void exactCoefficients(const std::vector<LearnerRows>& learners, const std::vector<std::size_t>& which, const double* g,
                       std::size_t n, int chunkLearners, int team, double* moments, double* c);

// Where applySteps puts the steps: mu += f (mu not null), g -= f (g not null); the sums of the new g^2 weighted by w
// and by oob (null: every weight 1; oob null: no such sum).
struct StepTargets {
  double* g = nullptr;
  double* mu = nullptr;
  const double* w = nullptr;
  const double* oob = nullptr;
};
struct RowSums {
  double weighted = 0.0, outOfBag = 0.0;
};

// The steps polys[t] (stepPolynomial) of learners todo[t] applied to every row: per row, f = their values summed in
// the order of todo. Rows in chunks of chunkRows on up to `threads` threads; the sums are added per chunk in chunk
// order, so they do not depend on the number of threads.
RowSums applySteps(const std::vector<LearnerRows>& learners, const std::vector<std::size_t>& todo,
                   const std::vector<std::vector<double>>& polys, std::size_t n, int threads, std::size_t chunkRows,
                   const StepTargets& to);

// The coefficients `step` of a piecewise polynomial (table[q][r][s] as LearnerRows::poly) as interval polynomials
// A[q][s] (q < intervals, s <= degree); the second form for a spline learner's basis.
std::vector<double> stepPolynomial(const std::vector<double>& table, int intervals, int degree, const double* step);
std::vector<double> stepPolynomial(const SplineBasis& basis, const double* step);

}  // namespace gb::cpu

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

// The coefficients `step` of a piecewise polynomial (table[q][r][s] as LearnerRows::poly) as interval polynomials
// A[q][s] (q < intervals, s <= degree); the second form for a spline learner's basis.
std::vector<double> stepPolynomial(const std::vector<double>& table, int intervals, int degree, const double* step);
std::vector<double> stepPolynomial(const SplineBasis& basis, const double* step);

}  // namespace gb::cpu

#pragma once
// How far a learner's RSS reduction can have grown since it was last computed exactly, so that the CPU backend can
// leave the c of learners never selected stale between exact passes (compute/CpuBackend.cpp) and still select exactly
// the learner that exact scores would. A pure function of small matrices, so that test_booster checks it directly.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace gb {

// The reduction at residuals g is r(g) = c'Qc with c = B'g, that is |A g|^2 with A = Q^(1/2) B'. By the triangle
// inequality sqrt(r(g - d)) <= sqrt(r(g)) + |A| |d|, and |A|^2 = lambda_max(B Q B') = lambda_max(G^(1/2) Q G^(1/2))
// with G = B'B. With case weights W the same holds for c = B'W g, G = B'WB and |d| the W norm (B replaced by W^(1/2)
// B). Returns |A|. For the penalised least-squares fit (Q = 2P - PGP, P = (G + lambda S)^-1) those eigenvalues are 2h -
// h^2 with h in [0, 1], so |A| <= 1; it is computed, not assumed. G may be singular.
inline double reductionLipschitz(const Eigen::MatrixXd& gram, const Eigen::MatrixXd& rss) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> g(gram);
  const Eigen::VectorXd roots = g.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  const Eigen::MatrixXd half = g.eigenvectors() * roots.asDiagonal() * g.eigenvectors().transpose();
  const Eigen::MatrixXd m = half * rss * half;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> e(0.5 * (m + m.transpose()), Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(0.0, e.eigenvalues().maxCoeff()));
}

// |A| for the CPU backend: computed (reductionLipschitz) for a learner of at most kExactLipschitzColumns columns, and
// otherwise the bound 1 that the penalised least-squares fit guarantees, with a margin for the rounding of P and Q.
// The computation costs two eigen-decompositions of k x k matrices, O(k^3): a factor of 4000 levels took 57 s of a
// 1.2 s fit (a review's measurement, 2026-11-29), where the bound costs nothing and is at most 1e-6 looser.
constexpr int kExactLipschitzColumns = 64;
constexpr double kLipschitzBound = 1.0 + 1e-6;
inline double learnerLipschitz(const Eigen::MatrixXd& gram, const Eigen::MatrixXd& rss) {
  return gram.rows() <= kExactLipschitzColumns ? reductionLipschitz(gram, rss) : kLipschitzBound;
}

// An upper bound on r(g - d), given r(g) (reductionAtExact), |A| (lipschitz) and |d|^2 (shiftSquares). The margin,
// 1e-8 relative, covers the rounding of the reductions (about 1e-13 relative) and of |A| and |d|: a learner whose bound
// reaches the best reduction is treated as a possible winner, which costs an exact pass, never a different selection.
inline double reductionBound(double reductionAtExact, double lipschitz, double shiftSquares) {
  constexpr double kMargin = 1e-8;
  const double root = std::sqrt(std::max(0.0, reductionAtExact)) + lipschitz * std::sqrt(std::max(0.0, shiftSquares));
  return root * root * (1.0 + kMargin);
}

}  // namespace gb

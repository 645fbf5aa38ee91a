#pragma once
// The set-up passes over one covariate: its range and finiteness (one vectorised pass), and G = B'WB from the
// compact basis (one pass, no dense B). Both run on the calling thread; buildLearners spreads learners across cores.
#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "spline/SplineBasis.hpp"

namespace gb {

struct CovariateScan {
  double lo = 0.0, hi = 0.0;   // min and max over the finite values
  std::size_t firstNonFinite;  // the first row holding inf or NaN, or n when there is none
  bool hasNaN = false;         // some row holds a NaN (a missing value)
};
// min, max, the first non-finite row of x[0..n) and whether a NaN is among them, n > 0.
CovariateScan scanCovariate(const double* x, std::size_t n);

// G = B'WB from the compact basis, in one pass over x (no dense B); w null means unweighted. Accumulated per
// interval q as power sums S_q,m = sum w u^m (m = 0..2 degree) and folded as G_q = Poly_q H_q Poly_q' with
// H_q[s][t] = S_q,s+t: 2 degree + 1 additions per row instead of (degree + 1)^2 products.
Eigen::MatrixXd gramMatrix(const SplineBasis& basis, const double* x, std::size_t n, const double* w = nullptr);

// gramMatrix(basis, x, n, weights[f]) for every f, in one pass over x (the folds of a cross-validation: x is read and
// located once, and each fold's weights are added to its own sums). Bit for bit the Grams of separate passes.
std::vector<Eigen::MatrixXd> gramMatrices(const SplineBasis& basis, const double* x, std::size_t n,
                                          const std::vector<const double*>& weights);

}  // namespace gb

#pragma once
// The minimum of a function of one variable on an interval, as R's optimize() finds it: Brent's localmin (Brent 1973,
// "Algorithms for Minimization without Derivatives"), golden sections and parabolic steps, never evaluating two
// points closer than sqrt(eps) |x| + tol / 3. mboost picks its offsets and nuisance parameters with optimize(), so the
// same steps give the same answer (to rounding), not merely a minimum within tol.
#include <functional>

namespace gb {

// R's optimize(f, c(lower, upper), tol = tol)$minimum. A non-finite f counts as the largest double, as R's does.
// A non-finite or reversed interval gives NaN.
// objective, when given, receives f at the returned point (optimize()$objective), which Brent has evaluated already.
double brentMinimum(const std::function<double(double)>& f, double lower, double upper, double tol,
                    double* objective = nullptr);

// optimize()'s default tolerance, .Machine$double.eps^0.25.
constexpr double kOptimizeTolerance = 1.220703125e-4;

}  // namespace gb

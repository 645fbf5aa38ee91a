#pragma once
// What a batch of resampling folds (Backend::prepareFolds) must share to advance together: the same rows, response,
// family and spline learners over the same covariates, knots and degree; only weights, out-of-bag weights, offsets
// and lambdas (the learners' matrices) differ.
#include <vector>

#include "compute/Backend.hpp"

namespace gb {

// True when 1..maxFolds folds share one design of spline learners only, each with its out-of-bag weights.
bool foldsShareSplineDesign(const std::vector<BoostProblem>& folds, std::size_t maxFolds);

}  // namespace gb

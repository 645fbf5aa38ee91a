#pragma once
// Partial effects as the plots show them: f_j(x) = B_j(x) gamma_j centred by its mean over the training rows, on
// the family's link scale (the mean, half log-odds, log rate, ...).
#include <Eigen/Dense>
#include <vector>

#include "fit/FitSnapshot.hpp"

namespace gbui {

struct EffectCurve {
  std::vector<double> x, y;  // y = f_j(x) - mean_i f_j(x_ij); a factor's x are its level codes 0..L-1
  double mean = 0.0;         // the mean that was subtracted
};

// A spline or linear learner: `points` equidistant x over its training range [lo, hi]; a factor: one point per
// level. Values through gb::learnerEffect, the function Booster::partialEffect uses; the mean is
// basisMeans_j . gamma_j (see makeFitSetup).
EffectCurve centredEffect(const FitSetup& setup, std::size_t learner, const Eigen::VectorXd& gamma, int points = 161);

// Up to `count` covariate values spread over the rows, for the data rug.
std::vector<double> rugSample(const std::vector<double>& x, std::size_t count = 400);

}  // namespace gbui

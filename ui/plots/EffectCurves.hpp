#pragma once
// Partial effects as the plots show them: f_j(x) = B_j(x) gamma_j centred by its mean over the training rows.
#include <Eigen/Dense>
#include <vector>

#include "fit/FitSnapshot.hpp"

namespace gbui {

struct EffectCurve {
  std::vector<double> x, y;  // y = f_j(x) - mean_i f_j(x_ij)
  double mean = 0.0;         // the mean that was subtracted
};

// `points` equidistant x over the learner's training range [lo, hi]. Values through gb::splineEffect, the
// function Booster::partialEffect uses; the mean is basisMeans_j . gamma_j (see makeFitSetup).
EffectCurve centredEffect(const FitSetup& setup, std::size_t learner, const Eigen::VectorXd& gamma, int points = 161);

// Up to `count` covariate values spread over the rows, for the data rug.
std::vector<double> rugSample(const std::vector<double>& x, std::size_t count = 400);

}  // namespace gbui

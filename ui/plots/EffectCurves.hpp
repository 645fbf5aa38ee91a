#pragma once
// Partial effects as the plots show them: f_j(x) = B_j(x) gamma_j centred by its mean over the training rows, on
// the family's link scale (the mean, half log-odds, log rate, ...).
#include <Eigen/Dense>
#include <functional>
#include <vector>

#include "data/TrueEffects.hpp"
#include "fit/FitSnapshot.hpp"
#include "model/PartialEffect.hpp"

namespace gbui {

struct EffectCurve {
  std::vector<double> x, y;  // y = f_j(x) - mean_i f_j(x_ij); a factor's x are its level codes 0..L-1
  double mean = 0.0;         // the mean that was subtracted
};

// A spline or linear learner: `points` equidistant x over its training range [lo, hi]; a factor: one point per
// level. The grid and values are the engine's (model/PartialEffect.hpp, also result.json's bands); the mean is
// basisMeans_j . gamma_j (gb::designMeans, see makeFitSetup).
EffectCurve centredEffect(const FitSetup& setup, std::size_t learner, const Eigen::VectorXd& gamma,
                          int points = gb::kEffectGridPoints);

// The true partial effects of generated data, per learner on its curve's grid (empty for a factor), each centred
// by its mean over the training rows (weighted like basisMeans), so truth and estimate are centred alike.
struct TrueCurves {
  std::vector<std::vector<double>> x, y;
  std::vector<double> maxAbs;
};
// Throws what gb::centredTrueEffect throws. `cancelled` is asked between learners; when it says yes the result is
// incomplete and must be dropped.
TrueCurves trueCurves(const FitSetup& setup, const gb::TrueEffects& truth, const std::function<bool()>& cancelled = {});
// Values trueCurves reads: training rows times learners with an effect (one pass over the rows each).
double trueCurvesWork(const FitSetup& setup, const gb::TrueEffects& truth);

// At most `count` covariate values spread evenly over the rows (all of them when there are no more), for the rug.
std::vector<double> rugSample(const std::vector<double>& x, std::size_t count = 400);

}  // namespace gbui

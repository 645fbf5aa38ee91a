#pragma once
// The partial effect as the window plots it and result.json's "bands" report it: f_j(x) = B_j(x) gamma_j minus its
// mean over the training rows (weighted by the case weights), on a fixed grid: a spline or linear learner at
// kEffectGridPoints equidistant x over its training range [lo, hi] (both ends included), a factor at each level code.
#include <Eigen/Dense>
#include <vector>

#include "learner/Learner.hpp"

namespace gb {

inline constexpr int kEffectGridPoints = 161;

// Column means of B_j over the training rows, weighted by the case weights, from G = B'WB without another pass over
// the data: B-splines sum to one on [lo, hi], so B'W1 = G 1 and 1'W1 = 1'G 1; the first column of a linear or
// factor design is the intercept, so its row of G holds sum(w) and the weighted sums of the other columns.
Eigen::VectorXd designMeans(const Learner& l);

// The grid: `points` x over [lo, hi] (the last exactly hi) for a spline or linear learner; 0..L-1 for a factor.
std::vector<double> effectGrid(const Learner& l, int points = kEffectGridPoints);

// f_j(x) - means . gamma at every x (learnerEffect, with linear extrapolation outside the range).
std::vector<double> centredEffect(const Learner& l, const Eigen::VectorXd& means, const Eigen::VectorXd& gamma,
                                  const std::vector<double>& x);

}  // namespace gb

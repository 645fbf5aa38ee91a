#pragma once
// One base learner with everything precomputed at set-up: a penalised B-spline of one covariate (mboost's bbs), a
// linear term b0 + b1 x (bols(x)) or a factor with treatment contrasts against its first level (bols(f)). Its
// design B (n x k) is never formed: for a spline it is the compact basis; for a linear term the columns 1 and x;
// for a factor the column 1 and one indicator per level after the first.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "data/Dataset.hpp"
#include "learner/GramMatrix.hpp"
#include "learner/ModelFrame.hpp"
#include "settings/ModelSettings.hpp"
#include "spline/SplineBasis.hpp"

namespace gb {

struct Learner {
  std::string name;   // covariate name
  int column = -1;    // its column in the Dataset
  SplineBasis basis;  // a spline's basis; for a linear term over x's range and for a factor unused
  LearnerType type = LearnerType::Spline;
  std::vector<std::string> levels;  // a factor's levels (the column holds codes 0..L-1)
  Eigen::MatrixXd gram;             // G = B'WB (W the case weights; identity without them)
  Eigen::MatrixXd penalty;          // S
  double lambda = 0.0;
  double edf = 0.0;
  std::string note;             // from solveLambda (e.g. unpenalised)
  Eigen::MatrixXd solveMatrix;  // P = (G + lambda S)^-1, symmetric: delta = P c
  Eigen::MatrixXd rssMatrix;    // Q = 2P - P G P: RSS reduction of the unshrunk fit = c' Q c
  int penaltyNullity = -1;      // dim of S's null space (d for a d-th order difference penalty); -1: count it from S
  // Unpenalised bols effects the weights leave undecided (X'WX singular, where mboost's bols() stops): a factor's
  // levels whose every row has weight 0, or a linear slope where every row of positive weight has one value. Their
  // coefficients are the minimum-norm solution's. A resampling fold with any is dropped from cv's mean, as mboost's
  // cvrisk drops a fold that fails; a bands refit leaves those points out.
  std::vector<std::size_t> undecidedLevels{};
  bool undecidedSlope = false;
  bool undecided() const { return undecidedSlope || !undecidedLevels.empty(); }

  int numColumns() const {
    return type == LearnerType::Spline ? basis.numColumns()
                                       : (type == LearnerType::Linear ? 2 : static_cast<int>(levels.size()));
  }
  bool isSpline() const { return type == LearnerType::Spline; }
};

// The learners of a model frame, in the order splines, linears, factors, with the weights in every G and lambda
// (mboost's df2lambda on X'WX). Throws InputError as buildLearners does.
// group: the processes of a distributed fit (common/ShardReducer.hpp), each holding its part of the frame's rows;
// every process then gets the same learners, from the ranges and sums over all rows (added in process order).
std::vector<Learner> buildLearners(const ModelFrame& frame, const ModelSettings& settings,
                                   ShardReducer* group = nullptr);

// The basis of spline learner `name` on covariate x: knots from its range (`known`, the model frame's scan of x, or
// null to scan x here). Throws InputError for a non-finite value, a constant covariate, a range the spline options
// cannot cover, or fewer rows than basis columns.
SplineBasis splineBasisOf(const std::string& name, const std::vector<double>& x, const CovariateScan* known,
                          const SplineSpec& spec);

// Builds one learner per name in settings.learners (all non-response columns when empty), lambda from the edf.
// Throws InputError for: unknown column, constant covariate, fewer rows than basis columns, edf at or below
// the penalty's null space, and bad spline options. Uses both cores across learners.
std::vector<Learner> buildLearners(const Dataset& data, const ModelSettings& settings);

}  // namespace gb

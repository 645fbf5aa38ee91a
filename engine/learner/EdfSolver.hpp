#pragma once
// Effective degrees of freedom of a penalised B-spline learner and lambda from a target edf (Algorithm 1).
//
// With G = B'B and S the penalty, the Demmler-Reinsch eigenvalues d_i of S v = d G v give
//   hat values h_i(lambda) = 1 / (1 + lambda d_i),
//   trace:  edf = sum h_i              (the paper's tr(H))
//   mboost: edf = sum (2 h_i - h_i^2)  (tr(2H - H'H), mboost's default)
// No n x n matrix is ever formed. d comes from the pencil S v = mu (G + tau S) v (tau = tr G / tr S), accurate also
// where G is singular or ill-conditioned; directions B cannot see get d = inf and count 0 towards the edf. The null
// space (d = 0) is the penalty's: its dimension is counted from S alone (2 for second differences, 0 for ridge).
#include <Eigen/Dense>
#include <string>

#include "learner/MboostLambda.hpp"
#include "settings/ModelEnums.hpp"

namespace gb {

class EdfFunction {
 public:
  // gram = B'B (k x k), penalty = S (k x k). Throws InputError naming `learnerName` where B'B + S is singular (fewer
  // distinct covariate values with weight than the penalty's null space needs), ComputeError if the eigen-solver fails.
  // penaltyNullity: the dimension of S's null space where the caller knows it (d for a d-th order difference
  // penalty, Learner::penaltyNullity); -1 counts S's eigenvalues below 1e-10 of the largest, which overcounts a
  // difference penalty of many columns (its smallest real eigenvalues, about (pi / k)^(2d), fall below that).
  // equilibrate: scale G's columns to a unit diagonal first (the same d), for columns of unlike scale such as a linear
  // learner's 1 and x.
  EdfFunction(const Eigen::MatrixXd& gram, const Eigen::MatrixXd& penalty, const std::string& learnerName = {},
              int penaltyNullity = -1, bool equilibrate = false);

  double operator()(double lambda, EdfDefinition definition) const;
  int rank() const { return rank_; }                   // rank of B (numerically)
  int nullSpaceDimension() const { return nullDim_; }  // directions of B's column space the penalty does not see
  // theta_i = 1 / (1 + d_i) in [0, 1] (0 for a direction B does not see), for plots of the spectrum.
  const Eigen::VectorXd& thetas() const { return theta_; }
  // mboost's df2lambda values of d (learner/MboostLambda.hpp), descending: formed on request (solveLambda with the
  // mboost definition), not for every learner and edf plot.
  Eigen::VectorXd mboostValues() const { return mboostDemmlerReinsch(gram_, penalty_, equilibrate_); }

 private:
  Eigen::VectorXd d_;  // Demmler-Reinsch eigenvalues; inf for a direction B does not see
  Eigen::VectorXd theta_;
  Eigen::MatrixXd gram_, penalty_;
  int rank_ = 0;
  bool equilibrate_ = false;
  int nullDim_ = 0;
};

struct LambdaSolution {
  double lambda = 0.0;  // 0 when the target is at or above rank(B): the learner is unpenalised
  double edf = 0.0;     // edf at lambda (equal to the target up to the root finder's tolerance)
  bool unpenalised = false;
  std::string note;  // e.g. "edf 20 >= rank 16: lambda = 0 (unpenalised)"
};

// The trace definition (the paper's): solves edf(lambda) = target by a bracketing root finder (Boost.Math TOMS 748)
// to full double precision. The mboost definition: lambda as mboost's df2lambda finds it (learner/MboostLambda.hpp),
// so that fits equal mboost's; the edf returned is the exact one at that lambda.
// Throws InputError("--edf: ...") when target <= nullSpaceDimension(), naming both numbers and the learner.
// unweightedRank (mboost definition only; -1: edf.rank()): the rank of the unweighted basis, which mboost's df2lambda
// tests the target against (rankMatrix(X)); where zero weights leave G = B'WB of lower rank, a target between the
// two ranks gets mboost's lambda search (a lambda near 0 that misses the target) instead of lambda 0.
LambdaSolution solveLambda(const EdfFunction& edf, double target, EdfDefinition definition,
                           const std::string& learnerName, int unweightedRank = -1);

}  // namespace gb

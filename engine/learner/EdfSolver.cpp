#include "learner/EdfSolver.hpp"

#include <Eigen/Eigenvalues>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <limits>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/Text.hpp"
#include "learner/MboostLambda.hpp"

namespace gb {

EdfFunction::EdfFunction(const Eigen::MatrixXd& gram, const Eigen::MatrixXd& penalty, const std::string& learnerName,
                         int knownNullity, bool equilibrate) {
  const Eigen::Index k = gram.rows();
  // Relative size below which an eigenvalue counts as zero. The matrices are O(n) (gram) and O(1) (penalty);
  // 1e-10 is far above rounding (~1e-16 k) and far below any penalty eigenvalue that matters for the edf.
  const double tol = 1e-10;
  // The penalty's null space (d for a d-th order difference penalty, 0 for ridge) is a property of S alone: counted
  // from S's eigenvalues, which are O(1). Counting near-zero eigenvalues of the pencil instead miscounts when the data
  // leave basis columns nearly empty (their eigenvalues dwarf the rest and a relative threshold swallows real ones).
  int penaltyNullity = knownNullity;
  if (penaltyNullity < 0) {
    const Eigen::VectorXd sEig =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(penalty, Eigen::EigenvaluesOnly).eigenvalues();
    const double sMax = sEig.size() ? std::max(sEig.cwiseAbs().maxCoeff(), 1e-300) : 1.0;
    penaltyNullity = static_cast<int>((sEig.array().abs() <= tol * sMax).count());
  }
  // One pencil for every G, singular or not: S v = mu (G + tau S) v with tau = tr(G) / tr(S), so that both terms
  // have the same scale. Then S v = d G v with d = mu / (1 - tau mu) (the Demmler-Reinsch eigenvalues, h = 1 /
  // (1 + lambda d)); mu = 1/tau marks a direction B does not see (d = inf, h = 0). Cholesky of G itself would lose
  // the small d to G's condition number (1e10 and worse where basis columns have next to no data, e.g. iris's
  // Petal.Length at 20 knots: edf off by 1e-6); G + tau S is conditioned like the data, not like the empty columns.
  //
  // equilibrate (a linear learner's [1, x], whose columns' scales differ by x's): the pencil is formed after a
  // congruence by D = diag(G)^(-1/2), which keeps every d (S v = d G v and D S D v' = d D G D v') and gives D G D a
  // unit diagonal. Without it a covariate of large or tiny scale broke the rank: for x near 5e4, G's eigenvalues are
  // near 3e11 and 0.3, so 1 - tau mu of the small one fell below 1e-10 and it counted as unseen (rank 1), and the
  // unpenalised bols(x) fitted a line through the origin. Not for splines: their columns share one scale, and where
  // few rows leave some columns nearly empty, scaling those up to a unit diagonal makes the pencil worse.
  Eigen::MatrixXd g = gram, s = penalty;
  if (equilibrate) gb::equilibrate(g, s);
  const double traceS = s.trace();
  const double tau = traceS > 0.0 ? std::max(g.trace(), 1e-300) / traceS : 1.0;
  const Eigen::MatrixXd total = g + tau * s;
  // A Cholesky factor of a singular matrix can succeed on rounding-level pivots (one weighted row of a spline:
  // rank 1 against the penalty's null space of 2; rcond 1e-19), and the fit then took steps that were not least
  // squares (a single weighted row fitted 43 off its y at nu 1). Below rcond 1e-14 (x of the weighted rows within
  // about 1e-7 of the range of each other) a step is off by more than 1e-5; binary covariates give about 2e-6.
  Eigen::LLT<Eigen::MatrixXd> check(total);
  constexpr double kSingularRcond = 1e-14;
  if (check.info() != Eigen::Success || !(check.rcond() >= kSingularRcond))
    throw InputError((learnerName.empty() ? std::string() : "learner " + quotedForMessage(learnerName) + ": ") +
                     "basis columns are not identifiable: B'B + S is singular (too few distinct covariate values "
                     "among the rows used: the penalty's null space needs " +
                     std::to_string(penaltyNullity) + "; case weights many orders of magnitude apart, or all near " +
                     "the limits of a double, do the same: rescale them)");
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(s, total, Eigen::EigenvaluesOnly);
  if (es.info() != Eigen::Success) throw ComputeError("edf: generalised eigen-solver failed (S v = mu (B'B + S) v)");
  const Eigen::VectorXd mu = es.eigenvalues();  // ascending: the penalty's null space comes first
  d_.resize(k);
  theta_.resize(k);
  rank_ = 0;
  // mboost counts the rank of B itself (Matrix::rankMatrix, a QR of B with tolerance max(n, k) eps) and solves with
  // B'WB wherever its Cholesky succeeds. A covariate whose extreme basis columns rest on one or two rows (a skewed x:
  // B's singular values down to 1e-6 of the largest) leaves directions under this pencil's 1e-10 that B still has.
  // Where G itself can be factored with an rcond R's solve() accepts (its limit is the machine epsilon; mboost stops
  // below it with "system is computationally singular"), every direction counts as seen (rank k), and an
  // unpenalised fit solves with all of them, as mboost's does. Between eps and 1e-14 (a lognormal covariate at 4-6
  // knots) dropping the weakest direction put the fit 0.09 to 1.2 off least squares, where mboost is within 3e-6 to
  // 2.4e-4 of it (check_skewed_vs_mboost.R). A G singular by construction (fewer distinct values than columns) keeps
  // its rank from the pencil: its Cholesky pivots are rounding, below eps.
  Eigen::LLT<Eigen::MatrixXd> gFactor(g);
  const bool gInvertible =
      gFactor.info() == Eigen::Success && gFactor.rcond() >= std::numeric_limits<double>::epsilon();
  for (Eigen::Index i = 0; i < k; ++i) {
    const double rest = 1.0 - tau * std::max(mu[i], 0.0);  // 1 - tau mu in [0, 1]
    if (i < penaltyNullity)
      d_[i] = 0.0;
    else if (rest <= tol && !gInvertible)
      d_[i] = std::numeric_limits<double>::infinity();
    else
      d_[i] = std::max(mu[i], 0.0) / std::max(rest, std::numeric_limits<double>::epsilon());
    theta_[i] = std::isinf(d_[i]) ? 0.0 : 1.0 / (1.0 + d_[i]);
    if (!std::isinf(d_[i])) ++rank_;
  }
  nullDim_ = penaltyNullity;
  equilibrate_ = equilibrate;
  gram_ = gram;
  penalty_ = penalty;
}

double EdfFunction::operator()(double lambda, EdfDefinition definition) const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < d_.size(); ++i) {
    if (std::isinf(d_[i])) continue;
    const double h = 1.0 / (1.0 + lambda * d_[i]);
    sum += definition == EdfDefinition::Trace ? h : h * (2.0 - h);
  }
  return sum;
}

LambdaSolution solveLambda(const EdfFunction& edf, double target, EdfDefinition definition,
                           const std::string& learnerName, int unweightedRank) {
  LambdaSolution out;
  const std::string who = "learner " + quotedForMessage(learnerName);
  if (!(target > edf.nullSpaceDimension()))
    throw InputError(optionMessage(
        "--edf", who + ": edf " + formatNumber(target, 10) + " must exceed " +
                     std::to_string(edf.nullSpaceDimension()) +
                     ", the dimension of the penalty's null space (no lambda reaches it; raise --edf or lower " +
                     "--differences)"));
  const int rank = definition == EdfDefinition::Mboost && unweightedRank >= 0 ? unweightedRank : edf.rank();
  if (target >= rank) {
    out.lambda = 0.0;
    out.edf = edf(0.0, definition);
    out.unpenalised = true;
    out.note = who + ": edf " + formatNumber(target, 10) + " >= rank " + std::to_string(rank) +
               " of the basis: lambda = 0 (unpenalised)";
    return out;
  }
  if (definition == EdfDefinition::Mboost) {
    out.lambda = mboostLambda(edf.mboostValues(), target);
    out.edf = edf(out.lambda, definition);
    // mboost finds lambda for B'WB + 1e-9 S (options("mboost_eps")); where B'WB is nearly singular in the penalty's
    // directions (a linear learner's 1 and x for x = 5.4e6 + [0, 100]) that term moves the edf reached.
    // Where even lambda = 1e15 (options("mboost_lambdaMax")) leaves the edf above the target, mboost warns and
    // keeps 1e15: B'WB is that large (case weights of 1e20, say).
    if (rank > edf.rank() && out.edf < target - 1e-3)  // zero weights: the target lies beyond the weighted rank
      out.note = who + ": edf " + formatNumber(out.edf, 6) + " where " + formatNumber(target, 10) +
                 " was asked: the rows of positive weight leave basis columns without data (rank " +
                 std::to_string(edf.rank()) + " of " + std::to_string(rank) +
                 "), and mboost's lambda search, followed here, stops near lambda 0";
    else if (std::abs(out.edf - target) > 1e-3)
      out.note = who + ": edf " + formatNumber(out.edf, 6) + " where " + formatNumber(target, 10) + " was asked: " +
                 (out.lambda >= 1e15 ? std::string("lambda stops at mboost's largest, 1e15, and B'WB is larger "
                                                   "still (case weights or the covariate on a huge scale: rescale "
                                                   "them)")
                                     : std::string("mboost's lambda search adds 1e-9 times the penalty to B'WB, "
                                                   "which is small or nearly singular here (case weights on a tiny "
                                                   "scale, or columns nearly collinear: rescale the weights, or "
                                                   "centre or rescale the covariate)"));
    return out;
  }
  auto f = [&](double lambda) { return edf(lambda, definition) - target; };
  // edf(lambda) falls monotonically from rank(B) at 0 to the null-space dimension as lambda grows.
  double upper = 1.0;
  double fUpper = f(upper);
  while (fUpper > 0.0) {
    upper *= 4.0;
    fUpper = f(upper);
    if (!std::isfinite(upper))
      throw ComputeError(who + ": could not bracket lambda for edf " + formatNumber(target, 10));
  }
  const double lower = 0.0;
  const double fLower = f(lower);
  std::uintmax_t iterations = 400;
  // Solve to (nearly) full double precision: the exact equation, not mboost's uniroot tolerance.
  boost::math::tools::eps_tolerance<double> tolerance(std::numeric_limits<double>::digits - 3);
  const auto bracket = boost::math::tools::toms748_solve(f, lower, upper, fLower, fUpper, tolerance, iterations);
  const double a = bracket.first, b = bracket.second;
  out.lambda = std::abs(f(a)) <= std::abs(f(b)) ? a : b;
  out.edf = edf(out.lambda, definition);
  return out;
}

}  // namespace gb

#include "learner/Learner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/RunProfile.hpp"
#include "common/Text.hpp"
#include "learner/EdfSolver.hpp"
#include "learner/GramMatrix.hpp"
#include "learner/LearnerColumns.hpp"
#include "learner/LearnerSetup.hpp"
#include "spline/Penalty.hpp"

namespace gb {

namespace {

// Moore-Penrose inverse of a symmetric positive semi-definite matrix of the given rank: the `rank` largest
// eigenvalues are inverted, the rest (zero up to rounding) dropped. It gives the minimum-norm least-squares fit.
Eigen::MatrixXd pseudoInverse(const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>& eig, int rank) {
  const Eigen::Index k = eig.eigenvalues().size();
  Eigen::VectorXd dinv = Eigen::VectorXd::Zero(k);
  for (Eigen::Index i = k - rank; i < k; ++i) dinv[i] = 1.0 / eig.eigenvalues()[i];  // eigenvalues ascend
  const Eigen::MatrixXd inv = eig.eigenvectors() * dinv.asDiagonal() * eig.eigenvectors().transpose();
  return 0.5 * (inv + inv.transpose());
}

Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigenDecomposition(const Eigen::MatrixXd& a) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(a);
  if (eig.info() != Eigen::Success) throw ComputeError("learner set-up: eigen-decomposition failed");
  return eig;
}

// lambda = 0 where G has rank r < k (fewer distinct covariate values than basis columns, or knot intervals without
// data). Every b = G^+ c + N z (N spanning null(G)) fits the data alike: B N = 0 on every row of positive weight. The
// pseudo-inverse alone picks the shortest b, whose curve between the data's values falls back towards 0 (a spline of
// 3 values, the offset between them). The limit of (G + lambda S)^-1 as lambda -> 0 picks the b that the penalty
// bends least: z = -(N'SN)^-1 N'S G^+ c. As a matrix on c in range(G) (B'W g always is): T G^+ T', T = I - N
// (N'SN)^+ N'S, symmetric like the solve matrices of lambda > 0. With S = a multiple of I (bols) or N'SN = 0 it is
// G^+ itself.
Eigen::MatrixXd leastPenalisedInverse(const Eigen::MatrixXd& g, const Eigen::MatrixXd& s, int rank) {
  const auto eig = eigenDecomposition(g);
  const Eigen::Index k = g.rows(), nullity = k - rank;  // > 0: only a singular G comes here
  const Eigen::MatrixXd gPlus = pseudoInverse(eig, rank);
  const Eigen::MatrixXd n = eig.eigenvectors().leftCols(nullity);  // eigenvalues ascend
  const Eigen::MatrixXd nsn = n.transpose() * s * n;
  const Eigen::MatrixXd t =
      Eigen::MatrixXd::Identity(k, k) - n * nsn.completeOrthogonalDecomposition().pseudoInverse() * n.transpose() * s;
  const Eigen::MatrixXd inv = t * gPlus * t.transpose();
  return 0.5 * (inv + inv.transpose());
}

// P = (G + lambda S)^-1 for a positive definite system, by Cholesky. A system that is singular by construction
// must not come here: Cholesky often "succeeds" on it with a rounding-sized pivot and returns a huge inverse.
Eigen::MatrixXd symmetricInverse(const Eigen::MatrixXd& a) {
  const Eigen::Index k = a.rows();
  Eigen::LLT<Eigen::MatrixXd> llt(a);
  if (llt.info() != Eigen::Success) {
    // Not positive definite after all (rounding in G + lambda S): invert what is there.
    const auto eig = eigenDecomposition(a);
    const Eigen::VectorXd& d = eig.eigenvalues();
    const double tol = d.cwiseAbs().maxCoeff() * static_cast<double>(k) * 1e-15;
    return pseudoInverse(eig, static_cast<int>((d.array() > tol).count()));
  }
  const Eigen::MatrixXd inv = llt.solve(Eigen::MatrixXd::Identity(k, k));
  return 0.5 * (inv + inv.transpose());
}

}  // namespace

namespace {

// mboost's df2lambda tests the edf against the rank of the unweighted X: only where the weighted G falls short of
// full rank and the edf reaches its rank can the two decisions differ.
bool weightedRankFallsShort(const EdfFunction& edf, int k, double targetEdf, EdfDefinition definition) {
  return definition == EdfDefinition::Mboost && targetEdf > 0.0 && targetEdf >= edf.rank() && edf.rank() < k;
}

}  // namespace

bool rankNeedsUnweightedGram(const Learner& learner, double targetEdf, EdfDefinition definition) {
  if (definition != EdfDefinition::Mboost || !(targetEdf > 0.0)) return false;
  const EdfFunction edf(learner.gram, learner.penalty, learner.name, learner.penaltyNullity,
                        learner.type == LearnerType::Linear);
  return weightedRankFallsShort(edf, learner.numColumns(), targetEdf, definition);
}

void finishLearner(Learner& learner, double targetEdf, EdfDefinition definition, const CongruentPencil* pencil,
                   const std::function<Eigen::MatrixXd()>& unweightedGram) {
  const ScopedStage timed("lambda solves and k x k factors");
  const int k = learner.numColumns();
  const Eigen::MatrixXd& g = pencil ? pencil->gram : learner.gram;
  const Eigen::MatrixXd& s = pencil ? pencil->penalty : learner.penalty;
  const EdfFunction edf(g, s, learner.name, learner.penaltyNullity, learner.type == LearnerType::Linear);
  if (targetEdf > 0.0) {
    int unweightedRank = -1;
    if (unweightedGram && weightedRankFallsShort(edf, k, targetEdf, definition))
      unweightedRank =
          EdfFunction(unweightedGram(), s, learner.name, learner.penaltyNullity, learner.type == LearnerType::Linear)
              .rank();
    const LambdaSolution sol = solveLambda(edf, targetEdf, definition, learner.name, unweightedRank);
    learner.lambda = sol.lambda;
    learner.edf = sol.edf;
    learner.note = sol.note;
    if (sol.unpenalised && learner.type == LearnerType::Spline && edf.rank() < k)
      learner.note += "; the data leave the curve free between their values (rank " + std::to_string(edf.rank()) +
                      " of " + std::to_string(k) +
                      " columns), and of the curves that fit them alike the least bent is taken (mboost's bbs() "
                      "stops here: its system is singular); a lower --edf, or --factor for this column, decides it";
  } else {  // unpenalised by request (bols' default lambda = 0)
    learner.lambda = 0.0;
    learner.edf = edf(0.0, definition);
  }
  // lambda = 0 with B of lower rank than k (fewer distinct covariate values than basis columns, or a knot
  // interval without data): G itself is singular, and the edf solver has already counted its rank.
  Eigen::MatrixXd p = learner.lambda == 0.0 && edf.rank() < k ? leastPenalisedInverse(g, s, edf.rank())
                                                              : symmetricInverse(g + learner.lambda * s);
  Eigen::MatrixXd q = 2.0 * p - p * g * p;
  if (pencil) {
    p = pencil->back * p * pencil->back.transpose();
    p = (0.5 * (p + p.transpose())).eval();
    q = pencil->back * q * pencil->back.transpose();
  }
  learner.solveMatrix = p;
  learner.rssMatrix = 0.5 * (q + q.transpose());
}

std::string nonFiniteMessage(const std::string& name, LearnerType type, std::size_t row) {
  const std::string who = quotedForMessage(name);
  return "learner " + who + ": non-finite value at row " + std::to_string(row + 1);
}

void checkSplineRange(const std::string& name, double mn, double mx, const SplineSpec& spec) {
  if (!(mn < mx))
    throw InputError("learner " + quotedForMessage(name) + ": covariate is constant (all values " +
                     formatNumber(mn, 10) + ")");
  // Checked here, where the column is known, rather than left to SplineBasis (whose message cannot name it).
  const std::string problem = SplineBasis::rangeProblem(mn, mx, spec);
  if (!problem.empty())
    throw InputError("column " + quotedForMessage(name) + ": values span [" + formatNumber(mn, 17) + ", " +
                     formatNumber(mx, 17) + "], " + problem);
}

SplineBasis splineBasisOf(const std::string& name, const std::vector<double>& x, const CovariateScan* known,
                          const SplineSpec& spec) {
  const CovariateScan scan = known       ? *known
                             : x.empty() ? CovariateScan{0.0, 0.0, 0}
                                         : scanCovariate(x.data(), x.size());
  if (scan.firstNonFinite < x.size())
    throw InputError(nonFiniteMessage(name, LearnerType::Spline, scan.firstNonFinite));
  checkSplineRange(name, scan.lo, scan.hi, spec);
  SplineBasis basis(scan.lo, scan.hi, spec);
  return basis;
}

namespace {

Learner buildSpline(const std::string& name, int column, const std::vector<double>& x, const double* w,
                    const ModelSettings& settings, const CovariateScan* known = nullptr,
                    const Eigen::MatrixXd* gram = nullptr) {
  const SplineBasis basis = splineBasisOf(name, x, known, settings.spline);
  const int k = basis.numColumns();
  Learner learner{name, column, basis, LearnerType::Spline, {}, {}, {}, 0.0, 0.0, {}, {}, {}};
  if (gram && gram->rows() != k)
    throw ComputeError("learner " + quotedForMessage(name) + ": a precomputed Gram of the wrong size");
  learner.gram = gram ? *gram : gramMatrix(learner.basis, x.data(), x.size(), w);
  learner.penalty = penaltyMatrix(k, settings.penalty, settings.differences);
  learner.penaltyNullity = std::min(penaltyNullSpaceDimension(settings.penalty, settings.differences), k);
  // With weights (case weights, a fold's, a holdout's), B'B of every used row, should the rank decision need it.
  std::function<Eigen::MatrixXd()> unweighted;
  if (w) unweighted = [&] { return gramMatrix(learner.basis, x.data(), x.size(), nullptr); };
  finishLearner(learner, settings.edf, settings.edfDefinition, nullptr, unweighted);
  return learner;
}

}  // namespace

std::vector<Learner> buildLearners(const Dataset& data, const ModelSettings& settings) {
  settings.validate();
  const std::vector<std::string> names = resolveLearners(settings, data);
  std::vector<int> columns(names.size());
  for (std::size_t j = 0; j < names.size(); ++j) columns[j] = data.columnIndex(names[j]);

  return buildEach(names.size(), [&](std::size_t j) {
    const std::size_t c = static_cast<std::size_t>(columns[j]);
    return buildSpline(names[j], columns[j], data.columns[c], nullptr, settings);
  });
}

std::vector<Learner> buildLearners(const ModelFrame& frame, const ModelSettings& settings, ShardReducer* group) {
  if (group) return buildLearnersTogether(frame, settings, *group);
  settings.validate();
  struct Spec {
    const std::string* name;
    LearnerType type;
  };
  std::vector<Spec> specs;
  for (const auto& n : frame.splines) specs.push_back({&n, LearnerType::Spline});
  for (const auto& n : frame.linears) specs.push_back({&n, LearnerType::Linear});
  for (const auto& n : frame.factors) specs.push_back({&n, LearnerType::Factor});
  const Dataset& data = *frame.data;
  const double* w = frame.weights.empty() ? nullptr : frame.weights.data();
  return buildEach(specs.size(), [&](std::size_t j) {
    const std::string& name = *specs[j].name;
    const int c = data.columnIndex(name);
    const std::vector<double>& x = data.columns[static_cast<std::size_t>(c)];
    if (specs[j].type == LearnerType::Linear) return buildLinear(name, c, x, w, settings);
    if (specs[j].type == LearnerType::Factor)
      return buildFactor(name, c, x, data.levelsOf(static_cast<std::size_t>(c)), w, settings);
    const auto scan = frame.columnScans.find(name);
    const auto gram = frame.grams.find(name);
    return buildSpline(name, c, x, w, settings, scan == frame.columnScans.end() ? nullptr : &scan->second,
                       gram == frame.grams.end() ? nullptr : &gram->second);
  });
}

}  // namespace gb

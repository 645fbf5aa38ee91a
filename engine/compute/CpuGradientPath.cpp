#include "compute/CpuGradientPath.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "common/Error.hpp"
#include "common/ParallelErrors.hpp"
#include "compute/CpuExactPass.hpp"
#include "compute/CpuKernels.hpp"
#include "family/BrentMinimum.hpp"
#include "family/NegBinomial.hpp"

namespace gb {

namespace {

// The rows of every spline learner sorted by interval (cpu::SortedRows, 12 bytes per row and learner) when they
// take at most this much memory; beyond it the moments are accumulated from x directly.
constexpr std::size_t kSortedRowsBudget = std::size_t{1} << 30;
// Row-learner products below which a pass runs on one thread (about 0.3 ms of one core).
constexpr double kParallelRowLearners = 2e5;
constexpr std::size_t kChunkRows = 16384;

}  // namespace

struct CpuGradientPath::State {
  struct LearnerState {
    const Learner* learner = nullptr;
    const double* x = nullptr;
    std::vector<double> polyBySpan;
    cpu::BasisView view{};
    int degree = 0, intervals = 0, k = 0;
    cpu::SortedRows sorted;  // empty when over the budget
  };

  BoostProblem problem;
  int threads = 1;
  std::size_t n = 0;
  std::vector<LearnerState> learners;
  std::vector<double> f, v, scratch;
  std::vector<std::vector<double>> c, moments;
  std::vector<double> reduction, chunkSums;
  double weightedSquares = 0.0;  // u'Wu of the current gradient

  const double* w() const { return problem.weights ? problem.weights->data() : nullptr; }
  int team(double rowLearners) const { return rowLearners >= kParallelRowLearners ? threads : 1; }
  int chunks() const { return static_cast<int>((n + kChunkRows - 1) / kChunkRows); }

  // sum of term(i) over the rows, summed per chunk in chunk order (independent of the number of threads).
  template <typename Term>
  double rowSum(Term term) {
    return chunkSum([&](std::size_t b, std::size_t e) {
      double sum = 0.0;
      for (std::size_t i = b; i < e; ++i) sum += term(i);
      return sum;
    });
  }
  // The same with chunkTerm(b, e) summing the rows [b, e) of a chunk.
  template <typename ChunkTerm>
  double chunkSum(ChunkTerm chunkTerm) {
    const int count = chunks();
#pragma omp parallel for schedule(static) num_threads(team(static_cast <double>(n) * 8))
    for (int ch = 0; ch < count; ++ch) {
      const std::size_t b = static_cast<std::size_t>(ch) * kChunkRows, e = std::min(n, b + kChunkRows);
      chunkSums[static_cast<std::size_t>(ch)] = chunkTerm(b, e);
    }
    double total = 0.0;
    for (int ch = 0; ch < count; ++ch) total += chunkSums[static_cast<std::size_t>(ch)];
    return total;
  }

  // v = w u and u'Wu.
  void gradient() {
    const std::vector<double>& y = *problem.response;
    const double* wp = w();
    weightedSquares = rowSum([&](std::size_t i) {
      if (wp && wp[i] == 0.0) return v[i] = 0.0;  // a left-out row: no gradient to form (nor an overflow)
      const double u = problem.family.ngradient(y[i], f[i]);
      v[i] = (wp ? wp[i] : 1.0) * u;
      return v[i] * u;
    });
  }

  void splineCoefficients(std::size_t j) {
    const LearnerState& L = learners[j];
    const int W = L.degree + 1;
    std::vector<double>& m = moments[j];
    std::fill(m.begin(), m.end(), 0.0);
    double* m0 = m.data();
    double* m1 = m0 + static_cast<std::size_t>(L.intervals) * W;
    if (!L.sorted.order.empty())
      cpu::sortedMomentsKernel(L.degree)(L.sorted, L.intervals, v.data(), m0);
    else
      cpu::momentsKernel(L.degree)(L.view, L.x, v.data(), 0, n, m0, m1);
    std::vector<double>& cj = c[j];
    std::fill(cj.begin(), cj.end(), 0.0);
    const SplineBasis& basis = L.learner->basis;
    for (int q = 0; q < L.intervals; ++q)
      for (int r = 0; r < W; ++r) {
        double sum = 0.0;
        for (int s = 0; s < W; ++s) sum += basis.poly(q, r, s) * (m0[q * W + s] + m1[q * W + s]);
        cj[static_cast<std::size_t>(q + r)] += sum;
      }
  }

  void olsCoefficients(std::size_t j) {
    const LearnerState& L = learners[j];
    std::vector<double>& cj = c[j];
    std::fill(cj.begin(), cj.end(), 0.0);
    if (L.learner->type == LearnerType::Linear) {
      double s0 = 0.0, s1 = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        s0 += v[i];
        s1 += v[i] * L.x[i];
      }
      cj[0] = s0;
      cj[1] = s1;
      return;
    }
    // Factor: c_0 = sum v; c_l = sum of v over level l (l >= 1).
    double total = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      total += v[i];
      cj[static_cast<std::size_t>(L.x[i])] += v[i];
    }
    cj[0] = total;
  }

  void coefficients() {
    const int p = static_cast<int>(learners.size());
    ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) num_threads(team(static_cast <double>(n) * p))
    for (int j = 0; j < p; ++j) {
      errors.run([&] {
        const auto jj = static_cast<std::size_t>(j);
        if (learners[jj].learner->isSpline())
          splineCoefficients(jj);
        else
          olsCoefficients(jj);
        const Eigen::Map<const Eigen::VectorXd> cj(c[jj].data(), learners[jj].k);
        reduction[jj] = cj.dot(learners[jj].learner->rssMatrix * cj);
      });
    }
    errors.rethrow();
  }

  // f += B_j step.
  void update(std::size_t j, const Eigen::VectorXd& step) {
    const LearnerState& L = learners[j];
    if (L.learner->type == LearnerType::Linear) {
      for (std::size_t i = 0; i < n; ++i) f[i] += step[0] + step[1] * L.x[i];
      return;
    }
    if (L.learner->type == LearnerType::Factor) {
      for (std::size_t i = 0; i < n; ++i) {
        const auto level = static_cast<Eigen::Index>(L.x[i]);
        f[i] += step[0] + (level > 0 ? step[level] : 0.0);
      }
      return;
    }
    const std::vector<double> poly = cpu::stepPolynomial(L.learner->basis, step.data());
    // The update kernel also subtracts the step from a residual vector: given a scratch copy here.
    cpu::updateKernel(L.degree)(L.view, L.x, poly.data(), 0, n, scratch.data(), f.data());
  }

  // Gamma's shape-free sum T = sum w (y exp(-f) - log y + f) over the rows, for the weights wp (null: all 1).
  double nuisanceTerms(const double* wp) {
    const std::vector<double>& y = *problem.response;
    return rowSum([&](std::size_t i) {
      const double wi = wp ? wp[i] : 1.0;
      return wi != 0.0 ? wi * FamilyFunctions::nuisanceTerm(y[i], f[i]) : 0.0;
    });
  }

  // The family's nuisance parameter at f (gamma's shape, negbin's size) from the fitting weights, as mboost's
  // ngradient sets it.
  void refreshNuisance() {
    if (problem.family.adaptiveDelta) {  // Huber(): the next gradient takes this f's d, the risk the new one
      problem.family.advanceNuisance(FamilyFunctions::medianAbsResidual(*problem.response, f));
      return;
    }
    if (problem.family.family != Family::NegBin) {
      problem.family.sigma = FamilyFunctions::nuisanceFrom(nuisanceTerms(w()), fitWeight);
      return;
    }
    if (!negbin) negbin = std::make_unique<NegBinShape>(*problem.response);
    for (std::size_t i = 0; i < n; ++i) scratch[i] = std::exp(f[i]);
    problem.family.sigma = brentMinimum(
        [&](double s) {
          negbin->prepare(s);
          return chunkSum(
              [&](std::size_t b, std::size_t e) { return negbin->rowsSum(f.data(), scratch.data(), w(), b, e); });
        },
        0.0, 100.0, kOptimizeTolerance, &negbinBest);
  }
  std::unique_ptr<NegBinShape> negbin;  // negbin's sums, made at its first refresh
  double negbinBest = 0.0;              // the sum at the size optimize() stopped at (the risk's, without oob weights)

  // sum(w loss) / sum(w), w the out-of-bag weights of a resampling fold, else the case weights; a row of weight 0
  // adds nothing (not even a NaN).
  double risk() {
    const std::vector<double>& y = *problem.response;
    const double* wp = problem.oobWeights ? problem.oobWeights->data() : w();
    if (problem.family.family == Family::Gamma)  // one pass, not a lgamma per row
      return FamilyFunctions::nuisanceRisk(nuisanceTerms(wp), totalWeight, problem.family.sigma) / totalWeight;
    if (problem.family.family == Family::NegBin) {  // refreshNuisance left exp(f) in scratch
      if (!problem.oobWeights && negbinBest < DBL_MAX) return negbinBest / totalWeight;
      negbin->prepare(problem.family.sigma);
      return chunkSum(
                 [&](std::size_t b, std::size_t e) { return negbin->rowsSum(f.data(), scratch.data(), wp, b, e); }) /
             totalWeight;
    }
    return rowSum([&](std::size_t i) {
             const double wi = wp ? wp[i] : 1.0;
             return wi != 0.0 ? wi * problem.family.loss(y[i], f[i]) : 0.0;
           }) /
           totalWeight;
  }

  double totalWeight = 0.0;
  double fitWeight = 0.0;  // sum of the fitting weights
};

CpuGradientPath::CpuGradientPath(const BoostProblem& problem, int threads) : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.problem = problem;
  s.threads = std::max(1, threads);
  s.n = problem.rows;
  const std::vector<Learner>& learners = *problem.learners;
  s.learners.resize(learners.size());
  s.c.resize(learners.size());
  s.moments.resize(learners.size());
  for (std::size_t j = 0; j < learners.size(); ++j) {
    const Learner& l = learners[j];
    State::LearnerState& L = s.learners[j];
    L.learner = &l;
    L.x = problem.covariates[j]->data();
    L.k = l.numColumns();
    s.c[j].assign(static_cast<std::size_t>(L.k), 0.0);
    if (!l.isSpline()) continue;
    L.degree = l.basis.degree();
    L.intervals = l.basis.numIntervals();
    L.polyBySpan = cpu::transposedPolynomials(l.basis.polynomialTable(), L.intervals, L.degree);
    L.view = cpu::basisView(l.basis, L.polyBySpan.data());
    s.moments[j].assign(2 * static_cast<std::size_t>(L.intervals) * (L.degree + 1), 0.0);
  }
  std::size_t splines = 0;
  for (const Learner& l : learners) splines += l.isSpline() ? 1 : 0;
  if (s.n < (std::size_t{1} << 32) && splines * s.n * 12 <= kSortedRowsBudget) {
    // Rows of weight 0 (a resampling fold's left-out rows) add only zeros to B'(w u): the sorted rows leave them out.
    std::vector<bool> zero;
    if (problem.weights) {
      zero.resize(s.n);
      for (std::size_t i = 0; i < s.n; ++i) zero[i] = (*problem.weights)[i] == 0.0;
    }
    ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) num_threads(s.team(static_cast <double>(s.n) * splines))
    for (int j = 0; j < static_cast<int>(learners.size()); ++j) {
      State::LearnerState& L = s.learners[static_cast<std::size_t>(j)];
      if (L.learner->isSpline())
        errors.run([&] { L.sorted = cpu::sortRows(L.view, L.x, s.n, L.intervals, zero.empty() ? nullptr : &zero); });
    }
    errors.rethrow();
  }
  s.reduction.assign(learners.size(), 0.0);
  s.f.assign(s.n, problem.offset);
  s.v.assign(s.n, 0.0);
  s.scratch.assign(s.n, 0.0);
  s.chunkSums.assign(static_cast<std::size_t>(s.chunks()), 0.0);
  s.totalWeight = 0.0;
  const std::vector<double>* riskWeights = problem.oobWeights ? problem.oobWeights : problem.weights;
  for (std::size_t i = 0; i < s.n; ++i) s.totalWeight += riskWeights ? (*riskWeights)[i] : 1.0;
  for (std::size_t i = 0; i < s.n; ++i) s.fitWeight += problem.weights ? (*problem.weights)[i] : 1.0;
  if (!(s.totalWeight > 0.0)) throw ComputeError("cpu backend: the weights sum to 0");
}

CpuGradientPath::~CpuGradientPath() = default;

IterationResult CpuGradientPath::iterate() {
  State& s = *s_;
  s.gradient();
  s.coefficients();
  const std::size_t best = bestLearner(s.reduction);
  const Learner& l = *s.learners[best].learner;
  const Eigen::Map<const Eigen::VectorXd> cj(s.c[best].data(), l.numColumns());
  const Eigen::VectorXd step = s.problem.nu * (l.solveMatrix * cj);
  s.update(best, step);
  if (s.problem.family.reestimated()) s.refreshNuisance();  // mboost: the next ngradient's sigma, then the risk
  IterationResult result;
  result.nuisance = s.problem.family.nuisance();
  result.learner = static_cast<int>(best);
  result.delta.assign(step.data(), step.data() + step.size());
  result.risk = s.risk();
  return result;
}

const std::vector<double>& CpuGradientPath::fitted() const { return s_->f; }

CandidateScores CpuGradientPath::candidates() {
  State& s = *s_;
  s.gradient();
  s.coefficients();
  CandidateScores scores;
  scores.residualSumOfSquares = s.weightedSquares;
  scores.rss.resize(s.learners.size());
  for (std::size_t j = 0; j < s.learners.size(); ++j) scores.rss[j] = s.weightedSquares - s.reduction[j];
  return scores;
}

}  // namespace gb

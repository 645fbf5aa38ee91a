#include "compute/CpuBackend.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <deque>

#include "common/Error.hpp"
#include "common/Text.hpp"
#include "compute/BoundCheck.hpp"
#include "compute/CpuCrossPass.hpp"
#include "compute/CpuExactPass.hpp"
#include "compute/CpuGradientPath.hpp"
#include "compute/CpuKernels.hpp"
#include "compute/CpuLearnerRows.hpp"
#include "compute/ExactScores.hpp"
#include "compute/IterationPolicy.hpp"
#include "compute/ReductionBound.hpp"

namespace gb {

namespace {

// The pass's partial-sum buffers, per thread: a chunk of learners' k_l x (intervals_j (d_j+1)) doubles, quadratic
// in the intervals (32 MB a learner at 1000 knots, cubic; the earlier interval-pair buffers took 128 MB there, and
// eight a chunk on two threads ended in bad_alloc). The chunk, then the team, shrinks to stay within this, and a
// learner whose one buffer exceeds it (about 2900 intervals, cubic) is not cached (each iteration then takes the
// exact pass).
constexpr std::size_t kCrossScratchBytes = std::size_t{256} << 20;
// The incremental c and the g'g from the cache round relative to their sizes at the last exact pass, so they lose
// digits as the residuals shrink: with nu 1 g'g fell 13000-fold in 200 iterations (20000 rows of the paper's data), and
// the risks from the cache were 2.3e-11 off there. An exact pass also runs when g'g has fallen below this share of its
// value at the last one (on the paper's data at nu 0.1, g'g falls about 4-fold in 200 iterations: no extra pass).
constexpr double kRefreshShrink = 0.01;
// An untracked learner whose exact reduction is at least this share of the best is tracked at once (promoteContenders).
constexpr double kPromoteShare = 0.5;
// Passes over the untracked learners in this many of the last iterations that make keeping every c current cheaper
// (noteForcedPass).
constexpr std::size_t kForcedInWindow = 8;
constexpr long kForcedWindow = 32;
// Work is handed out in small pieces (dynamic scheduling) so that on a busy machine a running thread takes
// over the share of a descheduled one instead of waiting for it at the end of the pass: learners in chunks
// of kLearnerChunk, update rows in chunks of kUpdateChunkRows. The update's g'g is summed per chunk in chunk
// order, so results do not depend on the number of threads.
constexpr int kLearnerChunk = 4;
constexpr std::size_t kUpdateChunkRows = 16384;
// Passes smaller than this (rows x learners, about 4 ms of one core) run on one thread: on a busy machine a
// second thread costs more in waiting (and in libgomp's spinning between regions) than it saves.
constexpr double kParallelRowLearners = 2e6;
constexpr std::size_t kParallelUpdateRows = 131072;

using cpu::chunk;
using cpu::chunksOf;

}  // namespace

// How an iteration runs. c = (B_j'W g)_j is kept for the current residuals g (W the case weights; written below
// without them, as for W = I: B_j'B_l stands for B_j'W B_l, g'g for g'W g, and |dg| is the W norm):
//  - exactly, from the interval moments of g (one pass over every learner's x), at the start, after an
//    uncached selection, every refreshInterval iterations and after every 100-fold fall of g'g, so that rounding
//    cannot accumulate;
//  - otherwise incrementally, for the tracked learners (those selected so far, and promoted contenders): selecting l
//    with step s changes g by -B_l s, so c_j -= (B_j'B_l) s, with B_j'B_l computed once (one pass over the tracked
//    learners' x) when l is first tracked. Such an iteration is O(sum_j k_j k_l), instead of O(n p): it does not touch
//    the rows. Its step s waits in `pending` (summed per learner) until the next exact pass or uncached step applies
//    every waiting step to g and mu in one pass, and g'g follows from the cache.
//  - An untracked learner's c stays as the last exact pass left it. Since then g has moved by dg, whose length follows
//    from the cache too, so its reduction is at most reductionBound (ReductionBound.hpp). Where that bound reaches the
//    best tracked reduction, the untracked learner might win: an exact pass runs first. The selection is therefore
//    the one exact scores give, and the learners that are never selected (80 of 100 on the paper's data) cost no
//    cross-products. Up to rounding: an exact tie between a tracked and an untracked learner (duplicate columns,
//    one of them left untracked by a full cache) is decided by the rounding of the two c's, not by the lower index.
struct CpuBackend::State {
  int threads = 1;
  std::size_t crossScratchBytes = kCrossScratchBytes;
  IterationPolicy policy;  // refresh interval and cross-product cache budget, shared with the OpenCL backend
  BoostProblem problem;
  std::size_t n = 0, totalCoefs = 0;
  std::vector<cpu::LearnerRows> learners;
  std::vector<double> g, mu;
  const double* weights = nullptr;     // case weights (null: every weight 1): c = B'W g, the cache B_j'W B_l, g'W g
  const double* oobWeights = nullptr;  // a resampling fold's out-of-bag weights, whose risk is the path's
  double totalWeight = 0.0;            // of the risk's weights
  std::vector<double> weightedG;       // W g for an exact pass (weights only)
  std::vector<double> moments, c, reduction;
  Eigen::VectorXd change;                  // a cached step's change of c, (B_j'B_l s)_j (kept to reuse its memory)
  std::vector<std::vector<double>> cross;  // per tracked l: totalCoefs x k_l, row-major, the rows of tracked j filled;
                                           // empty for an untracked l
  std::size_t crossBytes = 0;
  std::vector<double> pending;       // per learner (at coefOffset): steps not yet applied to g and mu
  std::vector<char> hasPending;      // per learner: whether its slice of pending holds a step
  double residualSquares = 0.0;      // g'W g (of g with the pending steps applied)
  double squaresAtRefresh = 0.0;     // g'g at the last pass over all or the tracked learners (kRefreshShrink)
  std::vector<double> cAtReference;  // c at the last pass over all or the untracked learners (where dg starts)
  double shiftSquares = 0.0, shiftScale = 0.0;  // |dg|^2, dg = g then - g now; the sizes of its terms
  std::vector<double> lipschitz;                // per learner: reductionLipschitz, or -1 until first needed
  bool coverAll = false;                        // every learner's c kept current (noteForcedPass), no bounds
  std::deque<long> forcedAt;                    // iterations of the recent passes over the untracked learners
  long iteration = 0;
  CpuBackend::PassCounts counts;
  bool checkBounds = false;                       // setCheckBounds: gAtReference kept, checkSelection run
  bool alwaysGradient = false;                    // setGradientPath
  std::vector<double> gAtReference;               // with checkBounds: g at the last pass over the untracked learners
  std::unique_ptr<CpuGradientPath> gradientPath;  // set for the models the shortcut does not cover
  bool cValid = false;
  int sinceRefresh = 0;
  bool prepared = false;

  int teamFor(std::size_t rowLearners) const {
    return static_cast<double>(rowLearners) >= kParallelRowLearners ? threads : 1;
  }

  // c from g exactly, for every learner.
  void exactCoefficients() {
    std::vector<std::size_t> all(learners.size());
    for (std::size_t j = 0; j < all.size(); ++j) all[j] = j;
    exactCoefficientsOf(all);
    cValid = true;
    sinceRefresh = 0;
  }

  // c_j from g exactly for the learners in `which`.
  void exactCoefficientsOf(const std::vector<std::size_t>& which) {
    const double* v = g.data();
    if (weights) {
      weightedG.resize(n);
      for (std::size_t i = 0; i < n; ++i) weightedG[i] = weights[i] * g[i];
      v = weightedG.data();
    }
    cpu::exactCoefficients(learners, which, v, n, kLearnerChunk, teamFor(n * which.size()), moments.data(), c.data());
  }

  bool tracked(std::size_t j) const { return !cross[j].empty(); }

  // Which learners an exact pass recomputes: all (at the start and after an uncached step), the tracked ones (every
  // refreshInterval iterations and after a 100-fold fall of g'g: their incremental c must not drift) or the untracked
  // ones (when one of them might win; the tracked ones' c is current).
  enum class Pass { All, Tracked, Untracked };

  // Every waiting step applied, then c exactly for the learners of `pass`. Recomputing the untracked ones starts dg
  // again from zero.
  void exactPass(Pass pass) {
    ++(pass == Pass::All ? counts.all : pass == Pass::Tracked ? counts.tracked : counts.untracked);
    flushPending();
    if (pass == Pass::All) {
      exactCoefficients();
    } else {
      std::vector<std::size_t> which;
      for (std::size_t j = 0; j < learners.size(); ++j)
        if (tracked(j) == (pass == Pass::Tracked)) which.push_back(j);
      exactCoefficientsOf(which);
      if (pass == Pass::Tracked) sinceRefresh = 0;
    }
    if (pass != Pass::Untracked) squaresAtRefresh = residualSquares;
    if (pass != Pass::Tracked) {
      cAtReference = c;
      shiftSquares = shiftScale = 0.0;
      if (checkBounds) gAtReference = g;
    }
  }

  // After the untracked learners' c is exact: those whose reduction is at least kPromoteShare of the best are likely
  // to be selected soon, and each would otherwise force another exact pass before then. They are tracked now (a fill
  // over the tracked learners each, which at 20 tracked costs about half a pass).
  void promoteContenders() {
    const double best = reduction[bestLearner(reduction)];
    if (!(best > 0.0)) return;  // a perfect fit: no contenders, rather than all
    for (std::size_t j = 0; j < learners.size(); ++j)
      if (!tracked(j) && reduction[j] >= kPromoteShare * best && !ensureCross(j)) return;  // no room in the cache
  }

  // Whether a learner whose c is stale could have the largest reduction (or tie with it from a lower index): its
  // reduction at its last pass grown by the most that dg allows, against the best tracked reduction. True when
  // none is tracked. The incremental |dg|^2 gets a margin of 1e-12 of the sizes of its terms for their cancellation.
  bool untrackedMayWin() {
    std::size_t best = learners.size();
    for (std::size_t j = 0; j < learners.size(); ++j)
      if (tracked(j) && (best == learners.size() || betterReduction(reduction[j], reduction[best]))) best = j;
    if (best == learners.size()) return true;
    const double shift = shiftSquares + 1e-12 * shiftScale;
    for (std::size_t j = 0; j < learners.size(); ++j) {
      if (tracked(j)) continue;
      if (lipschitz[j] < 0.0)
        lipschitz[j] = learnerLipschitz(learners[j].learner->gram, learners[j].learner->rssMatrix);
      if (reductionBound(reduction[j], lipschitz[j], shift) >= reduction[best]) return true;
    }
    return false;
  }

  void computeReductions() {
    for (std::size_t j = 0; j < learners.size(); ++j) {
      const Eigen::VectorXd cj = cpu::learnerCoefficients(learners[j], c.data());
      reduction[j] = cj.dot(learners[j].learner->rssMatrix * cj);
    }
  }

  // j* = the largest RSS reduction (smallest RSS), ties to the lowest index, and its step.
  IterationResult select() {
    const std::size_t best = bestLearner(reduction);
    const cpu::LearnerRows& L = learners[best];
    const Eigen::VectorXd step = problem.nu * (L.learner->solveMatrix * cpu::learnerCoefficients(L, c.data()));
    IterationResult result;
    result.learner = static_cast<int>(best);
    result.delta.assign(step.data(), step.data() + step.size());
    return result;
  }

  bool anyPending() const { return std::find(hasPending.begin(), hasPending.end(), 1) != hasPending.end(); }

  // The pending steps applied in one pass (cpu::applySteps) to gOut and muOut (either may be null); returns the new
  // g'W g (0 without g). The result depends only on the steps, not on when they are applied, and the same for a step
  // applied alone. The state itself is not changed.
  double applyPendingTo(double* gOut, double* muOut, double* outOfBagSquares = nullptr) const {
    std::vector<std::size_t> todo;
    std::vector<std::vector<double>> polys;
    for (std::size_t l = 0; l < learners.size(); ++l) {
      if (!hasPending[l]) continue;
      const cpu::LearnerRows& L = learners[l];
      todo.push_back(l);
      polys.push_back(cpu::stepPolynomial(L.poly, L.intervals, L.degree, pending.data() + L.coefOffset));
    }
    const cpu::RowSums sums = cpu::applySteps(learners, todo, polys, n, n >= kParallelUpdateRows ? threads : 1,
                                              kUpdateChunkRows, cpu::StepTargets{gOut, muOut, weights, oobWeights});
    if (outOfBagSquares) *outOfBagSquares = sums.outOfBag;
    return sums.weighted;
  }

  // The pending steps applied to g and mu; then none is pending and residualSquares is g'W g summed over the rows.
  void flushPending() {
    if (anyPending()) applyAll();
  }
  // Every pending step applied (none may be), g'W g from the rows; returns the out-of-bag g'W g (0 without a fold).
  double applyAll() {
    double outOfBag = 0.0;
    residualSquares = applyPendingTo(g.data(), mu.data(), &outOfBag);
    std::fill(pending.begin(), pending.end(), 0.0);
    std::fill(hasPending.begin(), hasPending.end(), 0);
    return outOfBag;
  }

  // Tracks l (just selected or promoted, right after a pass that made its c exact): B_j'B_l for every tracked j and l
  // itself, one pass over their x, and the transposes into the rows of l in the other tracked learners' caches. In
  // coverAll, B_j'B_l for every j instead: computed for the untracked j, copied from the tracked ones' blocks.
  bool ensureCross(std::size_t l) {
    if (tracked(l)) return true;
    const cpu::LearnerRows& L = learners[l];
    const std::size_t bytes = totalCoefs * L.k * sizeof(double);
    if (!policy.fits(crossBytes, bytes)) return false;
    if (cpu::crossPairDoubles(learners, l) * sizeof(double) > crossScratchBytes) return false;  // none fits
    std::vector<std::size_t> todo, others;
    for (std::size_t j = 0; j < learners.size(); ++j) (j == l || tracked(j) != coverAll ? todo : others).push_back(j);
    cross[l].assign(totalCoefs * L.k, 0.0);
    crossBytes += bytes;
    fillRows(l, todo);
    for (std::size_t j : coverAll ? others : todo)
      if (j != l) coverAll ? copyTransposed(j, l) : copyTransposed(l, j);
    return true;
  }

  void fillRows(std::size_t l, const std::vector<std::size_t>& todo) {
    counts.fillLearners += static_cast<long>(todo.size());
    cpu::crossPass(learners, n, l, todo, weights, crossScratchBytes, teamFor(n * todo.size()), cross[l].data());
  }

  // Just after a pass over the untracked learners: noted, and where 8 of the last 32 iterations needed one (with nu 1
  // a step moves g by about the best reduction, and every bound fails at once), every learner's c is kept current from
  // then on, as before the bounds: the tracked learners' blocks get the untracked learners' rows (one fill each).
  void noteForcedPass() {
    forcedAt.push_back(iteration);
    while (!forcedAt.empty() && forcedAt.front() + kForcedWindow <= iteration) forcedAt.pop_front();
    if (forcedAt.size() < kForcedInWindow) return;
    std::vector<std::size_t> untracked;
    for (std::size_t j = 0; j < learners.size(); ++j)
      if (!tracked(j)) untracked.push_back(j);
    for (std::size_t l = 0; l < learners.size(); ++l)
      if (tracked(l)) fillRows(l, untracked);
    coverAll = true;
  }

  // B_j'B_l (rows of j in cross[l]) = (B_l'B_j)' (rows of l in cross[j]).
  void copyTransposed(std::size_t j, std::size_t l) {
    const cpu::LearnerRows &J = learners[j], &L = learners[l];
    for (int a = 0; a < J.k; ++a)
      for (int b = 0; b < L.k; ++b) cross[l][(J.coefOffset + a) * L.k + b] = cross[j][(L.coefOffset + b) * J.k + a];
  }

  // With l's cross-products cached, an iteration does not touch the rows: the step s is added to l's pending steps
  // (applied to g and mu before the next exact pass, or an uncached step), c is updated from the cache, and so is g'g:
  // |g - B_l s|^2 = g'g - s'(c_l + c_l') with c_l = B_l'g and c_l' = c_l - B_l'B_l s, its value after the step.
  IterationResult iterateOnce() {
    const bool cached = policy.refreshInterval > 1;  // refreshing every iteration (0 or 1) turns the cache off
    if (!cValid || !cached) {
      exactPass(Pass::All);
      computeReductions();
      if (cached) promoteContenders();
    } else {
      if (policy.refreshDue(cValid, sinceRefresh) || residualSquares < kRefreshShrink * squaresAtRefresh)
        exactPass(coverAll ? Pass::All : Pass::Tracked);
      computeReductions();
      if (!coverAll && untrackedMayWin()) {
        exactPass(Pass::Untracked);
        computeReductions();
        noteForcedPass();
        if (!coverAll) promoteContenders();
      }
    }
    ++iteration;
    IterationResult result = select();
    if (checkBounds) checkSelection(*this, static_cast<std::size_t>(result.learner));
    const auto l = static_cast<std::size_t>(result.learner);
    const cpu::LearnerRows& L = learners[l];
    // The step in the backend's columns of l (a factor's level indicators: CpuLearnerRows.hpp).
    const Eigen::VectorXd s = cpu::backendStep(L, Eigen::Map<const Eigen::VectorXd>(result.delta.data(), L.k));
    if (cached && ensureCross(l)) {
      using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      const Eigen::Map<const RowMajor> C(cross[l].data(), static_cast<Eigen::Index>(totalCoefs), L.k);
      Eigen::Map<Eigen::VectorXd> cl(c.data() + L.coefOffset, L.k);
      const double before = s.dot(cl);
      change.noalias() = C * s;  // (B_j'B_l s)_j, zero for untracked j
      // |dg + B_l s|^2 = |dg|^2 + 2 s'B_l'dg + s'B_l'B_l s, with B_l'dg = cAtReference_l - c_l.
      const Eigen::Map<const Eigen::VectorXd> clReference(cAtReference.data() + L.coefOffset, L.k);
      const double across = 2.0 * s.dot(clReference - cl), self = s.dot(change.segment(L.coefOffset, L.k));
      shiftSquares += across + self;
      shiftScale += std::abs(across) + std::abs(self);
      Eigen::Map<Eigen::VectorXd>(c.data(), static_cast<Eigen::Index>(totalCoefs)) -= change;
      // Rounding can take a perfect fit's g'g a hair below zero.
      residualSquares = std::max(0.0, residualSquares - (before + s.dot(cl)));
      Eigen::Map<Eigen::VectorXd>(pending.data() + L.coefOffset, L.k) += s;
      hasPending[l] = 1;
      ++sinceRefresh;
    } else {
      // Uncached: this step joins the waiting ones, and all reach g and mu now (c then needs the exact pass).
      Eigen::Map<Eigen::VectorXd>(pending.data() + L.coefOffset, L.k) += s;
      hasPending[l] = 1;
      if (!oobWeights) flushPending();  // a fold's steps reach the rows below, with its out-of-bag sum
      cValid = false;
    }
    // A fold's out-of-bag risk comes from the rows: its steps reach them at once (one pass over a learner's x).
    result.risk = (oobWeights ? applyAll() : residualSquares) / totalWeight;
    return result;
  }

  // mu with the pending steps applied, leaving the state as it is (asking must not change the fit).
  std::vector<double> fittedNow() const {
    std::vector<double> out = mu;
    if (anyPending()) applyPendingTo(nullptr, out.data());
    return out;
  }
};

CpuBackend::CpuBackend(int threads) : s_(std::make_unique<State>()) {
  s_->threads = threads > 0 ? threads : std::max(1, omp_get_max_threads());
  policy_.refreshInterval = IterationPolicy::kCpuRefreshInterval;
}

CpuBackend::~CpuBackend() = default;

void CpuBackend::setCrossScratchBytes(std::size_t bytes) { s_->crossScratchBytes = bytes; }

void CpuBackend::setCheckBounds(bool check) { s_->checkBounds = check; }

void CpuBackend::setGradientPath(bool always) { s_->alwaysGradient = always; }

CpuBackend::PassCounts CpuBackend::passCounts() const {
  PassCounts counts = s_->counts;
  counts.everyLearnerCurrent = s_->coverAll;
  return counts;
}

BackendInfo CpuBackend::info() const {
  return BackendInfo{"cpu",     std::to_string(s_->threads) + "-thread CPU (Eigen, OpenMP)",
                     "moments", "double",
                     "",        s_->gradientPath ? "gradient" : "moments-cached"};
}

void CpuBackend::prepare(const BoostProblem& problem) {
  State& s = *s_;
  requireCompleteProblem(problem, "cpu backend");
  s.problem = problem;
  s.policy = policy_;
  // Benchmarks compare refresh intervals through the CLI (as GAMBOOST_OPENCL_REFRESH does for the OpenCL backend).
  if (const char* refresh = std::getenv("GAMBOOST_CPU_REFRESH"); refresh && *refresh) {
    int value = -1;
    const char* end = refresh + std::strlen(refresh);
    const auto [stop, error] = std::from_chars(refresh, end, value);
    if (error != std::errc() || stop != end || value < 0)
      throw InputError("GAMBOOST_CPU_REFRESH: " + quotedForMessage(refresh) + " is not a whole number >= 0");
    s.policy.refreshInterval = value;
  }
  s.gradientPath.reset();
  // Splines, linear terms and factors alike (CpuLearnerRows.hpp), with case weights and folds; the other backends'
  // shortcut covers unweighted spline models only.
  if (problem.family.family != Family::Gaussian || s.alwaysGradient) {
    s.gradientPath = std::make_unique<CpuGradientPath>(problem, s.threads);
    s.prepared = true;
    return;
  }
  s.n = problem.rows;
  const std::vector<Learner>& learners = *problem.learners;
  s.learners.assign(learners.size(), {});
  std::size_t momentSize = 0;
  s.totalCoefs = 0;
  for (std::size_t j = 0; j < learners.size(); ++j) {
    const Learner& l = learners[j];
    if (problem.covariates[j]->size() != s.n)
      throw ComputeError("cpu backend: covariate '" + l.name + "' has the wrong number of rows");
    cpu::LearnerRows& L = s.learners[j];
    L = cpu::learnerRows(l, problem.covariates[j]->data());
    L.momentOffset = momentSize;
    L.coefOffset = s.totalCoefs;
    momentSize += 2 * static_cast<std::size_t>(L.intervals) * (L.degree + 1);
    s.totalCoefs += static_cast<std::size_t>(L.k);
  }
  s.moments.assign(momentSize, 0.0);
  s.c.assign(s.totalCoefs, 0.0);
  s.cAtReference.assign(s.totalCoefs, 0.0);
  s.change.setZero(static_cast<Eigen::Index>(s.totalCoefs));
  s.lipschitz.assign(learners.size(), -1.0);
  s.shiftSquares = s.shiftScale = 0.0;
  s.coverAll = false;
  s.forcedAt.clear();
  s.iteration = 0;
  s.counts = {};
  s.reduction.assign(learners.size(), 0.0);
  s.cross.assign(learners.size(), {});
  s.crossBytes = 0;
  s.pending.assign(s.totalCoefs, 0.0);
  s.hasPending.assign(learners.size(), 0);
  s.mu.assign(s.n, problem.offset);
  s.g.resize(s.n);
  s.weights = problem.weights ? problem.weights->data() : nullptr;
  s.oobWeights = problem.oobWeights ? problem.oobWeights->data() : nullptr;
  const double* riskWeights = s.oobWeights ? s.oobWeights : s.weights;
  const std::vector<double>& y = *problem.response;
  double ss = 0.0, total = 0.0;
  for (std::size_t i = 0; i < s.n; ++i) {
    s.g[i] = y[i] - problem.offset;
    ss += (s.weights ? s.weights[i] : 1.0) * s.g[i] * s.g[i];
    total += riskWeights ? riskWeights[i] : 1.0;
  }
  if (!(total > 0.0)) throw ComputeError("cpu backend: the risk's weights sum to " + std::to_string(total));
  s.residualSquares = ss;
  s.totalWeight = total;
  s.cValid = false;
  s.prepared = true;
}

void CpuBackend::iterate(int count, std::vector<IterationResult>& out) {
  if (!s_->prepared) throw ComputeError("cpu backend: iterate() before prepare()");
  for (int it = 0; it < count; ++it) out.push_back(s_->gradientPath ? s_->gradientPath->iterate() : s_->iterateOnce());
}

std::vector<double> CpuBackend::fitted() { return s_->gradientPath ? s_->gradientPath->fitted() : s_->fittedNow(); }

CandidateScores CpuBackend::candidates() {
  State& s = *s_;
  if (!s.prepared) throw ComputeError("cpu backend: candidates() before prepare()");
  if (s.gradientPath) return s.gradientPath->candidates();
  // Scores from exact B_j'g, leaving the incremental state as it was: asking must not change the fit. With steps
  // pending, the exact pass runs on a copy of g with them applied (swapped in, and back even if the pass throws).
  double squares = s.residualSquares;
  std::vector<double> current;
  if (s.anyPending()) {
    current = s.g;
    squares = s.applyPendingTo(current.data(), nullptr);
    std::swap(current, s.g);
  }
  struct SwapBack {
    std::vector<double>& a;
    std::vector<double>& b;
    ~SwapBack() {
      if (!b.empty()) std::swap(a, b);
    }
  } swapBack{s.g, current};
  exactScoresKeepingState(s);
  CandidateScores scores;
  scores.residualSumOfSquares = squares;
  scores.rss.resize(s.learners.size());
  for (std::size_t j = 0; j < s.learners.size(); ++j) scores.rss[j] = squares - s.reduction[j];
  return scores;
}

}  // namespace gb

#pragma once
// Exact CPU backend: double precision, the compact basis computed from x on the fly (never a dense n x k
// matrix, never n x (degree+1) stored weights), OpenMP across learners.
//
// B_j'g via interval moments: on interval q of learner j, b_{q+r}(x) = sum_s poly(q,r,s) u^s, so
//   (B_j'g)_{q+r} = sum_s poly(q,r,s) M_q,s   with   M_q,s = sum_{i in q} g_i u_i^s.
// One pass over x_j and g accumulates the (knots+1) x (degree+1) moments; the k-vector follows in O(k d).
//
// Between such exact passes c_j = B_j'g is updated incrementally, c_j -= (B_j'B_l) nu delta_l, for the tracked
// learners j (those selected so far, and contenders), from cross products computed once per tracked learner l (one
// pass over the tracked learners' x, cached). An untracked learner's c stays as its last exact pass left it; a bound on
// how far its reduction can have grown decides when a pass over the untracked learners must run before a selection
// (ReductionBound.hpp), so the selections are those of exact scores. The tracked learners' c is recomputed after every
// 100-fold fall of g'g and every refreshInterval iterations (default 200; GAMBOOST_CPU_REFRESH overrides it, 0 or 1
// turns the cache off), every learner's whenever the cache is full. Such an iteration does not touch the rows at all:
// its step waits, summed per learner, until the next exact pass or uncached step applies the waiting steps to g and mu
// (fitted() applies them to a copy), and g'g follows from the cache as well. See CpuBackend.cpp.
//
// Every gaussian model takes this path: linear terms and factors as piecewise polynomials too (CpuLearnerRows.hpp),
// case weights W in c = B'W g, the cache B_j'W B_l and g'W g, and a resampling fold, whose out-of-bag risk comes from
// the rows (its steps are applied at once). The other families take the gradient path (CpuGradientPath.hpp).
#include "compute/Backend.hpp"

namespace gb {

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(int threads = 0);
  ~CpuBackend() override;
  BackendInfo info() const override;
  void prepare(const BoostProblem& problem) override;
  void iterate(int count, std::vector<IterationResult>& out) override;
  std::vector<double> fitted() override;
  CandidateScores candidates() override;
  // The cross-product pass's scratch memory for its sums, all threads together (default 256 MB; each thread also
  // holds a block of l's basis rows, at most 416 KiB): it takes fewer learners a chunk,
  // then fewer threads, to stay within it, and a learner whose one buffer does not fit is not cached (each iteration
  // then takes the exact pass). Call before iterating.
  void setCrossScratchBytes(std::size_t bytes);
  // For the tests: check every selection against exact reductions, and the untracked learners' bounds and the
  // incremental |dg|^2 against the rows (BoundCheck.hpp; about one exact pass an iteration). Call before iterating.
  void setCheckBounds(bool check);
  // For the tests: every model through the gradient path (CpuGradientPath.hpp: the negative gradient and an exact
  // B'(w u) every iteration), as the families without the residual shortcut take it. Call before prepare().
  void setGradientPath(bool always);
  // What the fit's passes over the rows were so far (since prepare): exact passes over all learners, over the tracked
  // ones, over the untracked ones; learners the cross-product fills covered; and whether every learner's c is kept
  // current now (after frequent passes over the untracked ones).
  struct PassCounts {
    long all = 0, tracked = 0, untracked = 0, fillLearners = 0;
    bool everyLearnerCurrent = false;
  };
  PassCounts passCounts() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace gb

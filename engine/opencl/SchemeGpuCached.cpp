// The GPU cross-product cache scheme (opencl/IterationScheme.hpp): learner_correct_solve_select (or, with
// GAMBOOST_FUSED_SELECT=0, learner_correct_solve and learner_select_claim), the update, and the cache fill
// (opencl/CrossFill.hpp) by many work-groups per learner; the exact B'g every refreshInterval.
#include <algorithm>

#include "opencl/IterationScheme.hpp"
#include "opencl/Tuning.hpp"

namespace gb::ocl {

namespace {

class GpuCachedScheme final : public CachedScheme {
 public:
  GpuCachedScheme(DeviceProblem& p, const IterationPolicy& policy, int slots)
      : CachedScheme(p, policy), fill_(p, static_cast<std::size_t>(slots) * p.L * p.k * p.k * p.realBytes(), true) {
    cache_.allocate(p, slots);
    const OpenClTuning tuning = openClTuningFromEnvironment();
    fused_ = tuning.fusedSelect;
    // The Gaussian residual shortcut needs only g: the update moves 2 REALs a row instead of 4, and mu = y - g is
    // formed when the fitted values are asked for (DeviceProblem::fitted).
    p.residualOnly = tuning.residualUpdate && p.compactKind != CompactKernel::Compact;
    if (fused_) {
      const cl_int zero = 0;
      done_ = Buffer(p.ctx, sizeof zero);
      done_.write(p.ctx, &zero, sizeof zero);
      correctSolve_ = Kernel(p.ctx.kernel("learner_select", "learner_correct_solve_select", p.options()));
    } else {
      correctSolve_ = Kernel(p.ctx.kernel("learner_select", "learner_correct_solve", p.options()));
      selectClaim_ = Kernel(p.ctx.kernel("learner_select", "learner_select_claim", p.options()));
    }
  }
  std::string name() const override {
    return std::string("gpu-cached, ") + (fused_ ? "" : "unfused, ") + fill_.label() +
           (fill_.fusesUpdate() ? " with the update" : "") + (p_.residualOnly ? ", residual update" : "");
  }
  bool usesCrossCache() const override { return true; }

  void iteration(int it) override {
    refreshIfDue(false);
    if (fused_) {
      correctSolveSelect(it - 1, it);
    } else {
      correctSolve();
      selectClaim(it - 1, it);
    }
    update();
    stepped();
  }
  // After a batch only the risk of the last record is missing: the plain select finishes it.
  void finish(int last) override { p_.selectAndRecord(last, -1); }

 private:
  std::size_t group() const { return static_cast<std::size_t>(p_.params.reduceGroupSize); }
  // mu and g (or g alone) for the selected step, and the fill of a newly claimed slot: one launch or two.
  void update() {
    if (fill_.fusesUpdate()) {
      const CompactXUpdateArgs u =
          p_.plan->xUpdateArgs(p_.index, p_.delta, p_.nu, p_.y, p_.mu, p_.g, p_.partials, !p_.residualOnly);
      fill_.launchWithUpdate(u, p_.partialCount, cache_.cacheState, cache_.cache, &cache_.slotOf);
      return;
    }
    if (p_.residualOnly)
      p_.plan->residualUpdate(p_.index, p_.delta, p_.nu, p_.g, p_.partials);
    else
      p_.plan->update(p_.index, p_.delta, p_.nu, p_.y, p_.mu, p_.g, p_.partials);
    fill_.launch(cache_.cacheState, cache_.cache, &cache_.slotOf);
  }
  void correctSolveSelect(int previous, int record) {
    LearnerCorrectSolveSelectArgs{p_.L,
                                  &p_.c,
                                  &p_.P,
                                  &p_.Q,
                                  &p_.delta,
                                  &p_.reduction,
                                  cCurrent_ ? 0 : 1,
                                  p_.recordArgs(previous, record),
                                  cache_.claimArgs(),
                                  &done_}
        .bind(correctSolve_);
    correctSolve_.launch(p_.ctx, {group() * static_cast<std::size_t>(p_.L)}, {group()});
  }
  void correctSolve() {
    LearnerCorrectSolveArgs{
        p_.L,      &p_.c,          &p_.P,         &p_.Q,       &p_.delta, &p_.reduction, cCurrent_ ? 0 : 1,
        &p_.index, &cache_.slotOf, &cache_.cache, &cache_.step}
        .bind(correctSolve_);
    correctSolve_.launch(p_.ctx, {group() * static_cast<std::size_t>(p_.L)}, {group()});
  }
  void selectClaim(int previous, int record) {
    LearnerSelectClaimArgs{p_.L, &p_.reduction, &p_.delta, p_.recordArgs(previous, record), cache_.claimArgs()}.bind(
        selectClaim_);
    selectClaim_.launch(p_.ctx, {group()}, {group()});
  }

  CrossCache cache_;
  bool fused_ = true;
  Buffer done_;  // learner_correct_solve_select's count of finished work-groups, 0 between launches
  Kernel correctSolve_, selectClaim_;
  CrossFill fill_;
};

}  // namespace

std::unique_ptr<IterationScheme> makeGpuCachedScheme(DeviceProblem& p, const IterationPolicy& policy) {
  const int slots = policy.slotsThatFit(p.L, static_cast<std::size_t>(p.L) * p.k * p.k * p.realBytes());
  if (!p.params.gpu || p.isDense || !policy.deviceCacheWorthIt(p.L, slots) || !crossBlockFits(p.spec, p.isDouble))
    return nullptr;
  return std::make_unique<GpuCachedScheme>(p, policy, slots);
}

}  // namespace gb::ocl

// The GPU cross-product cache scheme (opencl/IterationScheme.hpp): learner_correct_solve, learner_select_claim,
// the update, and compact_x_cross_fill by many work-groups per learner; the exact B'g every refreshInterval.
#include <algorithm>

#include "opencl/IterationScheme.hpp"

namespace gb::ocl {

namespace {

class GpuCachedScheme final : public IterationScheme {
 public:
  GpuCachedScheme(DeviceProblem& p, const IterationPolicy& policy, int slots) : p_(p), policy_(policy) {
    cache_.allocate(p, slots);
    correctSolve_ = Kernel(p.ctx.kernel("learner_select", "learner_correct_solve", p.options()));
    selectClaim_ = Kernel(p.ctx.kernel("learner_select", "learner_select_claim", p.options()));
    crossFill_ = Kernel(p.ctx.kernel("compact_btg", "compact_x_cross_fill", p.options()));
    // Fill groups: chunks no smaller than 4 k^2 rows, so the k x k local block's clearing and its global adds
    // stay small next to the rows' (degree+1)^2 local atomics.
    const std::size_t group = static_cast<std::size_t>(p.params.btgGroupSize);
    fillChunkRows_ = std::max(p.params.btgChunkRows, 4 * static_cast<std::size_t>(p.k) * p.k);
    fillChunkRows_ = (fillChunkRows_ + group - 1) / group * group;
    fillChunks_ = (p.n + fillChunkRows_ - 1) / fillChunkRows_;
  }
  std::string name() const override { return "gpu-cached"; }
  bool usesCrossCache() const override { return true; }

  void iteration(int it) override {
    if (policy_.refreshDue(cValid_, sinceRefresh_)) {
      p_.plan->transposed(p_.g, p_.c);
      cValid_ = cCurrent_ = true;
      sinceRefresh_ = 0;
    }
    const std::size_t group = static_cast<std::size_t>(p_.params.reduceGroupSize);
    LearnerCorrectSolveArgs{
        p_.L,      &p_.c,          &p_.P,         &p_.Q,       &p_.delta, &p_.reduction, cCurrent_ ? 0 : 1,
        &p_.index, &cache_.slotOf, &cache_.cache, &cache_.step}
        .bind(correctSolve_);
    correctSolve_.launch(p_.ctx, {group * static_cast<std::size_t>(p_.L)}, {group});
    selectClaim(it - 1, it);
    p_.plan->update(p_.index, p_.delta, p_.nu, p_.y, p_.mu, p_.g, p_.partials);
    const CompactData& d = *p_.data;
    CrossFillArgs{static_cast<cl_int>(p_.n),
                  static_cast<cl_int>(fillChunkRows_),
                  p_.L,
                  &p_.index,
                  &cache_.cacheState,
                  &d.x(),
                  &d.geometry(),
                  &d.polynomials(),
                  &cache_.cache}
        .bind(crossFill_);
    const std::size_t fillGroup = static_cast<std::size_t>(p_.params.btgGroupSize);
    crossFill_.launch(p_.ctx, {fillGroup * static_cast<std::size_t>(p_.L), fillChunks_}, {fillGroup, 1});
    cCurrent_ = false;
    ++sinceRefresh_;
  }
  // After a batch only the risk of the last record is missing: the plain select finishes it.
  void finish(int last) override { p_.selectAndRecord(last, -1); }
  void exactScore() override {
    p_.score();
    cValid_ = cCurrent_ = true;
    sinceRefresh_ = 0;
  }

 protected:
  DeviceProblem& problem() override { return p_; }

 private:
  void selectClaim(int previous, int record) {
    LearnerSelectClaimArgs{p_.L,
                           &p_.reduction,
                           &p_.delta,
                           p_.real(p_.nu),
                           &p_.index,
                           static_cast<cl_int>(p_.partialCount),
                           &p_.partials,
                           p_.real(1.0 / static_cast<double>(p_.n)),
                           &p_.residualSquares,
                           &p_.records,
                           previous,
                           record,
                           cache_.slotCount,
                           &cache_.slotOf,
                           &cache_.slotOwner,
                           &cache_.cacheState,
                           &cache_.step,
                           &cache_.cache}
        .bind(selectClaim_);
    const std::size_t group = static_cast<std::size_t>(p_.params.reduceGroupSize);
    selectClaim_.launch(p_.ctx, {group}, {group});
  }

  DeviceProblem& p_;
  const IterationPolicy policy_;
  CrossCache cache_;
  Kernel correctSolve_, selectClaim_, crossFill_;
  std::size_t fillChunkRows_ = 0, fillChunks_ = 0;
  bool cValid_ = false, cCurrent_ = false;
  int sinceRefresh_ = 0;
};

}  // namespace

std::unique_ptr<IterationScheme> makeGpuCachedScheme(DeviceProblem& p, const IterationPolicy& policy) {
  const int slots = policy.slotsThatFit(p.L, static_cast<std::size_t>(p.L) * p.k * p.k * p.realBytes());
  if (!p.params.gpu || p.isDense || !policy.deviceCacheWorthIt(p.L, slots) || !crossBlockFits(p.spec, p.isDouble))
    return nullptr;
  return std::make_unique<GpuCachedScheme>(p, policy, slots);
}

}  // namespace gb::ocl

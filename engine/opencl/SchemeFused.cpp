// The fused schemes of CPU devices (opencl/IterationScheme.hpp): learner_solve_select in one launch; with the
// cross-product cache (compact_x), compact_x_update_cross updates mu and g and fills a newly claimed slot.
#include "opencl/IterationScheme.hpp"

namespace gb::ocl {

namespace {

// Private memory of one cache-fill work-item (PoCL keeps it on the worker thread's stack): 2 x 13^2 x 4^2 floats
// = 22 KB at 12 knots; more than this (about 45 knots in float, 30 in double, at degree 3) turns the cache off.
constexpr std::size_t kMaxPairMomentBytes = std::size_t(256) << 10;

class FusedScheme final : public CachedScheme {
 public:
  FusedScheme(DeviceProblem& p, const IterationPolicy& policy, bool cached, int slots)
      : CachedScheme(p, policy), cached_(cached) {
    cache_.allocate(p, cached ? slots : 0);
    solveSelect_ = Kernel(p.ctx.kernel("learner_select", "learner_solve_select", p.options()));
    if (cached_) updateCross_ = Kernel(p.ctx.kernel("compact_update", "compact_x_update_cross", p.options()));
  }
  std::string name() const override { return cached_ ? "fused-cached" : "fused"; }
  bool usesCrossCache() const override { return cached_; }

  void iteration(int it) override {
    // Exact B'g: always without the cache; with it at the start and every refreshInterval iterations.
    refreshIfDue(!cached_);
    solveSelect(it - 1, it, !cCurrent_);
    if (cached_) {
      updateAndFill();
      stepped();  // the correction for this step is applied by the next solve-select
    } else {
      p_.update();
    }
  }
  void finish(int last) override { solveSelect(last, -1, false); }

 private:
  // Finishes `previous`'s risk; with record >= 0 applies the pending correction (if asked), solves, selects,
  // records and claims a cache slot for a newly selected learner.
  void solveSelect(int previous, int record, bool applyPending) {
    LearnerSolveSelectArgs{p_.L,
                           &p_.c,
                           &p_.P,
                           &p_.Q,
                           &p_.delta,
                           &p_.reduction,
                           p_.recordArgs(previous, record),
                           applyPending ? 1 : 0,
                           cache_.slotCount,
                           &cache_.cache,
                           &cache_.slotOf,
                           &cache_.slotOwner,
                           &cache_.cacheState,
                           &cache_.step}
        .bind(solveSelect_);
    const std::size_t group = static_cast<std::size_t>(p_.params.reduceGroupSize);
    solveSelect_.launch(p_.ctx, {group}, {group});
  }

  // The update's groups, then one group per learner filling a newly claimed slot.
  void updateAndFill() {
    const CompactData& d = *p_.data;
    CompactXUpdateCrossArgs{
        {static_cast<cl_int>(p_.n), static_cast<cl_int>(p_.params.updateGroupRows), &p_.index, &p_.delta,
         p_.real(p_.nu), &d.x(), &d.geometry(), &d.polynomials(), &p_.y, &p_.mu, &p_.g, &p_.partials},
        static_cast<cl_int>(p_.partialCount),
        p_.L,
        &cache_.cacheState,
        &cache_.cache}
        .bind(updateCross_);
    const std::size_t group = static_cast<std::size_t>(p_.params.updateGroupSize);
    updateCross_.launch(p_.ctx, {group * (p_.partialCount + static_cast<std::size_t>(p_.L))}, {group});
  }

  const bool cached_;
  CrossCache cache_;
  Kernel solveSelect_, updateCross_;
};

}  // namespace

std::unique_ptr<IterationScheme> makeFusedScheme(DeviceProblem& p, const IterationPolicy& policy) {
  const bool fused = !p.params.gpu && !p.isDense && p.params.reduceGroupSize == 1 && p.params.updateGroupSize == 1;
  if (!fused) return nullptr;
  const int slots = policy.slotsThatFit(p.L, static_cast<std::size_t>(p.L) * p.k * p.k * p.realBytes());
  // The fill kernel keeps two copies of the pair moments (intervals^2 (degree+1)^2) in private memory.
  const std::size_t q = static_cast<std::size_t>(p.data->intervals()),
                    w = static_cast<std::size_t>(p.data->degree()) + 1;
  const bool pairsFit = 2 * q * q * w * w * p.realBytes() <= kMaxPairMomentBytes;
  const bool cached = p.compactKind != CompactKernel::Compact && policy.deviceCacheWorthIt(p.L, slots) && pairsFit;
  if (cached && slots == p.L) return makeTrackedScheme(p, policy);
  return std::make_unique<FusedScheme>(p, policy, cached, slots);
}

}  // namespace gb::ocl

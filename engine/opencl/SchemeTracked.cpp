// The fused scheme of CPU devices (PoCL) when the cross-product cache has a slot for every learner: as the CPU
// backend (compute/CpuBackend.cpp), it keeps c current only for the learners selected so far and their close
// contenders, and fills B_j'B_l only among those. An untracked learner's c stays as the last exact B'g left it; a
// bound on how far its reduction can have grown (compute/ReductionBound.hpp) says when it might win, and then an exact
// B'g runs before the selection. The kernels: learner_solve_select_tracked and compact_x_update_track.
#include <deque>
#include <vector>

#include "opencl/IterationScheme.hpp"

namespace gb::ocl {

namespace {

// An untracked learner whose exact reduction is at least this share of the winner's is tracked with it (the CPU
// backend's kPromoteShare).
constexpr double kPromoteShare = 0.5;
// Where forced exact passes come in kForcedInWindow of the last kForcedWindow iterations (with nu 1 every bound fails
// at once), every learner's c is kept current from then on, as the CPU backend does (coverEveryLearner).
constexpr std::size_t kForcedInWindow = 8;
constexpr long kForcedWindow = 32;
// The bounds' relative allowance for rounding: the reductions, P and Q round at about 1e-16 in double and 1e-7 in
// float, and |g - g0|^2 is a running sum over up to refreshInterval steps.
constexpr double kMarginDouble = 1e-6, kMarginFloat = 1e-4;

class TrackedScheme final : public CachedScheme {
 public:
  TrackedScheme(DeviceProblem& p, const IterationPolicy& policy) : CachedScheme(p, policy) {
    cache_.allocate(p, p.L);  // no slot is ever evicted: slot l is learner l's
    const std::vector<unsigned char> zero(p.realBytes(), 0);
    cache_.cache.fill(p.ctx, zero.data(), zero.size());  // rows of untracked learners must correct nothing
    cRef_ = Buffer(p.ctx, static_cast<std::size_t>(p.L) * p.k * p.realBytes());
    shift_ = Buffer(p.ctx, 2 * p.realBytes());
    shift_.fill(p.ctx, zero.data(), zero.size());
    const std::vector<cl_int> none(static_cast<std::size_t>(p.L) + 2, 0);  // {may win, count, learners to fill...}
    fills_ = Buffer(p.ctx, none.size() * sizeof(cl_int));
    fills_.write(p.ctx, none.data(), none.size() * sizeof(cl_int));
    select_ = Kernel(p.ctx.kernel("learner_select", "learner_solve_select_tracked", p.options()));
    update_ = Kernel(p.ctx.kernel("compact_update", "compact_x_update_track", p.options()));
  }
  std::string name() const override { return "fused-tracked"; }
  bool usesCrossCache() const override { return true; }

  void iteration(int it) override {
    ++iterations_;
    refreshIfDue(false);
    bool cover = false;                         // covering_ never forces a pass, so this is decided once
    if (!solveSelect(it - 1, it, cCurrent_)) {  // an untracked learner might win: c exactly, then select among all
      refreshIfDue(true);
      solveSelect(it - 1, it, true);
      ++forced_;
      cover = forcedOften();
    }
    updateAndFill(p_.partialCount, covering_ ? 1 : 0);
    if (cover) coverEveryLearner();
    stepped();  // the correction for this step is applied by the next solve-select
  }
  void finish(int last) override { solveSelect(last, -1, false); }
  long forcedPasses() const override { return forced_; }
  bool coversEveryLearner() const override { return covering_; }

 private:
  // Finishes `previous`'s risk; with record >= 0 selects and records, or returns false (nothing recorded) where an
  // untracked learner might win. `exact`: c = B'g for every learner just now.
  bool solveSelect(int previous, int record, bool exact) {
    LearnerSolveSelectTrackedArgs args{p_.L, &p_.c, &p_.P, &p_.Q, &p_.delta, &p_.reduction};
    args.records = p_.recordArgs(previous, record);
    args.exact = exact ? 1 : 0;
    args.cover = covering_ ? 1 : 0;
    args.margin = p_.real(p_.isDouble ? kMarginDouble : kMarginFloat);
    args.promote = p_.real(kPromoteShare);
    args.cache = &cache_.cache;
    args.slotOf = &cache_.slotOf;
    args.step = &cache_.step;
    args.cRef = &cRef_;
    args.shift = &shift_;
    args.fills = &fills_;
    args.bind(select_);
    const std::size_t group = static_cast<std::size_t>(p_.params.reduceGroupSize);
    select_.launch(p_.ctx, {group}, {group});
    if (record < 0 || exact || covering_) return true;
    cl_int mayWin = 0;
    fills_.read(p_.ctx, &mayWin, sizeof mayWin);
    return mayWin == 0;
  }

  // `updateGroups` of the update (0: none), then one group per learner filling the rows that `cover` says
  // (kernels/compact_update.cl, compact_x_update_track) for the learners in fills_.
  void updateAndFill(std::size_t updateGroups, int cover) {
    const CompactData& d = *p_.data;
    CompactXUpdateTrackArgs args{
        {static_cast<cl_int>(p_.n), static_cast<cl_int>(p_.params.updateGroupRows), &p_.index, &p_.delta,
         p_.real(p_.nu), &d.x(), &d.geometry(), &d.polynomials(), &p_.y, &p_.mu, &p_.g, &p_.partials},
        static_cast<cl_int>(updateGroups),
        p_.L,
        cover};
    args.slotOf = &cache_.slotOf;
    args.fills = &fills_;
    args.cache = &cache_.cache;
    args.bind(update_);
    const std::size_t group = static_cast<std::size_t>(p_.params.updateGroupSize);
    update_.launch(p_.ctx, {group * (updateGroups + static_cast<std::size_t>(p_.L))}, {group});
  }

  // Notes a forced exact pass; true where they came in kForcedInWindow of the last kForcedWindow iterations.
  bool forcedOften() {
    forcedAt_.push_back(iterations_);
    while (forcedAt_.front() + kForcedWindow <= iterations_) forcedAt_.pop_front();
    return forcedAt_.size() >= kForcedInWindow;
  }

  // Right after a forced exact pass and its fills (every c current): the untracked learners' rows in every tracked
  // learner's slot, so that every step corrects every c; from then on each newly selected learner's slot gets every
  // row (cover 1) and no bound is needed. The CPU backend's coverAll, filling what it fills.
  void coverEveryLearner() {
    std::vector<cl_int> slotOf(static_cast<std::size_t>(p_.L));
    cache_.slotOf.read(p_.ctx, slotOf.data(), slotOf.size() * sizeof(cl_int));
    std::vector<cl_int> fills(slotOf.size() + 2, 0);
    for (int j = 0; j < p_.L; ++j)
      if (slotOf[static_cast<std::size_t>(j)] >= 0) fills[static_cast<std::size_t>(2 + fills[1]++)] = j;
    fills_.write(p_.ctx, fills.data(), fills.size() * sizeof(cl_int));
    updateAndFill(0, 2);
    covering_ = true;
  }

  CrossCache cache_;
  Buffer cRef_, shift_, fills_;
  Kernel select_, update_;
  long iterations_ = 0, forced_ = 0;
  std::deque<long> forcedAt_;  // iterations (counted over the whole fit) of the recent forced exact passes
  bool covering_ = false;
};

}  // namespace

std::unique_ptr<IterationScheme> makeTrackedScheme(DeviceProblem& p, const IterationPolicy& policy) {
  return std::make_unique<TrackedScheme>(p, policy);
}

}  // namespace gb::ocl

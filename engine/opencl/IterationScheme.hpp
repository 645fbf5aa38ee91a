#pragma once
// How the OpenCL backend runs an iteration, chosen once per fit by chooseScheme() (the one place) and recorded in
// result.json's timing.scheme:
//   plain       c = B'g exactly every iteration: B'g, solve, select, update (4 launches; dense kernels too);
//   fused       CPU devices (PoCL): solve + select in one launch, exact B'g every iteration;
//   fused-cached CPU devices with compact_x: the cross-product cache, c_j -= (B_j'B_l) nu delta_l between exact
//               B'g every refreshInterval iterations; the update fills a newly selected learner's slot (2 launches);
//               with fewer slots than learners (they are evicted in turn);
//   fused-tracked the same with a slot for every learner: c kept current, and B_j'B_l filled, only among the learners
//               selected so far (and close contenders); an exact B'g also where an untracked learner might win;
//   gpu-cached  GPU devices: the same cache, correction + solve, select + claim, update, fill by many work-groups
//               (opencl/CrossFill.hpp; its name says which fill: "gpu-cached, sorted fill").
// A scheme drives the DeviceProblem; all share its buffers and steps. A new scheme (e.g. a negative-gradient
// step before every exact B'(w u)) is a class with these three methods and a line in chooseScheme().
#include <memory>
#include <string>

#include "compute/IterationPolicy.hpp"
#include "opencl/CrossFill.hpp"
#include "opencl/DeviceProblem.hpp"

namespace gb::ocl {

class IterationScheme {
 public:
  explicit IterationScheme(DeviceProblem& p) : p_(p) {}
  virtual ~IterationScheme() = default;
  virtual std::string name() const = 0;
  // Iteration `it` of a batch: selects, records as record `it` and updates; finishes the risk of record it - 1.
  virtual void iteration(int it) = 0;
  // After a batch: finishes the risk of record `last`.
  virtual void finish(int last) = 0;
  // c = B'g exactly for the current g and the reductions r_j (teaching mode); any pending correction is void.
  virtual void exactScore() { p_.score(); }
  virtual bool usesCrossCache() const { return false; }
  // fused-tracked (tests): exact B'g passes that a bound forced, and whether every learner's c is now kept current.
  virtual long forcedPasses() const { return 0; }
  virtual bool coversEveryLearner() const { return false; }

 protected:
  DeviceProblem& p_;
};

// The state every scheme with incremental c shares: whether c tracks g and how many steps since the exact B'g.
class CachedScheme : public IterationScheme {
 public:
  CachedScheme(DeviceProblem& p, const IterationPolicy& policy) : IterationScheme(p), policy_(policy) {}
  void exactScore() override {
    p_.score();
    markExact();
  }

 protected:
  // The exact c = B'g when `always` or when the policy says it is due.
  void refreshIfDue(bool always) {
    if (!always && !policy_.refreshDue(cValid_, sinceRefresh_)) return;
    p_.plan->transposed(p_.g, p_.c);
    markExact();
  }
  void markExact() {
    cValid_ = cCurrent_ = true;
    sinceRefresh_ = 0;
  }
  // After a step whose correction of c is pending (applied by the next solve).
  void stepped() {
    cCurrent_ = false;
    ++sinceRefresh_;
  }

  const IterationPolicy policy_;
  bool cValid_ = false;    // c tracks g: exactly (cCurrent_) or up to the pending correction of the last step
  bool cCurrent_ = false;  // c == B'g for the current g
  int sinceRefresh_ = 0;
};

// The scheme for this problem and policy (see above).
std::unique_ptr<IterationScheme> chooseScheme(DeviceProblem& problem, const IterationPolicy& policy);

// The cross-product cache's device tables: `slots` blocks of learners x k x k REALs, which learner holds each slot
// and which slot each learner has, the fill state and the step of the last update.
struct CrossCache {
  int slotCount = 0;
  Buffer cache, slotOf, slotOwner, cacheState, step;
  // Tables for `slots` slots (0 gives one-entry tables that no kernel reads).
  void allocate(DeviceProblem& p, int count);
  ClaimArgs claimArgs() { return ClaimArgs{slotCount, &slotOf, &slotOwner, &cacheState, &step, &cache}; }
};

std::unique_ptr<IterationScheme> makePlainScheme(DeviceProblem& problem);
// nullptr when the fused kernels do not apply (GPU parameters, dense kernels, groups larger than one).
std::unique_ptr<IterationScheme> makeFusedScheme(DeviceProblem& problem, const IterationPolicy& policy);
// The fused scheme with a cache slot for every learner, tracking only the selected learners (SchemeTracked.cpp).
std::unique_ptr<IterationScheme> makeTrackedScheme(DeviceProblem& problem, const IterationPolicy& policy);
// nullptr when the GPU cache does not apply (CPU parameters, dense kernels, no room, refresh 0).
std::unique_ptr<IterationScheme> makeGpuCachedScheme(DeviceProblem& problem, const IterationPolicy& policy);

}  // namespace gb::ocl

#pragma once
// The one policy of both backends for keeping c = B'g current (compute/CpuBackend.cpp, opencl/*Scheme*.cpp):
// exactly, from a pass over x, at the start and every refreshInterval iterations, and incrementally in between,
// c_j -= (B_j'B_l) nu delta_l, from cross-products cached per selected learner within a byte budget. And the one
// statement of the tie rule in C++ (kernels/common.cl holds it for the kernels).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gb {

struct IterationPolicy {
  static constexpr int kDefaultRefreshInterval = 50;
  // The CPU backend computes in double: 200 incremental updates of c drift by about 7e-16 relative
  // (test_booster incrementalUpdatesMatchExactOnes), and the longer interval saves three quarters of the exact passes
  // (n = 1e6, p = 100, mstop 1000 on 2 idle cores: fit 4.72 s at 50, 3.73 s at 200, the same 1000 selections;
  // docs/performance.md). Float devices keep 50.
  static constexpr int kCpuRefreshInterval = 200;
  static constexpr std::size_t kDefaultCacheBytes = std::size_t(256) << 20;

  int refreshInterval = kDefaultRefreshInterval;  // exact B'g at least this often; 0 turns the cache off
  std::size_t cacheBytes = kDefaultCacheBytes;    // the cross-product cache stops growing at this size

  // Whether this iteration needs an exact B'g: c does not track g, or refreshInterval steps went by.
  bool refreshDue(bool cValid, int sinceRefresh) const { return !cValid || sinceRefresh >= refreshInterval; }
  // Whether another cached block of `bytes` fits next to `used` bytes.
  bool fits(std::size_t used, std::size_t bytes) const { return used + bytes <= cacheBytes; }
  // Cache slots of `slotBytes` each within the budget, at most one per learner.
  int slotsThatFit(int learners, std::size_t slotBytes) const {
    return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(learners), cacheBytes / slotBytes));
  }
  // A device cache that holds fewer slots than this evicts too often to pay: min(learners, 8).
  static int minimumSlots(int learners) { return std::min(learners, 8); }
  bool deviceCacheWorthIt(int learners, int slotCount) const {
    return refreshInterval > 0 && slotCount >= minimumSlots(learners);
  }
};

// The tie rule: the learner with the largest RSS reduction (the smallest RSS) wins; among equals, the lowest index.
// `better` is the strict comparison every scan in increasing index order uses.
inline bool betterReduction(double candidate, double best) { return candidate > best; }
inline std::size_t bestLearner(const std::vector<double>& reductions) {
  std::size_t best = 0;
  for (std::size_t j = 1; j < reductions.size(); ++j)
    if (betterReduction(reductions[j], reductions[best])) best = j;
  return best;
}

}  // namespace gb

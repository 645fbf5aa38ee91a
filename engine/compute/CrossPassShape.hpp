#pragma once
// How the CPU backend's cross-product pass (CpuBackend.cpp) shares its learners out: threads, and learners a chunk,
// within its scratch budget. A pure function, so that tests/engine/test_cpu_kernels checks it directly.
#include <algorithm>
#include <cstddef>

namespace gb::cpu {

struct CrossPassShape {
  int team = 1;      // threads of the pass
  int perChunk = 1;  // learners a chunk: a thread holds one buffer for each learner of its chunk
};

// budgetDoubles: the scratch budget; bufferDoubles: one learner's buffer (at most the budget: the backend does not
// cache a learner whose buffer exceeds it, and would otherwise get one thread and one learner a chunk, over budget);
// learners: the learners to compute (at least 1); maxTeam: the threads the pass may use; maxChunk: the chunk's cap.
// Within the budget: fewer learners a chunk first, then fewer threads (each needs one buffer). No more threads than
// learners. With several threads, two chunks a thread, so that one that finishes early takes over part of another's
// share; with one, as few chunks as the cap allows (each chunk computes l's basis rows again).
inline CrossPassShape crossPassShape(std::size_t budgetDoubles, std::size_t bufferDoubles, std::size_t learners,
                                     int maxTeam, int maxChunk) {
  const std::size_t buffers = budgetDoubles / std::max<std::size_t>(bufferDoubles, 1);
  const std::size_t team =
      std::max<std::size_t>(std::min({buffers, learners, static_cast<std::size_t>(std::max(maxTeam, 1))}), 1);
  const std::size_t fair = team == 1 ? learners : (learners + 2 * team - 1) / (2 * team);
  const std::size_t perChunk =
      std::clamp<std::size_t>(std::min(buffers / team, fair), 1, static_cast<std::size_t>(std::max(maxChunk, 1)));
  return {static_cast<int>(team), static_cast<int>(perChunk)};
}

}  // namespace gb::cpu

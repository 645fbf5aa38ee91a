#pragma once
// The row-sharded backend (issue 15): several RowShards (compute/RowShard.hpp), each holding a contiguous slice of the
// rows, driven as one fit. Per iteration:
//   every shard: its part of c = B_j'(w u) for every learner          (in parallel, one thread per shard)
//   host:        c = the parts added in shard order, then ShardReducer::sum (across processes; nothing in one)
// The problem given to prepare() is this process's rows: all of them within one process; one rank's part of the
// rows in a distributed fit (fitted() then gathers every rank's part, in rank order).
//                delta_j = P_j c_j, r_j = c_j'Q_j c_j, j* = bestLearner(r) (the CPU backend's rule and tie-break)
//   every shard: f += nu B_j* delta_j*                                 (in parallel)
//   risk:        the shards' sums of v * loss, added in shard order, over the sum of v.
// What crosses between shards per iteration is c (sum_j k_j doubles) and one loss sum per shard.
//
// Unweighted Gaussian spline models (BoostProblem::gradientEachIteration() false), on shards that form B_j'B_l in one
// pass (RowShard::crossProductsInOnePass: GPU devices), keep c on the host as the CPU
// backend does: c_j -= (B_j'B_l) nu delta_l with B_j'B_l (summed over the shards) cached when l is first selected,
// within policy().cacheBytes, and an exact c from the shards every policy().refreshInterval iterations. Fixed shard
// order everywhere, so a fit does not depend on timing.
//
// The exchange is measured: info().tuning says "exchange <t> us/iteration, <b> B/iteration", t the slowest shard's
// transfers plus the host's sums per iteration, b the bytes that crossed between the shards and the host.
#include <memory>
#include <vector>

#include "compute/Backend.hpp"
#include "compute/RowShard.hpp"

namespace gb {

class ShardedBackend final : public Backend {
 public:
  // At least one shard; `reducer` null means LocalReducer (one process).
  explicit ShardedBackend(std::vector<std::unique_ptr<RowShard>> shards,
                          std::unique_ptr<ShardReducer> reducer = nullptr);
  ~ShardedBackend() override;
  // Replaces the reducer (before prepare()): e.g. MpiReducer (compute/MpiReducer.hpp) for one rank of several.
  void setReducer(std::unique_ptr<ShardReducer> reducer);
  // backend "sharded", device "N shards: <device>; <device>...", kernel and precision of the first shard, scheme
  // "sharded-cached" or "sharded-gradient".
  BackendInfo info() const override;
  // Throws InputError when there are fewer rows than shards.
  void prepare(const BoostProblem& problem) override;
  void iterate(int count, std::vector<IterationResult>& out) override;
  std::vector<double> fitted() override;
  CandidateScores candidates() override;

  // Shards in use (after prepare(): every device's pieces) and devices given.
  std::size_t shardCount() const;
  std::size_t deviceCount() const;
  // At most `rows` rows per shard (0: no cap beyond each shard's maxRows()): a device's rows then go to several
  // pieces on it, as when its largest allocation cannot hold them (tests use a small cap). Takes effect at prepare().
  void setMaxShardRows(std::size_t rows);
  // The rows [begin, end) of shard s of n rows: contiguous, sizes differing by at most one, in shard order.
  static std::pair<std::size_t, std::size_t> shardRows(std::size_t n, std::size_t shards, std::size_t s);

 private:
  struct State;
  std::vector<double> localFitted();
  std::unique_ptr<State> s_;
};

}  // namespace gb

#pragma once
// One slice of a fit's rows, as the row-sharded backend (compute/ShardedBackend.hpp) drives it. The shards' partial
// sums are added across processes through common/ShardReducer.hpp.
//
// A shard holds a contiguous range of rows: y, the covariates, the case and out-of-bag weights and its slice of the
// fit f. It never selects: it returns partial sums over its rows (B_j'(w u), sum v loss, B_j'B_l), the backend adds
// them in a fixed order and tells every shard the same step.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/ShardReducer.hpp"
#include "compute/Backend.hpp"

namespace gb {

class RowShard {
 public:
  virtual ~RowShard() = default;
  // The shard's device, kernel, precision (backend "opencl", "cpu", ...), for the fit's timing record.
  virtual BackendInfo info() const = 0;
  // Uploads this shard's rows once; f starts at slice.offset. `slice` is the fit's problem restricted to the shard's
  // rows (rows, response, covariates, weights and oobWeights point at the slice; learners are the whole fit's, whose
  // P_j and Q_j come from all rows). The slice's vectors may be freed when prepare() returns.
  virtual void prepare(const BoostProblem& slice) = 0;
  // The most rows one shard of this kind can hold for `problem` (the whole fit's problem), e.g. where the device's
  // largest single allocation must hold the shard's x; the backend then splits a device's rows over that many
  // pieces, each a sibling() on the same device.
  virtual std::size_t maxRows(const BoostProblem& problem) const {
    (void)problem;
    return static_cast<std::size_t>(-1);
  }
  // A new, unprepared shard on the same device with the same settings (for a device's further pieces).
  virtual std::unique_ptr<RowShard> sibling() const = 0;
  // This shard's part of c = (B_j'(w u))_j at the current f, learner after learner (sum_j k_j values; a factor's
  // entries as its learner orders them: the total, then the sums of levels 2..L).
  virtual std::vector<double> coefficients() = 0;
  // f += nu B_l delta on this shard's rows (delta: the unshrunk P_l c_l, k_l values).
  virtual void addStep(int learner, const std::vector<double>& delta) = 0;
  // sum over this shard's rows of v * loss(y, f), v the out-of-bag weights, else the case weights, else 1 (with the
  // family's constant terms, e.g. Poisson's w lgamma(y + 1)).
  virtual double lossSum() = 0;
  // The steps in order, each as addStep then lossSum would do it, returning each step's loss sum. The backend hands
  // a batch of steps where it picks them without the shards (the cached Gaussian scheme); a device shard may queue
  // them all and wait once instead of once a step.
  struct Step {
    int learner = 0;
    std::vector<double> delta;
  };
  virtual std::vector<double> stepsAndLosses(const std::vector<Step>& steps) {
    std::vector<double> losses;
    losses.reserve(steps.size());
    for (const Step& step : steps) {
      addStep(step.learner, step.delta);
      losses.push_back(lossSum());
    }
    return losses;
  }
  // This shard's B_j'B_l for every learner j (spline learners): sum_j k_j rows of k_l values, row-major. Called only
  // where crossProductsInOnePass() (after prepare()): the cache pays only when a fill costs about one pass over the
  // rows; otherwise the backend forms c exactly every iteration.
  virtual std::vector<double> crossProducts(int learner) = 0;
  virtual bool crossProductsInOnePass() const = 0;
  // f on this shard's rows.
  virtual std::vector<double> fitted() = 0;
  // Seconds this shard has spent moving the exchanged values between its memory and the host (reads timed after its
  // device finished computing them, and the step's writes); 0 where nothing is copied.
  virtual double transferSeconds() const { return 0.0; }
};

}  // namespace gb

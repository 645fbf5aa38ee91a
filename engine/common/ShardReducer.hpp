#pragma once
// The one interface through which the processes of a distributed fit (`mpirun -np N gamboost fit --distributed`,
// issue 15) combine what each holds of the rows: partial sums, counts, ranges, error texts. Each process holds a
// contiguous part of the input rows, in process order; everything is combined in process order on every process, so
// every process gets the same bits whatever the timing. compute/MpiReducer.hpp implements it over MPI; LocalReducer is
// the one process (every call returns its input). The engine passes a ShardReducer* down where a set-up step needs
// all rows (reading the CSV, the model frame, the learners, the offset); null there means one process, and the code
// takes its usual path, with no extra pass over the data.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/Error.hpp"

namespace gb {

class ShardReducer {
 public:
  virtual ~ShardReducer() = default;
  // Replaces `values` by their sum over all processes (the same length on every process), added in process order.
  virtual void sum(std::vector<double>& values) = 0;
  // A short name for the timing record ("" within one process).
  virtual std::string name() const { return {}; }
  virtual int processes() const { return 1; }
  virtual int process() const { return 0; }
  // Every process's `local` (lengths may differ), in process order, on every process.
  virtual std::vector<std::vector<double>> allGather(const std::vector<double>& local) { return {local}; }
  virtual std::vector<std::string> allGatherText(const std::string& local) { return {local}; }
  // Every process's `local` values one after the other, in process order (the fitted values of all rows).
  virtual std::vector<double> gather(const std::vector<double>& local) { return local; }
};

// One process: the local sum is the sum.
class LocalReducer final : public ShardReducer {
 public:
  void sum(std::vector<double>& values) override { (void)values; }
};

// Helpers over a ShardReducer; `group` null means one process (each returns what one process has).

// Element-wise minimum / maximum over the processes (exact: no rounding). An empty part passes +inf / -inf.
void reduceMin(ShardReducer* group, std::vector<double>& values);
void reduceMax(ShardReducer* group, std::vector<double>& values);
// The sum of `count` over the processes before this one, and over all of them.
std::pair<double, double> countBefore(ShardReducer* group, double count);
// Throws InputError with the first (lowest process's) non-empty message, on every process; nothing when all are "".
void agreeOnError(ShardReducer* group, const std::string& localError);

// Runs check(), a step that may throw InputError on this process's rows; with several processes, every process then
// throws the message of the lowest process that failed (the first in row order), or none continues. One process:
// check() runs as it is, its exception unchanged.
template <typename Check>
void checkTogether(ShardReducer* group, Check&& check) {
  if (!group) {
    check();
    return;
  }
  std::string error;
  try {
    check();
  } catch (const InputError& e) {
    error = e.what();
  }
  agreeOnError(group, error);
}

}  // namespace gb

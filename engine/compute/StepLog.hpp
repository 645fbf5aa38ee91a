#pragma once
// The coefficient steps of a fit, iteration by iteration, so that any past iteration can be replayed (the window's
// iteration scrubber) without refitting: gamma_j after m iterations is the sum of learner j's deltas among the
// first m. Kept in chunks of kChunk iterations; a full chunk is immutable and shared between copies, so copying a
// log (a snapshot for the window, after every batch) costs about iterations / kChunk pointer copies plus one open
// chunk. Memory: 8 bytes per coefficient step (k of them an iteration).
#include <Eigen/Dense>
#include <memory>
#include <vector>

namespace gb {

class StepLog {
 public:
  static constexpr std::size_t kChunk = 1024;

  void append(int learner, const std::vector<double>& delta);
  std::size_t size() const;
  void clear();
  int learnerAt(std::size_t iteration) const;  // j* of iteration iteration + 1 (0-based index)
  // gamma of every learner after the first m iterations (m <= size()); columns[j] = learner j's coefficient count.
  std::vector<Eigen::VectorXd> coefficientsAt(std::size_t m, const std::vector<int>& columns) const;

 private:
  struct Chunk {
    std::vector<int> learner;
    std::vector<std::size_t> start;  // offset of each iteration's delta in values
    std::vector<double> values;
  };
  void addChunk(const Chunk& chunk, std::size_t count, std::vector<Eigen::VectorXd>& gamma) const;

  std::vector<std::shared_ptr<const Chunk>> full_;
  Chunk open_;
};

}  // namespace gb

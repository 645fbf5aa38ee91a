#include "compute/StepLog.hpp"

#include "common/Error.hpp"

namespace gb {

void StepLog::append(int learner, const std::vector<double>& delta) {
  open_.learner.push_back(learner);
  open_.start.push_back(open_.values.size());
  open_.values.insert(open_.values.end(), delta.begin(), delta.end());
  if (open_.learner.size() == kChunk) {
    full_.push_back(std::make_shared<const Chunk>(std::move(open_)));
    open_ = Chunk{};
  }
}

std::size_t StepLog::size() const { return full_.size() * kChunk + open_.learner.size(); }

void StepLog::clear() {
  full_.clear();
  open_ = Chunk{};
}

int StepLog::learnerAt(std::size_t iteration) const {
  if (iteration >= size()) throw ComputeError("step log: no iteration " + std::to_string(iteration + 1));
  const std::size_t c = iteration / kChunk, r = iteration % kChunk;
  return c < full_.size() ? full_[c]->learner[r] : open_.learner[r];
}

void StepLog::addChunk(const Chunk& chunk, std::size_t count, std::vector<Eigen::VectorXd>& gamma) const {
  for (std::size_t t = 0; t < count; ++t) {
    const auto j = static_cast<std::size_t>(chunk.learner[t]);
    const std::size_t end = t + 1 < chunk.start.size() ? chunk.start[t + 1] : chunk.values.size();
    if (j >= gamma.size() || end - chunk.start[t] != static_cast<std::size_t>(gamma[j].size()))
      throw ComputeError("step log: iteration does not match the learners' sizes");
    gamma[j] += Eigen::Map<const Eigen::VectorXd>(chunk.values.data() + chunk.start[t], gamma[j].size());
  }
}

std::vector<Eigen::VectorXd> StepLog::coefficientsAt(std::size_t m, const std::vector<int>& columns) const {
  if (m > size())
    throw ComputeError("step log: " + std::to_string(m) + " iterations asked, " + std::to_string(size()) + " recorded");
  std::vector<Eigen::VectorXd> gamma;
  for (int k : columns) gamma.push_back(Eigen::VectorXd::Zero(k));
  std::size_t left = m;
  for (const auto& chunk : full_) {
    if (left == 0) break;
    const std::size_t count = std::min(left, kChunk);
    addChunk(*chunk, count, gamma);
    left -= count;
  }
  if (left > 0) addChunk(open_, left, gamma);
  return gamma;
}

}  // namespace gb

#pragma once
// The CPU backend's path for every family but gaussian (and for any model with CpuBackend::setGradientPath, the
// tests' reference): each iteration forms the negative gradient u = ngradient(y, f), then c_j = B_j'(w u)
// exactly for every learner (interval moments for a spline, sums for a linear term, per-level sums for a factor),
// selects the learner with the smallest sum w (u - B_j delta_j)^2 = u'Wu - c_j'Q_j c_j (mboost's
// mean(weights * (fitted - u)^2); ties to the lowest index), adds nu B_j P_j c_j to f and computes the risk
// sum(w loss) / sum(w). Internal to compute/CpuBackend.cpp.
#include <memory>
#include <vector>

#include "compute/Backend.hpp"

namespace gb {

class CpuGradientPath {
 public:
  CpuGradientPath(const BoostProblem& problem, int threads);
  ~CpuGradientPath();
  IterationResult iterate();
  const std::vector<double>& fitted() const;
  CandidateScores candidates();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace gb

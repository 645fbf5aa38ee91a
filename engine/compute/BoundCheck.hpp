#pragma once
// Internal to CpuBackend: a self-check of its untracked learners' bounds (ReductionBound.hpp), for the tests
// (CpuBackend::setCheckBounds). Each time an iteration selects without a pass over the untracked learners, it checks
// that the incremental |dg|^2 is |dg|^2 summed over the rows, and that every untracked learner's exact reduction is
// within its bound. It leaves the state as it was.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "common/Error.hpp"
#include "compute/ExactScores.hpp"
#include "compute/ReductionBound.hpp"

namespace gb {

// `state` has g, gAtReference, shiftSquares, shiftScale, reduction, lipschitz, learners, tracked(j),
// applyPendingTo and what exactScoresKeepingState needs. Throws ComputeError on a failed check.
template <typename State>
void checkUntrackedBounds(State& state) {
  std::vector<double> now = state.g;
  state.applyPendingTo(now.data(), nullptr);
  double squares = 0.0;
  for (std::size_t i = 0; i < now.size(); ++i)
    squares += (state.gAtReference[i] - now[i]) * (state.gAtReference[i] - now[i]);
  // Both sums round at about 1e-16 of their terms; the incremental one over up to a few hundred steps.
  if (std::abs(squares - state.shiftSquares) > 1e-10 * std::max(squares, state.shiftScale) + 1e-300)
    throw ComputeError("cpu backend: the incremental |dg|^2 " + std::to_string(state.shiftSquares) +
                       " is not the rows' " + std::to_string(squares));
  const std::vector<double> stale = state.reduction;
  std::swap(now, state.g);
  try {
    exactScoresKeepingState(state);
  } catch (...) {
    std::swap(now, state.g);
    state.reduction = stale;
    throw;
  }
  std::swap(now, state.g);
  std::vector<double> exact = std::move(state.reduction);
  state.reduction = stale;
  const double shift = state.shiftSquares + 1e-12 * state.shiftScale;
  for (std::size_t j = 0; j < stale.size(); ++j)
    if (!state.tracked(j) && exact[j] > reductionBound(stale[j], state.lipschitz[j], shift))
      throw ComputeError("cpu backend: learner " + std::to_string(j) + "'s reduction " + std::to_string(exact[j]) +
                         " exceeds its bound");
}

}  // namespace gb

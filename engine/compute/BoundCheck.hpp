#pragma once
// Internal to CpuBackend: a self-check of its selections and its untracked learners' bounds (ReductionBound.hpp), for
// the tests (CpuBackend::setCheckBounds). After each selection it checks that the selected learner's exact reduction
// is the largest (to 1e-9 relative: exact near-ties may round either way), and, while bounds are in use, that the
// incremental |dg|^2 is |dg|^2 summed over the rows and that every untracked learner's exact reduction is within its
// bound. It leaves the state as it was.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "common/Error.hpp"
#include "compute/ExactScores.hpp"
#include "compute/IterationPolicy.hpp"
#include "compute/ReductionBound.hpp"

namespace gb {

// `state` has g, weights (null: all 1), gAtReference, shiftSquares, shiftScale, coverAll, reduction, lipschitz,
// tracked(j), applyPendingTo and what exactScoresKeepingState needs. Throws ComputeError on a failed check.
template <typename State>
void checkSelection(State& state, std::size_t selected) {
  std::vector<double> now = state.g;
  state.applyPendingTo(now.data(), nullptr);
  double squares = 0.0;
  for (std::size_t i = 0; i < now.size(); ++i)
    squares +=
        (state.weights ? state.weights[i] : 1.0) * (state.gAtReference[i] - now[i]) * (state.gAtReference[i] - now[i]);
  // Both sums round at about 1e-16 of their terms; the incremental one over up to a few hundred steps.
  if (!state.coverAll && std::abs(squares - state.shiftSquares) > 1e-10 * std::max(squares, state.shiftScale) + 1e-300)
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
  const double best = exact[bestLearner(exact)];
  if (exact[selected] < best * (1.0 - 1e-9))
    throw ComputeError("cpu backend: selected learner " + std::to_string(selected) + " with exact reduction " +
                       std::to_string(exact[selected]) + ", not the best " + std::to_string(best));
  if (state.coverAll) return;
  const double shift = state.shiftSquares + 1e-12 * state.shiftScale;
  for (std::size_t j = 0; j < stale.size(); ++j)
    if (!state.tracked(j) && state.lipschitz[j] >= 0.0 &&
        exact[j] > reductionBound(stale[j], state.lipschitz[j], shift))
      throw ComputeError("cpu backend: learner " + std::to_string(j) + "'s reduction " + std::to_string(exact[j]) +
                         " exceeds its bound");
}

}  // namespace gb

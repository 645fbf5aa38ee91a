#pragma once
// Internal to the backends with an incremental c (CpuBackend, ShardedBackend): the teaching view's candidates() asks
// for exact scores without changing the fit.
namespace gb {

// Computes exact c = B'g and the reductions on `state` (which has c, cValid, sinceRefresh, exactCoefficients() and
// computeReductions()), then puts back its incremental c and refresh counter: the reductions stay exact.
template <typename State>
void exactScoresKeepingState(State& state) {
  const auto saved = state.c;
  const bool savedValid = state.cValid;
  const int savedSince = state.sinceRefresh;
  state.exactCoefficients();
  state.computeReductions();
  state.c = saved;
  state.cValid = savedValid;
  state.sinceRefresh = savedSince;
}

}  // namespace gb

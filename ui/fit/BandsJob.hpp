#pragma once
// The worker side of the partial effects' bootstrap bands (gb::effectBands, as `gamboost fit --bands B`): fits all
// rows to the fit's mstop (the reference the bands surround; the same deterministic fit the window shows), then B
// bootstrap refits, in parallel across cores on the CPU backend, one by one on OpenCL. Cancel acts at the refits'
// batch boundaries.
#include <cstdint>
#include <memory>

#include "compute/EffectBands.hpp"
#include "data/Dataset.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

namespace gbui {

inline constexpr int kMaxWindowBands = 10'000;  // the largest B the window's "Bands (bootstrap B)" box takes

class TaskWorker;

struct BandsRequest {
  std::shared_ptr<const gb::Dataset> data;
  gb::ModelSettings settings;  // as the fit used them; mstop: the fit's iterations
  gb::ComputeSettings compute;
  int replicates = 25;
  std::uint64_t seed = 1;  // fit --bands' default --seed
};

struct BandsJob {
  BandsRequest request;
  std::shared_ptr<const gb::EffectBands> bands;  // written by the worker; null when cancelled
  bool cancelled = false;

  // Throws InputError ("bootstrap 3: ...") for a refit that cannot be fitted; reports progress after every refit.
  void operator()(TaskWorker& worker);
};

}  // namespace gbui

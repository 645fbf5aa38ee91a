#pragma once
// Bootstrap confidence bands for the partial effects (fit --bands B): B refits of the model at the chosen mstop,
// each a resampling fold's Booster weighted by one bootstrap sample (as gamboost cv --bootstrap: the offset and
// every lambda from the sample's weights, knots and design from all used rows), every learner's centred effect
// (model/PartialEffect.hpp: centred by the all-rows fit's design means, so every refit's curve is on the scale of
// the fitted one) evaluated on the fitted learner's grid, and pointwise percentile intervals across the B refits
// (R's quantile type 7): 90% = [q0.05, q0.95], 95% = [q0.025, q0.975].
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/Booster.hpp"
#include "compute/CrossValidation.hpp"

namespace gb {

struct LearnerBand {
  std::string name;
  LearnerType type = LearnerType::Spline;
  std::vector<std::string> levels;  // a factor's levels (x holds their codes)
  std::vector<double> x;            // the grid (model/PartialEffect.hpp effectGrid)
  std::vector<double> effect;       // the all-rows fit's centred effect on the grid
  std::vector<double> lower95, upper95, lower90, upper90;
  // Refits behind the band: all of them, less those whose sample left this learner's effect undecided
  // (Learner::undecided: an unpenalised factor level or linear slope without rows of positive weight, where mboost's
  // refit would stop), which are left out of its percentiles. Undecided in every refit: the band is NaN.
  int replicatesUsed = 0;
};

struct EffectBands {
  int replicates = 0;
  std::uint64_t seed = 0;
  int mstop = 0;
  bool batched = false;  // the refits advanced together (Backend::prepareFolds), not one by one
  // Samples that cannot be fitted at all (unfittableFold: a binomial sample of one class, a poisson sample of counts
  // 0), left out of every band as mboost's refit would stop; the first's reason, e.g. "bootstrap 14: its rows ...".
  int unfitted = 0;
  std::string unfittedReason;
  std::vector<LearnerBand> learners;  // every learner of the fit, in its order
};

// The bootstrap samples of the bands, one at a time: n_used draws of the used rows with replacement (probabilities
// proportional to the case weights), as weights per input row (0 on rows the fit omitted). Without omitted rows the
// s-th sample is bootstrapFolds(rows, B, seed, caseWeights)'s fold s.
class BandSampler {
 public:
  BandSampler(const ModelFrame& frame, std::uint64_t seed);
  std::vector<double> next();

 private:
  const ModelFrame& frame_;
  BootstrapSampler used_;
};

// What a run may be told while it goes: `cancelled` is polled between batches of every refit (true stops the run,
// which then returns nullopt); `replicateDone` is called after each refit with the number done (from any thread,
// one call at a time).
struct BandsMonitor {
  std::function<bool()> cancelled;
  std::function<void(int done)> replicateDone;
};

// Bands around `fitted` (a Booster run on `data`; its iteration() is the mstop of every refit). `parallel` > 1 runs
// that many refits at once (CPU backends of one thread each, from makeBackend); with 1, a backend that batches folds
// (the OpenCL backend for spline models, as crossValidate) runs them together. Throws InputError naming the
// replicate ("bootstrap 3: ...") for a refit that cannot be fitted, and naming --bands for B < 1. The samples are
// drawn as the refits start (never all B at once: B x n weights would not fit for large n).
std::optional<EffectBands> effectBands(std::shared_ptr<const Dataset> data, const Booster& fitted, int replicates,
                                       std::uint64_t seed, const BackendMaker& makeBackend, int parallel,
                                       const BandsMonitor& monitor = {});

// The percentile intervals of one grid point's B values (type 7): lower95, lower90, upper90, upper95.
std::vector<double> percentileBand(const std::vector<double>& values);

}  // namespace gb

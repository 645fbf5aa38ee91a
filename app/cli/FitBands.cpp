#include "FitBands.hpp"

#include <charconv>
#include <iostream>

#include "compute/EffectBands.hpp"
#include "model/PartialEffect.hpp"

namespace gb::cli {

void addBandsOption(CLI::App* sub, int& replicates) {
  const CLI::Validator positive(
      [](std::string& text) -> std::string {
        long long value = 0;
        const char* first = text.data() + (!text.empty() && text[0] == '+');
        const char* last = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(first, last, value);
        if (first == last || ec != std::errc() || ptr != last || value < 1 || value > 1000000)
          return "must be a positive integer (1..1000000), got '" + text + "'";
        return {};
      },
      "", "a positive integer");
  sub->add_option("--bands", replicates,
                  "Bootstrap confidence bands for the partial effects from B refits at the chosen mstop (with --seed)")
      ->check(positive)
      ->type_name("B")
      ->group("Output");
}

namespace {

nlohmann::json learnerJson(const LearnerBand& b, int replicates) {
  nlohmann::json j = {{"type", toString(b.type)}};
  if (b.type == LearnerType::Factor)
    j["x"] = b.levels;
  else
    j["x"] = b.x;
  j["effect"] = b.effect;
  j["lower95"] = b.lower95;
  j["upper95"] = b.upper95;
  j["lower90"] = b.lower90;
  j["upper90"] = b.upper90;
  if (b.replicatesUsed < replicates) j["replicates_used"] = b.replicatesUsed;
  return j;
}

}  // namespace

nlohmann::json fitBands(std::shared_ptr<const Dataset> data, const Booster& fitted, int replicates, std::uint64_t seed,
                        const ComputeSettings& compute, bool quiet) {
  ProgressPrinter progress("bands", !quiet);
  BandsMonitor monitor;
  monitor.replicateDone = [&progress, replicates](int done) {
    progress.update(static_cast<double>(done) / replicates,
                    "bootstrap refit " + std::to_string(done) + "/" + std::to_string(replicates));
  };
  const FoldBackends backends = foldBackends(compute);
  const std::optional<EffectBands> bands =
      effectBands(std::move(data), fitted, replicates, seed, backends.make, backends.parallel, monitor);
  if (bands->unfitted > 0 && !quiet)
    std::cerr << "gamboost: note: --bands: " << bands->unfitted << " of " << bands->replicates
              << " bootstrap samples cannot be fitted and are left out of every band, e.g. " << bands->unfittedReason
              << " (mboost's refit would stop there)" << std::endl;
  nlohmann::json learners = nlohmann::json::object();
  for (const LearnerBand& b : bands->learners) {
    learners[b.name] = learnerJson(b, bands->replicates);
    if (b.replicatesUsed < bands->replicates - bands->unfitted && !quiet)
      std::cerr << "gamboost: note: --bands: learner '" << b.name
                << "': " << bands->replicates - bands->unfitted - b.replicatesUsed << " of "
                << bands->replicates - bands->unfitted
                << " bootstrap samples leave its effect undecided (an unpenalised factor level, or every value but "
                   "one of a linear term, without rows; mboost's bols() would stop), "
                << (b.replicatesUsed > 0 ? "and its band comes from the " + std::to_string(b.replicatesUsed) + " others"
                                         : std::string("so it has no band (its bounds are null in result.json)"))
                << std::endl;
  }
  return {{"replicates", bands->replicates},
          {"seed", bands->seed},
          {"mstop", bands->mstop},
          {"batched", bands->batched},
          {"sample", "bootstrap of the used rows"},
          {"centred", "f(x) minus its mean over the training rows (the fitted model's weighted means)"},
          {"learners", learners}};
}

std::uint64_t bandsBytesEstimate(const Booster& fitted) {
  std::uint64_t points = 0;
  for (const Learner& l : fitted.learners()) points += effectGrid(l).size();
  return 6 * 25 * points + 4096;
}

}  // namespace gb::cli

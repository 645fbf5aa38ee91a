#pragma once
// Whole-fit timings (seconds per iteration) per backend and kernel, on the paper's data generated in memory.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compute/Backend.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

struct FitBenchOptions {
  std::vector<std::size_t> rows{100000};
  int covariates = 100;
  int informative = 20;
  ModelSettings model;                   // knots, mstop, ...
  std::vector<ComputeSettings> configs;  // one timing per (rows, config); empty: the CPU backend
  int repetitions = 1;                   // best of
  std::uint64_t seed = 1;
  int bootstrap = 0;  // > 0: also time that many bootstrap folds (crossValidate) per (rows, config), seed `seed`
  // Also one more fit per (rows, config), not timed, under a RunProfile: its time budget (bench/ProfileReport) goes
  // to stderr and into the timing's "profile" (the per-launch events would perturb the timed fits).
  bool profile = false;
  std::function<bool(double fraction, const std::string& what)> progress;  // false cancels
};

struct FitTiming {
  std::size_t rows = 0;
  int covariates = 0;
  ComputeSettings compute;
  BackendInfo info;
  double setupSeconds = 0.0;
  double fitSeconds = 0.0;
  double secondsPerIteration = 0.0;
  double finalRisk = 0.0;
  std::vector<int> path;       // selection path (for cross-checking backends)
  int samePathIterations = 0;  // leading iterations that pick the same learner as the first config
  nlohmann::json profile;      // FitBenchOptions::profile: the profiled fit's budget (bench/ProfileReport.hpp)
                               // at the same rows (path.size() when the paths agree throughout)
  // With FitBenchOptions::bootstrap: the folds' drawing, their whole run, its set-up and iterations (measured for
  // batched folds only: null in JSON, empty in CSV, "-" in the table otherwise), whether they advanced together,
  // and else how many ran at once (CPU backends, one thread each).
  int cvFolds = 0;
  double cvDrawSeconds = 0.0, cvSeconds = 0.0, cvSetupSeconds = 0.0, cvIterateSeconds = 0.0;
  bool cvBatched = false;
  int cvParallel = 1;
};

struct FitBenchReport {
  std::vector<FitTiming> timings;
  nlohmann::json toJson() const;
  std::string toCsv() const;
};

FitBenchReport runFitBenchmark(const FitBenchOptions& options);

}  // namespace gb

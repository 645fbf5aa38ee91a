#pragma once
// `gamboost bench e2e`: the whole job a user waits for, stage by stage: generate the paper's data, write it as CSV,
// then per config read it back, set up, fit and write result.json, each stage against its floor (its fewest bytes
// over the host copy bandwidth measured in the same run) and every kernel's device time (bench/ProfileReport.hpp).
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/ProfileReport.hpp"
#include "compute/Backend.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

struct E2eBenchOptions {
  std::size_t rows = 100000;
  int covariates = 100;
  int informative = 20;
  ModelSettings model;                   // knots, mstop, ...
  std::vector<ComputeSettings> configs;  // one end-to-end run each; empty: the CPU backend
  std::uint64_t seed = 1;
  std::string scratchDir;  // where the CSV and result.json go (removed after); "": the system's temporary folder
  std::function<bool(double fraction, const std::string& what)> progress;  // false cancels
};

struct E2eRun {
  ComputeSettings compute;
  BackendInfo info;
  std::vector<ProfileStage> stages;  // read and parse CSV, the fit's stages, write result
  std::vector<ProfileKernel> kernels;
  ProfileFloors floors;
  int iterations = 0;
  double wallSeconds = 0.0;  // reading the CSV to result.json written
  double finalRisk = 0.0;
  nlohmann::json profile;  // profileJson of the run
};

struct E2eBenchReport {
  std::size_t rows = 0;
  int covariates = 0;
  std::uint64_t csvBytes = 0;
  double generateSeconds = 0.0;
  ProfileStage writeCsv;  // shared by every run
  double hostGigabytesPerSecond = 0.0;
  std::vector<E2eRun> runs;
  nlohmann::json toJson() const;
  std::string toCsv() const;  // one row per (run, stage) and (run, kernel); empty cells where unknown
};

E2eBenchReport runE2eBenchmark(const E2eBenchOptions& options);

}  // namespace gb

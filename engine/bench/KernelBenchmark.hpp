#pragma once
// Kernel timings of design.md section 5 (the paper's Figure 4 and beyond). Run by `gamboost bench kernels`
// and by the GUI's kernel chart; never by the tests. JSON/CSV round-trip so saved runs (docs/bench/) can be
// compared side by side.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "settings/LaneShape.hpp"

namespace gb {

struct KernelBenchReport;

struct KernelBenchOptions {
  std::string device;  // OpenCL device substring ("" : default device)
  std::vector<std::size_t> rows{1000, 10000, 100000};
  std::vector<int> columns{16, 32, 64};  // k per learner
  int covariates = 100;
  int repetitions = 50;  // timed runs after one warm-up
  std::string precision = "float";
  std::vector<std::string> kernels;  // empty: all
  std::uint64_t seed = 1;
  std::function<bool(double fraction, const std::string& what)> progress;  // false cancels
  // Added: a kernel whose warm-up launch shows that `repetitions` would take longer than this runs fewer
  // repetitions (at least 3; KernelTiming::repetitions says how many).
  double secondsPerKernel = 2.0;
  // Added: called on the benchmark's thread at every progress step with the report so far (the window draws
  // partial results while a run goes on).
  std::function<void(const KernelBenchReport& sofar)> partial;
  // `gamboost bench tune`: compact_x's batched B'g once per lane shape (kernel "compact_x/<shape>"), nothing else
  // of compact_x. Empty: compact_x as the device's tuning gives it.
  std::vector<LaneTuning> laneShapes;
};

struct KernelTiming {
  std::string kernel;       // e.g. "naive", "v1", "v2", "splitk", "compact", "compact_x", "clblast", "eigen"
  std::string operation;    // "Btg" | "Bdelta" | "solve" (Eigen: the k x k products) | "update" (compact)
  std::string granularity;  // "per-learner" | "batched"
  std::size_t rows = 0;
  int k = 0;
  int covariates = 0;
  double medianSeconds = 0.0, meanSeconds = 0.0, minSeconds = 0.0;
  double bytes = 0.0;  // fewest bytes that must move
  double gigabytesPerSecond = 0.0;
  double fractionOfCopy = 0.0;  // of the copy bandwidth measured in the same run (0 where inCache)
  // The operands fit within the cache of where the row ran (the device's global memory cache, or the host's largest
  // cache for Eigen rows): the timed repetitions can read them from the cache, so a memory copy is no floor for them
  // and fractionOfCopy is not given ("in cache"; null in the JSON). A row over its cache streams: a cache that keeps
  // the most recent lines holds none of a repeated stream larger than itself, so the copy is its floor.
  bool inCache = false;
  bool onHost = false;            // Eigen rows: timed on the host, against the host's copy bandwidth
  double maxRelativeError = 0.0;  // against the CPU reference, checked before timing
  // Added:
  int repetitions = 0;  // timed runs behind the statistics
  std::string skipped;  // non-empty: not timed, and why (does not fit in memory, failed its check, ...)
};

struct KernelBenchReport {
  std::string platform, device;
  std::string precision;
  double copyGigabytesPerSecond = 0.0;
  double hostCopyGigabytesPerSecond = 0.0;              // the Eigen rows' floor: a host memcpy over all cores, same run
  double deviceCacheBytes = 0.0, hostCacheBytes = 0.0;  // the caches that decide inCache
  std::vector<KernelTiming> timings;
  // Added: kernels whose output failed the check against the CPU reference (also in their rows' `skipped`);
  // the CLI should exit non-zero after writing the report when this is not empty.
  std::vector<std::string> failures;
  bool cancelled = false;          // the progress callback returned false; timings holds what ran
  std::vector<std::string> notes;  // how kernels ran where the name does not say (compact_x's packed copy)
  nlohmann::json toJson() const;
  std::string toCsv() const;
  static KernelBenchReport fromJson(const nlohmann::json& j);  // throws InputError on a malformed file
};

// Throws InputError for a bad option or device, ComputeError for OpenCL failures.
KernelBenchReport runKernelBenchmark(const KernelBenchOptions& options);

}  // namespace gb

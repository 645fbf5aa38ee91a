#pragma once
// `gamboost bench tune`: searches compact_x's lane shapes (settings/LaneShape.hpp) on the device at hand at one
// problem shape, each checked against the CPU reference before it is timed, and writes the fastest as the
// device's entry of the user's tuning file (opencl/TuningTable.hpp), where every later fit finds it.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/KernelBenchmark.hpp"
#include "settings/LaneShape.hpp"

namespace gb {

struct TuneOptions {
  std::string device;  // OpenCL device ("" : the default)
  std::size_t rows = 10000000;
  int k = 64;
  int covariates = 100;
  int repetitions = 10;
  std::string precision = "float";
  std::uint64_t seed = 1;
  std::string file;                // where the entry goes ("" : the user's tuning file)
  bool write = true;               // false: report only
  std::vector<LaneTuning> shapes;  // empty: the built-in search grid
  std::function<bool(double, const std::string&)> progress;
};

struct TuneCandidate {
  LaneTuning shape;
  double medianSeconds = 0.0, fractionOfCopy = 0.0, maxRelativeError = 0.0;
  bool inCache = false;  // within the device's cache: no copy floor (KernelTiming::inCache)
  std::string skipped;   // why it was not timed (failed its check, did not fit)
};

struct TuneReport {
  KernelBenchReport kernels;  // the underlying run (every candidate's row)
  std::vector<TuneCandidate> candidates;
  int best = -1;          // index into candidates
  int defaults = -1;      // the candidate equal to the built-in defaults, if searched
  std::string writtenTo;  // the tuning file, when written
  nlohmann::json toJson() const;
};

// The search grid: lanes {32, 64} x rows per lane {4, 8, 16} x red {off, on (NVIDIA only)} x groups {8, 16, 32},
// and the packed copy's B'g (with the default lane shape for the launches it does not serve).
std::vector<LaneTuning> defaultTuneGrid(bool nvidia);

// Throws InputError for bad options, ComputeError for OpenCL failures or when no candidate passes its check.
TuneReport runTuneBenchmark(const TuneOptions& options);

}  // namespace gb

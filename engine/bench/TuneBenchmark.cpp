// `gamboost bench tune` (bench/TuneBenchmark.hpp): every candidate shape runs through the kernel benchmark's
// compact_x batched B'g row (checked against the double CPU reference, then timed with event timestamps in the same
// run as the copy bandwidth), and the fastest passing one becomes the device's tuning entry.
#include "bench/TuneBenchmark.hpp"

#include <ctime>

#include "common/Error.hpp"
#include "common/Format.hpp"

#ifndef GB_HAVE_OPENCL
namespace gb {
std::vector<LaneTuning> defaultTuneGrid(bool) { return {}; }
nlohmann::json TuneReport::toJson() const { return nlohmann::json::object(); }
TuneReport runTuneBenchmark(const TuneOptions&) {
  throw InputError("bench tune: this build has no OpenCL support (built with GB_WITH_OPENCL=OFF)");
}
}  // namespace gb
#else

#include "opencl/ClRuntime.hpp"
#include "opencl/TuningTable.hpp"

namespace gb {

namespace {

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

nlohmann::json shapeJson(const LaneTuning& s) {
  return {{"lanes", s.lanes},
          {"lane_rows", s.laneRows},
          {"lane_red", s.laneRed},
          {"groups_per_unit", s.groupsPerUnit},
          {"packed_btg", s.packed}};
}

// The candidates' rows, in the order they ran (the kernel names carry the shape labels).
void collect(const TuneOptions& o, const std::vector<LaneTuning>& shapes, TuneReport& r) {
  for (const LaneTuning& shape : shapes) {
    TuneCandidate c;
    c.shape = shape;
    const std::string name = "compact_x/" + laneShapeLabel(shape);
    c.skipped = "not run";
    for (const KernelTiming& t : r.kernels.timings)
      if (t.kernel == name && t.operation == "Btg" && t.granularity == "batched") {
        c.skipped = t.skipped;
        c.medianSeconds = t.medianSeconds;
        c.fractionOfCopy = t.fractionOfCopy;
        c.inCache = t.inCache;
        c.maxRelativeError = t.maxRelativeError;
      }
    if (c.skipped.empty() && (r.best < 0 || c.medianSeconds < r.candidates[r.best].medianSeconds))
      r.best = static_cast<int>(r.candidates.size());
    if (shape == LaneTuning{}) r.defaults = static_cast<int>(r.candidates.size());
    r.candidates.push_back(c);
  }
  (void)o;
}

}  // namespace

std::vector<LaneTuning> defaultTuneGrid(bool nvidia) {
  std::vector<LaneTuning> grid;
  for (int lanes : {32, 64})
    for (int rows : {4, 8, 16})
      for (int red = 0; red <= (nvidia ? 1 : 0); ++red)
        for (int groups : {8, 16, 32}) grid.push_back(LaneTuning{lanes, rows, red == 1, groups});
  LaneTuning packed;  // the packed copy's batched B'g (its own shape is chosen by PackedBtg)
  packed.packed = true;
  grid.push_back(packed);
  return grid;
}

nlohmann::json TuneReport::toJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const TuneCandidate& c : candidates) {
    nlohmann::json j = shapeJson(c.shape);
    j["median_seconds"] = c.medianSeconds;
    j["fraction_of_copy"] = c.inCache ? nlohmann::json(nullptr) : nlohmann::json(c.fractionOfCopy);
    j["max_relative_error"] = c.maxRelativeError;
    if (!c.skipped.empty()) j["skipped"] = c.skipped;
    list.push_back(j);
  }
  return {{"device", kernels.device},
          {"platform", kernels.platform},
          {"precision", kernels.precision},
          {"copy_gigabytes_per_second", kernels.copyGigabytesPerSecond},
          {"candidates", list},
          {"best", best},
          {"defaults", defaults},
          {"written_to", writtenTo}};
}

TuneReport runTuneBenchmark(const TuneOptions& o) {
  if (o.rows < 16) throw InputError(optionMessage("--rows", "must be at least 16"));
  if (o.repetitions < 1) throw InputError(optionMessage("--reps", "must be >= 1"));
  const ocl::Device device = ocl::chooseDevice(o.device);
  const bool nvidia = device.info.platform.find("NVIDIA") != std::string::npos;
  if (device.info.type != "GPU")
    throw InputError(optionMessage("--device", device.info.name +
                                                   " is not a GPU: only GPUs run the lane kernel (CPU devices use "
                                                   "private accumulators, which have no shape to tune); name a GPU"));
  const std::vector<LaneTuning> shapes = o.shapes.empty() ? defaultTuneGrid(nvidia) : o.shapes;
  KernelBenchOptions k;
  k.device = o.device;
  k.rows = {o.rows};
  k.columns = {o.k};
  k.covariates = o.covariates;
  k.repetitions = o.repetitions;
  k.precision = o.precision;
  k.kernels = {"compact_x"};
  k.seed = o.seed;
  k.progress = o.progress;
  k.laneShapes = shapes;
  TuneReport r;
  r.kernels = runKernelBenchmark(k);
  collect(o, shapes, r);
  if (r.best < 0) throw ComputeError("bench tune: no lane shape passed its check against the CPU reference");
  if (o.write) {
    const TuneCandidate& b = r.candidates[static_cast<std::size_t>(r.best)];
    ocl::TuningEntry entry{device.info.name, device.info.computeUnits, device.info.globalMemoryBytes, b.shape, ""};
    entry.measured = "bench tune " + today() + ": compact_x n=" + std::to_string(o.rows) +
                     " p=" + std::to_string(o.covariates) + " k=" + std::to_string(o.k) + " " + o.precision + " " +
                     formatNumber(1e3 * b.medianSeconds, 4) + " ms" + ", " +
                     (b.inCache ? std::string("in cache, no copy floor")
                                : formatNumber(100.0 * b.fractionOfCopy, 3) + "% of copy " +
                                      formatNumber(r.kernels.copyGigabytesPerSecond, 4) + " GB/s");
    r.writtenTo = o.file.empty() ? ocl::userTuningFile() : o.file;
    ocl::storeTuningEntry(r.writtenTo, entry);
  }
  return r;
}

}  // namespace gb
#endif

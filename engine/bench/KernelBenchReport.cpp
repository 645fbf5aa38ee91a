// JSON / CSV forms of the kernel benchmark report (docs/bench/*.json|csv; the GUI's kernel chart reads the JSON).
#include <sstream>

#include "bench/KernelBenchmark.hpp"
#include "common/Error.hpp"
#include "data/CsvWriter.hpp"

namespace gb {
namespace {

// What a row's fraction is of: "device copy", "host copy" (Eigen) or "none: in cache".
std::string floorName(const KernelTiming& t) {
  if (t.inCache) return "none: in cache";
  return t.onHost ? "host copy" : "device copy";
}

nlohmann::json timingJson(const KernelTiming& t) {
  return {{"kernel", t.kernel},
          {"operation", t.operation},
          {"granularity", t.granularity},
          {"rows", t.rows},
          {"k", t.k},
          {"covariates", t.covariates},
          {"median_s", t.medianSeconds},
          {"mean_s", t.meanSeconds},
          {"min_s", t.minSeconds},
          {"bytes", t.bytes},
          {"gb_per_s", t.gigabytesPerSecond},
          {"fraction_of_copy", t.inCache ? nlohmann::json(nullptr) : nlohmann::json(t.fractionOfCopy)},
          {"in_cache", t.inCache},
          {"floor", floorName(t)},
          {"max_relative_error", t.maxRelativeError},
          {"repetitions", t.repetitions},
          {"skipped", t.skipped}};
}

template <typename T>
T field(const nlohmann::json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name))
    throw InputError("kernel benchmark report: " + where + " has no \"" + name + "\"");
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError("kernel benchmark report: " + where + ": \"" + name + "\" has the wrong type");
  }
}

// Optional fields (absent in reports of older builds) keep their defaults.
template <typename T>
void optionalField(const nlohmann::json& j, const char* name, const std::string& where, T* out) {
  if (j.is_object() && j.contains(name)) *out = field<T>(j, name, where);
}

KernelTiming timingFromJson(const nlohmann::json& j, const std::string& where) {
  KernelTiming t;
  t.kernel = field<std::string>(j, "kernel", where);
  t.operation = field<std::string>(j, "operation", where);
  t.granularity = field<std::string>(j, "granularity", where);
  t.rows = field<std::size_t>(j, "rows", where);
  t.k = field<int>(j, "k", where);
  t.covariates = field<int>(j, "covariates", where);
  t.medianSeconds = field<double>(j, "median_s", where);
  t.meanSeconds = field<double>(j, "mean_s", where);
  t.minSeconds = field<double>(j, "min_s", where);
  t.bytes = field<double>(j, "bytes", where);
  t.gigabytesPerSecond = field<double>(j, "gb_per_s", where);
  optionalField(j, "in_cache", where, &t.inCache);
  if (!t.inCache) t.fractionOfCopy = field<double>(j, "fraction_of_copy", where);
  std::string floor;
  optionalField(j, "floor", where, &floor);
  t.onHost = floor == "host copy";
  t.maxRelativeError = field<double>(j, "max_relative_error", where);
  optionalField(j, "repetitions", where, &t.repetitions);
  optionalField(j, "skipped", where, &t.skipped);
  return t;
}

}  // namespace

nlohmann::json KernelBenchReport::toJson() const {
  nlohmann::json timingsJson = nlohmann::json::array();
  for (const KernelTiming& t : timings) timingsJson.push_back(timingJson(t));
  return {{"platform", platform},
          {"device", device},
          {"precision", precision},
          {"copy_gb_per_s", copyGigabytesPerSecond},
          {"host_copy_gb_per_s", hostCopyGigabytesPerSecond},
          {"device_cache_bytes", deviceCacheBytes},
          {"host_cache_bytes", hostCacheBytes},
          {"failures", failures},
          {"cancelled", cancelled},
          {"notes", notes},
          {"timings", timingsJson}};
}

KernelBenchReport KernelBenchReport::fromJson(const nlohmann::json& j) {
  KernelBenchReport r;
  r.platform = field<std::string>(j, "platform", "the report");
  r.device = field<std::string>(j, "device", "the report");
  r.precision = field<std::string>(j, "precision", "the report");
  r.copyGigabytesPerSecond = field<double>(j, "copy_gb_per_s", "the report");
  optionalField(j, "failures", "the report", &r.failures);
  optionalField(j, "cancelled", "the report", &r.cancelled);
  optionalField(j, "notes", "the report", &r.notes);
  optionalField(j, "host_copy_gb_per_s", "the report", &r.hostCopyGigabytesPerSecond);
  optionalField(j, "device_cache_bytes", "the report", &r.deviceCacheBytes);
  optionalField(j, "host_cache_bytes", "the report", &r.hostCacheBytes);
  const auto& list = j.contains("timings") ? j.at("timings") : nlohmann::json();
  if (!list.is_array()) throw InputError("kernel benchmark report: \"timings\" is missing or not an array");
  for (std::size_t i = 0; i < list.size(); ++i)
    r.timings.push_back(timingFromJson(list[i], "timings[" + std::to_string(i) + "]"));
  return r;
}

std::string KernelBenchReport::toCsv() const {
  std::ostringstream out;
  out.precision(9);
  out << "kernel,operation,granularity,rows,k,covariates,median_s,mean_s,min_s,bytes,gb_per_s,fraction_of_copy,"
         "max_relative_error,repetitions,skipped,device,precision,copy_gb_per_s,in_cache,floor\n";
  for (const KernelTiming& t : timings)
    out << t.kernel << ',' << t.operation << ',' << t.granularity << ',' << t.rows << ',' << t.k << ',' << t.covariates
        << ',' << t.medianSeconds << ',' << t.meanSeconds << ',' << t.minSeconds << ',' << t.bytes << ','
        << t.gigabytesPerSecond << ',' << (t.inCache ? std::string() : std::to_string(t.fractionOfCopy)) << ','
        << t.maxRelativeError << ',' << t.repetitions << ',' << csvField(t.skipped) << ',' << csvField(device) << ','
        << precision << ',' << (t.onHost ? hostCopyGigabytesPerSecond : copyGigabytesPerSecond) << ','
        << (t.inCache ? 1 : 0) << ',' << csvField(floorName(t)) << '\n';
  return out.str();
}

}  // namespace gb

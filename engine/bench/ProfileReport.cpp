#include "bench/ProfileReport.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>

#include "bench/CopyBandwidth.hpp"
#ifdef GB_HAVE_OPENCL
#include "opencl/ClRuntime.hpp"
#endif

namespace gb {

namespace {

std::string formatted(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// "1.23 ms" etc.
std::string duration(double seconds) {
  if (seconds >= 1.0) return formatted("%.3f s", seconds);
  if (seconds >= 1e-3) return formatted("%.3f ms", seconds * 1e3);
  return formatted("%.1f us", seconds * 1e6);
}

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

}  // namespace

ProfileFloors measureProfileFloors(const ComputeSettings& compute) {
  const auto start = std::chrono::steady_clock::now();
  ProfileFloors floors;
  floors.hostGigabytesPerSecond = hostCopyBandwidth();
#ifdef GB_HAVE_OPENCL
  if (compute.backend == BackendKind::OpenCl) {
    ocl::Context ctx(ocl::chooseDevice(compute.device));
    floors.device = ctx.device().info.name;
    floors.deviceGigabytesPerSecond = deviceCopyBandwidth(ctx);
    floors.transferGigabytesPerSecond = hostToDeviceBandwidth(ctx);
  }
#else
  (void)compute;
#endif
  floors.measureSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return floors;
}

double kernelFloorSeconds(const ProfileKernel& kernel, const ProfileFloors& floors) {
  if (kernel.bytes == 0 || floors.deviceGigabytesPerSecond <= 0.0) return 0.0;
  return static_cast<double>(kernel.bytes) / (floors.deviceGigabytesPerSecond * 1e9);
}

double stageFloorSeconds(const ProfileStage& stage, const ProfileFloors& floors) {
  const bool transfer = stage.name == "upload" || stage.name == "download";
  const double rate = transfer ? floors.transferGigabytesPerSecond : floors.hostGigabytesPerSecond;
  if (stage.bytes == 0 || rate <= 0.0) return 0.0;
  return static_cast<double>(stage.bytes) / (rate * 1e9);
}

double stageTogetherSeconds(const ProfileStage& stage) { return stage.seconds / std::max(1, stage.threads); }

nlohmann::json profileJson(const RunProfile& profile, const ProfileFloors& floors, int iterations) {
  nlohmann::json stages = nlohmann::json::array();
  for (const ProfileStage& s : profile.stages()) {
    const double floor = stageFloorSeconds(s, floors);
    const double together = stageTogetherSeconds(s);
    nlohmann::json row = {
        {"name", s.name}, {"calls", s.calls}, {"seconds", s.seconds}, {"threads", s.threads}, {"bytes", s.bytes}};
    row["floor_s"] = floor > 0 ? nlohmann::json(floor) : nlohmann::json(nullptr);
    row["fraction_of_floor"] = floor > 0 && together > 0 ? nlohmann::json(floor / together) : nlohmann::json(nullptr);
    stages.push_back(row);
  }
  nlohmann::json kernels = nlohmann::json::array();
  for (const ProfileKernel& k : profile.kernels()) {
    const double perIteration = iterations > 0 ? static_cast<double>(k.count) / iterations : 0.0;
    const double floor = kernelFloorSeconds(k, floors);
    nlohmann::json row = {{"name", k.name},       {"count", k.count},   {"per_iteration", perIteration},
                          {"total_s", k.seconds}, {"mean_s", k.mean()}, {"bytes", k.bytes}};
    row["floor_s"] = floor > 0 ? nlohmann::json(floor) : nlohmann::json(nullptr);
    row["fraction_of_floor"] = floor > 0 && k.seconds > 0 ? nlohmann::json(floor / k.seconds) : nlohmann::json(nullptr);
    kernels.push_back(row);
  }
  return {{"host_copy_gb_per_s", floors.hostGigabytesPerSecond},
          {"device_copy_gb_per_s", floors.deviceGigabytesPerSecond},
          {"transfer_gb_per_s", floors.transferGigabytesPerSecond},
          {"device", floors.device},
          {"iterations", iterations},
          {"stages", stages},
          {"kernels", kernels},
          {"kernel_total_s", profile.kernelSeconds()}};
}

void printProfile(std::ostream& out, const RunProfile& profile, const ProfileFloors& floors, int iterations) {
  out << "time budget (floor: the stage's bytes over the host copy bandwidth, "
      << formatted("%.1f", floors.hostGigabytesPerSecond) << " GB/s read+write over all cores, measured now";
  if (floors.transferGigabytesPerSecond > 0)
    out << "; upload and download over the host-to-device rate from pinned memory, "
        << formatted("%.1f", floors.transferGigabytesPerSecond) << " GB/s";
  if (floors.deviceGigabytesPerSecond > 0)
    out << "; device copy " << formatted("%.1f", floors.deviceGigabytesPerSecond) << " GB/s on " << floors.device;
  out << ")\n"
      << "(a stage run on several threads adds their seconds; its fraction sets seconds / threads against the floor;\n"
      << " an indented stage ran inside the one above it)\n"
      << padded("stage", 40) << padded("calls", 8) << padded("time", 12) << padded("threads", 9) << padded("bytes", 14)
      << padded("floor", 12) << "of floor\n";
  for (const ProfileStage& s : profile.stages()) {
    const double floor = stageFloorSeconds(s, floors);
    const double together = stageTogetherSeconds(s);
    out << padded(std::string(2 * static_cast<std::size_t>(s.depth), ' ') + s.name, 40)
        << padded(std::to_string(s.calls), 8) << padded(duration(s.seconds), 12)
        << padded(std::to_string(std::max(1, s.threads)), 9) << padded(s.bytes ? std::to_string(s.bytes) : "-", 14)
        << padded(floor > 0 ? duration(floor) : "-", 12)
        << (floor > 0 && together > 0 ? formatted("%.0f%%", 100.0 * floor / together) : "-") << '\n';
  }
  if (floors.measureSeconds > 0.0)
    out << "(the floors were measured after the run in " << duration(floors.measureSeconds)
        << ", outside every stage: a wall clock around the command counts it)\n";
  const std::vector<ProfileKernel> kernels = profile.kernels();
  if (kernels.empty()) return;
  out << "device kernels over " << iterations << " iterations (event timestamps)\n"
      << padded("kernel", 40) << padded("count", 10) << padded("per iter", 10) << padded("total", 12)
      << padded("mean", 12) << padded("total floor", 12) << "of floor (device copy)\n";
  for (const ProfileKernel& k : kernels) {
    const double perIteration = iterations > 0 ? static_cast<double>(k.count) / iterations : 0.0;
    const double floor = kernelFloorSeconds(k, floors);
    out << padded(k.name, 40) << padded(std::to_string(k.count), 10) << padded(formatted("%.2f", perIteration), 10)
        << padded(duration(k.seconds), 12) << padded(duration(k.mean()), 12)
        << padded(floor > 0 ? duration(floor) : "-", 12)
        << (floor > 0 && k.seconds > 0 ? formatted("%.0f%%", 100.0 * floor / k.seconds) : "-") << '\n';
  }
  out << padded("all kernels", 60) << duration(profile.kernelSeconds()) << '\n';
}

}  // namespace gb

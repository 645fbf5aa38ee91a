#include "opencl/TuningTable.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "common/Error.hpp"
#include "common/JsonFields.hpp"

namespace gb::ocl {

namespace fs = std::filesystem;
namespace jf = gb::jsonfield;

namespace {

// Devices the project measured. Each line says which run chose it (docs/performance.md, issue 14's point 4). The
// H100's entry is the shape the defaults were tuned on (docs/perf/kernels.md). On the H200 no lane shape passed 65%
// of copy (bench tune, 2026-11-26: groups 8 the best), and the packed copy's B'g reaches 87-89%.
const std::vector<TuningEntry>& builtInTable() {
  static const std::vector<TuningEntry> table = {
      {"NVIDIA H100 80GB HBM3", 132, 0, LaneTuning{32, 8, false, 16},
       "compact_x n=1e7 p=100 k=64 float: 1.555 ms, 86.7-88.9% of copy (docs/perf/kernels.md, 2026-11-23)"},
      {"NVIDIA H200", 132, 0, LaneTuning{32, 8, false, 8, true},
       "compact_x n=1e7 p=100 k=64 float: packed 1.1 ms, 86.9-89.5% of copy; lanes32-rows8-red0-groups8 65.3% "
       "(docs/performance.md, 2026-11-27)"},
  };
  return table;
}

std::mutex overrideMutex;
std::optional<TuningEntry> overrideEntry;

int powerOfTwoLanes(const nlohmann::json& j, const std::string& path) {
  const auto v = static_cast<int>(jf::integer(j, path, 16, 256));
  if (v & (v - 1)) jf::fail(path, "must be a power of two from 16 to 256, got " + jf::describe(j));
  return v;
}

}  // namespace

bool TuningEntry::matches(const ComputeDeviceInfo& d) const {
  return d.name == device && (computeUnits == 0 || computeUnits == d.computeUnits) &&
         (globalMemoryBytes == 0 || globalMemoryBytes == d.globalMemoryBytes);
}

nlohmann::json TuningEntry::toJson() const {
  return {{"device", device},
          {"compute_units", computeUnits},
          {"global_memory_bytes", globalMemoryBytes},
          {"lanes", lanes.lanes},
          {"lane_rows", lanes.laneRows},
          {"lane_red", lanes.laneRed},
          {"groups_per_unit", lanes.groupsPerUnit},
          {"packed_btg", lanes.packed},
          {"measured", measured}};
}

TuningEntry TuningEntry::fromJson(const nlohmann::json& j) {
  jf::rejectUnknownKeys(j,
                        {"device", "compute_units", "global_memory_bytes", "lanes", "lane_rows", "lane_red",
                         "groups_per_unit", "packed_btg", "measured"},
                        "");
  TuningEntry e;
  e.device = jf::text(jf::member(j, "device", ""), "device");
  e.computeUnits = static_cast<int>(jf::integer(jf::member(j, "compute_units", ""), "compute_units", 0, 1 << 20));
  e.globalMemoryBytes = static_cast<std::uint64_t>(
      jf::integer(jf::member(j, "global_memory_bytes", ""), "global_memory_bytes", 0, std::int64_t(1) << 52));
  e.lanes.lanes = powerOfTwoLanes(jf::member(j, "lanes", ""), "lanes");
  e.lanes.laneRows = static_cast<int>(jf::integer(jf::member(j, "lane_rows", ""), "lane_rows", 1, 32));
  const nlohmann::json& red = jf::member(j, "lane_red", "");
  if (!red.is_boolean()) jf::fail("lane_red", "must be true or false, got " + jf::describe(red));
  e.lanes.laneRed = red.get<bool>();
  e.lanes.groupsPerUnit =
      static_cast<int>(jf::integer(jf::member(j, "groups_per_unit", ""), "groups_per_unit", 1, 1024));
  if (const auto it = j.find("packed_btg"); it != j.end()) {  // absent in files written before it existed
    if (!it->is_boolean()) jf::fail("packed_btg", "must be true or false, got " + jf::describe(*it));
    e.lanes.packed = it->get<bool>();
  }
  if (const auto it = j.find("measured"); it != j.end()) e.measured = jf::text(*it, "measured");
  return e;
}

std::string userTuningFile() {
  if (const char* set = std::getenv("GAMBOOST_TUNING_FILE"); set && *set) return set;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return (fs::path(xdg) / "gamboost" / "tuning.json").string();
  if (const char* home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".config" / "gamboost" / "tuning.json").string();
  return {};
}

std::vector<TuningEntry> readTuningFile(const std::string& path) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot be read");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) throw InputError(path + ": not valid JSON");
  try {
    const nlohmann::json& list = jf::member(j, "devices", "");
    if (!list.is_array()) jf::fail("devices", "must be an array, got " + jf::describe(list));
    std::vector<TuningEntry> entries;
    for (std::size_t i = 0; i < list.size(); ++i) {
      try {
        entries.push_back(TuningEntry::fromJson(list[i]));
      } catch (const InputError& e) {
        throw InputError(jf::element("devices", i) + "." + e.what());
      }
    }
    return entries;
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

void storeTuningEntry(const std::string& path, const TuningEntry& entry) {
  if (path.empty()) throw InputError("bench tune: no tuning file (set GAMBOOST_TUNING_FILE or HOME)");
  std::vector<TuningEntry> entries = readTuningFile(path);
  bool replaced = false;
  for (TuningEntry& e : entries)
    if (e.device == entry.device && e.computeUnits == entry.computeUnits &&
        e.globalMemoryBytes == entry.globalMemoryBytes) {
      e = entry;
      replaced = true;
    }
  if (!replaced) entries.push_back(entry);
  nlohmann::json j = {{"devices", nlohmann::json::array()}};
  for (const TuningEntry& e : entries) j["devices"].push_back(e.toJson());
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << j.dump(2) << '\n';
    if (!out.flush()) {
      std::remove(temporary.c_str());
      throw InputError(path + ": cannot be written");
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) {
    std::remove(temporary.c_str());
    throw InputError(path + ": cannot be written (" + ec.message() + ")");
  }
}

std::optional<TuningEntry> tuningFor(const ComputeDeviceInfo& device) {
  {
    std::lock_guard<std::mutex> lock(overrideMutex);
    if (overrideEntry && overrideEntry->matches(device)) return overrideEntry;
  }
  for (const TuningEntry& e : readTuningFile(userTuningFile()))
    if (e.matches(device)) return e;
  for (const TuningEntry& e : builtInTable())
    if (e.matches(device)) return e;
  return std::nullopt;
}

ScopedTuningOverride::ScopedTuningOverride(const TuningEntry& entry) {
  std::lock_guard<std::mutex> lock(overrideMutex);
  overrideEntry = entry;
}

ScopedTuningOverride::~ScopedTuningOverride() {
  std::lock_guard<std::mutex> lock(overrideMutex);
  overrideEntry.reset();
}

}  // namespace gb::ocl

#pragma once
// Kernel parameters per device, in the manner of CLBlast's database: entries keyed by the device's name and
// properties give the launch shape of the compact B'g (compact_x_partial_columns) for that device. Entries come,
// first match wins, from
//   1. the process's override (`gamboost bench tune` while it searches);
//   2. the user's tuning file, written by `gamboost bench tune` ($GAMBOOST_TUNING_FILE, else
//      $XDG_CONFIG_HOME/gamboost/tuning.json, else ~/.config/gamboost/tuning.json);
//   3. the built-in table (TuningTable.cpp: devices measured by the project, each with the run that chose it).
// A device that matches nothing keeps the defaults of opencl/KernelParameters.cpp.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "settings/ComputeDeviceInfo.hpp"
#include "settings/LaneShape.hpp"

namespace gb::ocl {

struct TuningEntry {
  std::string device;                   // the device name exactly as OpenCL reports it
  int computeUnits = 0;                 // 0: any
  std::uint64_t globalMemoryBytes = 0;  // 0: any
  LaneTuning lanes;
  std::string measured;  // how the entry was chosen: shape, time, fraction of copy, date
  bool matches(const ComputeDeviceInfo& device) const;
  nlohmann::json toJson() const;
  static TuningEntry fromJson(const nlohmann::json& j);  // throws InputError naming the field
};

// The entry for this device (override, user file, built-in table), or none.
std::optional<TuningEntry> tuningFor(const ComputeDeviceInfo& device);
// Where `bench tune` writes and tuningFor() reads the user's entries ("" when no home directory is known).
std::string userTuningFile();
// Entries of a tuning file; an absent file gives none; throws InputError "file: ..." for a malformed one.
std::vector<TuningEntry> readTuningFile(const std::string& path);
// Replaces the entry of the same device (name, units, memory) or appends; writes the file atomically.
void storeTuningEntry(const std::string& path, const TuningEntry& entry);

// While it lives, every kernelParameters() call of this process uses `entry` for devices it matches.
class ScopedTuningOverride {
 public:
  explicit ScopedTuningOverride(const TuningEntry& entry);
  ~ScopedTuningOverride();
  ScopedTuningOverride(const ScopedTuningOverride&) = delete;
  ScopedTuningOverride& operator=(const ScopedTuningOverride&) = delete;
};

}  // namespace gb::ocl

#pragma once
// The time-budget report of a profiled run (`gamboost fit --profile`, `gamboost bench e2e`): every stage against its
// floor (its fewest bytes over a copy bandwidth measured in the same run) and every kernel's device time.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "common/RunProfile.hpp"
#include "settings/ComputeSettings.hpp"

namespace gb {

struct ProfileFloors {
  double hostGigabytesPerSecond = 0.0;      // host memcpy, bytes read + written (bench/CopyBandwidth.hpp)
  double deviceGigabytesPerSecond = 0.0;    // device copy; 0 when the run used no OpenCL device
  double transferGigabytesPerSecond = 0.0;  // host-to-device write from pinned memory, bytes once; 0: no device
  std::string device;                       // the device the kernels ran on ("" on the CPU backend)
  double measureSeconds = 0.0;              // how long measuring these took (after the run, outside its stages)
};

// Measures the host copy bandwidth and, for the OpenCL backend, the device copy bandwidth of the device `compute`
// names (the probes make no profiled call: their copies are not counted as the run's).
ProfileFloors measureProfileFloors(const ComputeSettings& compute);

// One stage's floor in seconds: its bytes over the host copy bandwidth, or for "upload" and "download" over the
// host-to-device rate (0 when its bytes or the bandwidth are unknown).
double stageFloorSeconds(const ProfileStage& stage, const ProfileFloors& floors);
// The stage's seconds as its threads spent them together: summed seconds over the distinct threads that ran it (the
// floors are all-core figures, so a stage summed over T threads is set against them with its seconds / T).
double stageTogetherSeconds(const ProfileStage& stage);

// One kernel's floor in seconds: the bytes its launcher declared over the device copy bandwidth (0 when unknown).
double kernelFloorSeconds(const ProfileKernel& kernel, const ProfileFloors& floors);

// {"host_copy_gb_per_s", "device_copy_gb_per_s", "transfer_gb_per_s", "device", "iterations", "stages": [{"name",
//  "calls", "seconds", "threads", "bytes", "floor_s", "fraction_of_floor"}], "kernels": [{"name", "count",
//  "per_iteration", "total_s", "mean_s", "bytes", "floor_s", "fraction_of_floor"}], "kernel_total_s"}.
//  fraction_of_floor = floor_s / (seconds / threads) for stages, floor_s / total_s for kernels (1 = at the floor); null
//  where there is no floor.
nlohmann::json profileJson(const RunProfile& profile, const ProfileFloors& floors, int iterations);
// The same as two tables for a terminal.
void printProfile(std::ostream& out, const RunProfile& profile, const ProfileFloors& floors, int iterations);

}  // namespace gb

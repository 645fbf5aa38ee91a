#pragma once
// What can run a fit: the CPU backend always, plus every OpenCL device found (when built with OpenCL).
#include <cstdint>
#include <string>
#include <vector>

namespace gb {

struct ComputeDeviceInfo {
  std::string backend;   // "cpu" | "opencl"
  std::string platform;  // OpenCL platform name ("" for the CPU backend)
  std::string name;      // device name
  std::string type;      // "GPU" | "CPU" | "accelerator" | "host"
  int computeUnits = 0;
  std::uint64_t globalMemoryBytes = 0;
  std::uint64_t maxAllocationBytes = 0;
  std::uint64_t localMemoryBytes = 0;  // per work-group (OpenCL local memory)
  bool fp64 = false;
  std::string version;     // OpenCL version string of the device
  bool isDefault = false;  // the one a plain --backend opencl picks
};

struct ComputeDeviceList {
  std::vector<ComputeDeviceInfo> devices;  // CPU backend first
  std::string openClStatus;                // "" if OpenCL devices were found, else why not (one line)
};

// Never throws: problems with OpenCL end up in openClStatus.
ComputeDeviceList listComputeDevices();

}  // namespace gb

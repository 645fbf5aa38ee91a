#pragma once
// One device that can run a fit, as listed by `gamboost devices` (compute/ComputeDevices.hpp).
#include <cstdint>
#include <string>

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
  std::string version{};   // OpenCL version string of the device
  bool isDefault = false;  // the one a plain --backend opencl picks
  std::string address{};   // OpenCL: "P:D", platform and device index (opencl/DeviceAddress.hpp); "" for the CPU
};

}  // namespace gb

#pragma once
// What can run a fit: the CPU backend always, plus every OpenCL device found (when built with OpenCL).
#include <string>
#include <vector>

#include "settings/ComputeDeviceInfo.hpp"

namespace gb {

struct ComputeDeviceList {
  std::vector<ComputeDeviceInfo> devices;  // CPU backend first
  std::string openClStatus;                // "" if OpenCL devices were found, else why not (one line)
};

// Never throws: problems with OpenCL end up in openClStatus.
ComputeDeviceList listComputeDevices();

}  // namespace gb

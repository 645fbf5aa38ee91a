#pragma once
// Where and how a fit computes: the backend, its device, precision and kernel, CPU threads. Validated in one place
// against what the backends offer (compute/Backend.hpp validateComputeSettings).
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace gb {

struct ComputeSettings {
  std::string backend = "cpu";  // "cpu" | "opencl"
  std::string device;           // substring of the OpenCL device name ("" : GAMBOOST_DEVICE or the default)
  std::string precision;        // "" (backend default) | "double" | "float"
  std::string kernel;           // "" (backend default) or a kernel name of the OpenCL backend
  int threads = 0;              // CPU threads, 0 = all cores
};

void to_json(nlohmann::json& j, const ComputeSettings& s);
void from_json(const nlohmann::json& j, ComputeSettings& s);

}  // namespace gb

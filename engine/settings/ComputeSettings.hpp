#pragma once
// Where and how a fit computes: the backend, its device, precision and kernel, CPU threads. Validated in one place
// against what the backends offer (compute/Backend.hpp validateComputeSettings).
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace gb {

enum class BackendKind { Cpu, OpenCl };
// Default: the backend's own choice (double on the CPU, float on OpenCL), resolved when the backend is made.
enum class Precision { Default, Double, Float };

struct ComputeSettings {
  BackendKind backend = BackendKind::Cpu;
  std::string device;  // substring of the OpenCL device name ("" : GAMBOOST_DEVICE or the default)
  Precision precision = Precision::Default;
  std::string kernel;  // "" (backend default) or one of kernelChoices(backend) (compute/Backend.hpp)
  int threads = 0;     // CPU threads, 0 = all cores
  // Several OpenCL devices sharing the rows (the sharded backend, compute/ShardedBackend.hpp): addresses "P:D",
  // "P:D/N" (N sub-devices) or name substrings; empty: one device.
  std::vector<std::string> devices;
};

std::string toString(BackendKind b);                  // "cpu" / "opencl"
BackendKind backendFromString(const std::string& s);  // throws InputError("--backend: ...")
std::string toString(Precision p);                    // "" (Default) / "double" / "float"
Precision precisionFromString(const std::string& s);  // "" is Default; throws InputError("--precision: ...")

void to_json(nlohmann::json& j, const ComputeSettings& s);
void from_json(const nlohmann::json& j, ComputeSettings& s);

}  // namespace gb

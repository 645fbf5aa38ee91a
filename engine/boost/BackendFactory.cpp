// makeBackend: the one place that turns ComputeSettings::backend into a Backend (design.md section 3).
#include <algorithm>

#include "boost/Backend.hpp"
#include "boost/CpuBackend.hpp"
#include "boost/ModelSettings.hpp"
#include "common/Error.hpp"
#ifdef GB_HAVE_OPENCL
#include "opencl/OpenClBackend.hpp"
#endif

namespace gb {

namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<std::string> kernelChoices(const std::string& backend) {
#ifdef GB_HAVE_OPENCL
  if (backend == "opencl") return ocl::openClKernelNames();
#endif
  return {};
}

std::vector<std::string> precisionChoices(const std::string& backend) {
  if (backend == "opencl") return {"float", "double"};
  return {"double"};
}

void validateComputeSettings(const ComputeSettings& compute) {
  if (compute.backend != "cpu" && compute.backend != "opencl")
    throw InputError(optionMessage("--backend", "unknown backend '" + compute.backend + "' (cpu, opencl)"));
  if (compute.threads < 0) throw InputError(optionMessage("--threads", "must be >= 0"));
  const std::vector<std::string> precisions = precisionChoices(compute.backend);
  if (!compute.precision.empty() && !contains(precisions, compute.precision))
    throw InputError(optionMessage(
        "--precision", compute.backend == "cpu" ? "the CPU backend computes in double only (float: --backend opencl)"
                                                : "must be one of " + listed(precisions)));
  const std::vector<std::string> kernels = kernelChoices(compute.backend);
  if (!compute.kernel.empty() && !contains(kernels, compute.kernel))
    throw InputError(optionMessage(
        "--kernel", kernels.empty() ? "kernels belong to the OpenCL backend (--backend opencl)"
                                    : "unknown kernel '" + compute.kernel + "' (" + listed(kernels) + ")"));
}

std::unique_ptr<Backend> makeBackend(const ComputeSettings& compute) {
  validateComputeSettings(compute);
  if (compute.backend == "cpu") return std::make_unique<CpuBackend>(compute.threads);
  if (compute.backend == "opencl") {
#ifdef GB_HAVE_OPENCL
    return std::make_unique<OpenClBackend>(compute);
#else
    throw InputError(optionMessage("--backend opencl",
                                   "this build has no OpenCL support (built with "
                                   "GB_WITH_OPENCL=OFF); the CPU backend (--backend cpu) works"));
#endif
  }
  throw InputError(optionMessage("--backend", "unknown backend '" + compute.backend + "' (cpu, opencl)"));
}

}  // namespace gb

// makeBackend: the one place that turns ComputeSettings::backend into a Backend (design.md section 3).
#include <algorithm>

#include "common/Error.hpp"
#include "compute/Backend.hpp"
#include "compute/CpuBackend.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"
#ifdef GB_HAVE_OPENCL
#include "opencl/OpenClBackend.hpp"
#endif

namespace gb {

namespace {

// "compact_x, compact, ..." or, with a conjunction, "'double' or 'float'".
std::string listed(const std::vector<std::string>& names, const std::string& conjunction = {}) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) list += conjunction.empty() ? ", " : (i + 1 == names.size() ? " " + conjunction + " " : ", ");
    list += conjunction.empty() ? names[i] : "'" + names[i] + "'";
  }
  return list;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<std::string> kernelChoices(const std::string& backend) {
  if (backend == "cpu") return {"moments"};  // the CPU backend's one method (interval moments, cached cross-products)
#ifdef GB_HAVE_OPENCL
  if (backend == "opencl") return ocl::openClKernelNames();
#endif
  return {};
}

std::vector<std::string> precisionChoices(const std::string& backend) {
  if (backend == "opencl") return {"double", "float"};  // the default (float) is the backend's, chosen when empty
  return {"double"};
}

void validateComputeSettings(const ComputeSettings& compute) {
  if (compute.backend != "cpu" && compute.backend != "opencl")
    throw InputError(optionMessage("--backend", "unknown backend '" + compute.backend + "' (cpu, opencl)"));
  if (compute.threads < 0) throw InputError(optionMessage("--threads", "must be >= 0"));
  const std::vector<std::string> precisions = precisionChoices(compute.backend);
  if (!compute.precision.empty() && !contains(precisions, compute.precision))
    throw InputError(optionMessage("--precision",
                                   compute.backend == "cpu" && compute.precision == "float"
                                       ? "the CPU backend computes in double only (float: --backend opencl)"
                                       : "must be " + listed(precisions, "or") + " (got '" + compute.precision + "')"));
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

// makeBackend: the one place that turns ComputeSettings::backend into a Backend (design.md section 3).
#include "boost/Backend.hpp"
#include "boost/CpuBackend.hpp"
#include "boost/ModelSettings.hpp"
#include "common/Error.hpp"
#ifdef GB_HAVE_OPENCL
#include "opencl/OpenClBackend.hpp"
#endif

namespace gb {

std::unique_ptr<Backend> makeBackend(const ComputeSettings& compute) {
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

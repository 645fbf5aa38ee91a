// makeBackend: the one place that turns ComputeSettings::backend into a Backend (design.md section 3).
#include <algorithm>

#include "common/Error.hpp"
#include "compute/Backend.hpp"
#include "compute/CpuBackend.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"
#ifdef GB_HAVE_OPENCL
#include "opencl/OpenClBackend.hpp"
#include "opencl/OpenClShard.hpp"
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

void requireCompleteProblem(const BoostProblem& problem, const std::string& backend) {
  if (!problem.response || !problem.learners || problem.covariates.size() != problem.learners->size())
    throw ComputeError(backend + ": incomplete problem (response, learners and covariates must be set)");
  if (problem.learners->empty()) throw ComputeError(backend + ": no learners");
}

bool BoostProblem::gradientEachIteration() const {
  if (family.family != Family::Gaussian || weights != nullptr || oobWeights != nullptr) return true;
  if (learners)
    for (const Learner& l : *learners)
      if (!l.isSpline()) return true;
  return false;
}

std::vector<std::string> kernelChoices(BackendKind backend) {
  if (backend == BackendKind::Cpu)
    return {"moments"};  // the CPU backend's one method (interval moments, cached
                         // cross-products)
#ifdef GB_HAVE_OPENCL
  if (backend == BackendKind::OpenCl) return ocl::openClKernelNames();
#endif
  return {};
}

std::vector<Precision> precisionChoices(BackendKind backend) {
  // Precision::Default (the backend's own: double on the CPU, float on OpenCL) is always allowed too.
  if (backend == BackendKind::OpenCl) return {Precision::Double, Precision::Float};
  return {Precision::Double};
}

void validateComputeSettings(const ComputeSettings& compute) {
  if (compute.threads < 0) throw InputError(optionMessage("--threads", "must be >= 0"));
  if (!compute.devices.empty() && compute.backend != BackendKind::OpenCl)
    throw InputError(optionMessage("--devices", "the sharded backend runs on OpenCL devices; leave out --backend cpu"));
  if (!compute.devices.empty() && !compute.device.empty())
    throw InputError(optionMessage("--devices", "give either --device or --devices, not both"));
  if (!compute.device.empty() && compute.backend != BackendKind::OpenCl)
    throw InputError(optionMessage("--device",
                                   "names an OpenCL device, and the CPU backend has none (add --backend "
                                   "opencl, or leave --device out)"));
  const std::vector<Precision> precisions = precisionChoices(compute.backend);
  if (compute.precision != Precision::Default &&
      std::find(precisions.begin(), precisions.end(), compute.precision) == precisions.end())
    throw InputError(optionMessage("--precision", "the CPU backend computes in double only (float: --backend opencl)"));
  const std::vector<std::string> kernels = kernelChoices(compute.backend);
  if (!compute.kernel.empty() && !contains(kernels, compute.kernel))
    throw InputError(optionMessage(
        "--kernel", kernels.empty() ? "kernels belong to the OpenCL backend (--backend opencl)"
                                    : "unknown kernel '" + compute.kernel + "' (" + listed(kernels) + ")"));
}

std::unique_ptr<Backend> makeBackend(const ComputeSettings& compute) {
  validateComputeSettings(compute);
  if (compute.backend == BackendKind::Cpu) return std::make_unique<CpuBackend>(compute.threads);
  if (compute.backend == BackendKind::OpenCl) {
#ifdef GB_HAVE_OPENCL
    if (!compute.devices.empty()) return ocl::makeShardedOpenClBackend(compute);
    return std::make_unique<OpenClBackend>(compute);
#else
    throw InputError(optionMessage("--backend opencl",
                                   "this build has no OpenCL support (built with "
                                   "GB_WITH_OPENCL=OFF); the CPU backend (--backend cpu) works"));
#endif
  }
  throw InputError(optionMessage("--backend", "unknown backend"));
}

}  // namespace gb

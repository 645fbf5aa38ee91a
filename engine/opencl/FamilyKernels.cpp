#include "opencl/FamilyKernels.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "opencl/KernelArgs.hpp"

namespace gb::ocl {

namespace {

std::string options(DeviceFamily family, bool doublePrecision) {
  return std::string(doublePrecision ? "-DREAL=double -DGB_DOUBLE=1" : "-DREAL=float") +
         " -DFAMILY=" + std::to_string(static_cast<int>(family)) + " -DGROUP=" + std::to_string(FamilyKernels::kGroup);
}

cl_event* next(std::vector<cl_event>* events) {
  if (!events) return nullptr;
  events->push_back(nullptr);
  return &events->back();
}

}  // namespace

cl_uint FamilyGradientArgs::bind(Kernel& kernel, bool doublePrecision) const {
  return bindArgs(kernel, n, y, f, w, RealArg{param, doublePrecision}, wu);
}

cl_uint FamilyRiskArgs::bind(Kernel& kernel, bool doublePrecision) const {
  return bindArgs(kernel, n, y, f, w, RealArg{param, doublePrecision}, partials);
}

cl_uint FamilyGradientRiskArgs::bind(Kernel& kernel, bool doublePrecision) const {
  return bindArgs(kernel, n, y, f, w, RealArg{param, doublePrecision}, wu, partials);
}

FamilyKernels::FamilyKernels(Context& ctx, DeviceFamily family, bool doublePrecision)
    : ctx_(&ctx),
      double_(doublePrecision),
      gradient_(ctx.kernel("family", "family_gradient", options(family, doublePrecision))),
      risk_(ctx.kernel("family", "family_risk", options(family, doublePrecision))),
      gradientRisk_(ctx.kernel("family", "family_gradient_risk", options(family, doublePrecision))) {}

double FamilyKernels::riskConstant(DeviceFamily family, const std::vector<double>& y, const std::vector<double>& w) {
  if (family != DeviceFamily::Poisson) return 0.0;
  double sum = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) sum += w[i] * std::lgamma(y[i] + 1.0);
  return sum;
}

std::size_t FamilyKernels::riskGroups(std::size_t n) {
  return std::clamp<std::size_t>((n + kGroup - 1) / kGroup, 1, kMaxGroups);
}

void FamilyKernels::gradient(std::size_t n, const Buffer& y, const Buffer& f, const Buffer& w, double param, Buffer& wu,
                             std::vector<cl_event>* events) {
  FamilyGradientArgs{n, y.get(), f.get(), w.get(), param, wu.get()}.bind(gradient_, double_);
  const std::size_t local = 256;
  gradient_.launch(*ctx_, {(n + local - 1) / local * local}, {local}, next(events));
}

void FamilyKernels::risk(std::size_t n, const Buffer& y, const Buffer& f, const Buffer& w, double param,
                         Buffer& partials, std::vector<cl_event>* events) {
  FamilyRiskArgs{n, y.get(), f.get(), w.get(), param, partials.get()}.bind(risk_, double_);
  risk_.launch(*ctx_, {riskGroups(n) * kGroup}, {kGroup}, next(events));
}

void FamilyKernels::gradientAndRisk(std::size_t n, const Buffer& y, const Buffer& f, const Buffer& w, double param,
                                    Buffer& wu, Buffer& partials, std::vector<cl_event>* events) {
  FamilyGradientRiskArgs{n, y.get(), f.get(), w.get(), param, wu.get(), partials.get()}.bind(gradientRisk_, double_);
  gradientRisk_.launch(*ctx_, {riskGroups(n) * kGroup}, {kGroup}, next(events));
}

}  // namespace gb::ocl

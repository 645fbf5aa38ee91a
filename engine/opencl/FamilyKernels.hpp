#pragma once
// The loss families on the device (kernels/family.cl): the weighted negative gradient w * u that the learners are
// fitted to, and the weighted risk sum(w * loss) as fixed-order partial sums. Used by the OpenCL backend for the
// families without a cross-product shortcut (everything but unweighted Gaussian).
#include <cstddef>
#include <vector>

#include "family/FamilyFunctions.hpp"
#include "opencl/ClRuntime.hpp"

namespace gb::ocl {

// kernels/family.cl's FAMILY codes, in the same order.
enum class DeviceFamily {
  Gaussian = 0,
  Binomial = 1,
  Poisson = 2,
  Laplace = 3,
  Huber = 4,
  Quantile = 5,
  Expectile = 6,
  AdaExp = 7,
  Gamma = 8,   // the kernels' loss is the shape-free term y exp(-f) - log y + f (GradientPath adds the rest)
  Probit = 9,  // the binomial with R's glm links (mboost's Binomial(link = ...))
  Cloglog = 10,
  Cauchit = 11,
  NegBin = 12  // NBinomial at size param, its f-free terms left to the host (family/NegBinomial.hpp, NegBinCounts)
};

// The engine's family as the kernels' code (the same order as gb::Family up to gamma; the binomial's glm links after
// them, then negbin), and the kernels' `param`: Huber's delta, the quantile's or the expectile's tau, gamma's shape or
// negbin's size, else 0.
inline DeviceFamily deviceFamily(const FamilyFunctions& f) {
  if (f.glmLink())
    return static_cast<DeviceFamily>(static_cast<int>(DeviceFamily::Probit) + static_cast<int>(f.link) -
                                     static_cast<int>(BinomialLink::Probit));
  if (f.family == Family::NegBin) return DeviceFamily::NegBin;
  return static_cast<DeviceFamily>(static_cast<int>(f.family));
}
inline double familyParameter(const FamilyFunctions& f) {
  if (f.family == Family::Huber) return f.delta;
  if (hasNuisance(f.family)) return f.sigma;
  return f.family == Family::Quantile || f.family == Family::Expectile ? f.tau : 0.0;
}

// family_gradient(n, y, f, w, param, wu): one struct mirrors the parameter list, bound in one call.
struct FamilyGradientArgs {
  cl_ulong n = 0;
  cl_mem y = nullptr, f = nullptr, w = nullptr;
  double param = 0.0;  // Huber's delta or the quantile's tau, passed as the program's REAL
  cl_mem wu = nullptr;
  cl_uint bind(Kernel& kernel, bool doublePrecision) const;
};

// family_risk(n, y, f, w, param, partials).
struct FamilyRiskArgs {
  cl_ulong n = 0;
  cl_mem y = nullptr, f = nullptr, w = nullptr;
  double param = 0.0;
  cl_mem partials = nullptr;
  cl_uint bind(Kernel& kernel, bool doublePrecision) const;
};

// family_gradient_risk(n, y, f, w, param, wu, partials).
struct FamilyGradientRiskArgs {
  cl_ulong n = 0;
  cl_mem y = nullptr, f = nullptr, w = nullptr;
  double param = 0.0;
  cl_mem wu = nullptr, partials = nullptr;
  cl_uint bind(Kernel& kernel, bool doublePrecision) const;
};

class FamilyKernels {
 public:
  static constexpr std::size_t kGroup = 256;       // work-items per group of family_risk (its reqd_work_group_size)
  static constexpr std::size_t kMaxGroups = 1024;  // partial sums of family_risk at most

  FamilyKernels(Context& ctx, DeviceFamily family, bool doublePrecision);

  // wu = w * negative gradient at f (n rows). Appends the launch's event to `events` if given.
  void gradient(std::size_t n, const Buffer& y, const Buffer& f, const Buffer& w, double param, Buffer& wu,
                std::vector<cl_event>* events = nullptr);
  // Partial sums of w * loss into `partials` (riskGroups(n) REALs); their sum is the weighted risk.
  void risk(std::size_t n, const Buffer& y, const Buffer& f, const Buffer& w, double param, Buffer& partials,
            std::vector<cl_event>* events = nullptr);
  // Both in one pass: wu at f and the partial sums of w * loss at f.
  void gradientAndRisk(std::size_t n, const Buffer& y, const Buffer& f, const Buffer& w, double param, Buffer& wu,
                       Buffer& partials, std::vector<cl_event>* events = nullptr);
  static std::size_t riskGroups(std::size_t n);
  // What the host adds to the partials' sum: sum(w lgamma(y + 1)) for poisson (kernels/family.cl leaves it out), 0
  // for the others (negbin's f-free terms depend on its size: NegBinCounts). In double, from the host's y and w.
  static double riskConstant(DeviceFamily family, const std::vector<double>& y, const std::vector<double>& w);

 private:
  Context* ctx_;
  bool double_;
  Kernel gradient_, risk_, gradientRisk_;
};

}  // namespace gb::ocl

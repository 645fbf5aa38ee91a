#include "opencl/OpenClBackend.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/Text.hpp"
#include "compute/CpuBackend.hpp"
#include "opencl/ClRuntime.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/DenseGemv.hpp"
#include "opencl/DeviceProblem.hpp"
#include "opencl/FoldPath.hpp"
#include "opencl/GradientPath.hpp"
#include "opencl/IterationScheme.hpp"
#include "opencl/ResponseShift.hpp"
#include "opencl/Tuning.hpp"

namespace gb {

namespace ocl {

std::vector<std::string> openClKernelNames() {
  std::vector<std::string> names = compactKernelNames();
  for (const std::string& d : denseKernelNames()) names.push_back(d);
  return names;
}

std::string resolveKernelName(const std::string& name) {
  if (name.empty()) return "compact_x";
  const std::vector<std::string> names = openClKernelNames();
  if (std::find(names.begin(), names.end(), name) != names.end()) return name;
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw InputError(optionMessage("--kernel", "unknown kernel '" + name + "' (" + list + ")"));
}

bool resolveDoublePrecision(const std::string& precision, const ComputeDeviceInfo& device) {
  if (precision.empty() || precision == "float") return false;
  if (precision != "double")
    throw InputError(optionMessage("--precision", "must be 'double' or 'float' (got '" + precision + "')"));
  if (!device.fp64)
    throw InputError(
        optionMessage("--precision double", "device " + device.name + " has no cl_khr_fp64 (use --precision float)"));
  return true;
}

void checkFloatRange(const std::vector<double>& y) {
  double largest = 0.0;
  for (double v : y) largest = std::max(largest, std::abs(v));
  const double n = static_cast<double>(y.size());
  std::ostringstream why;
  why.precision(3);
  if (largest > 1e18)
    why << "the response reaches |y| = " << largest << " (above 1e18)";
  else if (largest > 0.0 && largest < 1e-18)  // y^2 and the risk's sums fall below float's smallest normal, 1.2e-38
    why << "the response's largest |y| is " << largest << " (below 1e-18: float's squares of it vanish)";
  else if (n * largest * largest > FLT_MAX / 4)
    why << "n * max(y^2) = " << n * largest * largest << " would overflow float sums (limit " << FLT_MAX / 4 << ")";
  else
    return;
  throw InputError(optionMessage("--precision float", why.str() + "; use --precision double (or rescale y)"));
}

void checkFloatRange(const std::vector<Learner>& learners, const std::vector<double>* weights) {
  // The kernels locate a row from x in float: (x - lo) / spacing, with x held less floatCovariateShift() (the range's
  // lower end where it does not reach 0), so that float's steps are those of x - c. Below 1e-30 the values are at or
  // near float's subnormals (x in [1e-302, 1e-300] became 0 and the risk NaN); where float's steps are too coarse to
  // place rows within a knot interval the fit is refused. At least kFloatStepsPerInterval float values per interval
  // (counted with float's step at the largest |x - c|, which is up to twice the true one): u to within 1/128. Before
  // the shift, seconds since 1970 (1.7e9, a step of 128 s) over a day held 20 and were refused; x - c holds about
  // 8e6 / intervals in any range that does not cross 0, and a range across 0 is at least as wide as its values.
  constexpr double kFloatStepsPerInterval = 64.0;
  for (const Learner& l : learners) {
    if (!l.isSpline()) continue;
    const double lo = l.basis.lo(), hi = l.basis.hi();
    // The device holds x less floatCovariateShift() (CompactKernels.hpp): float's steps are those of x - c.
    const double c = floatCovariateShift(l.basis);
    const double largest = std::max(std::abs(lo - c), std::abs(hi - c));
    const std::string who = "covariate " + quotedForMessage(l.name);
    if (!(largest <= FLT_MAX))
      throw InputError(optionMessage("--precision float",
                                     who + " reaches |x| = " + formatNumber(std::max(std::abs(lo), std::abs(hi)), 3) +
                                         ", beyond float's range (3.4e38); use --precision double "
                                         "(or rescale it)"));
    if (largest < 1e-30)
      throw InputError(optionMessage(
          "--precision float", who + " stays within |x| <= " + formatNumber(std::max(std::abs(lo), std::abs(hi)), 3) +
                                   ", at float's smallest values (1.2e-38); use "
                                   "--precision double (or rescale it)"));
    const double steps = (hi - lo) / (largest * FLT_EPSILON) / l.basis.numIntervals();
    if (steps < kFloatStepsPerInterval)
      throw InputError(optionMessage("--precision float",
                                     who + " spans [" + formatNumber(lo, 10) + ", " + formatNumber(hi, 10) +
                                         "], narrow for values of its size: float holds only about " +
                                         formatNumber(steps, 3) + " distinct values in each of its " +
                                         std::to_string(l.basis.numIntervals()) +
                                         " knot intervals; use --precision double (or subtract a constant from it)"));
  }
  double largest = 0.0;
  if (weights)
    for (double w : *weights) largest = std::max(largest, w);
  if (!(largest <= FLT_MAX / 4))
    throw InputError(optionMessage("--precision float", "a weight reaches " + formatNumber(largest, 3) +
                                                            ", beyond what float sums hold; use --precision double "
                                                            "(or rescale the weights)"));
}

void checkDenseFits(const std::string& kernel, std::uint64_t bytes, std::uint64_t otherBytes,
                    const ComputeDeviceInfo& device) {
  const bool overAllocation = device.maxAllocationBytes && bytes > device.maxAllocationBytes;
  const bool overMemory = device.globalMemoryBytes && bytes + otherBytes > device.globalMemoryBytes;
  if (!overAllocation && !overMemory) return;
  auto gb = [](std::uint64_t b) {
    std::ostringstream s;
    s.precision(3);
    s << static_cast<double>(b) / 1e9 << " GB";
    return s.str();
  };
  throw InputError(optionMessage("--kernel " + kernel,
                                 "dense B needs " + gb(bytes) + " (" + std::to_string(bytes) + " bytes), device " +
                                     device.name + " has " + gb(device.globalMemoryBytes) + " (max allocation " +
                                     gb(device.maxAllocationBytes) + "); use --kernel compact_x"));
}

}  // namespace ocl

using namespace ocl;

struct OpenClBackend::State {
  ComputeSettings compute;
  Device device;
  std::string kernelName;
  bool isDouble = false;
  bool forceGpuKernels = false;  // tests: the GPU variants on any device
  std::unique_ptr<Context> ctx;
  OpenClTuning tuning;  // the environment's experiment switches, validated once
  std::unique_ptr<DeviceProblem> problem;
  std::unique_ptr<IterationScheme> scheme;
  std::unique_ptr<GradientPath> gradient;  // for the models without the residual shortcut
  // A model without a spline learner: its linear and factor learners' sums are one pass over a column each, with
  // nothing for the device's B'g to do (the device path carries them beside a spline's data), so the CPU backend
  // runs it.
  std::unique_ptr<CpuBackend> host;
  ResponseShift shift;                                     // float: y - c on the device (ResponseShift.hpp)
  std::vector<std::unique_ptr<ResponseShift>> foldShifts;  // one a fold batch, alive as long as the backend
  bool prepared = false;
};

OpenClBackend::OpenClBackend(const ComputeSettings& compute) : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.compute = compute;
  s.kernelName = resolveKernelName(compute.kernel);
  s.device = chooseDevice(compute.device);
  s.isDouble = resolveDoublePrecision(toString(compute.precision), s.device.info);
  s.ctx = std::make_unique<Context>(s.device);
  // Benchmarks compare with and without the cache through the CLI: GAMBOOST_OPENCL_REFRESH=0 turns it off.
  s.tuning = openClTuningFromEnvironment();
  if (s.tuning.refreshInterval >= 0) policy_.refreshInterval = s.tuning.refreshInterval;
  s.forceGpuKernels = s.tuning.gpuKernels;
}

OpenClBackend::~OpenClBackend() = default;

BackendInfo OpenClBackend::info() const {
  if (s_->host)
    return BackendInfo{"opencl",
                       s_->device.info.name,
                       "host",
                       "double",
                       s_->tuning.describe(),
                       "host (no spline learner: the linear and factor learners run on the CPU in double)"};
  return BackendInfo{"opencl",
                     s_->device.info.name,
                     s_->kernelName,
                     s_->isDouble ? "double" : "float",
                     s_->tuning.describe(),
                     s_->gradient ? std::string("gradient") : (s_->scheme ? s_->scheme->name() : std::string())};
}

void OpenClBackend::prepare(const BoostProblem& problem) {
  State& s = *s_;
  requireCompleteProblem(problem, "opencl backend");
  s.prepared = false;
  s.scheme.reset();
  s.gradient.reset();
  s.host.reset();
  s.problem.reset();
  if (std::none_of(problem.learners->begin(), problem.learners->end(), [](const Learner& l) { return l.isSpline(); })) {
    s.host = std::make_unique<CpuBackend>(s.compute.threads);
    s.host->prepare(problem);
    s.prepared = true;
    return;
  }
  const BoostProblem device = s.shift.apply(problem, s.isDouble);
  if (problem.gradientEachIteration()) {
    s.gradient = std::make_unique<GradientPath>(*s.ctx, device,
                                                DeviceProblemOptions{s.kernelName, s.isDouble, s.forceGpuKernels});
    s.prepared = true;
    return;
  }
  s.problem = std::make_unique<DeviceProblem>(*s.ctx, device,
                                              DeviceProblemOptions{s.kernelName, s.isDouble, s.forceGpuKernels});
  s.scheme = chooseScheme(*s.problem, policy_);
  s.ctx->finish();
  s.prepared = true;
}

void OpenClBackend::iterate(int count, std::vector<IterationResult>& out) {
  State& s = *s_;
  if (!s.prepared) throw ComputeError("opencl backend: iterate() before prepare()");
  if (count <= 0) return;
  if (s.host) return s.host->iterate(count, out);
  if (s.gradient) {
    s.gradient->iterate(count, out);
    return;
  }
  s.problem->ensureHistory(static_cast<std::size_t>(count));
  // The selected learner stays on the device, the records in its history: nothing comes back within the batch but
  // fused-tracked's one flag an iteration (whether an untracked learner might win).
  for (int it = 0; it < count; ++it) s.scheme->iteration(it);
  s.scheme->finish(count - 1);
  for (IterationResult& r : s.problem->readRecords(count)) out.push_back(std::move(r));
}

std::vector<double> OpenClBackend::fitted() {
  if (!s_->prepared) throw ComputeError("opencl backend: fitted() before prepare()");
  if (s_->host) return s_->host->fitted();
  return s_->shift.restore(s_->gradient ? s_->gradient->fitted() : s_->problem->fitted());
}

bool OpenClBackend::usesCrossCache() const { return s_->scheme && s_->scheme->usesCrossCache(); }
long OpenClBackend::forcedExactPasses() const { return s_->scheme ? s_->scheme->forcedPasses() : 0; }
bool OpenClBackend::coversEveryLearner() const { return s_->scheme && s_->scheme->coversEveryLearner(); }

std::size_t OpenClBackend::foldBatchSize() const { return static_cast<std::size_t>(kMaxFolds); }

std::unique_ptr<FoldBatch> OpenClBackend::prepareFolds(const std::vector<BoostProblem>& folds) {
  State& s = *s_;
  if (!FoldPath::supports(folds)) return nullptr;
  s.foldShifts.push_back(std::make_unique<ResponseShift>());
  return std::make_unique<FoldPath>(*s.ctx, s.foldShifts.back()->apply(folds, s.isDouble),
                                    DeviceProblemOptions{s.kernelName, s.isDouble, s.forceGpuKernels}, s.tuning.fold);
}

void OpenClBackend::setForceGpuKernels(bool force) { s_->forceGpuKernels = force; }

CandidateScores OpenClBackend::candidates() {
  State& s = *s_;
  if (!s.prepared) throw ComputeError("opencl backend: candidates() before prepare()");
  if (s.host) return s.host->candidates();
  if (s.gradient) return s.gradient->candidates();
  s.scheme->exactScore();  // exact c for the current g: any pending correction is void
  CandidateScores scores;
  DeviceProblem& p = *s.problem;
  scores.residualSumOfSquares = p.download(p.residualSquares, 1)[0];
  scores.rss = p.download(p.reduction, static_cast<std::size_t>(p.L));
  for (double& r : scores.rss) r = scores.residualSumOfSquares - r;
  return scores;
}

}  // namespace gb

#include "opencl/OpenClShard.hpp"

#include <algorithm>
#include <chrono>

#include "common/Error.hpp"
#include "opencl/DeviceAddress.hpp"
#include "opencl/IterationScheme.hpp"
#include "opencl/KernelArgs.hpp"
#include "opencl/OpenClBackend.hpp"
#include "opencl/ResponseShift.hpp"
#include "opencl/Tuning.hpp"

namespace gb::ocl {

struct OpenClShard::State {
  struct OlsLearner {
    const Learner* learner = nullptr;
    Buffer values;  // x (REAL) for a linear learner, level codes (int) for a factor
  };

  Device device;
  std::string kernelName;
  bool isDouble = false;
  bool forceGpuKernels = false;
  std::unique_ptr<Context> ctx;
  BoostProblem problem;          // the slice (its vectors are gone after prepare: only scalars and learners used)
  std::vector<Learner> splines;  // the spline learners, for the device problem (they come first in the fit)
  ResponseShift shift;           // float: y - c on the device; every shard's c is the whole fit's offset
  std::unique_ptr<DeviceProblem> device_;
  std::unique_ptr<FamilyKernels> family;
  std::unique_ptr<OlsKernels> olsKernels;
  std::vector<OlsLearner> ols;
  Buffer weights, riskWeights, riskPartials, olsPartials;
  double param = 0.0, riskConstant = 0.0;
  // The last step's values, kept until the queue has written them (addStep queues the writes without waiting).
  cl_int stepIndex = 0;
  bool stepPending = false;  // until a blocking call on the queue
  std::vector<double> stepValues;
  std::vector<float> stepFloats;
  double transferSeconds = 0.0;
  // Unweighted Gaussian: the loss (y - f)^2 is g^2, whose partial sums the compact update writes; valid after a
  // spline step (a linear or factor step does not write them).
  bool lossFromUpdate = false, updatePartialsCurrent = false;

  // Runs copy() after the device has finished its queue, adding its seconds to transferSeconds.
  template <typename Copy>
  auto timedTransfer(Copy copy) {
    ctx->finish();
    const auto start = std::chrono::steady_clock::now();
    auto result = copy();
    stepPending = false;
    transferSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }
  // B_j'B_l in one pass on GPU devices (opencl/CrossFill.hpp into a one-slot cache).
  std::unique_ptr<CrossFill> crossFill;
  Buffer crossState, crossBlock;

  void prepareCrossFill() {
    crossFill.reset();
    if (!p().params.gpu || p().isDense || !crossBlockFits(p().spec, isDouble)) return;
    const std::size_t k = static_cast<std::size_t>(p().k);
    const std::size_t blockBytes = static_cast<std::size_t>(p().L) * k * k * p().realBytes();
    crossFill = std::make_unique<CrossFill>(p(), blockBytes);
    const cl_int slot = 0;
    crossState = Buffer(*ctx, sizeof(cl_int));
    crossState.write(*ctx, &slot, sizeof(slot));
    crossBlock = Buffer(*ctx, blockBytes);
  }

  std::vector<double> deviceCrossProducts(int learner) {
    DeviceProblem& q = p();
    const std::size_t k = static_cast<std::size_t>(q.k), values = static_cast<std::size_t>(q.L) * k * k;
    const double zero = 0.0;
    const float zeroF = 0.0f;
    if (isDouble)
      crossBlock.fill(*ctx, &zero, sizeof zero);
    else
      crossBlock.fill(*ctx, &zeroF, sizeof zeroF);
    const cl_int index = learner;
    q.index.write(*ctx, &index, sizeof(index));
    crossFill->launch(crossState, crossBlock);
    return q.download(crossBlock, values);  // block j, row a, entry b: (B_j'B_l)_ab, as crossProducts() lays out
  }

  DeviceProblem& p() { return *device_; }

  void uploadOls(const BoostProblem& slice) {
    int maxLevels = 2;
    ols.clear();
    for (std::size_t j = splines.size(); j < slice.learners->size(); ++j) {
      const Learner& l = (*slice.learners)[j];
      OlsLearner o;
      o.learner = &l;
      const std::vector<double>& x = *slice.covariates[j];
      if (l.type == LearnerType::Linear) {
        o.values = p().upload(x);
      } else {
        std::vector<cl_int> codes(x.begin(), x.end());
        o.values = Buffer(*ctx, codes.size() * sizeof(cl_int));
        o.values.write(*ctx, codes.data(), codes.size() * sizeof(cl_int));
        maxLevels = std::max(maxLevels, l.numColumns());
      }
      ols.push_back(std::move(o));
    }
    olsPartials = Buffer(*ctx, olsKernels->chunks() * static_cast<std::size_t>(maxLevels) * p().realBytes());
  }

  void appendOlsCoefficients(std::vector<double>& c) {
    for (const OlsLearner& o : ols) {
      const Learner& l = *o.learner;
      if (l.type == LearnerType::Linear) {
        const std::vector<double> sums = olsKernels->linearSums(o.values, p().g, olsPartials);
        c.insert(c.end(), sums.begin(), sums.begin() + 2);
        continue;
      }
      const std::vector<double> sums = olsKernels->levelSums(o.values, l.numColumns(), p().g, olsPartials);
      double total = 0.0;
      for (double s : sums) total += s;
      c.push_back(total);
      c.insert(c.end(), sums.begin() + 1, sums.begin() + l.numColumns());
    }
  }

  void addOlsStep(const OlsLearner& o, const std::vector<double>& delta) {
    const double nu = problem.nu;
    if (o.learner->type == LearnerType::Linear) {
      olsKernels->linearUpdate(o.values, nu * delta[0], nu * delta[1], p().mu);
      return;
    }
    std::vector<double> level(delta.size());
    level[0] = nu * delta[0];
    for (std::size_t a = 1; a < delta.size(); ++a) level[a] = nu * delta[0] + nu * delta[a];
    const Buffer values = p().upload(level);
    olsKernels->levelUpdate(o.values, values, p().mu);
    ctx->finish();  // `values` is released at the end of this scope
  }
};

OpenClShard::OpenClShard(const Device& device, const std::string& kernelName, bool isDouble, bool forceGpuKernels)
    : s_(std::make_unique<State>()) {
  s_->device = device;
  s_->kernelName = kernelName;
  s_->isDouble = isDouble;
  s_->forceGpuKernels = forceGpuKernels;
  s_->ctx = std::make_unique<Context>(device);
}

OpenClShard::~OpenClShard() = default;

BackendInfo OpenClShard::info() const {
  const std::string name =
      s_->device.info.address.empty() ? s_->device.info.name : s_->device.info.address + " " + s_->device.info.name;
  const std::string scheme = s_->crossFill ? "shard, " + s_->crossFill->label() : "shard";
  return BackendInfo{"opencl", name, s_->kernelName, s_->isDouble ? "double" : "float", "", scheme};
}

void OpenClShard::prepare(const BoostProblem& unshifted) {
  State& s = *s_;
  requireCompleteProblem(unshifted, "opencl shard");
  const BoostProblem slice = s.shift.apply(unshifted, s.isDouble);
  s.problem = slice;
  s.splines.clear();
  for (const Learner& l : *slice.learners)
    if (l.isSpline()) s.splines.push_back(l);
  if (s.splines.empty())
    throw InputError(optionMessage("--devices", "the sharded backend needs at least one spline learner"));
  BoostProblem splineProblem = slice;
  splineProblem.learners = &s.splines;
  splineProblem.covariates.resize(s.splines.size());
  if (!splineProblem.covariateRows.empty()) splineProblem.covariateRows.resize(s.splines.size());
  s.device_ = std::make_unique<DeviceProblem>(*s.ctx, splineProblem,
                                              DeviceProblemOptions{s.kernelName, s.isDouble, s.forceGpuKernels});
  s.family = std::make_unique<FamilyKernels>(*s.ctx, deviceFamily(slice.family), s.isDouble);
  s.olsKernels = std::make_unique<OlsKernels>(*s.ctx, s.isDouble, slice.rows);
  const std::vector<double> ones(slice.rows, 1.0);
  const std::vector<double>& w = slice.weights ? *slice.weights : ones;
  s.weights = s.p().upload(w);
  const std::vector<double>& v = slice.oobWeights ? *slice.oobWeights : w;
  s.riskWeights = s.p().upload(v);
  s.param = familyParameter(slice.family);
  s.riskConstant = FamilyKernels::riskConstant(deviceFamily(slice.family), *slice.response, v);
  s.riskPartials = Buffer(*s.ctx, FamilyKernels::riskGroups(slice.rows) * s.p().realBytes());
  s.uploadOls(slice);
  s.prepareCrossFill();
  s.lossFromUpdate = slice.family.family == Family::Gaussian && !slice.weights && !slice.oobWeights;
  s.updatePartialsCurrent = false;
  s.ctx->finish();
  s.problem.response = nullptr;  // the slice's vectors may be freed now
  s.problem.weights = s.problem.oobWeights = nullptr;
  s.problem.covariates.clear();
  s.problem.covariateRows.clear();
}

std::size_t OpenClShard::maxRows(const BoostProblem& problem) const {
  const std::uint64_t limit = s_->device.info.maxAllocationBytes;
  std::size_t splines = 0;
  for (const Learner& l : *problem.learners) splines += l.isSpline() ? 1 : 0;
  if (limit == 0 || splines == 0) return RowShard::maxRows(problem);
  const std::uint64_t perRow = splines * (s_->isDouble ? 8u : 4u);
  return static_cast<std::size_t>(std::max<std::uint64_t>(1, (limit - limit / 16) / perRow));
}

std::unique_ptr<RowShard> OpenClShard::sibling() const {
  return std::make_unique<OpenClShard>(s_->device, s_->kernelName, s_->isDouble, s_->forceGpuKernels);
}

std::vector<double> OpenClShard::coefficients() {
  DeviceProblem& p = s_->p();
  s_->family->gradient(p.n, p.y, p.mu, s_->weights, s_->param, p.g);
  p.score();  // c = B'(w u) (and the device's own delta and r, unused)
  std::vector<double> c =
      s_->timedTransfer([&] { return p.download(p.c, static_cast<std::size_t>(p.L) * static_cast<std::size_t>(p.k)); });
  s_->appendOlsCoefficients(c);
  return c;
}

void OpenClShard::addStep(int learner, const std::vector<double>& delta) {
  State& s = *s_;
  DeviceProblem& p = s.p();
  s.updatePartialsCurrent = learner < p.L;
  if (learner >= p.L) return s.addOlsStep(s.ols.at(static_cast<std::size_t>(learner - p.L)), delta);
  if (delta.size() != static_cast<std::size_t>(p.k)) throw ComputeError("opencl shard: step of the wrong size");
  // Queued without waiting (the step's values stay in the shard until lossSum's blocking read, after which the
  // in-order queue has done the writes and the update): one round trip an iteration, not three.
  if (s.stepPending) s.ctx->finish();  // a second step before any blocking call: the first one's values are read
  s.stepPending = true;
  s.stepIndex = learner;
  s.stepValues.assign(delta.begin(), delta.end());
  const std::size_t rowBytes = delta.size() * p.realBytes(), offset = static_cast<std::size_t>(learner) * rowBytes;
  if (s.isDouble) {
    p.delta.enqueueWrite(*s.ctx, s.stepValues.data(), rowBytes, offset);
  } else {
    s.stepFloats.assign(delta.begin(), delta.end());
    p.delta.enqueueWrite(*s.ctx, s.stepFloats.data(), rowBytes, offset);
  }
  p.index.enqueueWrite(*s.ctx, &s.stepIndex, sizeof(s.stepIndex));
  p.update();  // f += nu B_l delta_l (and g = y - f, replaced by the next gradient)
}

double OpenClShard::lossSum() {
  DeviceProblem& p = s_->p();
  if (s_->lossFromUpdate && s_->updatePartialsCurrent) {
    const std::vector<double> squares = s_->timedTransfer([&] { return p.download(p.partials, p.partialCount); });
    double sum = 0.0;
    for (double v : squares) sum += v;
    return sum;
  }
  s_->family->risk(p.n, p.y, p.mu, s_->riskWeights, s_->param, s_->riskPartials);
  const std::vector<double> partials =
      s_->timedTransfer([&] { return p.download(s_->riskPartials, FamilyKernels::riskGroups(p.n)); });
  double sum = s_->riskConstant;
  for (double v : partials) sum += v;
  return sum;
}

std::vector<double> OpenClShard::stepsAndLosses(const std::vector<Step>& steps) {
  State& s = *s_;
  DeviceProblem& p = s.p();
  const std::size_t k = static_cast<std::size_t>(p.k), parts = p.partialCount, count = steps.size();
  bool queued = s.lossFromUpdate;
  for (const Step& step : steps) queued = queued && step.learner >= 0 && step.learner < p.L && step.delta.size() == k;
  if (!queued) return RowShard::stepsAndLosses(steps);
  if (s.stepPending) s.ctx->finish();
  // Host memory for every step's values and loss partials, alive until the finish below.
  std::vector<cl_int> index(count);
  std::vector<double> valuesD, partialsD;
  std::vector<float> valuesF, partialsF;
  if (s.isDouble) {
    valuesD.resize(count * k);
    partialsD.resize(count * parts);
  } else {
    valuesF.resize(count * k);
    partialsF.resize(count * parts);
  }
  const std::size_t rowBytes = k * p.realBytes(), partBytes = parts * p.realBytes();
  for (std::size_t i = 0; i < count; ++i) {
    index[i] = steps[i].learner;
    void* values = s.isDouble ? static_cast<void*>(valuesD.data() + i * k) : static_cast<void*>(valuesF.data() + i * k);
    for (std::size_t a = 0; a < k; ++a) {
      if (s.isDouble)
        valuesD[i * k + a] = steps[i].delta[a];
      else
        valuesF[i * k + a] = static_cast<float>(steps[i].delta[a]);
    }
    p.delta.enqueueWrite(*s.ctx, values, rowBytes, static_cast<std::size_t>(steps[i].learner) * rowBytes);
    p.index.enqueueWrite(*s.ctx, &index[i], sizeof(cl_int));
    p.update();
    void* partials = s.isDouble ? static_cast<void*>(partialsD.data() + i * parts)
                                : static_cast<void*>(partialsF.data() + i * parts);
    p.partials.enqueueRead(*s.ctx, partials, partBytes);
  }
  s.ctx->finish();
  s.stepPending = false;
  s.updatePartialsCurrent = true;
  // Each step's sum as lossSum forms it: its partials in order, in double.
  std::vector<double> losses(count, 0.0);
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t b = 0; b < parts; ++b)
      losses[i] += s.isDouble ? partialsD[i * parts + b] : static_cast<double>(partialsF[i * parts + b]);
  return losses;
}

std::vector<double> OpenClShard::crossProducts(int learner) {
  State& s = *s_;
  DeviceProblem& p = s.p();
  if (learner < 0 || learner >= p.L) throw ComputeError("opencl shard: cross-products of a spline learner only");
  if (!s.crossFill) throw ComputeError("opencl shard: no one-pass cross-product fill on this device");
  return s.deviceCrossProducts(learner);
}

bool OpenClShard::crossProductsInOnePass() const { return s_->crossFill != nullptr; }

double OpenClShard::transferSeconds() const { return s_->transferSeconds; }

std::vector<double> OpenClShard::fitted() { return s_->shift.restore(s_->p().download(s_->p().mu, s_->p().n)); }

}  // namespace gb::ocl

namespace gb::ocl {

std::unique_ptr<ShardedBackend> makeShardedOpenClBackend(const ComputeSettings& compute) {
  if (compute.backend != BackendKind::OpenCl)
    throw InputError(optionMessage("--devices", "the sharded backend runs on OpenCL devices; leave out --backend cpu"));
  const std::string kernel = resolveKernelName(compute.kernel);
  const OpenClTuning tuning = openClTuningFromEnvironment();
  std::vector<std::unique_ptr<RowShard>> shards;
  for (const Device& d : resolveDeviceList(compute.devices))
    shards.push_back(std::make_unique<OpenClShard>(
        d, kernel, resolveDoublePrecision(toString(compute.precision), d.info), tuning.gpuKernels));
  auto backend = std::make_unique<ShardedBackend>(std::move(shards));
  // As the single-device backend: GAMBOOST_OPENCL_REFRESH sets the refresh interval (0: no cache) for benchmarks.
  if (tuning.refreshInterval >= 0) backend->setRefreshInterval(tuning.refreshInterval);
  // GAMBOOST_SHARD_ROWS caps the rows per shard (benchmarks: the cost of pieces taking turns on one device).
  if (tuning.shardRows > 0) backend->setMaxShardRows(static_cast<std::size_t>(tuning.shardRows));
  return backend;
}

}  // namespace gb::ocl

#include "opencl/OpenClBackend.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "common/Error.hpp"
#include "opencl/ClRuntime.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/DenseGemv.hpp"
#include "opencl/KernelParameters.hpp"
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
  else if (n * largest * largest > FLT_MAX / 4)
    why << "n * max(y^2) = " << n * largest * largest << " would overflow float sums (limit " << FLT_MAX / 4 << ")";
  else
    return;
  throw InputError(optionMessage("--precision float", why.str() + "; use --precision double (or rescale y)"));
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

namespace {
// Private memory of one cache-fill work-item (PoCL keeps it on the worker thread's stack): 2 x 13^2 x 4^2 floats
// = 22 KB at 12 knots; more than this (about 45 knots in float, 30 in double, at degree 3) turns the cache off.
constexpr std::size_t kMaxPairMomentBytes = std::size_t(256) << 10;
}  // namespace

struct OpenClBackend::State {
  ComputeSettings compute;
  Device device;
  std::string kernelName;
  bool isDouble = false;
  bool isDense = false;
  DenseKernel denseKind = DenseKernel::Naive;
  std::unique_ptr<Context> ctx;

  std::size_t n = 0;
  int L = 0, k = 0;
  double nu = 0.1;
  std::size_t history = 0;  // records the history buffer holds
  std::unique_ptr<CompactData> data;
  std::unique_ptr<CompactPlan> plan;
  std::unique_ptr<DenseGemvPlan> densePlan;
  Buffer y, mu, g, c, P, Q, delta, reduction, index, partials, residualSquares, records, denseB, f;
  Kernel solve, select, vectorUpdate;
  std::size_t partialCount = 0;
  bool prepared = false;
  bool forceGpuKernels = false;  // tests: the GPU variants on any device
  KernelParameters params;       // set by prepare()

  // CPU devices: learner_solve_select (one launch instead of solve + select) and, with compact_x, the
  // cross-product cache (cache slots of learners x k x k, filled by compact_x_update_cross).
  // GPU devices with a compact kernel: the same cache in four launches (learner_correct_solve,
  // learner_select_claim, the update, compact_x_cross_fill), gpuCached.
  bool fused = false, cached = false, gpuCached = false;
  int refreshInterval = 50;
  OpenClTuning tuning;  // the environment's experiment switches, validated once
  std::size_t cacheBytesLimit = std::size_t(256) << 20;
  int slots = 0;
  Buffer cache, slotOf, slotOwner, cacheState, step;
  Kernel solveSelect, updateCross, correctSolve, selectClaim, crossFill;
  std::size_t fillChunkRows = 0, fillChunks = 0;
  bool cValid = false;    // c tracks g: exactly (cCurrent) or up to the pending correction of the last step
  bool cCurrent = false;  // c == B'g for the current g
  int sinceRefresh = 0;

  std::size_t real() const { return isDouble ? 8 : 4; }
  void setReal(Kernel& kernel, cl_uint i, double v) {
    if (isDouble)
      kernel.arg(i, v);
    else
      kernel.arg(i, static_cast<float>(v));
  }
  Buffer upload(const std::vector<double>& v) {
    Buffer b(*ctx, v.size() * real());
    if (isDouble) {
      b.write(*ctx, v.data(), v.size() * 8);
    } else {
      const std::vector<float> fl(v.begin(), v.end());
      b.write(*ctx, fl.data(), fl.size() * 4);
    }
    return b;
  }
  std::vector<double> download(const Buffer& b, std::size_t count) {
    std::vector<double> out(count);
    if (isDouble) {
      b.read(*ctx, out.data(), count * 8);
    } else {
      std::vector<float> fl(count);
      b.read(*ctx, fl.data(), count * 4);
      out.assign(fl.begin(), fl.end());
    }
    return out;
  }

  // (1) + (2): c = B'g for all learners, then delta_j and r_j.
  void score() {
    if (isDense)
      densePlan->transposed(denseB, g, c);
    else
      plan->transposed(g, c);
    const std::size_t group = static_cast<std::size_t>(params.reduceGroupSize);
    solve.launch(*ctx, {group * static_cast<std::size_t>(L)}, {group});
  }

  // (3) + (5): finishes the risk of `previous` (if >= 0), selects and records `record` (if >= 0).
  void selectAndRecord(int previous, int record) {
    select.arg(10, previous);
    select.arg(11, record);
    const std::size_t group = static_cast<std::size_t>(params.reduceGroupSize);
    select.launch(*ctx, {group}, {group});
  }

  // (4): mu += nu B_j* delta_j*, g = y - mu, partial sums of g'g.
  void update() {
    if (!isDense) {
      plan->update(index, delta, nu, y, mu, g, partials);
      return;
    }
    densePlan->forward(denseB, index, static_cast<std::size_t>(k), delta, f);
    const std::size_t group = static_cast<std::size_t>(params.updateGroupSize);
    vectorUpdate.launch(*ctx, {group * partialCount}, {group});
  }

  // learner_solve_select: finishes `previous`'s risk; with record >= 0 applies the pending correction (if asked),
  // solves, selects, records and claims a cache slot for a newly selected learner.
  void solveSelectAndRecord(int previous, int record, bool applyPending) {
    solveSelect.arg(13, previous);
    solveSelect.arg(14, record);
    solveSelect.arg(15, applyPending ? 1 : 0);
    const std::size_t group = static_cast<std::size_t>(params.reduceGroupSize);
    solveSelect.launch(*ctx, {group}, {group});
  }

  // compact_x_update_cross: the update's groups, then one group per learner filling a newly claimed slot.
  void updateAndFill() {
    const std::size_t group = static_cast<std::size_t>(params.updateGroupSize);
    updateCross.launch(*ctx, {group * (partialCount + static_cast<std::size_t>(L))}, {group});
  }

  // Turns the fused kernels (CPU devices) and the cross-product cache (CPU, compact_x) on when they apply.
  // Cache slots that fit cacheBytesLimit (at most one per learner).
  int slotsThatFit() const {
    const std::size_t column = static_cast<std::size_t>(L) * k * k * real();
    return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(L), cacheBytesLimit / column));
  }

  // Slot table and step buffers of the cross-product cache (slots may be 0: tables of one entry, unused).
  void allocateCache() {
    const std::size_t column = static_cast<std::size_t>(L) * k * k * real();
    cache = Buffer(*ctx, std::max<std::size_t>(1, static_cast<std::size_t>(slots)) * column);
    const std::vector<cl_int> none(static_cast<std::size_t>(L), -1), state{-1, 0};
    slotOf = Buffer(*ctx, none.size() * sizeof(cl_int));
    slotOf.write(*ctx, none.data(), none.size() * sizeof(cl_int));
    slotOwner = Buffer(*ctx, none.size() * sizeof(cl_int));
    slotOwner.write(*ctx, none.data(), none.size() * sizeof(cl_int));
    cacheState = Buffer(*ctx, state.size() * sizeof(cl_int));
    cacheState.write(*ctx, state.data(), state.size() * sizeof(cl_int));
    step = Buffer(*ctx, static_cast<std::size_t>(k) * real());
  }

  // GPU devices: the cache with a fill by many work-groups per learner (compact_x_cross_fill), when the k x k
  // block fits the fill's local memory and at least min(learners, 8) slots fit.
  void prepareGpuCache(const SplineSpec& spec, const std::string& options) {
    slots = slotsThatFit();
    gpuCached =
        params.gpu && !isDense && refreshInterval > 0 && slots >= std::min(L, 8) && crossBlockFits(spec, isDouble);
    if (!gpuCached) {
      slots = 0;
      return;
    }
    allocateCache();
    correctSolve = Kernel(ctx->kernel("learner_select", "learner_correct_solve", options));
    cl_uint a = 0;
    correctSolve.arg(a++, L);
    correctSolve.arg(a++, c);
    correctSolve.arg(a++, P);
    correctSolve.arg(a++, Q);
    correctSolve.arg(a++, delta);
    correctSolve.arg(a++, reduction);
    a++;  // 6: applyPending, per launch
    correctSolve.arg(a++, index);
    correctSolve.arg(a++, slotOf);
    correctSolve.arg(a++, cache);
    correctSolve.arg(a++, step);
    selectClaim = Kernel(ctx->kernel("learner_select", "learner_select_claim", options));
    a = 0;
    selectClaim.arg(a++, L);
    selectClaim.arg(a++, reduction);
    selectClaim.arg(a++, delta);
    setReal(selectClaim, a++, nu);
    selectClaim.arg(a++, index);
    selectClaim.arg(a++, static_cast<int>(partialCount));
    selectClaim.arg(a++, partials);
    setReal(selectClaim, a++, 1.0 / static_cast<double>(n));
    selectClaim.arg(a++, residualSquares);
    a = 12;  // 9: history (ensureHistory), 10-11: per launch
    selectClaim.arg(a++, slots);
    selectClaim.arg(a++, slotOf);
    selectClaim.arg(a++, slotOwner);
    selectClaim.arg(a++, cacheState);
    selectClaim.arg(a++, step);
    selectClaim.arg(a++, cache);
    // Fill groups: chunks no smaller than 4 k^2 rows, so the k x k local block's clearing and its global adds
    // stay small next to the rows' (degree+1)^2 local atomics.
    const std::size_t group = static_cast<std::size_t>(params.btgGroupSize);
    fillChunkRows = std::max(params.btgChunkRows, 4 * static_cast<std::size_t>(k) * k);
    fillChunkRows = (fillChunkRows + group - 1) / group * group;
    fillChunks = (n + fillChunkRows - 1) / fillChunkRows;
    crossFill = Kernel(ctx->kernel("compact_btg", "compact_x_cross_fill", options));
    a = 0;
    crossFill.arg(a++, static_cast<int>(n));
    crossFill.arg(a++, static_cast<int>(fillChunkRows));
    crossFill.arg(a++, L);
    crossFill.arg(a++, index);
    crossFill.arg(a++, cacheState);
    crossFill.arg(a++, data->x());
    crossFill.arg(a++, data->geometry());
    crossFill.arg(a++, data->polynomials());
    crossFill.arg(a++, cache);
  }

  // One GPU iteration with the cache: correction + solve, select + claim, update, fill of a claimed slot.
  void gpuCachedIteration(int it) {
    if (!cValid || sinceRefresh >= refreshInterval) {
      plan->transposed(g, c);
      cValid = cCurrent = true;
      sinceRefresh = 0;
    }
    const std::size_t group = static_cast<std::size_t>(params.reduceGroupSize);
    correctSolve.arg(6, cCurrent ? 0 : 1);
    correctSolve.launch(*ctx, {group * static_cast<std::size_t>(L)}, {group});
    selectClaim.arg(10, it - 1);
    selectClaim.arg(11, it);
    selectClaim.launch(*ctx, {group}, {group});
    plan->update(index, delta, nu, y, mu, g, partials);
    const std::size_t fillGroup = static_cast<std::size_t>(params.btgGroupSize);
    crossFill.launch(*ctx, {fillGroup * static_cast<std::size_t>(L), fillChunks}, {fillGroup, 1});
    cCurrent = false;
    ++sinceRefresh;
  }

  // Turns the fused kernels (CPU devices) and the cross-product cache (CPU, compact_x) on when they apply.
  void prepareFused(const std::string& options, CompactKernel kind) {
    fused = !params.gpu && !isDense && params.reduceGroupSize == 1 && params.updateGroupSize == 1;
    if (!fused) return;
    slots = slotsThatFit();
    // The fill kernel keeps two copies of the pair moments (intervals^2 (degree+1)^2) in private memory.
    const std::size_t q = static_cast<std::size_t>(data->intervals()), w = static_cast<std::size_t>(data->degree()) + 1;
    const bool pairsFit = 2 * q * q * w * w * real() <= kMaxPairMomentBytes;
    cached = kind != CompactKernel::Compact && refreshInterval > 0 && slots >= std::min(L, 8) && pairsFit;
    if (!cached) slots = 0;
    allocateCache();
    solveSelect = Kernel(ctx->kernel("learner_select", "learner_solve_select", options));
    cl_uint a = 0;
    solveSelect.arg(a++, L);
    solveSelect.arg(a++, c);
    solveSelect.arg(a++, P);
    solveSelect.arg(a++, Q);
    solveSelect.arg(a++, delta);
    solveSelect.arg(a++, reduction);
    setReal(solveSelect, a++, nu);
    solveSelect.arg(a++, index);
    solveSelect.arg(a++, static_cast<int>(partialCount));
    solveSelect.arg(a++, partials);
    setReal(solveSelect, a++, 1.0 / static_cast<double>(n));
    solveSelect.arg(a++, residualSquares);
    a = 16;  // 12: history (ensureHistory), 13-15: per launch
    solveSelect.arg(a++, slots);
    solveSelect.arg(a++, cache);
    solveSelect.arg(a++, slotOf);
    solveSelect.arg(a++, slotOwner);
    solveSelect.arg(a++, cacheState);
    solveSelect.arg(a++, step);
    if (!cached) return;
    updateCross = Kernel(ctx->kernel("compact_update", "compact_x_update_cross", options));
    a = 0;
    updateCross.arg(a++, static_cast<int>(n));
    updateCross.arg(a++, static_cast<int>(params.updateGroupRows));
    updateCross.arg(a++, index);
    updateCross.arg(a++, delta);
    setReal(updateCross, a++, nu);
    updateCross.arg(a++, data->x());
    updateCross.arg(a++, data->geometry());
    updateCross.arg(a++, data->polynomials());
    updateCross.arg(a++, y);
    updateCross.arg(a++, mu);
    updateCross.arg(a++, g);
    updateCross.arg(a++, partials);
    updateCross.arg(a++, static_cast<int>(partialCount));
    updateCross.arg(a++, L);
    updateCross.arg(a++, cacheState);
    updateCross.arg(a++, cache);
  }

  void ensureHistory(std::size_t count) {
    if (count <= history) return;
    history = std::max<std::size_t>(count, 64);
    records = Buffer(*ctx, history * static_cast<std::size_t>(k + 2) * real());
    select.arg(9, records);
    if (fused) solveSelect.arg(12, records);
    if (gpuCached) selectClaim.arg(9, records);
  }
};

OpenClBackend::OpenClBackend(const ComputeSettings& compute) : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.compute = compute;
  s.kernelName = resolveKernelName(compute.kernel);
  s.device = chooseDevice(compute.device);
  s.isDouble = resolveDoublePrecision(toString(compute.precision), s.device.info);
  s.isDense = denseKernelFromName(s.kernelName, &s.denseKind);
  s.ctx = std::make_unique<Context>(s.device);
  // Benchmarks compare with and without the cache through the CLI: GAMBOOST_OPENCL_REFRESH=0 turns it off.
  s.tuning = openClTuningFromEnvironment();
  if (s.tuning.refreshInterval >= 0) s.refreshInterval = s.tuning.refreshInterval;
}

OpenClBackend::~OpenClBackend() = default;

BackendInfo OpenClBackend::info() const {
  return BackendInfo{"opencl", s_->device.info.name, s_->kernelName, s_->isDouble ? "double" : "float",
                     s_->tuning.describe()};
}

void OpenClBackend::prepare(const BoostProblem& problem) {
  State& s = *s_;
  if (!problem.response || !problem.learners || problem.covariates.size() != problem.learners->size())
    throw ComputeError("opencl backend: incomplete problem (response, learners and covariates must be set)");
  if (problem.learners->empty()) throw ComputeError("opencl backend: no learners");
  const std::vector<Learner>& learners = *problem.learners;
  s.n = problem.rows;
  s.L = static_cast<int>(learners.size());
  s.k = learners.front().numColumns();
  s.nu = problem.nu;
  const std::vector<double>& y = *problem.response;
  if (y.size() != s.n) throw ComputeError("opencl backend: response size differs from rows");
  if (!s.isDouble) checkFloatRange(y);

  std::vector<const SplineBasis*> bases;
  std::vector<const double*> x;
  for (std::size_t j = 0; j < learners.size(); ++j) {
    if (problem.covariates[j]->size() != s.n)
      throw ComputeError("opencl backend: covariate '" + learners[j].name + "' size differs from rows");
    bases.push_back(&learners[j].basis);
    x.push_back(problem.covariates[j]->data());
  }
  const SplineSpec& spec = learners.front().basis.spec();
  const std::size_t L = static_cast<std::size_t>(s.L), k = static_cast<std::size_t>(s.k);
  if (s.isDense) {
    // Check before anything is allocated: the dense B, plus x, y, mu, g and the forward product.
    const std::uint64_t bytes = static_cast<std::uint64_t>(s.n) * L * k * s.real();
    const std::uint64_t other = CompactData::deviceBytes(s.n, s.L, spec, s.isDouble, false) + 4 * s.n * s.real();
    checkDenseFits(s.kernelName, bytes, other, s.device.info);
  }
  Context& ctx = *s.ctx;
  CompactKernel kind = CompactKernel::CompactX;  // the dense kernels still use its B delta and update
  compactKernelFromName(s.kernelName, &kind);
  s.data = std::make_unique<CompactData>(ctx, bases, x, s.n, s.isDouble, kind == CompactKernel::Compact,
                                         kind == CompactKernel::Sorted);
  s.params = kernelParameters(s.device.info, s.n, s.L);
  if (s.forceGpuKernels && !s.params.gpu) {
    ComputeDeviceInfo gpu = s.device.info;
    gpu.type = "GPU";
    s.params = kernelParameters(gpu, s.n, s.L);
    s.params.nvidiaAtomics = false;  // the portable compare-and-swap atomics
  }
  const KernelParameters& params = s.params;
  s.plan = std::make_unique<CompactPlan>(ctx, *s.data, kind, params);
  const std::string& options = s.plan->options();

  std::vector<double> g(s.n);
  double ss = 0.0;
  for (std::size_t i = 0; i < s.n; ++i) {
    g[i] = y[i] - problem.offset;
    ss += g[i] * g[i];
  }
  s.y = s.upload(y);
  s.mu = s.upload(std::vector<double>(s.n, problem.offset));
  s.g = s.upload(g);
  s.residualSquares = s.upload({ss});
  std::vector<double> P(L * k * k), Q(L * k * k);
  for (std::size_t j = 0; j < L; ++j)
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b) {
        P[(j * k + a) * k + b] = learners[j].solveMatrix(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b));
        Q[(j * k + a) * k + b] = learners[j].rssMatrix(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b));
      }
  s.P = s.upload(P);
  s.Q = s.upload(Q);
  s.c = Buffer(ctx, L * k * s.real());
  s.delta = Buffer(ctx, L * k * s.real());
  s.reduction = Buffer(ctx, L * s.real());
  s.index = Buffer(ctx, sizeof(cl_int));
  s.partialCount = s.plan->updatePartials();
  s.partials = Buffer(ctx, s.partialCount * s.real());

  if (s.isDense) {
    s.denseB = Buffer(ctx, s.n * L * k * s.real());
    s.plan->expandDense(s.denseB);
    s.densePlan = std::make_unique<DenseGemvPlan>(ctx, s.denseKind, s.n, L * k, s.isDouble);
    s.f = Buffer(ctx, s.n * s.real());
    s.vectorUpdate = Kernel(ctx.kernel("compact_update", "vector_update", options));
    cl_uint a = 0;
    s.vectorUpdate.arg(a++, static_cast<int>(s.n));
    s.vectorUpdate.arg(a++, static_cast<int>(params.updateGroupRows));
    s.vectorUpdate.arg(a++, s.f);
    s.setReal(s.vectorUpdate, a++, s.nu);
    s.vectorUpdate.arg(a++, s.y);
    s.vectorUpdate.arg(a++, s.mu);
    s.vectorUpdate.arg(a++, s.g);
    s.vectorUpdate.arg(a++, s.partials);
  }

  s.solve = Kernel(ctx.kernel("learner_select", "learner_solve", options));
  s.solve.arg(0, s.c);
  s.solve.arg(1, s.P);
  s.solve.arg(2, s.Q);
  s.solve.arg(3, s.delta);
  s.solve.arg(4, s.reduction);
  s.select = Kernel(ctx.kernel("learner_select", "learner_select", options));
  s.select.arg(0, s.L);
  s.select.arg(1, s.reduction);
  s.select.arg(2, s.delta);
  s.setReal(s.select, 3, s.nu);
  s.select.arg(4, s.index);
  s.select.arg(5, static_cast<int>(s.partialCount));
  s.select.arg(6, s.partials);
  s.setReal(s.select, 7, 1.0 / static_cast<double>(s.n));
  s.select.arg(8, s.residualSquares);
  s.prepareFused(options, kind);
  s.gpuCached = false;
  if (!s.fused) s.prepareGpuCache(spec, options);
  s.cValid = s.cCurrent = false;
  s.sinceRefresh = 0;
  s.history = 0;
  s.ensureHistory(64);
  ctx.finish();
  s.prepared = true;
}

void OpenClBackend::iterate(int count, std::vector<IterationResult>& out) {
  State& s = *s_;
  if (!s.prepared) throw ComputeError("opencl backend: iterate() before prepare()");
  if (count <= 0) return;
  s.ensureHistory(static_cast<std::size_t>(count));
  // Only device work inside the batch: the selected learner stays in s.index, the records in s.records.
  for (int it = 0; it < count; ++it) {
    if (s.gpuCached) {
      s.gpuCachedIteration(it);
      continue;
    }
    if (!s.fused) {
      s.score();
      s.selectAndRecord(it - 1, it);
      s.update();
      continue;
    }
    // Exact B'g: always without the cache; with it at the start and every refreshInterval iterations.
    if (!s.cached || !s.cValid || s.sinceRefresh >= s.refreshInterval) {
      s.plan->transposed(s.g, s.c);
      s.cValid = s.cCurrent = true;
      s.sinceRefresh = 0;
    }
    s.solveSelectAndRecord(it - 1, it, !s.cCurrent);
    if (s.cached) {
      s.updateAndFill();
      s.cCurrent = false;  // the correction for this step is applied by the next solve-select
      ++s.sinceRefresh;
    } else {
      s.update();
    }
  }
  if (s.fused)
    s.solveSelectAndRecord(count - 1, -1, false);
  else
    s.selectAndRecord(count - 1, -1);
  const std::size_t width = static_cast<std::size_t>(s.k) + 2;
  const std::vector<double> records = s.download(s.records, static_cast<std::size_t>(count) * width);
  for (int it = 0; it < count; ++it) {
    const double* r = records.data() + static_cast<std::size_t>(it) * width;
    IterationResult result;
    result.learner = static_cast<int>(r[0]);
    result.risk = r[1];
    result.delta.assign(r + 2, r + width);
    if (result.learner < 0 || result.learner >= s.L)
      throw ComputeError("opencl backend: the device selected no valid learner at iteration " + std::to_string(it) +
                         " (non-finite scores?)");
    out.push_back(std::move(result));
  }
}

std::vector<double> OpenClBackend::fitted() {
  if (!s_->prepared) throw ComputeError("opencl backend: fitted() before prepare()");
  return s_->download(s_->mu, s_->n);
}

void OpenClBackend::setRefreshInterval(int iterations) { s_->refreshInterval = std::max(0, iterations); }

void OpenClBackend::setCrossCacheBytes(std::size_t bytes) { s_->cacheBytesLimit = bytes; }

bool OpenClBackend::usesCrossCache() const { return s_->cached || s_->gpuCached; }

void OpenClBackend::setForceGpuKernels(bool force) { s_->forceGpuKernels = force; }

CandidateScores OpenClBackend::candidates() {
  State& s = *s_;
  if (!s.prepared) throw ComputeError("opencl backend: candidates() before prepare()");
  s.score();  // exact c for the current g: any pending correction is void
  s.cValid = s.cCurrent = true;
  s.sinceRefresh = 0;
  CandidateScores scores;
  scores.residualSumOfSquares = s.download(s.residualSquares, 1)[0];
  scores.rss = s.download(s.reduction, static_cast<std::size_t>(s.L));
  for (double& r : scores.rss) r = scores.residualSumOfSquares - r;
  return scores;
}

}  // namespace gb

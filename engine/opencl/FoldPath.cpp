#include "opencl/FoldPath.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "common/Error.hpp"
#include "common/RunProfile.hpp"
#include "compute/FoldDesign.hpp"
#include "opencl/FamilyKernels.hpp"
#include "opencl/FoldKernelArgs.hpp"
#include "opencl/OpenClBackend.hpp"

namespace gb::ocl {

struct FoldPath::Impl {
  Context* ctx = nullptr;
  bool isDouble = false;
  std::size_t n = 0, F = 0, k = 0;
  int L = 0, passes = 1, pass = 4, stride = 4, warps = 1, ranges = 1, chunksPerRange = 1, updateGroups = 1,
      updateRows = 1;
  bool rows4 = false;                      // the GPU B'g with 4 rows a warp step and 4 folds a lane (FOLD_ROWS4)
  std::size_t chunkRows = kFoldChunkRows;  // rows per interval-sorted chunk (chooseShape)
  bool forced = false;  // tests: the GPU variants on a CPU device (portable atomics, barriers for warp syncs)
  double nu = 0.1, param = 0.0;
  std::vector<double> riskConstant, totalWeight;  // per fold: Poisson's sum(o lgamma(y + 1)), sum(o)
  std::unique_ptr<CompactData> data;
  KernelParameters params;
  Buffer y, w, o, mu, wu, P, Q, c, delta, reduction, btgPartials, partials[2], inverseWeights, history;
  std::size_t historyRecords = 0;
  Kernel btg, reduce, solve, selectUpdate, finish;
  int launches = 0;  // select-update launches so far: which partial buffer holds the latest loss sums
  // GAMBOOST_FOLD_PROFILE=1: each kernel's device time, summed over the iterations, reported on stderr at the end
  // beside the bytes it must move (bench scripts put it against the measured copy bandwidth).
  bool profile = false;
  double seconds[4] = {0, 0, 0, 0};
  long profiled = 0;
  void report() const;

  Buffer upload(const std::vector<double>& v) { return uploadReals(*ctx, v, isDouble); }
  std::size_t realBytes() const { return isDouble ? 8 : 4; }
  RealArg real(double v) const { return {v, isDouble}; }
  // The launch shape: passes and folds per pass, the per-fold stride, learners per B'g group, the row ranges of the
  // B'g and the update's groups.
  void chooseShape(const ComputeDeviceInfo& device, int degree, const FoldShape& want) {
    // GPU: a lane per fold, one pass. CPU: the folds a work-item keeps in registers, a multiple of 4 (aligned vector
    // loads): (DEGREE + 1) per fold, 128 floats or 64 doubles at most. The per-fold arrays get `stride` values a row.
    const int folds = static_cast<int>(F);
    const int group = params.gpu ? 32 : 1;
    const int maxPass = std::max(4, (isDouble ? 64 : 128) / (degree + 1) / 4 * 4);
    passes = params.gpu ? 1 : (folds + maxPass - 1) / maxPass;
    pass = params.gpu ? group : ((folds + passes - 1) / passes + 3) / 4 * 4;
    stride = params.gpu ? (folds + 3) / 4 * 4 : passes * pass;
    // The B'g with 4 rows a step: on NVIDIA (its warp shuffles are inline PTX) and in tests on a CPU device (with
    // one warp a group, whose barrier stands in for the warp's), in float (in double the lane-per-fold kernel was
    // faster: docs/performance.md). Its chunks are longer: it pays per interval of a chunk, not per row.
    rows4 = params.gpu && (params.nvidiaAtomics || forced) && degree == 3 && !isDouble && want.rows4;
    chunkRows = want.chunkRows > 0 ? static_cast<std::size_t>(want.chunkRows)
                : rows4            ? kFoldChunkRows4
                                   : kFoldChunkRows;
    // GPU: up to 8 learners (warps) a group walk the same chunks, so a chunk's w u is fetched into L1 once for
    // all of them; as many as the group's local memory holds (each warp's bins, K x 32; with 4 rows a step on a
    // CPU device, its 32 lanes' 20 sums too). With 4 rows a step on NVIDIA, 4 warps a group and 16 groups a
    // compute unit by default: the kernel waits on its loads' latency, and smaller groups wait less at each chunk's
    // barrier (H100: 1745 us with FR_STEPS 4 against 2066 us for 8, 8 and 2 in the same run; docs/performance.md).
    const bool rows4Nvidia = rows4 && params.nvidiaAtomics;
    const std::size_t warpBytes = (k * 32 + (rows4 && !params.nvidiaAtomics ? 32 * 20 : 0)) * realBytes();
    const std::size_t local = device.localMemoryBytes > 0 ? device.localMemoryBytes : 32768;
    const int fitting = static_cast<int>(std::clamp<std::size_t>(local / warpBytes, 1, 8));
    warps = !params.gpu      ? 1
            : want.warps > 0 ? std::min(fitting, want.warps)
            : rows4Nvidia    ? std::min(fitting, kFoldRows4Warps)
                             : fitting;
    if (rows4 && !params.nvidiaAtomics) warps = 1;
    const int units = std::max(1, device.computeUnits);
    const int chunks = static_cast<int>((n + chunkRows - 1) / chunkRows);
    const int blocks = (L + warps - 1) / warps;
    // B'g groups: about 8 per compute unit on a GPU, 4 on a CPU device, over learner blocks x ranges x passes.
    const int perUnit = want.groupsPerUnit > 0 ? want.groupsPerUnit
                        : rows4Nvidia          ? kFoldRows4GroupsPerUnit
                        : params.gpu           ? 8
                                               : 4;
    const int wantedRanges = std::max(1, (units * perUnit) / (blocks * passes));
    chunksPerRange = std::max(1, (chunks + wantedRanges - 1) / wantedRanges);
    ranges = (chunks + chunksPerRange - 1) / chunksPerRange;
    updateGroups = static_cast<int>(std::clamp<std::size_t>((n + 63) / 64, 1, units * (params.gpu ? 16 : 4)));
    updateRows = static_cast<int>((n + updateGroups - 1) / updateGroups);
    updateGroups = static_cast<int>((n + updateRows - 1) / updateRows);
  }

  void buildKernels(const SplineSpec& spec, DeviceFamily family) {
    const int group = params.gpu ? 32 : 1;
    const std::string opts =
        buildOptions(params, spec, isDouble) + " -DFAMILY=" + std::to_string(static_cast<int>(family)) +
        " -DFOLDS=" + std::to_string(static_cast<int>(F)) + " -DFOLD_PASS=" + std::to_string(pass) +
        " -DFOLD_STRIDE=" + std::to_string(stride) + " -DFOLD_WARPS=" + std::to_string(warps) +
        " -DFOLD_GROUP=" + std::to_string(group) + " -DFOLD_CHUNK=" + std::to_string(chunkRows) +
        " -DFOLD_LANES=" + std::to_string(kMaxFolds) + " -DFOLD_ROWS4=" + (rows4 ? "1" : "0");
    btg = Kernel(ctx->kernel("fold_path", "fold_btg_partial", opts));
    reduce = Kernel(ctx->kernel("fold_path", "fold_btg_reduce", opts));
    selectUpdate = Kernel(ctx->kernel("fold_path", "fold_select_update", opts));
    finish = Kernel(ctx->kernel("fold_path", "fold_finish_risk", opts));
    solve = Kernel(ctx->kernel("learner_select", "learner_solve", buildOptions(params, spec, isDouble)));
  }

  void uploadFolds(const std::vector<BoostProblem>& folds) {
    // Per fold: the out-of-bag total, Poisson's risk constant, P and Q of every learner (folds in parallel).
    const std::vector<double>& hy = *folds.front().response;
    const std::size_t block = static_cast<std::size_t>(L) * k * k;
    std::vector<double> hP(F * block), hQ(F * block), inverse(F);
    totalWeight.assign(F, 0.0);
    riskConstant.assign(F, 0.0);
#pragma omp parallel for schedule(dynamic, 1)
    for (int fb = 0; fb < static_cast<int>(F); ++fb) {
      const auto b = static_cast<std::size_t>(fb);
      const BoostProblem& f = folds[b];
      double total = 0.0;
      for (double v : *f.oobWeights) total += v;
      totalWeight[b] = total;
      inverse[b] = 1.0 / total;
      riskConstant[b] = FamilyKernels::riskConstant(deviceFamily(f.family), hy, *f.oobWeights);
      std::size_t at = b * block;
      for (const Learner& l : *f.learners)
        for (Eigen::Index a = 0; a < static_cast<Eigen::Index>(k); ++a)
          for (Eigen::Index e = 0; e < static_cast<Eigen::Index>(k); ++e, ++at) {
            hP[at] = l.solveMatrix(a, e);
            hQ[at] = l.rssMatrix(a, e);
          }
    }
    for (std::size_t b = 0; b < F; ++b)
      if (!(totalWeight[b] > 0.0)) throw InputError("fold " + std::to_string(b + 1) + ": no out-of-bag rows");
    y = upload(hy);
    if (isDouble)
      uploadRows<double>(folds);
    else
      uploadRows<float>(folds);
    P = upload(hP);
    Q = upload(hQ);
    inverseWeights = upload(inverse);
  }

  // w, o, mu (the offset) and w u at it, every fold's value of a row side by side (kernels/fold_path.cl's layout:
  // `stride` values a row, the padding folds 0), in the device's precision: each built in one parallel pass over the
  // rows into one staging array (fresh pages cost more than the pass) and uploaded.
  template <typename T>
  void uploadRows(const std::vector<BoostProblem>& folds) {
    const std::vector<double>& hy = *folds.front().response;
    const auto rowStride = static_cast<std::size_t>(stride);
    const std::size_t bytes = n * rowStride * sizeof(T);
    std::unique_ptr<T[]> staging(new T[n * rowStride]);
    auto put = [&](Buffer& target, auto valueOf) {
      T* rows = staging.get();
#pragma omp parallel for schedule(static)
      for (long long r = 0; r < static_cast<long long>(n); ++r) {
        const auto i = static_cast<std::size_t>(r);
        for (std::size_t b = 0; b < rowStride; ++b)
          rows[i * rowStride + b] = b < F ? static_cast<T>(valueOf(folds[b], i)) : T(0);
      }
      target = Buffer(*ctx, bytes);
      target.write(*ctx, rows, bytes);
    };
    auto weight = [](const BoostProblem& f, std::size_t i) { return f.weights ? (*f.weights)[i] : 1.0; };
    put(w, weight);
    put(o, [](const BoostProblem& f, std::size_t i) { return (*f.oobWeights)[i]; });
    put(mu, [](const BoostProblem& f, std::size_t) { return f.offset; });
    put(wu, [&](const BoostProblem& f, std::size_t i) { return weight(f, i) * f.family.ngradient(hy[i], f.offset); });
  }

  void ensureHistory(std::size_t count) {
    if (count <= historyRecords) return;
    historyRecords = std::max<std::size_t>(count, 64);
    history = Buffer(*ctx, F * historyRecords * (k + 2) * realBytes());
  }
};

bool FoldPath::supports(const std::vector<BoostProblem>& folds) {
  return foldsShareSplineDesign(folds, static_cast<std::size_t>(kMaxFolds));
}

FoldPath::FoldPath(Context& ctx, const std::vector<BoostProblem>& folds, const DeviceProblemOptions& options,
                   const FoldShape& shape)
    : impl_(std::make_unique<Impl>()) {
  if (!supports(folds)) throw ComputeError("opencl backend: these folds cannot run as one batch");
  Impl& s = *impl_;
  const BoostProblem& first = folds.front();
  s.ctx = &ctx;
  s.isDouble = options.isDouble;
  s.n = first.rows;
  s.F = folds.size();
  s.L = static_cast<int>(first.learners->size());
  s.k = static_cast<std::size_t>(first.learners->front().numColumns());
  s.nu = first.nu;
  s.param = familyParameter(first.family);
  if (!s.isDouble) checkFloatRange(*first.response);
  if (!s.isDouble) checkFloatRange(*first.learners, first.weights);
  std::vector<const SplineBasis*> bases;
  std::vector<const double*> x;
  for (std::size_t j = 0; j < first.learners->size(); ++j) {
    bases.push_back(&(*first.learners)[j].basis);
    x.push_back(first.covariates[j]->data());
  }
  s.params = kernelParameters(ctx.device().info, s.n, s.L);
  if (options.forceGpuKernels && !s.params.gpu) {
    ComputeDeviceInfo gpu = ctx.device().info;
    gpu.type = "GPU";
    s.params = kernelParameters(gpu, s.n, s.L);
    s.params.nvidiaAtomics = false;  // the portable compare-and-swap atomics
    s.forced = true;
  }
  s.chooseShape(ctx.device().info, bases.front()->degree(), shape);
  {
    const ScopedStage timed("x and its rows sorted by interval, uploaded");
    s.data = std::make_unique<CompactData>(ctx, bases, x, s.n, s.isDouble, false, true, s.chunkRows);
  }
  s.buildKernels(bases.front()->spec(), deviceFamily(first.family));
  {
    const ScopedStage timed("folds' rows (w, o, mu, w u), P and Q, uploaded");
    s.uploadFolds(folds);
  }
  const std::size_t fl = s.F * static_cast<std::size_t>(s.L);
  s.c = Buffer(ctx, fl * s.k * s.realBytes());
  s.delta = Buffer(ctx, fl * s.k * s.realBytes());
  s.reduction = Buffer(ctx, fl * s.realBytes());
  s.btgPartials = Buffer(ctx, static_cast<std::size_t>(s.passes * s.ranges) * static_cast<std::size_t>(s.L) * s.k *
                                  static_cast<std::size_t>(s.pass) * s.realBytes());
  for (Buffer& b : s.partials) b = Buffer(ctx, static_cast<std::size_t>(s.updateGroups) * s.F * s.realBytes());
  s.ensureHistory(64);
  const char* profile = std::getenv("GAMBOOST_FOLD_PROFILE");
  s.profile = profile && std::string(profile) == "1";
  ctx.finish();
  info_ = BackendInfo{"opencl",    ctx.device().info.name,
                      "fold_path", s.isDouble ? "double" : "float",
                      "",          "folds (" + std::to_string(s.F) + " together)"};
}

// Bytes an iteration must move at least: the B'g reads the sorted rows (order, u) of every learner once per pass and
// w u of every fold once; the update reads x of each fold's learner, y, w, o and mu, and writes mu and w u.
void FoldPath::Impl::report() const {
  if (!profile || profiled == 0) return;
  const double r = static_cast<double>(realBytes()), rows = static_cast<double>(n), folds = static_cast<double>(F);
  const double btgBytes = passes * L * rows * (2 + r) + stride * rows * r;
  const double updateBytes = folds * rows * 7 * r + rows * r;  // x_j, w, o, mu (twice), w u (written), y
  const char* names[4] = {"fold_btg_partial", "fold_btg_reduce", "learner_solve", "fold_select_update"};
  std::fprintf(stderr, "fold path profile: %ld iterations, %zu folds, %d learners, %zu rows, %s, %d B'g pass(es)\n",
               profiled, F, L, n, isDouble ? "double" : "float", passes);
  for (int kk = 0; kk < 4; ++kk)
    std::fprintf(stderr, "  %-20s %10.1f us/iteration%s\n", names[kk], 1e6 * seconds[kk] / profiled,
                 kk == 0   ? (" floor bytes " + std::to_string(btgBytes / 1e6) + " MB").c_str()
                 : kk == 3 ? (" floor bytes " + std::to_string(updateBytes / 1e6) + " MB").c_str()
                           : "");
}

FoldPath::~FoldPath() { impl_->report(); }

void FoldPath::iterate(int count, std::vector<std::vector<IterationResult>>& out) {
  Impl& s = *impl_;
  if (count <= 0) return;
  s.ensureHistory(static_cast<std::size_t>(count));
  Context& ctx = *s.ctx;
  const CompactData& d = *s.data;
  const int n = static_cast<int>(s.n);
  const std::size_t groupItems = (s.params.gpu ? 32 : 1) * static_cast<std::size_t>(s.warps);
  const std::size_t blocks = (static_cast<std::size_t>(s.L) + s.warps - 1) / s.warps;
  const std::size_t fl = s.F * static_cast<std::size_t>(s.L);
  FoldBtgPartialArgs{n,     s.L,           s.chunksPerRange, &d.order(), &d.sortedU(), &d.starts(), &d.polynomials(),
                     &s.wu, &s.btgPartials}
      .bind(s.btg);
  FoldBtgReduceArgs{s.L, s.ranges, &s.btgPartials, &s.c}.bind(s.reduce);
  LearnerSolveArgs{&s.c, &s.P, &s.Q, &s.delta, &s.reduction}.bind(s.solve);
  const std::size_t reduceItems = fl * s.k, reduceGroup = 64;
  const std::size_t solveGroup = static_cast<std::size_t>(s.params.reduceGroupSize);
  std::vector<cl_event> events(s.profile ? 4 * static_cast<std::size_t>(count) : 0);
  auto event = [&](int it, int kk) { return s.profile ? &events[4 * static_cast<std::size_t>(it) + kk] : nullptr; };
  for (int it = 0; it < count; ++it) {
    s.btg.launch(ctx, {groupItems * blocks, static_cast<std::size_t>(s.ranges), static_cast<std::size_t>(s.passes)},
                 {groupItems, 1, 1}, event(it, 0));
    s.reduce.launch(ctx, {(reduceItems + reduceGroup - 1) / reduceGroup * reduceGroup}, {reduceGroup}, event(it, 1));
    s.solve.launch(ctx, {solveGroup * fl}, {solveGroup}, event(it, 2));
    const Buffer& previous = s.partials[(s.launches + 1) % 2];
    const Buffer& current = s.partials[s.launches % 2];
    FoldSelectUpdateArgs{n,
                         s.updateRows,
                         s.L,
                         &s.reduction,
                         &s.delta,
                         s.real(s.nu),
                         &d.x(),
                         &d.geometry(),
                         &d.polynomials(),
                         &s.y,
                         &s.w,
                         &s.o,
                         s.real(s.param),
                         &s.mu,
                         &s.wu,
                         &previous,
                         &current,
                         &s.inverseWeights,
                         &s.history,
                         static_cast<cl_int>(s.historyRecords),
                         it - 1,
                         it}
        .bind(s.selectUpdate);
    s.selectUpdate.launch(ctx, {static_cast<std::size_t>(kMaxFolds) * static_cast<std::size_t>(s.updateGroups)},
                          {static_cast<std::size_t>(kMaxFolds)}, event(it, 3));
    ++s.launches;
  }
  FoldFinishRiskArgs{s.updateGroups, &s.partials[(s.launches + 1) % 2],     &s.inverseWeights,
                     &s.history,     static_cast<cl_int>(s.historyRecords), count - 1}
      .bind(s.finish);
  s.finish.launch(ctx, {static_cast<std::size_t>(kMaxFolds)}, {static_cast<std::size_t>(kMaxFolds)});
  for (std::size_t e = 0; e < events.size(); ++e) s.seconds[e % 4] += eventSeconds(events[e]);
  if (s.profile) s.profiled += count;
  const std::size_t width = s.k + 2;
  const std::vector<double> records = downloadReals(ctx, s.history, s.F * s.historyRecords * width, s.isDouble);
  out.resize(s.F);
  for (std::size_t b = 0; b < s.F; ++b)
    for (int it = 0; it < count; ++it) {
      const double* r = records.data() + (b * s.historyRecords + static_cast<std::size_t>(it)) * width;
      IterationResult result;
      result.learner = static_cast<int>(r[0]);
      result.risk = r[1] + s.riskConstant[b] / s.totalWeight[b];
      result.delta.assign(r + 2, r + width);
      if (result.learner < 0 || result.learner >= s.L)
        throw ComputeError("opencl backend: fold " + std::to_string(b + 1) +
                           " selected no valid learner at iteration " + std::to_string(it) + " (non-finite scores?)");
      out[b].push_back(std::move(result));
    }
}

}  // namespace gb::ocl

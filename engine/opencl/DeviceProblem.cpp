#include "opencl/DeviceProblem.hpp"

#include "common/Error.hpp"
#include "opencl/OpenClBackend.hpp"

namespace gb::ocl {

namespace {

// Row-major P_j (solve) and Q_j (RSS reduction) of every learner, L x k x k.
void learnerMatrices(const std::vector<Learner>& learners, std::size_t k, std::vector<double>& P,
                     std::vector<double>& Q) {
  P.assign(learners.size() * k * k, 0.0);
  Q.assign(learners.size() * k * k, 0.0);
  for (std::size_t j = 0; j < learners.size(); ++j)
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b) {
        const auto ia = static_cast<Eigen::Index>(a), ib = static_cast<Eigen::Index>(b);
        P[(j * k + a) * k + b] = learners[j].solveMatrix(ia, ib);
        Q[(j * k + a) * k + b] = learners[j].rssMatrix(ia, ib);
      }
}

}  // namespace

DeviceProblem::DeviceProblem(Context& context, const BoostProblem& problem, const DeviceProblemOptions& o)
    : ctx(context), isDouble(o.isDouble), isDense(false) {
  DenseKernel denseKind = DenseKernel::Naive;
  isDense = denseKernelFromName(o.kernelName, &denseKind);
  denseKind_ = denseKind;
  const std::vector<Learner>& learners = *problem.learners;
  n = problem.rows;
  L = static_cast<int>(learners.size());
  k = learners.front().numColumns();
  nu = problem.nu;
  const std::vector<double>& yHost = *problem.response;
  if (yHost.size() != n) throw ComputeError("opencl backend: response size differs from rows");
  if (!isDouble) checkFloatRange(yHost);
  if (!isDouble) checkFloatRange(learners, problem.weights);
  std::vector<const SplineBasis*> bases;
  std::vector<const double*> x;
  for (std::size_t j = 0; j < learners.size(); ++j) {
    if (problem.covariateRows.empty() && problem.covariates[j]->size() != n)
      throw ComputeError("opencl backend: covariate '" + learners[j].name + "' size differs from rows");
    bases.push_back(&learners[j].basis);
    x.push_back(problem.column(j));
  }
  spec = learners.front().basis.spec();
  const std::size_t Ls = static_cast<std::size_t>(L), ks = static_cast<std::size_t>(k);
  if (isDense) {
    // Check before anything is allocated: the dense B, plus x, y, mu, g and the forward product.
    const std::uint64_t bytes = static_cast<std::uint64_t>(n) * Ls * ks * realBytes();
    const std::uint64_t other = CompactData::deviceBytes(n, L, spec, isDouble, false) + 4 * n * realBytes();
    checkDenseFits(o.kernelName, bytes, other, ctx.device().info);
  }
  compactKernelFromName(o.kernelName, &compactKind);
  data = std::make_unique<CompactData>(ctx, bases, x, n, isDouble, compactKind == CompactKernel::Compact,
                                       compactKind == CompactKernel::Sorted);
  params = kernelParameters(ctx.device().info, n, L);
  if (o.forceGpuKernels && !params.gpu) {
    ComputeDeviceInfo gpu = ctx.device().info;
    gpu.type = "GPU";
    params = kernelParameters(gpu, n, L);
    params.nvidiaAtomics = false;  // the portable compare-and-swap atomics
  }
  plan = std::make_unique<CompactPlan>(ctx, *data, compactKind, params);

  std::vector<double> gHost(n);
  double ss = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    gHost[i] = yHost[i] - problem.offset;
    ss += gHost[i] * gHost[i];
  }
  y = upload(yHost);
  mu = upload(std::vector<double>(n, problem.offset));
  g = upload(gHost);
  residualSquares = upload({ss});
  std::vector<double> PHost, QHost;
  learnerMatrices(learners, ks, PHost, QHost);
  P = upload(PHost);
  Q = upload(QHost);
  c = Buffer(ctx, Ls * ks * realBytes());
  delta = Buffer(ctx, Ls * ks * realBytes());
  reduction = Buffer(ctx, Ls * realBytes());
  index = Buffer(ctx, sizeof(cl_int));
  partialCount = plan->updatePartials();
  partials = Buffer(ctx, partialCount * realBytes());
  if (isDense) {
    denseB_ = Buffer(ctx, n * Ls * ks * realBytes());
    plan->expandDense(denseB_);
    densePlan_ = std::make_unique<DenseGemvPlan>(ctx, denseKind_, n, Ls * ks, isDouble);
    f_ = Buffer(ctx, n * realBytes());
    vectorUpdate_ = Kernel(ctx.kernel("compact_update", "vector_update", options()));
  }
  solve_ = Kernel(ctx.kernel("learner_select", "learner_solve", options()));
  select_ = Kernel(ctx.kernel("learner_select", "learner_select", options()));
  ensureHistory(64);
}

Buffer DeviceProblem::upload(const std::vector<double>& v) { return uploadReals(ctx, v, isDouble); }

std::vector<double> DeviceProblem::download(const Buffer& b, std::size_t count) {
  return downloadReals(ctx, b, count, isDouble);
}

void DeviceProblem::ensureHistory(std::size_t count) {
  if (count <= history) return;
  history = std::max<std::size_t>(count, 64);
  records = Buffer(ctx, history * static_cast<std::size_t>(k + 2) * realBytes());
}

void DeviceProblem::score() {
  if (isDense)
    densePlan_->transposed(denseB_, g, c);
  else
    plan->transposed(g, c);
  LearnerSolveArgs{&c, &P, &Q, &delta, &reduction}.bind(solve_);
  const std::size_t group = static_cast<std::size_t>(params.reduceGroupSize);
  solve_.launch(ctx, {group * static_cast<std::size_t>(L)}, {group});
}

RecordArgs DeviceProblem::recordArgs(int previous, int record) {
  return RecordArgs{real(nu),
                    &index,
                    static_cast<cl_int>(partialCount),
                    &partials,
                    real(1.0 / static_cast<double>(n)),
                    &residualSquares,
                    &records,
                    previous,
                    record};
}

void DeviceProblem::selectAndRecord(int previous, int record) { selectAndRecord(recordArgs(previous, record)); }

void DeviceProblem::selectAndRecord(const RecordArgs& args) {
  LearnerSelectArgs{L, &reduction, &delta, args}.bind(select_);
  const std::size_t group = static_cast<std::size_t>(params.reduceGroupSize);
  select_.launch(ctx, {group}, {group});
}

void DeviceProblem::update() {
  if (!isDense) {
    plan->update(index, delta, nu, y, mu, g, partials);
    return;
  }
  densePlan_->forward(denseB_, index, static_cast<std::size_t>(k), delta, f_);
  VectorUpdateArgs{
      static_cast<cl_int>(n), static_cast<cl_int>(params.updateGroupRows), &f_, real(nu), &y, &mu, &g, &partials}
      .bind(vectorUpdate_);
  const std::size_t group = static_cast<std::size_t>(params.updateGroupSize);
  vectorUpdate_.launch(ctx, {group * partialCount}, {group});
}

std::vector<double> DeviceProblem::fitted() {
  if (residualOnly) plan->fittedFromResidual(y, g, mu);
  return download(mu, n);
}

std::vector<IterationResult> DeviceProblem::readRecords(int count) {
  const std::size_t width = static_cast<std::size_t>(k) + 2;
  const std::vector<double> values = download(records, static_cast<std::size_t>(count) * width);
  std::vector<IterationResult> out;
  for (int it = 0; it < count; ++it) {
    const double* r = values.data() + static_cast<std::size_t>(it) * width;
    IterationResult result;
    result.learner = static_cast<int>(r[0]);
    result.risk = r[1];
    result.delta.assign(r + 2, r + width);
    if (result.learner < 0 || result.learner >= L)
      throw ComputeError("opencl backend: the device selected no valid learner at iteration " + std::to_string(it) +
                         " (non-finite scores?)");
    out.push_back(std::move(result));
  }
  return out;
}

}  // namespace gb::ocl

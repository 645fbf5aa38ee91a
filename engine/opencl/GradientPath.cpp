#include "opencl/GradientPath.hpp"

#include <algorithm>
#include <cfloat>

#include "common/Error.hpp"
#include "compute/IterationPolicy.hpp"
#include "family/BrentMinimum.hpp"
#include "family/NegBinomial.hpp"

namespace gb::ocl {

namespace {

std::vector<Learner> splinesOf(const BoostProblem& problem) {
  std::vector<Learner> splines;
  for (const Learner& l : *problem.learners)
    if (l.isSpline()) splines.push_back(l);
  if (splines.empty())
    throw InputError(optionMessage("--backend",
                                   "opencl needs at least one spline learner (the linear and factor "
                                   "learners ride on its device data); use --backend cpu"));
  return splines;
}

// The spline learners come first in the Booster's order (splines, linears, factors): the device problem's learner j
// is the model's learner j.
BoostProblem splineProblem(const BoostProblem& problem, const std::vector<Learner>& splines) {
  BoostProblem p = problem;
  p.learners = &splines;
  p.covariates.resize(splines.size());
  return p;
}

}  // namespace

GradientPath::GradientPath(Context& ctx, const BoostProblem& problem, const DeviceProblemOptions& options)
    : ctx_(ctx),
      problem_(problem),
      splines_(splinesOf(problem)),
      device_(std::make_unique<DeviceProblem>(ctx, splineProblem(problem, splines_), options)),
      family_(ctx, deviceFamily(problem.family), options.isDouble),
      olsKernels_(ctx, options.isDouble, problem.rows) {
  const std::size_t n = problem.rows;
  const std::vector<double> ones(n, 1.0);
  const std::vector<double>& w = problem.weights ? *problem.weights : ones;
  weights_ = device_->upload(w);
  // The risk's weights: a resampling fold's out-of-bag weights, else the case weights.
  const std::vector<double>& rw = problem.oobWeights ? *problem.oobWeights : w;
  if (problem.oobWeights) oobWeights_ = device_->upload(rw);
  for (double v : rw) totalWeight_ += v;
  for (double v : w) fitWeight_ += v;
  param_ = familyParameter(problem.family);
  riskConstant_ = FamilyKernels::riskConstant(deviceFamily(problem.family), *problem.response, rw);
  if (problem.family.family == Family::NegBin) {
    fitCounts_ = NegBinCounts(*problem.response, w);
    riskCounts_ = problem.oobWeights ? NegBinCounts(*problem.response, rw) : fitCounts_;
  }
  riskPartials_ = Buffer(ctx, FamilyKernels::riskGroups(n) * device_->realBytes());
  int maxLevels = 2;
  for (std::size_t j = splines_.size(); j < problem.learners->size(); ++j) {
    const Learner& l = (*problem.learners)[j];
    OlsLearner o;
    o.learner = &l;
    const std::vector<double>& x = *problem.covariates[j];
    if (l.type == LearnerType::Linear) {
      o.values = device_->upload(x);
    } else {
      std::vector<int> codes(x.begin(), x.end());
      o.values = Buffer(ctx, codes.size() * sizeof(int));
      o.values.write(ctx, codes.data(), codes.size() * sizeof(int));
      maxLevels = std::max(maxLevels, l.numColumns());
    }
    ols_.push_back(std::move(o));
  }
  olsPartials_ = Buffer(ctx, olsKernels_.chunks() * static_cast<std::size_t>(maxLevels) * device_->realBytes());
  effect_ = Buffer(ctx, static_cast<std::size_t>(maxLevels) * device_->realBytes());
  if (!device_->isDense && device_->compactKind == CompactKernel::CompactX) {
    const std::string options =
        device_->options() + " -DFAMILY=" + std::to_string(static_cast<int>(deviceFamily(problem.family)));
    selectUpdate_ = Kernel(ctx.kernel("compact_update", "compact_x_family_select_update", options));
    partials2_ = Buffer(ctx, device_->partialCount * device_->realBytes());
  }
  ctx.finish();
}

GradientPath::~GradientPath() = default;

// wu on the device, then every learner's reduction c'Qc (spline c, delta on the device; linear/factor c on the host).
void GradientPath::gradientAndScores(std::vector<double>& reductions, std::vector<Eigen::VectorXd>& olsC) {
  DeviceProblem& p = *device_;
  family_.gradient(p.n, p.y, p.mu, weights_, param_, p.g);
  gradientValid_ = true;
  p.score();
  reductions = p.download(p.reduction, static_cast<std::size_t>(p.L));
  olsC.clear();
  for (const OlsLearner& o : ols_) {
    const Learner& l = *o.learner;
    Eigen::VectorXd c(l.numColumns());
    if (l.type == LearnerType::Linear) {
      const std::vector<double> sums = olsKernels_.linearSums(o.values, p.g, olsPartials_);
      c << sums[0], sums[1];
    } else {
      const std::vector<double> sums = olsKernels_.levelSums(o.values, l.numColumns(), p.g, olsPartials_);
      double total = 0.0;
      for (double s : sums) total += s;
      c[0] = total;
      for (int a = 1; a < l.numColumns(); ++a) c[a] = sums[static_cast<std::size_t>(a)];
    }
    reductions.push_back(c.dot(l.rssMatrix * c));
    olsC.push_back(std::move(c));
  }
}

void GradientPath::updateOls(const OlsLearner& o, const Eigen::VectorXd& step) {
  if (o.learner->type == LearnerType::Linear) {
    olsKernels_.linearUpdate(o.values, step[0], step[1], device_->mu);
    return;
  }
  std::vector<double> effect(static_cast<std::size_t>(step.size()));
  effect[0] = step[0];
  for (Eigen::Index a = 1; a < step.size(); ++a) effect[static_cast<std::size_t>(a)] = step[0] + step[a];
  const Buffer values = device_->upload(effect);
  olsKernels_.levelUpdate(o.values, values, device_->mu);
  ctx_.finish();  // `values` is released at the end of this scope
}

double GradientPath::lossSum(const Buffer& weights, double param, double start) {
  DeviceProblem& p = *device_;
  family_.risk(p.n, p.y, p.mu, weights, param, riskPartials_);
  double sum = start;
  for (double v : p.download(riskPartials_, FamilyKernels::riskGroups(p.n))) sum += v;
  return sum;
}

double GradientPath::risk() {
  const Buffer& riskWeights = problem_.oobWeights ? oobWeights_ : weights_;
  if (problem_.family.family == Family::Gamma) {
    // Gamma: the kernels' loss is the shape-free term y exp(-f) - log y + f. Its sum with the fitting weights gives
    // the shape at the new f (mboost's next ngradient), its sum with the risk weights the risk at that shape.
    const double fitTerms = lossSum(weights_, 0.0);
    param_ = FamilyFunctions::nuisanceFrom(fitTerms, fitWeight_);
    problem_.family.sigma = param_;  // for candidates(), which forms u on the host
    const double riskTerms = problem_.oobWeights ? lossSum(oobWeights_, 0.0) : fitTerms;
    return FamilyFunctions::nuisanceRisk(riskTerms, totalWeight_, param_) / totalWeight_;
  }
  if (problem_.family.adaptiveDelta) {
    // Huber(): d = median|y - f| of every row, from the fitted values brought to the host; the next gradient takes
    // the d of the f before, the risk this f's.
    problem_.family.advanceNuisance(FamilyFunctions::medianAbsResidual(*problem_.response, fitted()));
    param_ = problem_.family.delta;
    return lossSum(riskWeights, problem_.family.riskDelta, riskConstant_) / totalWeight_;
  }
  if (problem_.family.family == Family::NegBin) {
    // NBinomial's size couples with f in every row: each of optimize()'s steps is one risk launch at that size, to
    // which the host adds the f-free part of the sum (NegBinCounts) in double. Without out-of-bag weights the risk
    // is the sum optimize() stopped at.
    double best = 0.0;
    param_ = brentMinimum([&](double s) { return lossSum(weights_, s, -fitCounts_.sum(s)); }, 0.0, 100.0,
                          kOptimizeTolerance, &best);
    problem_.family.sigma = param_;
    if (!problem_.oobWeights && best < DBL_MAX) return best / totalWeight_;
    return lossSum(riskWeights, param_, -riskCounts_.sum(param_)) / totalWeight_;
  }
  return lossSum(riskWeights, param_, riskConstant_) / totalWeight_;
}

void GradientPath::iterate(int count, std::vector<IterationResult>& out) {
  // The device batch sums the risk with the fit's own weights; a fold's out-of-bag risk takes the host loop.
  if (ols_.empty() && !problem_.oobWeights && !problem_.family.reestimated()) return iterateOnDevice(count, out);
  for (int it = 0; it < count; ++it) out.push_back(iterateOnHost());
}

void GradientPath::selectUpdate(int previous, int record, const Buffer& previousPartials, const Buffer& partials) {
  DeviceProblem& p = *device_;
  CompactXFamilySelectUpdateArgs{static_cast<cl_int>(p.n),
                                 static_cast<cl_int>(p.params.updateGroupRows),
                                 p.L,
                                 &p.reduction,
                                 &p.delta,
                                 p.real(p.nu),
                                 &p.data->x(),
                                 &p.data->geometry(),
                                 &p.data->polynomials(),
                                 &p.y,
                                 &weights_,
                                 p.real(param_),
                                 &p.mu,
                                 &p.g,
                                 static_cast<cl_int>(p.partialCount),
                                 &previousPartials,
                                 p.real(1.0 / totalWeight_),
                                 &partials,
                                 &p.records,
                                 previous,
                                 record,
                                 &p.index}
      .bind(selectUpdate_);
  const std::size_t group = static_cast<std::size_t>(p.params.updateGroupSize);
  selectUpdate_.launch(ctx_, {group * p.partialCount}, {group});
}

void GradientPath::iterateOnDevice(int count, std::vector<IterationResult>& out) {
  DeviceProblem& p = *device_;
  p.ensureHistory(static_cast<std::size_t>(count));
  if (selectUpdate_.get()) {
    // The fused update: the risk of update it - 1 comes from its own partials (the update's layout).
    auto args = [&](int previous, int record) {
      RecordArgs a = p.recordArgs(previous, record);
      a.inverseRows = p.real(1.0 / totalWeight_);
      return a;
    };
    if (!gradientValid_) family_.gradient(p.n, p.y, p.mu, weights_, param_, p.g);
    // Three launches per iteration: B'g, learner_solve, and the select fused into the update; the two partial
    // buffers alternate, so the select reads the previous update's loss while this update writes its own.
    const Buffer* buffers[2] = {&p.partials, &partials2_};
    for (int it = 0; it < count; ++it) {
      p.score();
      selectUpdate(it - 1, it, *buffers[(it + 1) % 2], *buffers[it % 2]);
    }
    RecordArgs last = args(count - 1, -1);
    last.partials = buffers[(count - 1) % 2];
    p.selectAndRecord(last);
    gradientValid_ = true;
    readRecords(count, out);
    return;
  }
  auto args = [&](int previous, int record) {
    RecordArgs a = p.recordArgs(previous, record);
    a.partialCount = static_cast<cl_int>(FamilyKernels::riskGroups(p.n));
    a.partials = &riskPartials_;
    a.inverseRows = p.real(1.0 / totalWeight_);
    return a;
  };
  // One pass gives the gradient at mu and the risk of the update that made mu (record it - 1's).
  for (int it = 0; it < count; ++it) {
    family_.gradientAndRisk(p.n, p.y, p.mu, weights_, param_, p.g, riskPartials_);
    p.score();
    p.selectAndRecord(args(it - 1, it));
    p.update();  // mu += nu B_j* delta_j* (its g = y - mu is replaced by the next gradient)
  }
  gradientValid_ = false;
  family_.risk(p.n, p.y, p.mu, weights_, param_, riskPartials_);
  p.selectAndRecord(args(count - 1, -1));
  readRecords(count, out);
}

void GradientPath::readRecords(int count, std::vector<IterationResult>& out) {
  for (IterationResult& r : device_->readRecords(count)) {
    r.risk += riskConstant_ / totalWeight_;  // Poisson's sum(w lgamma(y + 1)), left out on the device
    out.push_back(std::move(r));
  }
}

IterationResult GradientPath::iterateOnHost() {
  DeviceProblem& p = *device_;
  std::vector<double> reductions;
  std::vector<Eigen::VectorXd> olsC;
  gradientAndScores(reductions, olsC);
  const std::size_t best = bestLearner(reductions);
  IterationResult result;
  result.learner = static_cast<int>(best);
  if (best < static_cast<std::size_t>(p.L)) {
    const cl_int index = static_cast<cl_int>(best);
    p.index.write(ctx_, &index, sizeof(index));
    p.update();  // mu += nu B_j delta_j (its g = y - mu is replaced by the next gradient)
    gradientValid_ = false;
    const std::vector<double> delta = p.download(p.delta, static_cast<std::size_t>(p.L) * p.k);
    result.delta.resize(static_cast<std::size_t>(p.k));
    for (int a = 0; a < p.k; ++a) result.delta[a] = p.nu * delta[best * p.k + static_cast<std::size_t>(a)];
  } else {
    const std::size_t o = best - static_cast<std::size_t>(p.L);
    const Eigen::VectorXd step = p.nu * (ols_[o].learner->solveMatrix * olsC[o]);
    updateOls(ols_[o], step);
    gradientValid_ = false;
    result.delta.assign(step.data(), step.data() + step.size());
  }
  result.risk = risk();
  result.nuisance = problem_.family.nuisance();
  return result;
}

std::vector<double> GradientPath::fitted() { return device_->download(device_->mu, device_->n); }

CandidateScores GradientPath::candidates() {
  std::vector<double> reductions;
  std::vector<Eigen::VectorXd> olsC;
  gradientAndScores(reductions, olsC);
  const std::vector<double> f = fitted();
  const std::vector<double>& y = *problem_.response;
  double uwu = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double u = problem_.family.ngradient(y[i], f[i]);
    uwu += (problem_.weights ? (*problem_.weights)[i] : 1.0) * u * u;
  }
  CandidateScores scores;
  scores.residualSumOfSquares = uwu;
  for (double r : reductions) scores.rss.push_back(uwu - r);
  return scores;
}

}  // namespace gb::ocl

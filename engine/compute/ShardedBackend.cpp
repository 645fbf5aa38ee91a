#include "compute/ShardedBackend.hpp"

#include <algorithm>
#include <chrono>
#include <functional>

#include "common/Error.hpp"
#include "common/RunProfile.hpp"
#include "compute/ExactScores.hpp"
#include "compute/IterationPolicy.hpp"
#include "compute/ShardWorkers.hpp"

namespace gb {

namespace {

// The problem restricted to rows [begin, end): y and the weights copied into the slice, the spline learners' x seen
// in place (BoostProblem::covariateRows; a shard's upload reads them straight from the whole columns), the linear and
// factor learners' x copied (their shards take vectors).
struct Slice {
  std::vector<double> y, w, oob;
  std::vector<std::vector<double>> x;
  BoostProblem problem;
};

std::vector<double> rowsOf(const std::vector<double>& v, std::size_t begin, std::size_t end) {
  return {v.begin() + static_cast<std::ptrdiff_t>(begin), v.begin() + static_cast<std::ptrdiff_t>(end)};
}

std::unique_ptr<Slice> sliceOf(const BoostProblem& p, std::size_t begin, std::size_t end) {
  auto s = std::make_unique<Slice>();
  s->problem = p;
  s->problem.rows = end - begin;
  s->y = rowsOf(*p.response, begin, end);
  s->problem.response = &s->y;
  s->x.resize(p.covariates.size());
  s->problem.covariateRows.assign(p.covariates.size(), nullptr);
  for (std::size_t j = 0; j < p.covariates.size(); ++j) {
    s->problem.covariateRows[j] = p.column(j) + begin;
    if ((*p.learners)[j].isSpline()) {
      s->problem.covariates[j] = nullptr;
      continue;
    }
    s->x[j].assign(s->problem.covariateRows[j], s->problem.covariateRows[j] + (end - begin));
    s->problem.covariates[j] = &s->x[j];
  }
  if (p.weights) {
    s->w = rowsOf(*p.weights, begin, end);
    s->problem.weights = &s->w;
  }
  if (p.oobWeights) {
    s->oob = rowsOf(*p.oobWeights, begin, end);
    s->problem.oobWeights = &s->oob;
  }
  return s;
}

}  // namespace

struct ShardedBackend::State {
  // One shard per device as constructed, and the further pieces of a device whose rows one shard cannot hold
  // (RowShard::maxRows); `shards` lists them all in device order, a device's pieces in row order.
  std::vector<std::unique_ptr<RowShard>> devices;
  std::vector<std::vector<std::unique_ptr<RowShard>>> pieces;
  std::vector<RowShard*> shards;
  std::size_t maxShardRows = 0;
  ShardWorkers workers;  // one host thread per shard  // a cap on rows per shard (0: the shards' own maxRows)
  std::unique_ptr<ShardReducer> reducer;
  IterationPolicy policy;
  BoostProblem problem;
  std::vector<std::size_t> coefOffset;  // learner j's c_j starts at c[coefOffset[j]]
  std::size_t totalCoefs = 0;
  double totalWeight = 0.0;  // sum of the risk's weights
  bool cached = false;       // unweighted Gaussian spline model: c kept on the host between refreshes
  std::vector<double> c, reduction;
  std::vector<std::vector<double>> cross;  // per l: totalCoefs x k_l, row-major; empty until cached
  std::size_t crossBytes = 0;
  bool cValid = false;
  int sinceRefresh = 0;
  bool prepared = false;
  // The exchange: iterations run, bytes moved between shards and host, seconds of host-side sums.
  int iterations = 0;
  double exchangedBytes = 0.0, hostSeconds = 0.0;

  // Every shard's vector from `part`, added in shard order, then across processes.
  std::vector<double> reduce(const std::function<std::vector<double>(RowShard&)>& part) {
    std::vector<std::vector<double>> parts(shards.size());
    workers.run(shards.size(), [&](std::size_t s) { parts[s] = part(*shards[s]); });
    const auto start = std::chrono::steady_clock::now();
    std::vector<double> sum = parts[0];
    for (std::size_t s = 1; s < parts.size(); ++s) {
      if (parts[s].size() != sum.size()) throw ComputeError("sharded backend: shards returned different sizes");
      for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += parts[s][i];
    }
    reducer->sum(sum);
    hostSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    exchangedBytes += static_cast<double>(sum.size() * sizeof(double) * shards.size());
    return sum;
  }

  // Gives device d the rows shardRows(last - first, devices, d) of [first, last) and splits them over as many
  // pieces as its shard's maxRows() asks (each a sibling() on the same device, contiguous rows); `shards` becomes
  // the list of every piece. Returns each piece's rows, in the order of `shards`.
  std::vector<std::pair<std::size_t, std::size_t>> layOut(std::size_t first, std::size_t last) {
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    shards.clear();
    for (std::size_t d = 0; d < devices.size(); ++d) {
      const auto [begin, end] = ShardedBackend::shardRows(last - first, devices.size(), d);
      std::size_t most = std::max<std::size_t>(1, devices[d]->maxRows(problem));
      if (maxShardRows > 0) most = std::min(most, maxShardRows);
      const std::size_t rows = end - begin;
      const std::size_t count = (rows + most - 1) / most;
      while (pieces[d].size() + 1 < count) pieces[d].push_back(devices[d]->sibling());
      pieces[d].resize(std::max<std::size_t>(count, 1) - 1);
      for (std::size_t q = 0; q < std::max<std::size_t>(count, 1); ++q) {
        const auto [b, e] = ShardedBackend::shardRows(rows, std::max<std::size_t>(count, 1), q);
        shards.push_back(q == 0 ? devices[d].get() : pieces[d][q - 1].get());
        ranges.emplace_back(first + begin + b, first + begin + e);
      }
    }
    return ranges;
  }

  int k(std::size_t j) const { return (*problem.learners)[j].numColumns(); }
  Eigen::Map<const Eigen::VectorXd> cOf(std::size_t j) const {
    return {c.data() + coefOffset[j], static_cast<Eigen::Index>(k(j))};
  }

  void exactCoefficients() {
    c = reduce([](RowShard& s) { return s.coefficients(); });
    if (c.size() != totalCoefs) throw ComputeError("sharded backend: a shard returned the wrong number of c values");
    cValid = true;
    sinceRefresh = 0;
  }

  void computeReductions() {
    const std::vector<Learner>& learners = *problem.learners;
    for (std::size_t j = 0; j < learners.size(); ++j) reduction[j] = cOf(j).dot(learners[j].rssMatrix * cOf(j));
  }

  bool ensureCross(std::size_t l) {
    if (!cross[l].empty()) return true;
    const std::size_t bytes = totalCoefs * static_cast<std::size_t>(k(l)) * sizeof(double);
    if (!policy.fits(crossBytes, bytes)) return false;
    cross[l] = reduce([l](RowShard& s) { return s.crossProducts(static_cast<int>(l)); });
    if (cross[l].size() != totalCoefs * static_cast<std::size_t>(k(l)))
      throw ComputeError("sharded backend: a shard returned cross-products of the wrong size");
    crossBytes += bytes;
    return true;
  }

  // Every shard adds nu B_l delta to its f and sums its loss there, both in the shard's one thread; the risk.
  double stepAndRisk(int learner, const std::vector<double>& delta) {
    const std::vector<double> sums = reduce([&](RowShard& s) {
      s.addStep(learner, delta);
      return std::vector<double>{s.lossSum()};
    });
    exchangedBytes += static_cast<double>((delta.size() * sizeof(double) + sizeof(int)) * shards.size());
    ++iterations;
    return sums[0] / totalWeight;
  }

  std::string exchangeSummary() const {
    if (iterations == 0) return {};
    double slowest = 0.0;
    for (const auto& shard : shards) slowest = std::max(slowest, shard->transferSeconds());
    const double perIteration = (slowest + hostSeconds) / iterations;
    return "exchange " + std::to_string(static_cast<long long>(perIteration * 1e6 + 0.5)) + " us/iteration, " +
           std::to_string(static_cast<long long>(exchangedBytes / iterations + 0.5)) + " B/iteration";
  }

  // Cached scheme: the steps picked but not yet sent to the shards, and their results (risk still to come).
  std::vector<RowShard::Step> pendingSteps;
  std::vector<IterationResult> pendingResults;

  // Sends the pending steps to every shard as one batch, then their risks (loss sums added in shard order, then
  // across processes, as stepAndRisk adds one) complete the results, which go to `out`.
  void flush(std::vector<IterationResult>& out) {
    if (pendingSteps.empty()) return;
    const std::vector<double> sums = reduce([&](RowShard& s) { return s.stepsAndLosses(pendingSteps); });
    for (std::size_t i = 0; i < pendingSteps.size(); ++i) {
      pendingResults[i].risk = sums.at(i) / totalWeight;
      exchangedBytes +=
          static_cast<double>((pendingSteps[i].delta.size() * sizeof(double) + sizeof(int)) * shards.size());
      out.push_back(std::move(pendingResults[i]));
    }
    iterations += static_cast<int>(pendingSteps.size());
    pendingSteps.clear();
    pendingResults.clear();
  }

  // One iteration. The cached scheme picks every step from c on the host, so the shards need not answer before the
  // next pick: the step waits in pendingSteps until an exact c is due (flushed first, since c then comes from the
  // shards' f) or the batch ends. Fills read only x, so they need no flush.
  void iterateOnce(std::vector<IterationResult>& out) {
    if (!cached || policy.refreshDue(cValid, sinceRefresh)) {
      flush(out);
      exactCoefficients();
    }
    computeReductions();
    const std::size_t best = bestLearner(reduction);
    const Learner& learner = (*problem.learners)[best];
    const Eigen::VectorXd delta = learner.solveMatrix * cOf(best);
    std::vector<double> deltaHost(delta.data(), delta.data() + delta.size());
    IterationResult result;
    if (!cached) result.risk = stepAndRisk(static_cast<int>(best), deltaHost);
    result.learner = static_cast<int>(best);
    const Eigen::VectorXd step = problem.nu * delta;
    result.delta.assign(step.data(), step.data() + step.size());
    if (cached) {
      if (ensureCross(best)) {
        using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        const Eigen::Map<const RowMajor> C(cross[best].data(), static_cast<Eigen::Index>(totalCoefs), k(best));
        Eigen::Map<Eigen::VectorXd>(c.data(), static_cast<Eigen::Index>(totalCoefs)).noalias() -= C * step;
        ++sinceRefresh;
      } else {
        cValid = false;
      }
      pendingSteps.push_back({static_cast<int>(best), std::move(deltaHost)});
      pendingResults.push_back(std::move(result));
      return;
    }
    out.push_back(std::move(result));
  }
};

ShardedBackend::ShardedBackend(std::vector<std::unique_ptr<RowShard>> shards, std::unique_ptr<ShardReducer> reducer)
    : s_(std::make_unique<State>()) {
  if (shards.empty()) throw ComputeError("sharded backend: no shards");
  s_->devices = std::move(shards);
  s_->pieces.resize(s_->devices.size());
  for (const auto& shard : s_->devices) s_->shards.push_back(shard.get());
  s_->reducer = reducer ? std::move(reducer) : std::make_unique<LocalReducer>();
}

ShardedBackend::~ShardedBackend() = default;

void ShardedBackend::setReducer(std::unique_ptr<ShardReducer> reducer) {
  if (!reducer) throw ComputeError("sharded backend: no reducer");
  s_->reducer = std::move(reducer);
  s_->prepared = false;
}

std::size_t ShardedBackend::shardCount() const { return s_->shards.size(); }

std::size_t ShardedBackend::deviceCount() const { return s_->devices.size(); }

void ShardedBackend::setMaxShardRows(std::size_t rows) {
  s_->maxShardRows = rows;
  s_->prepared = false;
}

std::pair<std::size_t, std::size_t> ShardedBackend::shardRows(std::size_t n, std::size_t shards, std::size_t s) {
  return {n * s / shards, n * (s + 1) / shards};
}

BackendInfo ShardedBackend::info() const {
  BackendInfo info = s_->devices.front()->info();
  std::string devices;
  for (std::size_t d = 0; d < s_->devices.size(); ++d) {
    devices += (devices.empty() ? "" : "; ") + s_->devices[d]->info().device;
    if (!s_->pieces[d].empty()) devices += " (" + std::to_string(s_->pieces[d].size() + 1) + " pieces)";
  }
  info.device = std::to_string(s_->shards.size()) + " shards: " + devices;
  info.backend = "sharded";
  info.tuning = s_->exchangeSummary();
  if (!s_->reducer->name().empty()) info.backend += " (" + s_->reducer->name() + ")";
  info.scheme = s_->cached ? "sharded-cached" : "sharded-gradient";
  return info;
}

void ShardedBackend::prepare(const BoostProblem& problem) {
  State& s = *s_;
  requireCompleteProblem(problem, "sharded backend");
  if (problem.family.reestimated())
    throw InputError(optionMessage("--devices", "--family " + toString(problem.family.family) +
                                                    ": its nuisance parameter is re-estimated from all rows at every "
                                                    "iteration, which is not built across devices or processes "
                                                    "(--distributed) yet; use one device"));
  // The problem is this process's rows (all of them within one process; a rank's part of a distributed fit).
  const std::size_t n = problem.rows;
  if (n < s.devices.size())
    throw InputError(optionMessage(
        "--devices", std::to_string(s.devices.size()) + " devices need at least as many rows; the " +
                         (s.reducer->processes() > 1 ? "rank's part of the " : "") + "data has " + std::to_string(n)));
  s.problem = problem;
  s.policy = policy_;
  const std::vector<std::pair<std::size_t, std::size_t>> ranges = s.layOut(0, n);
  // Every shard in parallel, each reading its rows of x in place (a slice copies only y, the weights and the
  // linear and factor learners' x).
  {
    ScopedStage stage("shards set-up (in parallel)");
    s.workers.run(s.shards.size(), [&](std::size_t d) {
      s.shards[d]->prepare(sliceOf(problem, ranges[d].first, ranges[d].second)->problem);
    });
  }
  const std::vector<Learner>& learners = *problem.learners;
  s.coefOffset.assign(learners.size(), 0);
  s.totalCoefs = 0;
  for (std::size_t j = 0; j < learners.size(); ++j) {
    s.coefOffset[j] = s.totalCoefs;
    s.totalCoefs += static_cast<std::size_t>(learners[j].numColumns());
  }
  const std::vector<double>* v = problem.oobWeights ? problem.oobWeights : problem.weights;
  std::vector<double> total{0.0};
  if (v)
    for (double w : *v) total[0] += w;
  else
    total[0] = static_cast<double>(n);
  s.reducer->sum(total);  // the other processes' rows
  s.totalWeight = total[0];
  s.cached = !problem.gradientEachIteration() && s.policy.refreshInterval > 1;
  for (const auto& shard : s.shards) s.cached = s.cached && shard->crossProductsInOnePass();
  s.reduction.assign(learners.size(), 0.0);
  s.cross.assign(learners.size(), {});
  s.crossBytes = 0;
  s.cValid = false;
  s.sinceRefresh = 0;
  s.iterations = 0;
  s.exchangedBytes = s.hostSeconds = 0.0;
  s.pendingSteps.clear();
  s.pendingResults.clear();
  s.prepared = true;
}

void ShardedBackend::iterate(int count, std::vector<IterationResult>& out) {
  if (!s_->prepared) throw ComputeError("sharded backend: iterate() before prepare()");
  if (s_->reducer->processes() > 1) {
    // Every process must take the same batches: the cached scheme exchanges once a batch, and a process that
    // batched otherwise would meet the others in a different exchange.
    std::vector<double> counts{static_cast<double>(count)};
    s_->reducer->sum(counts);
    if (counts[0] != static_cast<double>(count) * s_->reducer->processes())
      throw ComputeError("sharded backend: the processes asked for batches of different sizes");
  }
  for (int it = 0; it < count; ++it) s_->iterateOnce(out);
  s_->flush(out);
}

// f on this process's rows, in shard order.
std::vector<double> ShardedBackend::localFitted() {
  std::vector<std::vector<double>> parts(s_->shards.size());
  s_->workers.run(parts.size(), [&](std::size_t d) { parts[d] = s_->shards[d]->fitted(); });
  std::vector<double> f;
  f.reserve(s_->problem.rows);
  for (const std::vector<double>& part : parts) f.insert(f.end(), part.begin(), part.end());
  return f;
}

std::vector<double> ShardedBackend::fitted() { return s_->reducer->gather(localFitted()); }

CandidateScores ShardedBackend::candidates() {
  State& s = *s_;
  if (!s.prepared) throw ComputeError("sharded backend: candidates() before prepare()");
  // Exact c from the shards, leaving the incremental state as it was: asking must not change the fit.
  exactScoresKeepingState(s);
  const std::vector<double> f = localFitted();
  const std::vector<double>& y = *s.problem.response;
  std::vector<double> sums{0.0};
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double u = s.problem.family.ngradient(y[i], f[i]);
    sums[0] += (s.problem.weights ? (*s.problem.weights)[i] : 1.0) * u * u;
  }
  s.reducer->sum(sums);
  const double uwu = sums[0];
  CandidateScores scores;
  scores.residualSumOfSquares = uwu;
  for (double r : s.reduction) scores.rss.push_back(uwu - r);
  return scores;
}

}  // namespace gb

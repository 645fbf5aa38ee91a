#pragma once
// The compute strategy behind the Booster (design.md section 3). The backend owns where the data lives;
// the Booster never knows which one it drives. Per iteration only (j*, risk, nu*delta_j*) comes back.
#include <memory>
#include <string>
#include <vector>

#include "compute/IterationPolicy.hpp"
#include "family/FamilyFunctions.hpp"
#include "learner/Learner.hpp"
#include "settings/ComputeSettings.hpp"

namespace gb {

// Everything a backend needs, set up once. Pointers stay valid for the backend's lifetime (the Booster owns them).
struct BoostProblem {
  std::size_t rows = 0;
  const std::vector<double>* response = nullptr;       // y (n)
  std::vector<const std::vector<double>*> covariates;  // x of learner j (n), in learner order
  // Optional, for a row slice that does not copy x: where set (one per learner), learner j's x is the `rows` values
  // at covariateRows[j] and covariates[j] may be null. Only the sharded backend's slices set it; column(j) reads
  // either.
  std::vector<const double*> covariateRows;
  const std::vector<Learner>* learners = nullptr;
  double offset = 0.0;  // mu0: the family's offset (mean(y) for gaussian) or --offset
  double nu = 0.1;
  const std::vector<double>* weights = nullptr;  // case weights (n), or null for all 1
  // A resampling fold's out-of-bag weights (n), or null: the risk reported is then sum(oob loss) / sum(oob).
  const std::vector<double>* oobWeights = nullptr;
  FamilyFunctions family;  // gaussian by default

  // Whether the negative gradient must be recomputed and B'(w u) formed exactly every iteration: any family but
  // gaussian, case weights, or a linear or factor learner. Otherwise the residual shortcut applies (u changes by
  // exactly the selected learner's step, so B_j'u can be updated from cached cross-products). For the OpenCL and
  // sharded backends; the CPU backend's shortcut takes every gaussian model (compute/CpuBackend.hpp).
  bool gradientEachIteration() const;
  const double* column(std::size_t j) const { return covariateRows.empty() ? covariates[j]->data() : covariateRows[j]; }
};

// Throws ComputeError "<backend>: incomplete problem ..." / "<backend>: no learners" (a programming error).
void requireCompleteProblem(const BoostProblem& problem, const std::string& backend);

struct IterationResult {
  int learner = -1;           // j*, index into the learners
  double risk = 0.0;          // sum(w loss) / sum(w) after this iteration's update (gaussian: mean((y - mu)^2))
  std::vector<double> delta;  // nu * delta_j* (k_j* entries): added to gamma_j*
  double nuisance = 0.0;      // the parameter re-estimated at the new f (gamma's shape, negbin's size, huber's d)
};

// The "learner race" of the current iteration: what each candidate would achieve on the current residuals.
struct CandidateScores {
  double residualSumOfSquares = 0.0;  // u'Wu before the step (u the negative gradient; g'g for gaussian)
  std::vector<double> rss;            // sum w (u - B_j delta_j)^2 of each learner's unshrunk fit
};

struct BackendInfo {
  std::string backend;    // "cpu" | "opencl"
  std::string device;     // e.g. "2-core CPU (Eigen, OpenMP)" or the OpenCL device name
  std::string kernel;     // kernel strategy used for B'g ("moments" on the CPU)
  std::string precision;  // "double" | "float"
  std::string tuning;     // experiment switches in force (opencl/Tuning.hpp), "" for none
  std::string scheme;     // how an iteration runs: "moments-cached" on the CPU; plain, fused, ... on OpenCL
};

// Several fits of one design advancing together: resampling folds (compute/CrossValidation.hpp) that share rows,
// response, covariates and knots and differ in weights, out-of-bag weights, offset and lambdas.
class FoldBatch {
 public:
  virtual ~FoldBatch() = default;
  // Runs `count` iterations of every fold, appending fold b's results to out[b].
  virtual void iterate(int count, std::vector<std::vector<IterationResult>>& out) = 0;
  virtual BackendInfo info() const = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendInfo info() const = 0;
  // Called once before any iterate(); mu starts at problem.offset.
  virtual void prepare(const BoostProblem& problem) = 0;
  // Runs `count` iterations of Algorithm 2, appending one result per iteration to `out`.
  virtual void iterate(int count, std::vector<IterationResult>& out) = 0;
  // The current mu (n values).
  virtual std::vector<double> fitted() = 0;
  // Scores of every candidate on the current residuals (teaching mode; not on the hot path).
  virtual CandidateScores candidates() = 0;
  // How many folds one FoldBatch may hold; 0 (the default): this backend runs folds one by one.
  virtual std::size_t foldBatchSize() const { return 0; }
  // At most foldBatchSize() folds as one batch (each problem as prepare() takes it, with its oobWeights), or nullptr
  // for a model this backend does not batch. Instead of prepare().
  virtual std::unique_ptr<FoldBatch> prepareFolds(const std::vector<BoostProblem>& folds) {
    (void)folds;
    return nullptr;
  }

  // The refresh and cross-product cache policy both backends follow (compute/IterationPolicy.hpp); call before
  // prepare(). Exact B'g at least every `iterations` iterations (0 or 1: every iteration; the OpenCL backend then
  // runs without its cache); the cache takes at most `bytes`.
  void setRefreshInterval(int iterations) { policy_.refreshInterval = iterations < 0 ? 0 : iterations; }
  void setCrossCacheBytes(std::size_t bytes) { policy_.cacheBytes = bytes; }
  const IterationPolicy& policy() const { return policy_; }

 protected:
  IterationPolicy policy_;
};

// The one validation of compute settings, used by the CLI and the window (through makeBackend): a known backend,
// a precision and kernel that backend has (the CPU backend computes in double and has no kernels), threads >= 0.
// Throws InputError naming the option.
void validateComputeSettings(const ComputeSettings& compute);
// What a backend offers, for the window's choices and the messages: kernel names ("" = the backend's default is
// always allowed too) and the precisions it computes in.
std::vector<std::string> kernelChoices(BackendKind backend);
std::vector<Precision> precisionChoices(BackendKind backend);

// Validates `compute`, then makes the backend it names ("cpu" or "opencl"); throws InputError for bad settings or
// for "--backend opencl" without a usable OpenCL platform, naming why.
std::unique_ptr<Backend> makeBackend(const ComputeSettings& compute);

}  // namespace gb

#pragma once
// Component-wise gradient boosting (Algorithms 1 and 2 of the paper, with mboost's families, case weights and
// linear and factor learners).
// The caller owns the loop: step() or run(n, progress); progress returning false cancels between batches.
#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <vector>

#include "compute/Backend.hpp"
#include "compute/StepLog.hpp"
#include "family/FamilyFunctions.hpp"
#include "learner/Learner.hpp"
#include "learner/ModelFrame.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

struct Model;
struct HoldoutSpec;
class HeldOutRisk;

struct BoostPath {
  std::vector<int> learner;  // j* of iterations 1..m
  std::vector<double> risk;  // risk[0] = sum(w loss(y, mu0)) / sum(w), risk[m] after iteration m
};

class Booster;
// Called after each batch of iterations; return false to stop.
using ProgressCallback = std::function<bool(const Booster&)>;

class Booster {
 public:
  // Validates the settings, builds the learners (lambda from the edf) and prepares the backend.
  // Throws InputError for bad data or options, ComputeError for device failures.
  // The data is shared, not copied (n = 1e6 x 100 covariates is 800 MB).
  // group (common/ShardReducer.hpp): one process of a distributed fit, `data` its part of the rows (data->firstRow);
  // the frame's checks and counts, the offset, the first risk and the learners then come from every process's rows,
  // and `backend` fits this process's rows (a sharded backend with the same processes). Null: one process.
  Booster(std::shared_ptr<const Dataset> data, ModelSettings settings, std::unique_ptr<Backend> backend,
          ShardReducer* group = nullptr);
  // A resampling fold's fit (mboost's cvrisk): weights `fold` (one per input row, learner/ModelFrame.hpp applyFold),
  // the offset and every lambda from them, knots from all used rows, path().risk the out-of-bag risk. allRows: the
  // model frame of every used row (buildModelFrame(data, settings)), built once for all folds; null builds it here.
  Booster(std::shared_ptr<const Dataset> data, ModelSettings settings, std::unique_ptr<Backend> backend,
          const std::vector<double>& fold, const std::string& foldName, const ModelFrame* allRows = nullptr,
          OutOfBag outOfBag = OutOfBag::Required);
  // A fold's fit from its frame, the fold already applied (applyFold), e.g. with its Grams (compute/FoldGrams.hpp).
  Booster(std::shared_ptr<const Dataset> data, ModelSettings settings, std::unique_ptr<Backend> backend,
          ModelFrame foldFrame);
  // fit --holdout (compute/Holdout.hpp): a fold's fit that holds out a share of the used rows; path().risk stays the
  // fit's own risk over the rows it is fitted on, heldOut() follows the held-out rows' risk.
  Booster(std::shared_ptr<const Dataset> data, ModelSettings settings, std::unique_ptr<Backend> backend,
          const HoldoutSpec& holdout);
  ~Booster();
  Booster(const Booster&) = delete;
  Booster& operator=(const Booster&) = delete;

  const ModelSettings& settings() const { return settings_; }
  const std::vector<Learner>& learners() const { return learners_; }
  BackendInfo backendInfo() const { return backend_->info(); }
  std::size_t rows() const { return frame_.response.size(); }  // the used rows (this process's, in a distributed fit)
  // The rows used, the coded response, the weights, what was omitted (learner/ModelFrame.hpp).
  const ModelFrame& frame() const { return frame_; }
  const FamilyFunctions& family() const { return family_; }
  int iteration() const { return static_cast<int>(path_.learner.size()); }
  double offset() const { return offset_; }
  const BoostPath& path() const { return path_; }
  // The held-out rows and their risk after m = 0..iteration() iterations; null unless a holdout fit.
  const HeldOutRisk* heldOut() const { return heldOut_.get(); }
  const std::vector<Eigen::VectorXd>& coefficients() const { return gamma_; }
  // Every iteration's coefficient step (replaying a past iteration without refitting).
  const StepLog& steps() const { return steps_; }
  std::vector<int> selectionCounts() const;
  // Total risk reduction credited to each learner (sum over its selections of risk[m-1] - risk[m]).
  std::vector<double> riskReductions() const;

  // One iteration.
  void step();
  // Up to `iterations` more iterations in batches of `batch` (0: chosen so progress comes ~10+ times a
  // second); calls progress after each batch and stops when it returns false. Returns iterations done.
  int run(int iterations, const ProgressCallback& progress = {}, int batch = 0);

  std::vector<double> fitted() const;
  CandidateScores candidates() const;
  // Partial effect f_j(x) = B_j(x) gamma_j, uncentred, at the given x (linear extrapolation outside the range; a
  // factor's x is its level code).
  std::vector<double> partialEffect(std::size_t learner, const std::vector<double>& x) const;

  double setupSeconds() const { return setupSeconds_; }
  double fitSeconds() const { return fitSeconds_; }

  Model model() const;

 private:
  void apply(const std::vector<IterationResult>& results);
  void setUp(std::unique_ptr<Backend> backend, bool outOfBagPath = true);
  // Refuses a risk at the offset (or a gradient there) that is not finite, and squared residuals that underflow.
  void checkStartingRisk(double risk0, const std::vector<double>& riskWeights) const;
  void blameHugeWeights(const std::vector<double>& riskWeights) const;  // throws naming --weights
  void blameTinyRisk(const std::vector<double>& riskWeights) const;     // throws naming --weights
  void blameHuberDelta(const std::vector<double>& riskWeights) const;   // throws naming --huber-delta

  ModelSettings settings_;
  std::shared_ptr<const Dataset> data_;
  ShardReducer* group_ = nullptr;
  ModelFrame frame_;
  FamilyFunctions family_;
  std::vector<Learner> learners_;
  std::unique_ptr<Backend> backend_;
  double offset_ = 0.0;
  BoostPath path_;
  std::unique_ptr<HeldOutRisk> heldOut_;
  std::vector<Eigen::VectorXd> gamma_;
  StepLog steps_;
  double setupSeconds_ = 0.0;
  double fitSeconds_ = 0.0;
};

}  // namespace gb

#pragma once
// What the fit worker publishes for the UI. FitSetup is made once per Booster (immutable afterwards, shared);
// a FitSnapshot is a cheap copy of the Booster's state after a batch. The UI never touches the Booster while
// a worker runs: everything it draws comes from these.
#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/Backend.hpp"
#include "compute/StepLog.hpp"
#include "data/Dataset.hpp"
#include "family/FamilyFunctions.hpp"
#include "learner/Learner.hpp"
#include "settings/ModelSettings.hpp"

namespace gbui {

struct FitSetup {
  std::shared_ptr<const gb::Dataset> data;  // the used rows (the model frame's data: factors as level codes)
  gb::ModelSettings settings;
  gb::BackendInfo backend;
  std::vector<gb::Learner> learners;        // copies: the UI reads bases, gram, penalty, lambda
  std::vector<Eigen::VectorXd> basisMeans;  // column means of B_j over the training rows (weighted by w)
  gb::FamilyFunctions family;
  std::string responseName;
  std::vector<std::string> responseLevels;  // binomial: the two levels (the second is the event)
  std::vector<double> observed;             // the response per used row on the response scale (binomial: 0/1)
  std::string omissionNote;                 // "" when every row is used
  double offset = 0.0;
  std::size_t rows = 0;
  double setupSeconds = 0.0;

  const std::vector<double>& covariate(std::size_t j) const { return data->columns[learners[j].column]; }
};

// The learner race of one iteration: what every candidate would have achieved on the residuals it faced.
struct RaceSnapshot {
  int iteration = 0;     // the iteration these candidates competed for
  bool decided = false;  // true: the Booster already took iteration `iteration` (winner is its choice)
  int winner = -1;
  double residualSumOfSquares = 0.0;
  std::vector<double> reduction;  // g'g - RSS_j per learner
};

struct FitSnapshot {
  std::shared_ptr<const FitSetup> setup;
  int iteration = 0;
  int target = 0;  // iteration the current job is heading for
  std::vector<int> pathLearner;
  std::vector<double> pathRisk;
  std::vector<Eigen::VectorXd> coefficients;
  std::vector<int> counts;
  std::vector<double> riskReductions;
  std::optional<RaceSnapshot> race;
  double jobSeconds = 0.0;  // wall time of the fit's jobs so far, after its set-up (a paused fit's jobs added up)
  // f per used row (link scale); only in a job's last snapshot (an n-length copy, a download on OpenCL).
  std::shared_ptr<const std::vector<double>> fitted;
  // Every iteration's coefficient step so far (a fit made in this window; null for an opened model): the
  // iteration scrubber replays any past iteration from it (fit/Replay.hpp).
  std::shared_ptr<const gb::StepLog> steps;
  unsigned long serial = 0;
};

}  // namespace gbui

#pragma once
// The worker side of a fit: builds the Booster (once per session) and advances it to a target iteration in
// batches of ~40 ms, publishing a snapshot after each batch. Runs on the worker thread only; the controller
// touches a FitSession only while no job runs.
#include <atomic>
#include <memory>
#include <string>

#include "common/RunProfile.hpp"
#include "compute/Booster.hpp"
#include "fit/SnapshotSlot.hpp"

namespace gbui {

class TaskWorker;

// One Booster and what belongs to it. `signature` identifies the data + settings it was built for.
struct FitSession {
  std::string signature;
  std::shared_ptr<const gb::Dataset> data;
  gb::ModelSettings settings;
  gb::ComputeSettings compute;
  std::shared_ptr<gb::Booster> booster;
  std::shared_ptr<const FitSetup> setup;
  // Fit > Time budget in the log: the session's profile (null: off), active while its jobs run, and its report,
  // written by the job that reaches mstop.
  std::shared_ptr<gb::RunProfile> profile;
  std::string profileReport;
  bool overshootWarned = false;    // the warning that the risk ended above the offset's: once a session
  double earlierJobSeconds = 0.0;  // wall time of the session's finished jobs (a paused fit resumed, its Steps)
};

enum class JobKind { Run, Step };
enum class JobEnd { Completed, Paused, Cancelled };

struct FitJob {
  std::shared_ptr<FitSession> session;
  std::shared_ptr<SnapshotSlot> slot;
  std::shared_ptr<std::atomic<bool>> pause;
  JobKind kind = JobKind::Run;
  int target = 0;                  // Run: advance to this iteration
  bool previewRace = true;         // Run: at the end (completed, paused or cancelled), score the next iteration
  JobEnd end = JobEnd::Completed;  // written by the worker, read after the job

  void operator()(TaskWorker& worker);

 private:
  void run(TaskWorker& worker);
};

// Seconds per batch the worker aims at: small enough that Cancel and Pause act within 200 ms even when a batch
// runs twice as long as predicted, large enough that per-batch costs (snapshot copy, callback) stay < 0.1%.
inline constexpr double kTargetBatchSeconds = 0.04;

// Boosters the fit jobs of this process have built (a test's count of fits: Open model must build none).
int fitJobBoostersBuilt();

std::shared_ptr<const FitSetup> makeFitSetup(const gb::Booster& booster);
FitSnapshot makeSnapshot(const gb::Booster& booster, std::shared_ptr<const FitSetup> setup);

}  // namespace gbui

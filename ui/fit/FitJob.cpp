#include "fit/FitJob.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>

#include "bench/ProfileReport.hpp"
#include "common/Error.hpp"
#include "common/WorkerThread.hpp"
#include "compute/Divergence.hpp"
#include "model/PartialEffect.hpp"

namespace gbui {

namespace {

using Clock = std::chrono::steady_clock;
std::atomic<int> boostersBuilt{0};
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

RaceSnapshot scoreCandidates(const gb::Booster& booster, int iteration) {
  const gb::CandidateScores scores = booster.candidates();
  RaceSnapshot race;
  race.iteration = iteration;
  race.residualSumOfSquares = scores.residualSumOfSquares;
  race.reduction.reserve(scores.rss.size());
  for (double rss : scores.rss) race.reduction.push_back(scores.residualSumOfSquares - rss);
  // Lowest RSS, ties to the lowest index: the Booster's rule (design.md section 2).
  race.winner = static_cast<int>(std::min_element(scores.rss.begin(), scores.rss.end()) - scores.rss.begin());
  return race;
}

}  // namespace

int fitJobBoostersBuilt() { return boostersBuilt.load(); }

std::shared_ptr<const FitSetup> makeFitSetup(const gb::Booster& booster) {
  auto setup = std::make_shared<FitSetup>();
  const gb::ModelFrame& frame = booster.frame();
  setup->data = frame.data;
  setup->settings = booster.settings();
  setup->backend = booster.backendInfo();
  setup->learners = booster.learners();
  setup->offset = booster.offset();
  setup->rows = booster.rows();
  setup->setupSeconds = booster.setupSeconds();
  setup->family = booster.family();
  setup->responseName = setup->settings.response;
  setup->responseLevels = frame.responseLevels;
  setup->omissionNote = frame.omissionNote();
  setup->observed = frame.response;
  if (gb::isBinary(setup->family.family))
    for (double& y : setup->observed) y = y > 0 ? 1.0 : 0.0;  // coded -1 / +1: back to 0 / 1
  for (const gb::Learner& l : setup->learners) setup->basisMeans.push_back(gb::designMeans(l));
  return setup;
}

FitSnapshot makeSnapshot(const gb::Booster& booster, std::shared_ptr<const FitSetup> setup) {
  FitSnapshot s;
  s.setup = std::move(setup);
  s.iteration = booster.iteration();
  s.pathLearner = booster.path().learner;
  s.pathRisk = booster.path().risk;
  s.coefficients = booster.coefficients();
  s.counts = booster.selectionCounts();
  s.riskReductions = booster.riskReductions();
  s.steps = std::make_shared<const gb::StepLog>(booster.steps());  // shared chunks: a cheap copy
  return s;
}

// The time budget of the session's fit, once it has reached mstop: the floors are measured now, on the worker.
static std::string timeBudgetReport(FitSession& s) {
  s.profile->drain();
  std::ostringstream text;
  gb::printProfile(text, *s.profile, gb::measureProfileFloors(s.compute), s.booster->iteration());
  return text.str();
}

// As `fit` refuses to write a diverged fit, the window fails it (a dialog) at the batch whose risk stopped being
// finite, rather than drawing curves of inf and NaN (MessageSink words the CLI's options as the window's controls).
static void checkFinite(const gb::Booster& booster, std::size_t from, const std::string& source) {
  const gb::ModelSettings& s = booster.settings();
  gb::checkRiskFinite(booster.path().risk, from, source, s.family, s.nu, booster.frame().response);
}

void FitJob::operator()(TaskWorker& worker) {
  FitSession& s = *session;
  std::optional<gb::RunProfile::Activation> profiling;
  if (s.profile) profiling.emplace(*s.profile);
  run(worker);
  profiling.reset();
  if (s.profile && s.booster && s.booster->iteration() >= s.settings.mstop) s.profileReport = timeBudgetReport(s);
}

void FitJob::run(TaskWorker& worker) {
  FitSession& s = *session;
  if (!s.booster) {
    s.booster = std::make_shared<gb::Booster>(s.data, s.settings, gb::makeBackend(s.compute));
    ++boostersBuilt;
    s.setup = makeFitSetup(*s.booster);
  }
  gb::Booster& booster = *s.booster;
  unsigned long serial = 0;
  const auto start = Clock::now();
  // However the job ends (a return, a failure), its time joins the session's, so that a paused, stepped and resumed
  // fit says the time of all its iterations, not of its last job's.
  struct AddTime {
    FitSession& session;
    Clock::time_point start;
    ~AddTime() { session.earlierJobSeconds += since(start); }
  } addTime{s, start};
  auto publish = [&](std::optional<RaceSnapshot> race, bool last = false) {
    FitSnapshot snap = makeSnapshot(booster, s.setup);
    if (last) snap.fitted = std::make_shared<const std::vector<double>>(booster.fitted());
    snap.target = target;
    snap.race = std::move(race);
    snap.jobSeconds = s.earlierJobSeconds + since(start);
    snap.serial = ++serial;
    slot->publish(std::move(snap));
  };
  publish(std::nullopt);  // the set-up alone is worth showing (learners, knots, rug)

  if (kind == JobKind::Step) {
    RaceSnapshot race = scoreCandidates(booster, booster.iteration() + 1);
    booster.step();
    checkFinite(booster, static_cast<std::size_t>(booster.iteration()), s.data->sourceName());
    race.decided = true;
    race.winner = booster.path().learner.back();
    end = JobEnd::Completed;
    publish(std::move(race), true);
    return;
  }

  int batch = 1;
  end = JobEnd::Completed;
  while (booster.iteration() < target) {
    if (worker.cancelRequested()) {
      end = JobEnd::Cancelled;
      break;
    }
    if (pause->load()) {
      end = JobEnd::Paused;
      break;
    }
    const int count = std::min(batch, target - booster.iteration());
    const auto t0 = Clock::now();
    const auto before = static_cast<std::size_t>(booster.iteration());
    // One batch per run() call: the callback publishes and checks the flags after it.
    booster.run(
        count,
        [&](const gb::Booster&) {
          if (!std::isfinite(booster.path().risk.back())) return false;  // diverged: never drawn, failed below
          publish(std::nullopt);
          return !worker.cancelRequested() && !pause->load();
        },
        count);
    checkFinite(booster, before + 1, s.data->sourceName());
    const double perIteration = std::max(since(t0) / count, 1e-7);
    // Grow at most 4x per batch so one slow iteration (a kernel build, a page fault) cannot make a huge batch.
    batch = static_cast<int>(std::clamp(kTargetBatchSeconds / perIteration, 1.0, 4.0 * count));
  }
  // The last snapshot carries the fitted values and the next iteration's race, however the run ended (completed,
  // paused or cancelled), so the Learner race tab always shows the model on show; scoring costs one iteration.
  std::optional<RaceSnapshot> next;
  if (previewRace) next = scoreCandidates(booster, booster.iteration() + 1);
  publish(std::move(next), true);
}

}  // namespace gbui

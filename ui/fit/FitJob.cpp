#include "fit/FitJob.hpp"

#include <algorithm>
#include <chrono>

#include "common/WorkerThread.hpp"

namespace gbui {

namespace {

using Clock = std::chrono::steady_clock;
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

std::shared_ptr<const FitSetup> makeFitSetup(const gb::Booster& booster, std::shared_ptr<const gb::Dataset> data) {
  auto setup = std::make_shared<FitSetup>();
  setup->data = std::move(data);
  setup->settings = booster.settings();
  setup->backend = booster.backendInfo();
  setup->learners = booster.learners();
  setup->offset = booster.offset();
  setup->rows = booster.rows();
  setup->setupSeconds = booster.setupSeconds();
  const double n = static_cast<double>(booster.rows());
  for (const gb::Learner& l : setup->learners) {
    // B-splines sum to one on [lo, hi] (both boundary conventions), so B'1 = B'B 1 = G 1: the column means of
    // B come from the gram matrix without another pass over the data.
    setup->basisMeans.push_back(l.gram.rowwise().sum() / n);
  }
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
  return s;
}

void FitJob::operator()(TaskWorker& worker) {
  FitSession& s = *session;
  if (!s.booster) {
    s.booster = std::make_shared<gb::Booster>(s.data, s.settings, gb::makeBackend(s.compute));
    s.setup = makeFitSetup(*s.booster, s.data);
  }
  gb::Booster& booster = *s.booster;
  unsigned long serial = 0;
  const auto start = Clock::now();
  auto publish = [&](std::optional<RaceSnapshot> race) {
    FitSnapshot snap = makeSnapshot(booster, s.setup);
    snap.target = target;
    snap.race = std::move(race);
    snap.jobSeconds = since(start);
    snap.serial = ++serial;
    slot->publish(std::move(snap));
  };
  publish(std::nullopt);  // the set-up alone is worth showing (learners, knots, rug)

  if (kind == JobKind::Step) {
    RaceSnapshot race = scoreCandidates(booster, booster.iteration() + 1);
    booster.step();
    race.decided = true;
    race.winner = booster.path().learner.back();
    end = JobEnd::Completed;
    publish(std::move(race));
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
    // One batch per run() call: the callback publishes and checks the flags after it.
    booster.run(
        count,
        [&](const gb::Booster&) {
          publish(std::nullopt);
          return !worker.cancelRequested() && !pause->load();
        },
        count);
    const double perIteration = std::max(since(t0) / count, 1e-7);
    // Grow at most 4x per batch so one slow iteration (a kernel build, a page fault) cannot make a huge batch.
    batch = static_cast<int>(std::clamp(kTargetBatchSeconds / perIteration, 1.0, 4.0 * count));
  }
  if (end == JobEnd::Completed && previewRace && !worker.cancelRequested())
    publish(scoreCandidates(booster, booster.iteration() + 1));
}

}  // namespace gbui

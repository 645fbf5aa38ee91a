#include "compute/EffectBands.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>

#include "common/Error.hpp"
#include "common/SystemResources.hpp"
#include "compute/DroppedFolds.hpp"
#include "compute/FitFootprint.hpp"
#include "family/FamilyFunctions.hpp"
#include "model/PartialEffect.hpp"

namespace gb {

BandSampler::BandSampler(const ModelFrame& frame, std::uint64_t seed)
    : frame_(frame), used_(frame.keptRows.size(), seed, frame.weights, "--bands") {}

std::vector<double> BandSampler::next() { return onInputRows(frame_, used_.next()); }

std::vector<double> percentileBand(const std::vector<double>& values) {
  std::vector<double> band;
  for (double p : {0.025, 0.05, 0.95, 0.975}) band.push_back(quantileType7(values, p));
  return band;
}

namespace {

// The fitted learners' grids and centring means, and every learner's effect for one set of coefficients, flat.
struct EffectLayout {
  std::vector<std::vector<double>> grid;
  std::vector<Eigen::VectorXd> means;
  std::size_t points = 0;

  explicit EffectLayout(const std::vector<Learner>& learners) {
    for (const Learner& l : learners) {
      grid.push_back(effectGrid(l));
      means.push_back(designMeans(l));
      points += grid.back().size();
    }
  }
  // NaN over the points of every learner a refit's sample left undecided (Learner::undecided, where mboost's refit
  // would stop), so that its percentiles leave that refit out.
  void markUndecided(std::vector<double>& flat, const std::vector<Learner>& refit) const {
    std::size_t at = 0;
    for (std::size_t j = 0; j < refit.size(); at += grid[j].size(), ++j)
      if (refit[j].undecided())
        std::fill_n(flat.begin() + static_cast<std::ptrdiff_t>(at), grid[j].size(),
                    std::numeric_limits<double>::quiet_NaN());
  }
  std::vector<double> effects(const std::vector<Learner>& learners, const std::vector<Eigen::VectorXd>& gamma) const {
    std::vector<double> flat;
    flat.reserve(points);
    for (std::size_t j = 0; j < learners.size(); ++j) {
      const std::vector<double> y = centredEffect(learners[j], means[j], gamma[j], grid[j]);
      flat.insert(flat.end(), y.begin(), y.end());
    }
    return flat;
  }
};

EffectBands summarise(const Booster& fitted, const EffectLayout& layout,
                      const std::vector<std::vector<double>>& replicate) {
  EffectBands bands;
  const std::vector<Learner>& learners = fitted.learners();
  const std::vector<double> effect = layout.effects(learners, fitted.coefficients());
  std::vector<double> values(replicate.size());
  std::size_t at = 0;
  for (std::size_t j = 0; j < learners.size(); ++j) {
    LearnerBand b;
    b.name = learners[j].name;
    b.type = learners[j].type;
    b.levels = learners[j].levels;
    b.x = layout.grid[j];
    for (std::size_t i = 0; i < b.x.size(); ++i, ++at) {
      values.clear();  // the refits that decided this learner's effect (NaN marks the others)
      for (std::size_t r = 0; r < replicate.size(); ++r)
        if (!std::isnan(replicate[r][at])) values.push_back(replicate[r][at]);
      b.replicatesUsed = static_cast<int>(values.size());
      const std::vector<double> q =
          values.empty() ? std::vector<double>(4, std::numeric_limits<double>::quiet_NaN()) : percentileBand(values);
      b.effect.push_back(effect[at]);
      b.lower95.push_back(q[0]);
      b.lower90.push_back(q[1]);
      b.upper90.push_back(q[2]);
      b.upper95.push_back(q[3]);
    }
    bands.learners.push_back(std::move(b));
  }
  return bands;
}

// Every refit's effects on the layout's points, as the refits end (from several threads): NaN over an effect a
// refit left undecided, and over every effect of a sample that cannot be fitted at all (unfittableFold), so that the
// percentiles leave them out.
struct Replicates {
  const Booster& fitted;
  const EffectLayout& layout;
  const BandsMonitor& monitor;
  std::vector<std::vector<double>> effects;
  std::mutex mutex;
  int done = 0;
  int unfitted = 0;
  std::string unfittedReason;  // the lowest-numbered unfitted sample's: "bootstrap 14: its rows ..."

  Replicates(const Booster& f, const EffectLayout& l, int count, const BandsMonitor& m)
      : fitted(f), layout(l), monitor(m), effects(static_cast<std::size_t>(count)), left_(effects.size(), 0) {}

  void store(int b, const std::vector<Eigen::VectorXd>& gamma, const std::vector<Learner>& refit) {
    std::vector<double> flat = layout.effects(fitted.learners(), gamma);
    for (double v : flat)
      if (!std::isfinite(v))
        throw InputError("bootstrap " + std::to_string(b + 1) +
                         ": the refit diverged (an effect is not finite); lower --nu, e.g. --nu 0.01");
    layout.markUndecided(flat, refit);
    effects[static_cast<std::size_t>(b)] = std::move(flat);
    counted();
  }
  // False, with sample b left out, where its weights cannot be fitted. Counted once per sample: a batched run asks
  // for a batch's samples before it knows that the backend batches the model, and the refits then run one by one.
  bool fittable(int b, const std::vector<double>& weights) {
    const auto i = static_cast<std::size_t>(b);
    if (left_[i]) return false;
    const std::string why = unfittableFold(fitted.frame(), fitted.settings(), weights);
    if (why.empty()) return true;
    left_[i] = 1;
    effects[i].assign(layout.points, std::numeric_limits<double>::quiet_NaN());
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (unfitted++ == 0 || b < firstUnfitted_) {
        firstUnfitted_ = b;
        unfittedReason = "bootstrap " + std::to_string(b + 1) + ": " + why;
      }
    }
    counted();
    return false;
  }

 private:
  std::vector<char> left_;  // per sample: left out (each written by the one thread that drew it)
  int firstUnfitted_ = 0;
  void counted() {
    std::lock_guard<std::mutex> lock(mutex);
    ++done;
    if (monitor.replicateDone) monitor.replicateDone(done);
  }
};

// B >= 1, a family that resamples, and room for every refit's effects, kept until the percentiles (a million refits
// of 30 learners are about 40 GB, and ran for minutes before the memory ran out): else InputError naming --bands.
void checkRequest(const Booster& fitted, int replicates, std::size_t points) {
  if (replicates < 1)
    throw InputError(optionMessage("--bands", "must be a positive integer, got " + std::to_string(replicates)));
  fitted.settings().requireResamplable("--bands");
  requireAvailableMemory(static_cast<double>(replicates) * static_cast<double>(points) * sizeof(double), "--bands",
                         std::to_string(replicates) + " refits' effects on " + std::to_string(points) + " grid points",
                         "memory", "; ask for fewer refits");
}

}  // namespace

std::optional<EffectBands> effectBands(std::shared_ptr<const Dataset> data, const Booster& fitted, int replicates,
                                       std::uint64_t seed, const BackendMaker& makeBackend, int parallel,
                                       const BandsMonitor& monitor) {
  const EffectLayout layout(fitted.learners());
  checkRequest(fitted, replicates, layout.points);
  const int mstop = fitted.iteration();
  Replicates kept(fitted, layout, replicates, monitor);
  std::atomic<bool> stop{false};
  std::mutex draw;
  auto keepGoing = [&]() {
    if (!stop && monitor.cancelled && monitor.cancelled()) stop = true;
    return !stop;
  };
  // One device: the refits advance together where the backend batches folds (as crossValidate's do).
  bool batched = false;
  if (parallel <= 1) {
    BandSampler sampler(fitted.frame(), seed);
    BatchedFolds run;
    run.count = replicates;
    run.iterations = mstop;
    run.label = "bootstrap";
    run.outOfBag = OutOfBag::Optional;  // the refits' risk is not used
    run.weightsOf = [&](int b) {        // called in fold order: sample b is fold b
      std::vector<double> weights = sampler.next();
      return kept.fittable(b, weights) ? weights : std::vector<double>();
    };
    run.keepGoing = keepGoing;
    run.done = [&](int b, const Booster& setUp, const std::vector<IterationResult>& out) {
      std::vector<Eigen::VectorXd> gamma = setUp.coefficients();  // zeros: no iteration yet
      for (const IterationResult& r : out)
        gamma[static_cast<std::size_t>(r.learner)] += Eigen::Map<const Eigen::VectorXd>(r.delta.data(), r.delta.size());
      kept.store(b, gamma, setUp.learners());
    };
    const std::unique_ptr<Backend> backend = makeBackend();
    batched = runFoldsBatched(data, fitted.settings(), *backend, run);
  }
  BandSampler sampler(fitted.frame(), seed);
  std::optional<ModelFrame> allRows;  // every refit's frame with its weights (the pass over x runs once)
  if (!batched && replicates > 0) allRows.emplace(buildModelFrame(data, fitted.settings()));
  int drawn = 0;
  // Replicate b is the b-th sample drawn, whichever thread draws it, so the bands do not depend on the threads.
  const int atOnce = allRows ? fitsAtOnce(parallel, *allRows, fitted.settings()) : 1;
  forEachFold(batched ? 0 : replicates, atOnce, "bootstrap", [&](int, const std::function<bool()>& going) {
    if (!keepGoing()) return;
    std::vector<double> weights;
    int b = 0;
    {
      std::lock_guard<std::mutex> lock(draw);
      b = drawn++;
      weights = sampler.next();
    }
    const std::string name = "bootstrap " + std::to_string(b + 1);
    if (!kept.fittable(b, weights)) return;
    try {
      Booster refit(data, fitted.settings(), makeBackend(), weights, name, &*allRows, OutOfBag::Optional);
      refit.run(mstop, [&](const Booster&) { return keepGoing() && going(); });
      if (refit.iteration() < mstop) return;
      kept.store(b, refit.coefficients(), refit.learners());
    } catch (const InputError& e) {
      const std::string what = e.what();
      throw InputError(what.rfind("bootstrap ", 0) == 0 ? what : name + ": " + what);
    }
  });
  if (stop || kept.done < replicates) return std::nullopt;
  if (kept.unfitted == replicates)  // as cv says for folds: bands of no refit would be all null
    throw InputError(optionMessage("--bands", "no bootstrap sample can be fitted, e.g. " + kept.unfittedReason));
  EffectBands bands = summarise(fitted, layout, kept.effects);
  bands.replicates = replicates;
  bands.seed = seed;
  bands.mstop = mstop;
  bands.batched = batched;
  bands.unfitted = kept.unfitted;
  bands.unfittedReason = kept.unfittedReason;
  return bands;
}

}  // namespace gb

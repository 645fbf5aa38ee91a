#include "compute/CrossValidation.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/ParallelErrors.hpp"
#include "common/RunProfile.hpp"
#include "common/SystemResources.hpp"
#include "common/Text.hpp"
#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/DroppedFolds.hpp"
#include "compute/FitFootprint.hpp"
#include "compute/FoldGrams.hpp"

namespace gb {

namespace {

// A uniform double in [0, 1) from 53 random bits (the same on every standard library, unlike std::*_distribution).
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::size_t below(std::mt19937_64& rng, std::size_t n) {
  return std::min(n - 1, static_cast<std::size_t>(uniform(rng) * static_cast<double>(n)));
}

double caseWeight(const std::vector<double>& w, std::size_t i) {
  return w.empty() ? 1.0 : (std::isnan(w[i]) ? 0.0 : w[i]);
}

std::vector<std::size_t> permutation(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::size_t> p(n);
  std::iota(p.begin(), p.end(), std::size_t{0});
  for (std::size_t i = n; i > 1; --i) std::swap(p[i - 1], p[below(rng, i)]);
  return p;
}

// Keeps the problem a Booster prepares and nothing else: a fold's set-up (its weights, offset and lambdas) without a
// device of its own, for a FoldBatch.
class ProblemCapture final : public Backend {
 public:
  BackendInfo info() const override { return BackendInfo{"capture", "", "", "", "", ""}; }
  void prepare(const BoostProblem& p) override { problem = p; }
  void iterate(int, std::vector<IterationResult>&) override { throw ComputeError("fold set-up only"); }
  std::vector<double> fitted() override { throw ComputeError("fold set-up only"); }
  CandidateScores candidates() override { throw ComputeError("fold set-up only"); }
  BoostProblem problem;
};

std::string foldMessage(int b, const std::string& what, const std::string& label = "fold") {
  return what.rfind(label + " ", 0) == 0 ? what : label + " " + std::to_string(b + 1) + ": " + what;
}

// Sets up the folds `members` (their weights) with problem-capturing backends: their frames (the frame of all rows with
// each fold applied), their Grams together (one pass over each covariate for all of them), then each fold's offset and
// lambdas (folds in parallel).
std::vector<std::unique_ptr<Booster>> setUpFolds(const std::shared_ptr<const Dataset>& data,
                                                 const ModelSettings& settings, const ModelFrame& allRows,
                                                 const BatchedFolds& run,
                                                 const std::vector<std::vector<double>>& weights,
                                                 const std::vector<int>& members,
                                                 std::vector<ProblemCapture*>& captures) {
  const std::string& label = run.label;
  const OutOfBag outOfBag = run.outOfBag;
  std::vector<std::unique_ptr<Booster>> boosters(weights.size());
  captures.assign(boosters.size(), nullptr);
  std::vector<std::exception_ptr> errors(boosters.size());
  const int count = static_cast<int>(weights.size());
  auto each = [&](const std::function<void(std::size_t, const std::string&)>& step) {
#pragma omp parallel for schedule(dynamic, 1)
    for (int f = 0; f < count; ++f) {
      const auto i = static_cast<std::size_t>(f);
      const int at = members[i];
      const int b = run.numbers.empty() ? at : run.numbers[static_cast<std::size_t>(at)] - 1;
      try {
        step(i, label + " " + std::to_string(b + 1));
      } catch (const InputError& e) {
        errors[i] = std::make_exception_ptr(InputError(foldMessage(b, e.what(), label)));
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
    for (const auto& e : errors)
      if (e) std::rethrow_exception(e);
  };
  std::vector<ModelFrame> frames(weights.size());
  each([&](std::size_t i, const std::string& name) {
    frames[i] = allRows;
    applyFold(frames[i], weights[i], name, outOfBag);
  });
  // A cancel acts between the Grams' passes and between the folds' set-ups (lambdas): at millions of rows the whole
  // set-up takes tens of seconds. Cancelled: no boosters.
  if (!addFoldGrams(frames, settings, run.keepGoing)) return {};
  std::atomic<bool> stopped{false};
  each([&](std::size_t i, const std::string&) {
    if (stopped.load(std::memory_order_relaxed) || (run.keepGoing && !run.keepGoing())) {
      stopped.store(true, std::memory_order_relaxed);
      return;
    }
    auto capture = std::make_unique<ProblemCapture>();
    captures[i] = capture.get();
    boosters[i] = std::make_unique<Booster>(data, settings, std::move(capture), std::move(frames[i]));
  });
  if (stopped.load()) return {};
  return boosters;
}

// The folds `kept` (indices into folds) in batches of backend.foldBatchSize(), each batch's folds advancing together.
std::vector<std::string> learnerNotesOf(const Booster& booster) {
  std::vector<std::string> notes;
  for (const Learner& l : booster.learners())
    if (!l.note.empty()) notes.push_back(l.note);
  return notes;
}

// False (nothing done) when the backend does not batch this model.
bool crossValidateBatched(const std::shared_ptr<const Dataset>& data, const ModelSettings& settings,
                          const ResamplingFolds& folds, const std::vector<std::size_t>& kept, const ModelFrame& allRows,
                          Backend& backend, CvResult& result, std::vector<std::string>& reason) {
  BatchedFolds run;
  run.count = static_cast<int>(kept.size());
  run.iterations = settings.mstop;
  run.frame = &allRows;
  for (std::size_t i : kept) run.numbers.push_back(static_cast<int>(i) + 1);
  run.weightsOf = [&folds, &kept](int b) { return folds.weights[kept[static_cast<std::size_t>(b)]]; };
  run.done = [&](int b, const Booster& setUp, const std::vector<IterationResult>& out) {
    const std::size_t i = kept[static_cast<std::size_t>(b)];
    reason[i] = undecidedEffect(setUp);
    result.learnerNotes[i] = learnerNotesOf(setUp);
    std::vector<double>& risk = result.risk[i];
    risk.assign(1, setUp.path().risk.front());
    for (const IterationResult& r : out) risk.push_back(r.risk);
    checkFoldRisk(static_cast<int>(i) + 1, risk, setUp);  // before the next batch is fitted
  };
  run.setupSeconds = &result.setupSeconds;
  run.iterateSeconds = &result.iterateSeconds;
  return runFoldsBatched(data, settings, backend, run);
}

}  // namespace

namespace {

// Every fold holds a weight per data row: refused up front where they would not fit in memory (a million bootstrap
// folds of 1000 rows are 8 GB, and were drawn silently until the machine ran out).
// InputError naming option where `bytes` exceed half the available memory: "<before><bytes><after>, more than half
// of the <available> available (the fits need the rest)<advice>".
void requireHalfOfMemory(const std::string& option, double bytes, const std::string& before, const std::string& after,
                         const std::string& advice) {
  const double available = static_cast<double>(availableMemoryBytes());
  if (bytes > 0.5 * available)
    throw InputError(optionMessage(option, before + describeBytes(static_cast<std::uint64_t>(bytes)) + after +
                                               ", more than half of the " +
                                               describeBytes(static_cast<std::uint64_t>(available)) +
                                               " available (the fits need the rest)" + advice));
}

void checkFoldsFit(const char* option, int folds, std::size_t rows) {
  requireHalfOfMemory(option, static_cast<double>(folds) * static_cast<double>(rows) * sizeof(double),
                      std::to_string(folds) + " folds of " + std::to_string(rows) + " rows need ", " of fold weights",
                      "");
}

}  // namespace

void checkRiskMatrixFits(std::size_t folds, int mstop, const std::string& foldOption, const std::string& mstopOption) {
  constexpr double kBytesPerValue = 32.0 + 20.0;
  requireHalfOfMemory(
      mstopOption, static_cast<double>(folds) * (static_cast<double>(mstop) + 1.0) * kBytesPerValue,
      std::to_string(folds) + " folds (" + foldOption + ") of " + std::to_string(mstop) + " iterations need about ",
      " for their risk curves", ": fewer folds or iterations");
}

ResamplingFolds kfoldFolds(std::size_t rows, int k, std::uint64_t seed, const std::vector<double>& caseWeights) {
  if (k < 2 || static_cast<std::size_t>(k) > rows)
    throw InputError(optionMessage(
        "--kfold", "must be in 2.." + std::to_string(rows) + " (the rows used), got " + std::to_string(k)));
  checkFoldsFit("--kfold", k, rows);
  std::mt19937_64 rng(seed);
  const std::vector<std::size_t> order = permutation(rows, rng);
  ResamplingFolds f{"kfold", std::vector<std::vector<double>>(static_cast<std::size_t>(k))};
  for (int b = 0; b < k; ++b) {
    std::vector<double>& w = f.weights[static_cast<std::size_t>(b)];
    w.resize(rows);
    for (std::size_t i = 0; i < rows; ++i) w[i] = caseWeight(caseWeights, i);
  }
  for (std::size_t r = 0; r < rows; ++r) f.weights[r % static_cast<std::size_t>(k)][order[r]] = 0.0;
  return f;
}

BootstrapSampler::BootstrapSampler(std::size_t rows, std::uint64_t seed, const std::vector<double>& caseWeights,
                                   const std::string& option)
    : cumulative_(rows), rng_(seed) {
  for (std::size_t i = 0; i < rows; ++i) {
    const double w = caseWeight(caseWeights, i);
    unitWeights_ = unitWeights_ && w == 1.0;
    cumulative_[i] = total_ += w;
  }
  if (!(total_ > 0.0)) throw InputError(optionMessage(option, "every case weight is 0"));
}

std::size_t BootstrapSampler::rowOf(double u) const {
  // With every weight 1, cumulative_[i] = i + 1 exactly (n < 2^53), so the first i with u < i + 1 is floor(u): the
  // same row as the binary search, without its cache misses (at n = 1e6, 25 samples took 5.8 s, now 0.7 s).
  const std::size_t i =
      unitWeights_
          ? static_cast<std::size_t>(u)
          : static_cast<std::size_t>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin());
  return std::min(cumulative_.size() - 1, i);
}

std::vector<double> BootstrapSampler::next() { return next(1).front(); }

std::vector<std::vector<double>> BootstrapSampler::next(int count) {
  const std::size_t rows = cumulative_.size();
  // The draws in the generator's order (it is sequential), then each sample's rows and counts on its own core.
  std::vector<double> draws(static_cast<std::size_t>(count) * rows);
  for (double& u : draws) u = uniform(rng_) * total_;
  std::vector<std::vector<double>> samples(static_cast<std::size_t>(count));
  ParallelErrors errors;
#pragma omp parallel for schedule(static)
  for (int s = 0; s < count; ++s) {
    errors.run([&] {
      std::vector<double> w(rows, 0.0);
      const double* u = draws.data() + static_cast<std::size_t>(s) * rows;
      for (std::size_t d = 0; d < rows; ++d) w[rowOf(u[d])] += 1.0;
      samples[static_cast<std::size_t>(s)] = std::move(w);
    });
  }
  errors.rethrow();
  return samples;
}

ResamplingFolds bootstrapFolds(std::size_t rows, int b, std::uint64_t seed, const std::vector<double>& caseWeights) {
  if (b < 1) throw InputError(optionMessage("--bootstrap", "must be at least 1, got " + std::to_string(b)));
  checkFoldsFit("--bootstrap", b, rows);
  BootstrapSampler sampler(rows, seed, caseWeights, "--bootstrap");
  ResamplingFolds f{"bootstrap", {}};
  // As many samples at a time as there are cores, their draws held at most 256 MB at once.
  constexpr double kDrawBytes = 256.0 * 1024 * 1024;
  const int batch = static_cast<int>(
      std::clamp(kDrawBytes / (8.0 * static_cast<double>(rows)), 1.0, static_cast<double>(availableCores())));
  for (int s = 0; s < b; s += batch)
    for (std::vector<double>& w : sampler.next(std::min(batch, b - s))) f.weights.push_back(std::move(w));
  return f;
}

ResamplingFolds subsampleFolds(std::size_t rows, int b, double prob, std::uint64_t seed,
                               const std::vector<double>& caseWeights) {
  if (b < 1) throw InputError(optionMessage("--subsample", "must be at least 1, got " + std::to_string(b)));
  checkFoldsFit("--subsample", b, rows);
  if (!(prob > 0.0 && prob < 1.0))
    throw InputError(optionMessage("--prob", "must be in (0, 1), got " + formatNumber(prob, 10)));
  const auto take = static_cast<std::size_t>(std::floor(static_cast<double>(rows) * prob));
  if (take == 0 || take == rows) throw InputError(optionMessage("--prob", "leaves no row in or none out"));
  std::mt19937_64 rng(seed);
  ResamplingFolds f{"subsample", {}};
  for (int s = 0; s < b; ++s) {
    const std::vector<std::size_t> order = permutation(rows, rng);
    std::vector<double> w(rows, 0.0);
    for (std::size_t r = 0; r < take; ++r) w[order[r]] = caseWeight(caseWeights, order[r]);
    f.weights.push_back(std::move(w));
  }
  return f;
}

ResamplingFolds foldsOverUsedRows(const std::string& type, int count, double prob, std::uint64_t seed,
                                  const ModelFrame& frame) {
  const std::size_t used = frame.keptRows.size();
  ResamplingFolds f = type == "kfold"       ? kfoldFolds(used, count, seed, frame.weights)
                      : type == "subsample" ? subsampleFolds(used, count, prob, seed, frame.weights)
                      : type == "bootstrap" ? bootstrapFolds(used, count, seed, frame.weights)
                                            : throw ComputeError("foldsOverUsedRows: unknown type " + type);
  if (used == frame.inputRows) return f;  // keptRows rise, so they are every row
  for (std::vector<double>& w : f.weights) w = onInputRows(frame, w);
  return f;
}

bool runFoldsBatched(const std::shared_ptr<const Dataset>& data, const ModelSettings& settings, Backend& backend,
                     const BatchedFolds& run) {
  settings.requireResamplable("--family");
  const int size = static_cast<int>(backend.foldBatchSize());
  // A nuisance parameter (gamma's shape) is re-estimated per fold at every iteration: the folds run one by one.
  if (size <= 0 || hasNuisance(settings.family)) return false;
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  // Every fold's frame is this one with the fold's weights: the missing-value and range pass runs once.
  const auto framing = Clock::now();
  std::optional<ScopedStage> frameStage(std::in_place, "model frame");
  std::optional<ModelFrame> built;
  if (!run.frame) built.emplace(buildModelFrame(data, settings));
  const ModelFrame& allRows = run.frame ? *run.frame : *built;
  frameStage.reset();
  // A batch's folds are all set up, and held, at once: where they would not fit in memory, one by one instead.
  if (fitsAtOnce(std::min(size, run.count), allRows, settings, false) < std::min(size, run.count)) return false;
  if (run.setupSeconds) *run.setupSeconds += since(framing);
  for (int begin = 0; begin < run.count; begin += size) {
    if (run.keepGoing && !run.keepGoing()) return true;
    const int end = std::min(run.count, begin + size);
    const auto start = Clock::now();
    std::optional<ScopedStage> stage(std::in_place, "folds' weights drawn");
    std::vector<std::vector<double>> weights;
    std::vector<int> members;  // the batch's folds, without those whose weightsOf is empty (left out)
    for (int b = begin; b < end; ++b) {
      std::vector<double> w = run.weightsOf(b);
      if (w.empty()) continue;
      weights.push_back(std::move(w));
      members.push_back(b);
    }
    if (members.empty()) continue;
    std::vector<ProblemCapture*> captures;
    stage.emplace("folds' offsets, Grams and lambdas (wall)");
    const std::vector<std::unique_ptr<Booster>> boosters =
        setUpFolds(data, settings, allRows, run, weights, members, captures);
    if (boosters.empty()) return true;  // cancelled (keepGoing) during the set-up
    if (run.keepGoing && !run.keepGoing()) return true;
    stage.emplace("folds' batch set-up (wall)");
    std::vector<BoostProblem> problems;
    for (const ProblemCapture* c : captures) problems.push_back(c->problem);
    const std::unique_ptr<FoldBatch> batch = backend.prepareFolds(problems);
    stage.reset();
    // Only the first batch that was set up can get here (the model is the same in every batch), having run nothing;
    // weightsOf was asked for its folds, and will be again by the caller's one-by-one path.
    if (!batch) return false;
    if (run.setupSeconds) *run.setupSeconds += since(start);
    const auto iterating = Clock::now();
    std::vector<std::vector<IterationResult>> out;
    // With keepGoing, chunks of iterations so that a cancel acts within the batch: as many as take about 50 ms
    // (measured on the chunk before; at most 50). A fixed 50 took 2-7 s a chunk for 25 folds on PoCL.
    int chunk = run.keepGoing ? 1 : std::max(1, run.iterations);
    for (int done = 0; done < run.iterations;) {
      if (run.keepGoing && !run.keepGoing()) return true;
      const int step = std::min(chunk, run.iterations - done);
      const auto chunkStart = Clock::now();
      batch->iterate(step, out);
      done += step;
      if (run.keepGoing) chunk = std::clamp(static_cast<int>(0.05 * step / std::max(since(chunkStart), 1e-6)), 1, 50);
      if (run.progress) run.progress(begin, end, done);
      if (run.partial) {
        std::vector<std::vector<double>> curves(boosters.size());
        for (std::size_t b = 0; b < boosters.size(); ++b) {
          curves[b].push_back(boosters[b]->path().risk.front());
          if (b < out.size())
            for (const IterationResult& r : out[b]) curves[b].push_back(r.risk);
        }
        run.partial(begin, curves);
      }
    }
    if (run.iterateSeconds) *run.iterateSeconds += since(iterating);
    out.resize(boosters.size());
    for (std::size_t f = 0; f < members.size(); ++f) run.done(members[f], *boosters[f], out[f]);
  }
  return true;
}

void forEachFold(int count, int parallel, const std::string& label, const FoldFit& fitFold) {
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(std::max(0, count)));
  std::atomic<bool> failed{false};
  const std::function<bool()> going = [&failed] { return !failed.load(std::memory_order_relaxed); };
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::max(1, parallel))
  for (int b = 0; b < count; ++b) {
    const auto i = static_cast<std::size_t>(b);
    if (!going()) continue;  // a fold failed: the others are not started
    try {
      fitFold(b, going);
    } catch (const InputError& e) {
      const std::string what = e.what();
      const std::string name = label + " " + std::to_string(b + 1);
      errors[i] = std::make_exception_ptr(InputError(what.rfind(label + " ", 0) == 0 ? what : name + ": " + what));
    } catch (...) {
      errors[i] = std::current_exception();
    }
    if (errors[i]) failed = true;
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

void checkFoldRisk(int fold, const std::vector<double>& risk, const Booster& booster) {
  for (std::size_t m = 0; m < risk.size(); ++m)
    if (!std::isfinite(risk[m]))
      // Not the value: the CPU reaches inf where the device's sums of inf and -inf give NaN, for the same fold.
      throw InputError("fold " + std::to_string(fold) + " diverged: its out-of-bag risk is no longer finite after " +
                       "iteration " + std::to_string(m) + " (" +
                       divergenceAdvice(booster.settings().family, booster.settings().nu, booster.frame().response) +
                       ")");
}

FoldBackends foldBackends(const ComputeSettings& compute) {
  if (compute.backend != BackendKind::Cpu) return {[compute] { return makeBackend(compute); }, 1};
  return {[]() -> std::unique_ptr<Backend> { return std::make_unique<CpuBackend>(1); },
          compute.threads > 0 ? compute.threads : availableCores()};
}

CvResult crossValidate(std::shared_ptr<const Dataset> data, const ModelSettings& settings, const ResamplingFolds& folds,
                       const BackendMaker& makeBackend, int parallelFolds,
                       const std::function<void(int done, int total)>& foldDone) {
  settings.requireResamplable("--family");
  const int count = static_cast<int>(folds.weights.size());
  CvResult result;
  result.risk.resize(folds.weights.size());
  result.learnerNotes.resize(folds.weights.size());
  // Why each fold is left out of the mean ("" for the folds kept): the folds that cannot be fitted at all are known
  // from the frame before anything runs; those whose weights leave an effect undecided once set up.
  std::vector<std::string> reason(folds.weights.size());
  std::optional<ModelFrame> allRows;  // the folds' shared frame (see runFoldsBatched)
  if (count > 0) allRows.emplace(buildModelFrame(data, settings));
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < folds.weights.size(); ++i) {
    reason[i] = unfittableFold(*allRows, settings, folds.weights[i]);
    if (reason[i].empty()) kept.push_back(i);
  }
  bool batched = false;
  if (parallelFolds <= 1 && !kept.empty()) {
    const std::unique_ptr<Backend> backend = makeBackend();
    batched = crossValidateBatched(data, settings, folds, kept, *allRows, *backend, result, reason);
  }
  const int atOnce = allRows ? fitsAtOnce(parallelFolds, *allRows, settings) : 1;
  std::mutex progress;
  int done = 0;
  forEachFold(batched ? 0 : static_cast<int>(kept.size()), atOnce, "fold",
              [&](int k, const std::function<bool()>& going) {
                const std::size_t i = kept[static_cast<std::size_t>(k)];
                const std::string name = "fold " + std::to_string(i + 1);
                try {
                  Booster booster(data, settings, makeBackend(), folds.weights[i], name, &*allRows);
                  reason[i] = undecidedEffect(booster);
                  result.learnerNotes[i] = learnerNotesOf(booster);
                  if (booster.run(settings.mstop, [&going](const Booster&) { return going(); }) < settings.mstop)
                    return;
                  result.risk[i] = booster.path().risk;
                  checkFoldRisk(static_cast<int>(i) + 1, result.risk[i], booster);
                } catch (const InputError& e) {  // named by its own number, not its place among the folds kept
                  throw InputError(foldMessage(static_cast<int>(i), e.what()));
                }
                if (!foldDone) return;
                const std::lock_guard<std::mutex> lock(progress);
                foldDone(++done, static_cast<int>(kept.size()));
              });
  result.batched = batched;
  summariseFolds(result, reason, static_cast<std::size_t>(settings.mstop) + 1);
  return result;
}

}  // namespace gb

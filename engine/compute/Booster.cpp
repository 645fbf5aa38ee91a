#include "compute/Booster.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <optional>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/RunProfile.hpp"
#include "common/Text.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/FitFootprint.hpp"
#include "compute/Holdout.hpp"
#include "family/OffsetReason.hpp"
#include "learner/LearnerColumns.hpp"
#include "model/Model.hpp"

namespace gb {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Progress should arrive about this often during run() with an automatic batch size.
constexpr double kProgressInterval = 0.08;

// The smallest risk at the offset a fit of a squared-residual family takes: 2^20 above the smallest normal double, so
// that the risks of the path keep every digit. Below it they turn subnormal: on generated data scaled down, the path
// stayed that of the unscaled data down to a risk of 2e-318 (a response near 1e-160) and parted from it at 2e-322.
constexpr double kTinyRisk = DBL_MIN * 0x1p20;
// Below this risk at the offset, case weights hundreds of orders of magnitude apart are looked for (they leave every
// row but the heaviest a share of the risk near 1e-300, and the fit then stops at a singular learner).
constexpr double kSmallRisk = 1e-280;
constexpr double kWeightSpan = 1e100;
// At most this many iterations an automatic batch: each holds its delta until applied (about 300 bytes at k = 24),
// and a batch of 1e6 fast iterations on small data took 300 MB where the path itself needs 12 MB.
constexpr double kMaxAutomaticBatch = 4096;

}  // namespace

Booster::Booster(std::shared_ptr<const Dataset> data, ModelSettings settings, std::unique_ptr<Backend> backend,
                 ShardReducer* group)
    : settings_(std::move(settings)), data_(std::move(data)), group_(group) {
  const auto start = Clock::now();
  if (!data_) throw InputError("no data");
  settings_.validate();
  {
    const ScopedStage timed("model frame");
    frame_ = buildModelFrame(data_, settings_, group_);
  }
  setUp(std::move(backend));
  setupSeconds_ = secondsSince(start);
}

Booster::Booster(std::shared_ptr<const Dataset> data, ModelSettings settings, std::unique_ptr<Backend> backend,
                 const std::vector<double>& fold, const std::string& foldName, const ModelFrame* allRows,
                 OutOfBag outOfBag)
    : settings_(std::move(settings)), data_(std::move(data)) {
  const auto start = Clock::now();
  if (!data_) throw InputError("no data");
  settings_.validate();
  frame_ = allRows ? *allRows : buildModelFrame(data_, settings_);
  applyFold(frame_, fold, foldName, outOfBag);
  setUp(std::move(backend));
  setupSeconds_ = secondsSince(start);
}

Booster::Booster(std::shared_ptr<const Dataset> data, ModelSettings settings, std::unique_ptr<Backend> backend,
                 ModelFrame foldFrame)
    : settings_(std::move(settings)), data_(std::move(data)) {
  const auto start = Clock::now();
  if (!data_) throw InputError("no data");
  settings_.validate();
  frame_ = std::move(foldFrame);
  setUp(std::move(backend));
  setupSeconds_ = secondsSince(start);
}

Booster::Booster(std::shared_ptr<const Dataset> data, ModelSettings settings, std::unique_ptr<Backend> backend,
                 const HoldoutSpec& holdout)
    : settings_(std::move(settings)), data_(std::move(data)) {
  const auto start = Clock::now();
  if (!data_) throw InputError("no data");
  settings_.validate();
  settings_.requireResamplable("--holdout");
  frame_ = buildModelFrame(data_, settings_);
  const HoldoutFold fold = holdoutFold(frame_, holdout);
  applyFold(frame_, fold.weights, "--holdout");
  // The backend fits and reports the in-bag risk, as for any weighted fit; the held-out risk is followed here.
  try {
    setUp(std::move(backend), false);
  } catch (const InputError& e) {  // named: the rows kept may be too few where all the rows were enough
    const std::string what = e.what(), source = data_->sourceName();
    throw InputError(optionMessage(
        "--holdout", "the fit on the " + std::to_string(frame_.keptRows.size() - fold.heldOut.size()) +
                         " used rows it keeps fails: " + (what.rfind(source, 0) == 0 ? what : source + ": " + what)));
  }
  heldOut_ = std::make_unique<HeldOutRisk>(frame_, fold.heldOut, family_, offset_);
  setupSeconds_ = secondsSince(start);
}

// The risk at the offset: refused where it or the gradient there is not finite, or where squared residuals underflow.
void Booster::checkStartingRisk(double risk0, const std::vector<double>& riskWeights) const {
  const std::vector<double>& y = frame_.response;
  const std::vector<double>& w = frame_.weights;
  // Squares beyond the double range would turn every risk into inf and the fit into NaN: refuse up front.
  // --offset is to blame only where the family's own offset has a finite risk (else the response itself overflows).
  auto finiteAtFamilyOffset = [&] {
    try {
      const std::vector<double> own(y.size(), family_.offset(y, w, group_));
      return std::isfinite(family_.risk(y, own, riskWeights, group_));
    } catch (const InputError&) {
      return false;
    }
  };
  if (!std::isfinite(risk0) && settings_.hasOffset && finiteAtFamilyOffset())
    throw InputError(optionMessage("--offset", formatNumber(offset_, 6) + ": the " + toString(settings_.family) +
                                                   " risk at this starting value is not finite; give one on the "
                                                   "scale of f (or leave --offset out: the family's offset)"));
  // A finite risk can still have a gradient that is not (binomial's exp(-2yf) / (1 + exp(-2yf)) is inf / inf past
  // |f| = 355): then every step is NaN, and lowering nu, as a divergence would advise, cannot help.
  std::vector<double> badGradient{0.0};
  if (settings_.hasOffset && std::isfinite(risk0)) {
    for (std::size_t i = 0; i < y.size() && badGradient[0] == 0.0; ++i)
      if (!std::isfinite(family_.ngradient(y[i], offset_))) badGradient[0] = 1.0;
    reduceMax(group_, badGradient);
  }
  if (badGradient[0] > 0.0)
    throw InputError(optionMessage("--offset", formatNumber(offset_, 6) + ": the " + toString(settings_.family) +
                                                   " gradient at this starting value is not finite; give one on the "
                                                   "scale of f (or leave --offset out: the family's offset)"));
  if (!std::isfinite(risk0)) blameHugeWeights(riskWeights);
  if (!std::isfinite(risk0))
    throw InputError("response " + quotedForMessage(settings_.response) +
                     ": values too large (their squares overflow a double, so the risk would be infinite); "
                     "rescale the response, e.g. divide it by a power of ten");
  // The other end: squared residuals below the normal doubles leave the risk 0 or subnormal, and every learner
  // reduces it by 0, so that the first wins every iteration by the tie (a response of unit spread times 1e-162).
  const bool squared = settings_.family == Family::Gaussian || settings_.family == Family::Expectile ||
                       settings_.family == Family::Huber;
  const double d = settings_.huberDelta;
  if (settings_.family == Family::Huber && d > 0.0 && d * d < kTinyRisk) blameHuberDelta(riskWeights);
  std::vector<double> varies{0.0};  // over every process's rows: each must come to the same decision
  if (squared && risk0 < kSmallRisk) {
    for (std::size_t i = 0; i < y.size() && varies[0] == 0.0; ++i)  // rows of weight 0 do not count
      if (y[i] != offset_ && (riskWeights.empty() || riskWeights[i] > 0.0)) varies[0] = 1.0;
    reduceMax(group_, varies);
  }
  if (varies[0] > 0.0) blameTinyRisk(riskWeights);
  if (varies[0] > 0.0 && risk0 < kTinyRisk)
    throw InputError("response " + quotedForMessage(settings_.response) +
                     ": values too small (the risk at the offset, " + formatNumber(risk0, 6) +
                     ", is near the smallest normal double, 2.2e-308, where the risks lose their digits and the "
                     "learners' reductions tie at 0); rescale the response, e.g. multiply it by a power of ten");
}

// An infinite risk at the offset where the same rows unweighted give a finite one: the case weights (1e308 on a row)
// overflow it. Names --weights; returns where they are not to blame.
void Booster::blameHugeWeights(const std::vector<double>& riskWeights) const {
  // Decided over every process (one whose rows are all omitted holds no weights), since what follows is collective.
  std::vector<double> weighted{riskWeights.empty() ? 0.0 : 1.0};
  reduceMax(group_, weighted);
  if (weighted[0] == 0.0) return;
  const std::vector<double>& y = frame_.response;
  std::vector<double> unit(riskWeights.size()), largest{0.0};
  for (std::size_t i = 0; i < unit.size(); ++i) {
    unit[i] = riskWeights[i] > 0.0 ? 1.0 : 0.0;
    largest[0] = std::max(largest[0], riskWeights[i]);
  }
  reduceMax(group_, largest);
  if (!std::isfinite(family_.risk(y, std::vector<double>(y.size(), offset_), unit, group_))) return;
  throw InputError(optionMessage("--weights",
                                 "the weighted risk at the offset overflows a double (the largest "
                                 "weight is " +
                                     formatNumber(largest[0], 6) +
                                     "), though the rows' own risk is finite; rescale the weights, "
                                     "e.g. divide them by a power of ten"));
}

// A small risk where the residuals themselves are not tiny: case weights across hundreds of orders of magnitude made
// it so. Names --weights; returns where they are not to blame.
void Booster::blameTinyRisk(const std::vector<double>& riskWeights) const {
  const std::vector<double>& y = frame_.response;
  std::vector<double> spread{0.0, 0.0, -std::numeric_limits<double>::max()};  // largest |r|, largest w, -smallest w
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!riskWeights.empty() && !(riskWeights[i] > 0.0)) continue;
    spread[0] = std::max(spread[0], std::abs(y[i] - offset_));
    if (!riskWeights.empty()) {
      spread[1] = std::max(spread[1], riskWeights[i]);
      spread[2] = std::max(spread[2], -riskWeights[i]);
    }
  }
  reduceMax(group_, spread);
  if (spread[0] * spread[0] < kTinyRisk) return;  // the response's own scale
  if (!riskWeights.empty() && spread[1] > kWeightSpan * -spread[2])
    throw InputError(optionMessage("--weights", "the positive weights range from " + formatNumber(-spread[2], 6) +
                                                    " to " + formatNumber(spread[1], 6) +
                                                    ": against the largest, every other row's share of the risk "
                                                    "underflows a double; rescale or cap them"));
}

// Huber's negative gradient is the residual clipped to +-d: where d^2 is below kTinyRisk and some residual of a used
// row reaches past d, the learners' reductions lose their digits (at d = 1e-200 they all tie at 0 and the first
// learner wins every iteration). Throws naming --huber-delta; returns where every residual is within d.
void Booster::blameHuberDelta(const std::vector<double>& riskWeights) const {
  const std::vector<double>& y = frame_.response;
  std::vector<double> largest{0.0};
  for (std::size_t i = 0; i < y.size(); ++i)
    if (riskWeights.empty() || riskWeights[i] > 0.0) largest[0] = std::max(largest[0], std::abs(y[i] - offset_));
  reduceMax(group_, largest);
  if (largest[0] <= settings_.huberDelta) return;
  throw InputError(optionMessage("--huber-delta", formatNumber(settings_.huberDelta, 6) +
                                                      " is too small for residuals up to " +
                                                      formatNumber(largest[0], 6) +
                                                      ": the negative gradient is the residual clipped to +-d, and "
                                                      "its squares (d^2) fall below the normal doubles (2.2e-308), "
                                                      "so the learners' reductions lose their digits"));
}

// Everything after the model frame: offset, the risk of the offset, learners, the backend's problem. A fold's path
// is its out-of-bag risk unless outOfBagPath is false (a holdout: the fit's own risk).
void Booster::setUp(std::unique_ptr<Backend> backend, bool outOfBagPath) {
  backend_ = backend ? std::move(backend) : std::make_unique<CpuBackend>();
  settings_.learners = frame_.splines;  // "as used": the resolved lists
  settings_.linears = frame_.linears;
  settings_.factors = frame_.factors;
  family_ = FamilyFunctions::from(settings_);
  const std::vector<double>& y = frame_.response;
  const std::vector<double>& w = frame_.weights;
  offset_ = settings_.hasOffset ? settings_.offset : family_.offset(y, w, group_);
  // Weights that leave only rows of one class (or counts of 0) are named as that, not as an overflow (their ratios
  // decide: undefinedOffsetReason); a fold's weights are the fold's (the caller's label names it), not --weights.
  const std::string undefined = std::isfinite(offset_) || w.empty() || group_
                                    ? std::string()
                                    : undefinedOffsetReason(settings_, y, w, frame_.responseLevels);
  if (!undefined.empty())
    throw InputError(frame_.oobWeights.empty() && !settings_.weights.empty()
                         ? optionMessage("--weights", undefined + " (nothing to fit)")
                         : undefined + " (nothing to fit)");
  if (!std::isfinite(offset_) && !w.empty() && std::isfinite(family_.offset(y, {}, group_)))
    throw InputError(optionMessage("--weights", "the " + toString(settings_.family) + " offset is " +
                                                    formatNumber(offset_, 6) +
                                                    " with these weights: their weighted sums pass the double range; "
                                                    "rescale them (only their ratios matter to the fit)"));
  double largest = 0.0;  // only where the offset is not finite: no pass over y for every fit and fold
  if (!std::isfinite(offset_))
    for (double v : y) largest = std::max(largest, std::abs(v));
  if (largest * static_cast<double>(y.size()) > DBL_MAX)  // a mean, or its sum, overflows
    throw InputError(optionMessage("--response", quotedForMessage(settings_.response) + ": values too large (up to " +
                                                     formatNumber(largest, 6) + "): the " + toString(settings_.family) +
                                                     " offset overflows a double (" + formatNumber(offset_, 6) +
                                                     "); rescale the response, e.g. divide it by a power of ten"));
  if (!std::isfinite(offset_))
    throw InputError(optionMessage("--response", quotedForMessage(settings_.response) + ": the " +
                                                     toString(settings_.family) + " offset is not finite (" +
                                                     formatNumber(offset_, 6) + "): the response has no variation " +
                                                     "the family can model (e.g. every count 0)"));
  std::optional<ScopedStage> offsetStage(std::in_place, "offset and first risk");
  const std::vector<double>* oob = outOfBagPath && !frame_.oobWeights.empty() ? &frame_.oobWeights : nullptr;
  const std::vector<double>& riskWeights = oob ? *oob : w;
  const std::vector<double> start(y.size(), offset_);
  if (family_.reestimated()) family_.startNuisance(y, start, w);  // mboost: ngradient (and its sigma) first
  const double risk0 = family_.risk(y, start, riskWeights, group_);
  checkStartingRisk(risk0, riskWeights);
  path_.risk.push_back(risk0);

  checkFitFootprint(y.size(), frame_.splines.size() + frame_.linears.size() + frame_.factors.size(), settings_);
  offsetStage.reset();
  {
    const ScopedStage timed("learners (wall)");
    learners_ = buildLearners(frame_, settings_, group_);
  }
  gamma_.reserve(learners_.size());
  BoostProblem problem;
  problem.rows = y.size();
  problem.response = &frame_.response;
  problem.weights = w.empty() ? nullptr : &frame_.weights;
  problem.oobWeights = oob;
  problem.family = family_;
  problem.learners = &learners_;
  problem.offset = offset_;
  problem.nu = settings_.nu;
  for (const Learner& l : learners_) {
    problem.covariates.push_back(&frame_.data->columns[static_cast<std::size_t>(l.column)]);
    gamma_.push_back(Eigen::VectorXd::Zero(l.numColumns()));
  }
  const ScopedStage timed("backend set-up");
  backend_->prepare(problem);
}

Booster::~Booster() = default;

std::vector<int> Booster::selectionCounts() const {
  std::vector<int> counts(learners_.size(), 0);
  for (int j : path_.learner) ++counts[static_cast<std::size_t>(j)];
  return counts;
}

std::vector<double> Booster::riskReductions() const {
  std::vector<double> credit(learners_.size(), 0.0);
  for (std::size_t m = 0; m < path_.learner.size(); ++m)
    credit[static_cast<std::size_t>(path_.learner[m])] += path_.risk[m] - path_.risk[m + 1];
  return credit;
}

void Booster::apply(const std::vector<IterationResult>& results) {
  for (const IterationResult& r : results) {
    const auto j = static_cast<std::size_t>(r.learner);
    if (j >= learners_.size() || r.delta.size() != static_cast<std::size_t>(gamma_[j].size()))
      throw ComputeError("backend returned an invalid iteration (learner " + std::to_string(r.learner) + ")");
    path_.learner.push_back(r.learner);
    path_.risk.push_back(r.risk);
    gamma_[j] += Eigen::Map<const Eigen::VectorXd>(r.delta.data(), gamma_[j].size());
    steps_.append(r.learner, r.delta);
    if (family_.reestimated()) family_.advanceNuisance(r.nuisance);
    if (heldOut_)
      heldOut_->step(learners_[j], frame_.data->columns[static_cast<std::size_t>(learners_[j].column)], r.delta,
                     family_.sigma);
  }
}

void Booster::step() { run(1, {}, 1); }

int Booster::run(int iterations, const ProgressCallback& progress, int batch) {
  int done = 0;
  // Automatic batches start with one iteration, then aim at kProgressInterval seconds per batch from the
  // measured time per iteration.
  int next = batch > 0 ? batch : 1;
  std::vector<IterationResult> results;
  while (done < iterations) {
    const int count = std::min(next, iterations - done);
    results.clear();
    const auto start = Clock::now();
    {
      const ScopedStage timed("iterations");
      backend_->iterate(count, results);
    }
    const double seconds = secondsSince(start);
    fitSeconds_ += seconds;
    apply(results);
    done += count;
    if (batch <= 0) {
      const double perIteration = std::max(seconds / count, 1e-9);
      next = static_cast<int>(std::clamp(kProgressInterval / perIteration, 1.0, kMaxAutomaticBatch));
    }
    if (progress && !progress(*this)) break;
  }
  return done;
}

std::vector<double> Booster::fitted() const { return backend_->fitted(); }

CandidateScores Booster::candidates() const { return backend_->candidates(); }

std::vector<double> Booster::partialEffect(std::size_t learner, const std::vector<double>& x) const {
  if (learner >= learners_.size()) throw InputError("no learner number " + std::to_string(learner));
  const Learner& l = learners_[learner];
  const Eigen::VectorXd& gamma = gamma_[learner];
  std::vector<double> f(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) f[i] = learnerEffect(l.type, l.basis, gamma.data(), gamma.size(), x[i]);
  return f;
}

Model Booster::model() const {
  Model m;
  m.offset = offset_;
  m.responseLevels = frame_.responseLevels;
  m.settings = settings_;
  // Stepped past its mstop (the window's Step after a finished fit): the model's mstop is its iterations.
  m.settings.mstop = std::max(m.settings.mstop, iteration());
  const std::vector<int> counts = selectionCounts();
  for (std::size_t j = 0; j < learners_.size(); ++j)
    m.learners.push_back(learnerModelOf(learners_[j], gamma_[j], counts[j]));
  m.pathLearner = path_.learner;  // indices into learners, as the model stores them
  m.pathRisk = path_.risk;
  return m;
}

}  // namespace gb

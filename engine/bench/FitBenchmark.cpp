#include "bench/FitBenchmark.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>

#include "bench/ProfileReport.hpp"
#include "common/Error.hpp"
#include "common/RunProfile.hpp"
#include "compute/Booster.hpp"
#include "compute/CrossValidation.hpp"
#include "data/CsvWriter.hpp"
#include "data/PaperData.hpp"
#include "family/FamilyFunctions.hpp"

namespace gb {
namespace {

int commonPrefix(const std::vector<int>& a, const std::vector<int>& b) {
  const auto mismatch = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return static_cast<int>(mismatch.first - a.begin());
}

struct Cancelled {};

// B bootstrap folds of the same model and config, as `gamboost cv` runs them: CPU backends of one thread per fold,
// as many at once as there are cores; an OpenCL config batches them.
void timeFolds(const std::shared_ptr<const Dataset>& data, const FitBenchOptions& options,
               const ComputeSettings& compute, FitTiming& timing) {
  const auto drawing = std::chrono::steady_clock::now();
  const ResamplingFolds folds = bootstrapFolds(data->rows(), options.bootstrap, options.seed, {});
  timing.cvDrawSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - drawing).count();
  const FoldBackends backends = foldBackends(compute);
  const auto start = std::chrono::steady_clock::now();
  const CvResult cv = crossValidate(data, options.model, folds, backends.make, backends.parallel);
  timing.cvSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  timing.cvFolds = options.bootstrap;
  timing.cvSetupSeconds = cv.setupSeconds;
  timing.cvIterateSeconds = cv.iterateSeconds;
  timing.cvBatched = cv.batched;
  timing.cvParallel = std::max(1, std::min(backends.parallel, options.bootstrap));  // at most, memory permitting
}

// One more run of the folds under a RunProfile (fit --bootstrap with --profile): the budget to stderr.
void profiledFolds(const std::shared_ptr<const Dataset>& data, const FitBenchOptions& options,
                   const ComputeSettings& compute, const FitTiming& timing) {
  RunProfile profile;
  {
    RunProfile::Activation active(profile);
    const ResamplingFolds folds = bootstrapFolds(data->rows(), options.bootstrap, options.seed, {});
    const FoldBackends backends = foldBackends(compute);
    crossValidate(data, options.model, folds, backends.make, backends.parallel);
  }
  profile.drain();
  std::cerr << "profile of " << options.bootstrap << " bootstrap folds of " << timing.rows << " rows, "
            << timing.info.backend << ":" << timing.info.kernel << ":" << timing.info.precision
            << " (stages on several threads add up their thread-seconds)\n";
  printProfile(std::cerr, profile, measureProfileFloors(compute), options.model.mstop);
}

}  // namespace

// The paper's Gaussian response made into one the family models: binomial 0/1 (y above its median), poisson counts
// and negbin counts (floor of exp(y - mean(y)) times 3), gamma a positive exp(y - mean(y)); the others keep y.
static Dataset responseForFamily(Dataset data, const ModelSettings& model) {
  std::vector<double>& y = data.columns[static_cast<std::size_t>(data.columnIndex(model.response))];
  if (isBinary(model.family)) {
    const double median = quantileType7(y, 0.5);
    for (double& v : y) v = v > median ? 1.0 : 0.0;
  } else if (model.family == Family::Poisson || model.family == Family::NegBin || model.family == Family::Gamma) {
    // Log-means of spread 0.5 about log 3 (the paper's y standardised): counts of a few, which the defaults fit
    // without overshooting (y - mean itself, of spread about 1.5, made poisson diverge at nu 0.1).
    double mean = 0.0, squares = 0.0;
    for (double v : y) mean += v / static_cast<double>(y.size());
    for (double v : y) squares += (v - mean) * (v - mean) / static_cast<double>(y.size());
    const double sd = squares > 0.0 ? std::sqrt(squares) : 1.0;
    for (double& v : y) {
      v = std::exp(std::clamp(0.5 * (v - mean) / sd, -3.0, 3.0));
      if (model.family != Family::Gamma) v = std::floor(3.0 * v);
    }
  }
  return data;
}

namespace {

// One more fit of the config under a RunProfile: the budget to stderr and into timing.profile.
void profiledFit(const std::shared_ptr<const Dataset>& data, const FitBenchOptions& options,
                 const ComputeSettings& compute, FitTiming& timing) {
  RunProfile profile;
  int iterations = 0;
  {
    RunProfile::Activation active(profile);
    Booster booster(data, options.model, makeBackend(compute));
    iterations = booster.run(options.model.mstop);
  }
  profile.drain();
  const ProfileFloors floors = measureProfileFloors(compute);
  std::cerr << "profile of " << timing.rows << " rows, " << timing.info.backend << ":" << timing.info.kernel << ":"
            << timing.info.precision << "\n";
  printProfile(std::cerr, profile, floors, iterations);
  timing.profile = profileJson(profile, floors, iterations);
}

}  // namespace

FitBenchReport runFitBenchmark(const FitBenchOptions& options) {
  if (options.rows.empty()) throw InputError(optionMessage("--rows", "needs at least one row count"));
  if (options.repetitions < 1) throw InputError(optionMessage("--reps", "must be >= 1"));
  options.model.validate();
  const std::vector<ComputeSettings> configs =
      options.configs.empty() ? std::vector<ComputeSettings>{ComputeSettings{}} : options.configs;

  const double totalRuns = static_cast<double>(options.rows.size() * configs.size() * options.repetitions);
  double runsDone = 0.0;
  bool cancelled = false;
  // Returns false once the caller cancelled; the Booster stops between batches, then we unwind here.
  auto report = [&](double withinRun, const std::string& what) {
    if (!cancelled && options.progress && !options.progress((runsDone + withinRun) / totalRuns, what)) cancelled = true;
    return !cancelled;
  };

  FitBenchReport result;
  try {
    for (std::size_t rows : options.rows) {
      PaperDataSpec spec;
      spec.rows = rows;
      spec.covariates = options.covariates;
      spec.informative = options.informative;
      spec.seed = options.seed;
      if (!report(0.0, "generating " + std::to_string(rows) + " rows")) throw Cancelled{};
      auto data = std::make_shared<const Dataset>(responseForFamily(generatePaperData(spec).data, options.model));
      const std::size_t firstOfRows = result.timings.size();

      for (const ComputeSettings& compute : configs) {
        FitTiming timing;
        timing.rows = rows;
        timing.covariates = options.covariates;
        timing.compute = compute;
        for (int rep = 0; rep < options.repetitions; ++rep) {
          const std::string what = std::to_string(rows) + " rows, " + toString(compute.backend) +
                                   (compute.kernel.empty() ? "" : ":" + compute.kernel);
          Booster booster(data, options.model, makeBackend(compute));
          const int mstop = options.model.mstop;
          booster.run(mstop,
                      [&](const Booster& b) { return report(static_cast<double>(b.iteration()) / mstop, what); });
          if (cancelled) throw Cancelled{};
          // Best of the repetitions, set-up and fit separately: both are noisy in different ways
          // (set-up has one-off program builds, the fit has scheduling noise).
          if (rep == 0 || booster.setupSeconds() < timing.setupSeconds) timing.setupSeconds = booster.setupSeconds();
          if (rep == 0 || booster.fitSeconds() < timing.fitSeconds) {
            timing.fitSeconds = booster.fitSeconds();
            timing.secondsPerIteration = booster.iteration() > 0 ? timing.fitSeconds / booster.iteration() : 0.0;
          }
          timing.info = booster.backendInfo();
          timing.finalRisk = booster.path().risk.back();
          timing.path = booster.path().learner;
          runsDone += 1.0;
        }
        if (options.profile) profiledFit(data, options, compute, timing);
        if (options.bootstrap > 0) timeFolds(data, options, compute, timing);
        if (options.bootstrap > 0 && options.profile) profiledFolds(data, options, compute, timing);
        const std::vector<int>& reference =
            result.timings.size() > firstOfRows ? result.timings[firstOfRows].path : timing.path;
        timing.samePathIterations = commonPrefix(timing.path, reference);
        result.timings.push_back(std::move(timing));
      }
    }
  } catch (const Cancelled&) {
    // Keep what finished: a cancelled benchmark still reports its complete timings.
  }
  return result;
}

nlohmann::json FitBenchReport::toJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const FitTiming& t : timings) {
    list.push_back({{"rows", t.rows},
                    {"covariates", t.covariates},
                    {"compute", t.compute},
                    {"backend", t.info.backend},
                    {"device", t.info.device},
                    {"kernel", t.info.kernel},
                    {"precision", t.info.precision},
                    {"tuning", t.info.tuning},  // the sharded backend's exchange per iteration, among others
                    {"setup_s", t.setupSeconds},
                    {"fit_s", t.fitSeconds},
                    {"seconds_per_iteration", t.secondsPerIteration},
                    {"final_risk", t.finalRisk},
                    {"same_path_iterations", t.samePathIterations},
                    {"path", t.path},
                    {"cv_folds", t.cvFolds},
                    {"cv_draw_s", t.cvDrawSeconds},
                    {"cv_s", t.cvSeconds},
                    {"cv_setup_s", t.cvBatched ? nlohmann::json(t.cvSetupSeconds) : nlohmann::json()},
                    {"cv_iterate_s", t.cvBatched ? nlohmann::json(t.cvIterateSeconds) : nlohmann::json()},
                    {"cv_batched", t.cvBatched},
                    {"cv_parallel", t.cvParallel}});
    if (!t.profile.is_null()) list.back()["profile"] = t.profile;
  }
  return {{"timings", list}};
}

std::string FitBenchReport::toCsv() const {
  std::ostringstream out;
  out.precision(17);
  out << "rows,covariates,backend,device,kernel,precision,setup_s,fit_s,seconds_per_iteration,final_risk,"
         "iterations,same_path_iterations,cv_folds,cv_s,cv_setup_s,cv_iterate_s,cv_batched,cv_draw_s\n";
  for (const FitTiming& t : timings) {
    out << t.rows << ',' << t.covariates << ',' << csvField(t.info.backend) << ',' << csvField(t.info.device) << ','
        << csvField(t.info.kernel) << ',' << csvField(t.info.precision) << ',' << t.setupSeconds << ',' << t.fitSeconds
        << ',' << t.secondsPerIteration << ',';
    if (std::isfinite(t.finalRisk)) out << t.finalRisk;  // empty where the fit diverged (JSON: null)
    out << ',' << t.path.size() << ',' << t.samePathIterations << ',' << t.cvFolds << ',' << t.cvSeconds << ',';
    if (t.cvBatched)
      out << t.cvSetupSeconds << ',' << t.cvIterateSeconds;  // empty where not measured
    else
      out << ',';
    out << ',' << (t.cvBatched ? 1 : 0) << ',' << t.cvDrawSeconds << '\n';
  }
  return out.str();
}

}  // namespace gb

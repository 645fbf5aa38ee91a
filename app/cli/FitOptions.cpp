#include "FitOptions.hpp"

#include <iostream>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/SystemResources.hpp"
#include "data/CsvReader.hpp"

namespace gb::cli {

namespace {

constexpr int kThreadsPerCore = 2;

// An option naming a word of an engine enum. The engine's parser (boundaryFromString, ...) holds the only list
// of the words: it judges the word at parse time, and its message lists the accepted ones.
template <typename E>
CLI::Option* addWordOption(CLI::App* sub, const std::string& name, std::string& word, const std::string& help,
                           E (*parse)(const std::string&)) {
  const CLI::Validator known(
      [parse](std::string& text) -> std::string {
        try {
          parse(text);
          return {};
        } catch (const InputError& e) {
          const std::string message = e.what();  // "--option: must be ...": CLI11 adds the option name itself
          const std::size_t colon = message.find(": ");
          return colon == std::string::npos ? message : message.substr(colon + 2);
        }
      },
      "", "");
  return sub->add_option(name, word, help)->check(known)->capture_default_str()->group("Model");
}

// --linear-edf and --factor-edf: 0 is how the settings say "unpenalised" (the option left out), so a 0 given is
// refused as any edf of 0 is, not taken for that.
double positiveEdf(const char* option, double edf) {
  if (!(edf > 0.0))
    throw InputError(optionMessage(option, "must be a finite number greater than 0 (got " + formatNumber(edf, 6) +
                                               "); leave it out for unpenalised learners"));
  return edf;
}

}  // namespace

ModelSettings settingsAsGiven(const FitOptions& o, const std::vector<Override>& overrides) {
  ModelSettings s = o.preset == "paper"    ? ModelSettings::paperPreset()
                    : o.preset == "mboost" ? ModelSettings::mboostPreset()
                                           : ModelSettings{};
  for (const Override& override : overrides)
    if (override.option->count() > 0) override.apply(s, o);
  // A family's own parameter given with another family is a mistake, not a default to ignore (mboost's Gaussian()
  // has no tau either: R refuses the unused argument).
  auto given = [&overrides](const std::string& name) {
    for (const Override& override : overrides)
      if (override.option->get_name() == name) return override.option->count() > 0;
    return false;
  };
  if (given("--tau") && s.family != Family::Quantile && s.family != Family::Expectile)
    throw InputError(optionMessage("--tau",
                                   "is the tau of --family quantile or expectile only (mboost's "
                                   "QuantReg(tau) and ExpectReg(tau)); --family " +
                                       toString(s.family) + " has no tau"));
  if (given("--huber-delta") && s.family != Family::Huber)
    throw InputError(optionMessage("--huber-delta", "is the d of --family huber only (mboost's Huber(d)); --family " +
                                                        toString(s.family) + " has no d"));
  if (given("--differences") && s.penalty == PenaltyKind::Ridge && s.differences != 0)
    throw InputError(optionMessage("--differences",
                                   "is the order of --penalty pspline's difference penalty only; "
                                   "--penalty ridge penalises the coefficients themselves (S = I, "
                                   "as --differences 0 does; give 0 or leave it out)"));
  return s;
}

std::vector<Override> addModelOptions(CLI::App* sub, FitOptions& o, bool mstopCv) {
  ModelSettings& s = o.settings;
  std::vector<Override> v;
  auto add = [&v](CLI::Option* option, std::function<void(ModelSettings&, const FitOptions&)> apply) {
    v.push_back({option, std::move(apply)});
  };
  add(addNameOption(sub, "--response", s.response, "Response column")->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.response = f.settings.response; });
  add(addTextListOption(sub, "--spline,--learners", s.learners,
                        "Spline learners (mboost's bbs), comma-separated. Without --spline, --linear and --factor: "
                        "every numeric column but the response and weights is a spline, every text column a factor")
          ->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.learners = f.settings.learners; });
  add(addTextListOption(sub, "--linear", s.linears, "Linear learners b0 + b1 x (mboost's bols(x)), comma-separated")
          ->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.linears = f.settings.linears; });
  add(addTextListOption(sub, "--factor", s.factors,
                        "Factor learners (mboost's bols(f), treatment contrasts), comma-separated")
          ->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.factors = f.settings.factors; });
  add(addNameOption(sub, "--weights", s.weights, "Case-weight column (non-negative)")->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.weights = f.settings.weights; });
  add(addWordOption(sub, "--family", o.family,
                    "Loss: gaussian, binomial, poisson, laplace, huber, quantile, expectile, adaexp, gamma or negbin",
                    &familyFromString),
      [](ModelSettings& m, const FitOptions& f) { m.family = familyFromString(f.family); });
  add(addWordOption(sub, "--link", o.link,
                    "The binomial's link (mboost's Binomial(link = ...)): logit (f half the log-odds, mboost's "
                    "default), probit, cloglog or cauchit (f on the link scale)",
                    &linkFromString),
      [](ModelSettings& m, const FitOptions& f) { m.link = linkFromString(f.link); });
  add(sub->add_option("--huber-delta", s.huberDelta,
                      "Huber's fixed d (> 0) for --family huber; without it (the default) d is mboost's adaptive one, "
                      "the median of |y - f| at the fit before (Huber())")
          ->check(finiteRealValidator())
          ->type_name("NUMBER")
          ->group("Model"),
      [](ModelSettings& m, const FitOptions& f) {
        if (!(f.settings.huberDelta > 0.0))
          throw InputError(optionMessage("--huber-delta", "must be a finite number greater than 0 (got " +
                                                              formatNumber(f.settings.huberDelta, 6) +
                                                              "); leave it out for mboost's adaptive d"));
        m.huberDelta = f.settings.huberDelta;
      });
  add(addRealOption(sub, "--tau", s.tau, "The quantile or expectile of --family quantile or expectile, in (0, 1)")
          ->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.tau = f.settings.tau; });
  add(addRealOption(sub, "--offset", s.offset, "Starting value f0 (default: the family's offset)")
          ->default_str("")
          ->group("Model"),
      [](ModelSettings& m, const FitOptions& f) {
        m.offset = f.settings.offset;
        m.hasOffset = true;
      });
  add(addWordOption(sub, "--missing", o.missing, "Rows with a missing value in a used column: omit or fail",
                    &missingPolicyFromString),
      [](ModelSettings& m, const FitOptions& f) { m.missing = missingPolicyFromString(f.missing); });
  add(addIntOption(sub, "--knots", s.spline.knots, "Interior knots per learner (>= 1)")->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.spline.knots = f.settings.spline.knots; });
  add(addIntOption(sub, "--degree", s.spline.degree, "B-spline degree (1..5)")->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.spline.degree = f.settings.spline.degree; });
  add(addWordOption(sub, "--boundary", o.boundary, "Boundary knots: clamped (patsy bs) or extended (mboost bbs)",
                    &boundaryFromString),
      [](ModelSettings& m, const FitOptions& f) { m.spline.boundary = boundaryFromString(f.boundary); });
  add(addWordOption(sub, "--penalty", o.penalty, "Penalty: ridge (S = I) or pspline (difference penalty)",
                    &penaltyFromString),
      [](ModelSettings& m, const FitOptions& f) { m.penalty = penaltyFromString(f.penalty); });
  add(addIntOption(sub, "--differences", s.differences, "Order of the P-spline differences (0..3)")->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.differences = f.settings.differences; });
  add(addRealOption(sub, "--edf", s.edf, "Effective degrees of freedom per learner (sets lambda)")->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.edf = f.settings.edf; });
  add(addRealOption(sub, "--linear-edf", s.linearEdf, "edf of each linear learner (default: unpenalised)")
          ->default_str("")
          ->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.linearEdf = positiveEdf("--linear-edf", f.settings.linearEdf); });
  add(addRealOption(sub, "--factor-edf", s.factorEdf, "edf of each factor learner (default: unpenalised)")
          ->default_str("")
          ->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.factorEdf = positiveEdf("--factor-edf", f.settings.factorEdf); });
  add(addWordOption(sub, "--edf-def", o.edfDefinition, "edf definition: trace = tr(H), mboost = tr(2H - H'H)",
                    &edfDefinitionFromString),
      [](ModelSettings& m, const FitOptions& f) { m.edfDefinition = edfDefinitionFromString(f.edfDefinition); });
  add(addRealOption(sub, "--nu", s.nu, "Step length, in (0, 1]")->group("Model"),
      [](ModelSettings& m, const FitOptions& f) { m.nu = f.settings.nu; });
  if (!mstopCv) {
    add(addIntOption(sub, "--mstop", s.mstop, "Boosting iterations (>= 1)")->group("Model"),
        [](ModelSettings& m, const FitOptions& f) { m.mstop = f.settings.mstop; });
  } else {
    const CLI::Validator numberOrCv(
        [](std::string& text) -> std::string {
          if (text == "cv") return {};
          std::string copy = text;
          return integerValidator()(copy);
        },
        "", "");
    add(sub->add_option("--mstop", o.mstopWord,
                        "Boosting iterations (>= 1), or cv: choose them by resampling (the fold options; the folds "
                        "run --cv-grid iterations)")
            ->check(numberOrCv)
            ->default_str(std::to_string(s.mstop))
            ->type_name("INT|cv")
            ->group("Model"),
        [](ModelSettings& m, const FitOptions& f) {
          if (f.mstopWord == "cv" && !(f.cvGrid >= 1 && f.cvGrid <= ModelSettings::kMaxMstop))
            throw InputError(optionMessage("--cv-grid", "must be in 1.." + std::to_string(ModelSettings::kMaxMstop) +
                                                            " (got " + std::to_string(f.cvGrid) + ")"));
          if (f.mstopWord == "cv")
            m.mstop = f.cvGrid;
          else
            m.mstop = std::stoi(f.mstopWord);  // the validator took only an int
        });
  }
  return v;
}

void addComputeOptions(CLI::App* sub, ComputeSettings& c) {
  addEnumOption(sub, "--backend", c.backend, &backendFromString, "Compute backend: cpu or opencl")
      ->default_str("cpu")
      ->group("Compute");
  sub->add_option(
         "--device", c.device,
         "OpenCL device of --backend opencl: P:D or part of its name (default: $GAMBOOST_DEVICE, else the first "
         "GPU, else PoCL's CPU)")
      ->group("Compute");
  addEnumOption(sub, "--precision", c.precision, &precisionFromString, "double or float (default: the backend's)")
      ->group("Compute");
  // A list item left empty ("0:0,") is kept, so that it is refused as --devices '' is (CLI11's delimiter drops it).
  addTextListOption(sub, "--devices", c.devices,
                    "Several OpenCL devices sharing the rows: addresses P:D (see 'gamboost devices'), P:D/N for N "
                    "equal sub-devices, or names; implies --backend opencl")
      ->group("Compute");
  // --devices alone means the OpenCL backend; an explicit --backend cpu is refused by validateComputeSettings.
  sub->parse_complete_callback([sub, &c] {
    if (!c.devices.empty() && sub->get_option("--backend")->count() == 0) c.backend = BackendKind::OpenCl;
  });
  sub->add_option("--kernel", c.kernel, "OpenCL kernel for B'g (default: the backend's; see 'gamboost bench')")
      ->group("Compute");
  addIntOption(sub, "--threads", c.threads, "CPU threads (0 = all cores)")->group("Compute");
}

int cappedThreads(int requested) {
  if (requested < 0) throw InputError(optionMessage("--threads", "must be >= 0"));
  const int cap = kThreadsPerCore * availableCores();
  if (requested <= cap) return requested;
  std::cerr << "gamboost: note: --threads " << requested << " capped at " << cap << " (" << kThreadsPerCore
            << " per core on " << availableCores() << " cores)" << std::endl;
  return cap;
}

std::unique_ptr<Booster> makeBooster(std::shared_ptr<const Dataset> data, const ModelSettings& settings,
                                     std::unique_ptr<Backend> backend, const std::string& dataPath,
                                     const std::vector<double>* fold, const std::string& foldName,
                                     const HoldoutSpec* holdout, ShardReducer* group) {
  try {
    if (holdout) return std::make_unique<Booster>(std::move(data), settings, std::move(backend), *holdout);
    if (fold) return std::make_unique<Booster>(std::move(data), settings, std::move(backend), *fold, foldName);
    return std::make_unique<Booster>(std::move(data), settings, std::move(backend), group);
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (message.rfind("--", 0) == 0 || message.find(dataPath) != std::string::npos) throw;
    throw InputError(dataPath + ": " + message);
  }
}

std::shared_ptr<const Dataset> readData(const std::string& path, bool quiet, int threads) {
  ProgressPrinter reading("reading " + path, !quiet);
  CsvOptions options;
  options.threads = threads;
  return std::make_shared<const Dataset>(readCsv(path, options, [&reading](std::uint64_t done, std::uint64_t all) {
    reading.update(all ? static_cast<double>(done) / static_cast<double>(all) : 1.0);
    return true;
  }));
}

void addFoldOptions(CLI::App* sub, FoldOptions& f) {
  // Each count option records that it was given, so that --kfold 0 or --bootstrap 0 is an error, not the default.
  const auto given = [](bool& flag) { return [&flag](const std::string&) { flag = true; }; };
  addIntOption(sub, "--kfold", f.kfold, "K-fold cross-validation with K folds")
      ->default_str("")
      ->group("Folds")
      ->each(given(f.kfoldGiven));
  addIntOption(sub, "--bootstrap", f.bootstrap, "B bootstrap samples (the default: 25)")
      ->default_str("")
      ->group("Folds")
      ->each(given(f.bootstrapGiven));
  addIntOption(sub, "--subsample", f.subsample, "B subsamples of --prob of the rows")
      ->default_str("")
      ->group("Folds")
      ->each(given(f.subsampleGiven));
  addRealOption(sub, "--prob", f.prob, "Share of the rows in each subsample, in (0, 1)")
      ->group("Folds")
      ->each(given(f.probGiven));
  sub->add_option("--folds-file", f.foldsFile,
                  "CSV of fold weights: a header, one column per fold, one row per data row or per used row "
                  "(non-negative integers; with --weights also a row's case weight, as R's "
                  "cv(model.weights(model)) writes its k-fold and subsample folds)")
      ->check(fileNameValidator())
      ->group("Folds");
  addSeedOption(sub, "--seed", f.seed,
                "Seed of the generated folds (in fit also of --holdout's rows and --bands' samples)")
      ->group("Folds")
      ->each(given(f.seedGiven));
}

ResamplingFolds makeFolds(const FoldOptions& o, const Dataset& data, const ModelFrame& frame) {
  const int given = o.kfoldGiven + o.bootstrapGiven + o.subsampleGiven + !o.foldsFile.empty();
  if (given > 1) {  // named after the options given, as the user wrote them
    std::string both;
    for (const auto& [on, name] :
         {std::pair{o.kfoldGiven, "--kfold"}, std::pair{o.bootstrapGiven, "--bootstrap"},
          std::pair{o.subsampleGiven, "--subsample"}, std::pair{!o.foldsFile.empty(), "--folds-file"}})
      if (on) both += std::string(both.empty() ? "" : " and ") + name;
    throw InputError(both + ": give only one of --kfold, --bootstrap, --subsample and --folds-file");
  }
  if (o.probGiven && !o.subsampleGiven)
    throw InputError(optionMessage("--prob", "is the share of each subsample: give it with --subsample B"));
  if (!o.foldsFile.empty())
    return foldsFromTable(readCsv(o.foldsFile), data.rows(), &frame.keptRows,
                          frame.weights.empty() ? nullptr : &frame.weights);
  const auto drawn = [&](const char* type, int count) { return foldsOverUsedRows(type, count, o.prob, o.seed, frame); };
  if (o.kfoldGiven) return drawn("kfold", o.kfold);
  if (o.subsampleGiven) return drawn("subsample", o.subsample);
  return drawn("bootstrap", o.bootstrapGiven ? o.bootstrap : 25);  // mboost's default: 25
}

std::string foldOptionOf(const FoldOptions& o) {
  if (!o.foldsFile.empty()) return "--folds-file";
  if (o.kfoldGiven) return "--kfold";
  if (o.subsampleGiven) return "--subsample";
  return "--bootstrap";
}

}  // namespace gb::cli

// gamboost cv: choose mstop by resampling, as mboost's cvrisk(model, folds): one weighted fit per fold, each
// recording its out-of-bag risk; cv.json holds every fold's risk curve, their mean and the first minimum.
// --refit also fits all rows at the chosen mstop and saves that model.
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "Commands.hpp"
#include "FitOptions.hpp"
#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/SystemResources.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/CrossValidation.hpp"
#include "data/CsvReader.hpp"
#include "data/OutputFiles.hpp"
#include "model/Model.hpp"

namespace gb::cli {
namespace {

struct CvOptions {
  FitOptions fit;
  int kfold = 0, bootstrap = 0, subsample = 0;
  double prob = 0.5;
  std::string foldsFile, refit;
  std::uint64_t seed = 1;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The case weights per input row (for the generated folds), or none.
std::vector<double> caseWeights(const Dataset& data, const ModelSettings& s) {
  if (s.weights.empty()) return {};
  return data.column(s.weights);
}

ResamplingFolds makeFolds(const CvOptions& o, const Dataset& data, const ModelSettings& s) {
  const int given = (o.kfold > 0) + (o.bootstrap > 0) + (o.subsample > 0) + !o.foldsFile.empty();
  if (given > 1)
    throw InputError(optionMessage("--kfold", "give one of --kfold, --bootstrap, --subsample and --folds-file"));
  const std::vector<double> w = caseWeights(data, s);
  if (!o.foldsFile.empty()) return foldsFromTable(readCsv(o.foldsFile), data.rows());
  if (o.kfold > 0) return kfoldFolds(data.rows(), o.kfold, o.seed, w);
  if (o.subsample > 0) return subsampleFolds(data.rows(), o.subsample, o.prob, o.seed, w);
  return bootstrapFolds(data.rows(), o.bootstrap > 0 ? o.bootstrap : 25, o.seed, w);  // mboost's default: 25
}

int runCv(const CvOptions& o, const std::vector<Override>& overrides) {
  ModelSettings settings = settingsAsGiven(o.fit, overrides);
  settings.validate();
  ComputeSettings compute = o.fit.compute;
  compute.threads = cappedThreads(compute.threads);
  validateComputeSettings(compute);
  OutputFiles outputs;
  outputs.addInput(o.fit.data, "--data");
  if (!o.foldsFile.empty()) outputs.addInput(o.foldsFile, "--folds-file");
  outputs.addOutput(o.fit.out, "--out");
  if (!o.refit.empty()) outputs.addOutput(o.refit, "--refit");
  makeBackend(compute);  // the device and options are checked before the data is read

  const auto start = std::chrono::steady_clock::now();
  const std::shared_ptr<const Dataset> data = readData(o.fit.data, o.fit.quiet);
  const double readSeconds = secondsSince(start);
  // A first set-up on all rows checks the model (columns, family, learners) and names the file on bad data.
  std::unique_ptr<Booster> all = makeBooster(data, settings, makeBackend(compute), o.fit.data);
  const ResamplingFolds folds = makeFolds(o, *data, all->settings());
  const bool cpu = compute.backend == BackendKind::Cpu;
  const int parallel = cpu ? (compute.threads > 0 ? compute.threads : availableCores()) : 1;
  const auto cvStart = std::chrono::steady_clock::now();
  const CvResult cv = crossValidate(
      data, all->settings(), folds,
      [&]() -> std::unique_ptr<Backend> {
        if (cpu) return std::make_unique<CpuBackend>(1);
        return makeBackend(compute);
      },
      parallel);
  const double cvSeconds = secondsSince(cvStart);

  nlohmann::json out{{"type", folds.type}, {"folds", folds.weights.size()}, {"risk", cv.risk}, {"mean", cv.mean},
                     {"mstop", cv.mstop},  {"settings", all->settings()}};
  out["settings"]["data"] = o.fit.data;
  out["settings"]["compute"] = compute;
  if (!o.foldsFile.empty()) out["settings"]["folds_file"] = o.foldsFile;
  out["settings"]["seed"] = o.seed;
  const BackendInfo info = all->backendInfo();
  out["timing"] = {{"read_s", readSeconds}, {"cv_s", cvSeconds},           {"backend", info.backend},
                   {"device", info.device}, {"precision", info.precision}, {"parallel_folds", parallel}};
  if (!o.refit.empty()) {
    ModelSettings chosen = all->settings();
    chosen.mstop = std::max(1, cv.mstop);  // a model has at least one iteration
    Booster refit(data, chosen, makeBackend(compute));
    refit.run(chosen.mstop);
    const Model model = refit.model();
    outputs.write(o.refit, [&model](std::ostream& s) { s << jsonText(model.toJson(), 1) << '\n'; });
  }
  outputs.write(o.fit.out, [&out](std::ostream& s) { s << jsonText(out) << '\n'; });
  outputs.commit();
  if (!o.fit.quiet)
    std::cerr << "gamboost: " << folds.weights.size() << " " << folds.type << " folds, mean out-of-bag risk "
              << formatNumber(cv.mean.front(), 6) << " -> minimum " << formatNumber(cv.mean[cv.mstop], 6)
              << " at mstop " << cv.mstop << std::endl;
  return 0;
}

}  // namespace

Command addCvCommand(CLI::App& app) {
  auto o = std::make_shared<CvOptions>();
  CLI::App* sub = app.add_subcommand("cv", "Choose mstop by resampling (mboost's cvrisk); writes cv.json.");
  sub->add_option("--data", o->fit.data, "CSV file with a header row")->required()->group("Files");
  sub->add_option("--out", o->fit.out, "cv.json to write (atomically)")->required()->group("Files");
  sub->add_option("--refit", o->refit, "Also fit all rows at the chosen mstop and save that model")->group("Files");
  auto overrides = std::make_shared<std::vector<Override>>(addModelOptions(sub, o->fit));
  addComputeOptions(sub, o->fit.compute);
  addIntOption(sub, "--kfold", o->kfold, "K-fold cross-validation with K folds")->group("Folds");
  addIntOption(sub, "--bootstrap", o->bootstrap, "B bootstrap samples (the default: 25)")->group("Folds");
  addIntOption(sub, "--subsample", o->subsample, "B subsamples of --prob of the rows")->group("Folds");
  addRealOption(sub, "--prob", o->prob, "Share of the rows in each subsample, in (0, 1)")->group("Folds");
  sub->add_option("--folds-file", o->foldsFile,
                  "CSV of fold weights: a header, one column per fold, one row per data row (non-negative integers)")
      ->group("Folds");
  addSeedOption(sub, "--seed", o->seed, "Seed of the generated folds")->group("Folds");
  sub->add_flag("--quiet", o->fit.quiet, "No progress lines or summary on stderr")->group("Output");
  return {sub, [o, overrides]() { return runCv(*o, *overrides); }};
}

}  // namespace gb::cli

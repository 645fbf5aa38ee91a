// gamboost cv: choose mstop by resampling, as mboost's cvrisk(model, folds): one weighted fit per fold, each
// recording its out-of-bag risk; cv.json holds every fold's risk curve, their mean and the first minimum.
// --refit also fits all rows at the chosen mstop and saves that model.
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "Commands.hpp"
#include "FitOptions.hpp"
#include "SetupNotes.hpp"
#include "common/Error.hpp"
#include "common/Format.hpp"
#include "compute/CrossValidation.hpp"
#include "data/OutputFiles.hpp"
#include "model/Model.hpp"

namespace gb::cli {
namespace {

struct CvOptions {
  FitOptions fit;
  std::string refit;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int runCv(const CvOptions& o, const std::vector<Override>& overrides) {
  ModelSettings settings = settingsAsGiven(o.fit, overrides);
  settings.validate();
  settings.requireResamplable("--family");  // before the data is read, as fit --mstop cv refuses it
  ComputeSettings compute = o.fit.compute;
  compute.threads = cappedThreads(compute.threads);
  validateComputeSettings(compute);
  OutputFiles outputs;
  outputs.addInput(o.fit.data, "--data");
  if (!o.fit.folds.foldsFile.empty()) outputs.addInput(o.fit.folds.foldsFile, "--folds-file");
  outputs.addOutput(o.fit.out, "--out");
  if (!o.refit.empty()) outputs.addOutput(o.refit, "--refit");
  std::unique_ptr<Backend> backend = makeBackend(compute);  // the device and options, checked before the data is read

  const auto start = std::chrono::steady_clock::now();
  const std::shared_ptr<const Dataset> data = readData(o.fit.data, o.fit.quiet, compute.threads);
  const double readSeconds = secondsSince(start);
  // A first set-up on all rows checks the model (columns, family, learners) and names the file on bad data.
  // It is also --refit's fit.
  std::unique_ptr<Booster> all = makeBooster(data, settings, std::move(backend), o.fit.data);
  const auto drawStart = std::chrono::steady_clock::now();
  const ResamplingFolds folds = makeFolds(o.fit.folds, *data, all->frame());
  const double foldsSeconds = secondsSince(drawStart);  // drawn, or read from --folds-file
  checkRiskMatrixFits(folds.weights.size(), all->settings().mstop, foldOptionOf(o.fit.folds), "--mstop");
  const FoldBackends backends = foldBackends(compute);
  const int parallel = backends.parallel;
  const auto cvStart = std::chrono::steady_clock::now();
  ProgressPrinter progress("cross-validation", !o.fit.quiet);  // lines only for a run over about 2 seconds
  const CvResult cv = crossValidate(data, all->settings(), folds, backends.make, parallel, [&](int done, int total) {
    progress.update(static_cast<double>(done) / total,
                    std::to_string(done) + " of " + std::to_string(total) + " folds");
  });
  const double cvSeconds = secondsSince(cvStart);

  nlohmann::json out{{"type", folds.type}, {"folds", folds.weights.size()}, {"risk", cv.risk}, {"mean", cv.mean},
                     {"mstop", cv.mstop},  {"settings", all->settings()}};
  if (!cv.dropped.empty()) out["dropped"] = cv.dropped;
  addRowCounts(out, all->frame());
  // Printed once the folds have run, as fit prints them after its fit: bad fold options or files stay one line.
  std::vector<std::string> notes = setupNotes(*all);
  if (std::string folds = foldNotes(cv, *all); !folds.empty()) notes.push_back(std::move(folds));
  for (const std::string& note : notes) std::cerr << "gamboost: note: " << note << std::endl;
  out["notes"] = notes;
  if (!cv.note.empty()) std::cerr << "gamboost: note: " << cv.note << std::endl;
  out["settings"]["data"] = o.fit.data;
  out["settings"]["compute"] = compute;
  if (!o.fit.folds.foldsFile.empty()) out["settings"]["folds_file"] = o.fit.folds.foldsFile;
  out["settings"]["seed"] = o.fit.folds.seed;
  const BackendInfo info = all->backendInfo();
  out["timing"] = {{"read_s", readSeconds},      {"folds_s", foldsSeconds},      {"cv_s", cvSeconds},
                   {"backend", info.backend},    {"device", info.device},        {"precision", info.precision},
                   {"parallel_folds", parallel}, {"folds_together", cv.batched}, {"tuning", info.tuning}};
  if (!o.refit.empty()) {
    const int chosen = std::max(1, cv.mstop);  // a model has at least one iteration
    all->run(chosen);
    Model model = all->model();
    model.settings.mstop = chosen;
    outputs.write(o.refit, [&model](std::ostream& s) { s << jsonText(model.toJson(), 1) << '\n'; });
  }
  outputs.write(o.fit.out, [&out](std::ostream& s) { s << jsonText(out) << '\n'; });
  outputs.commit();
  if (!o.fit.quiet)
    std::cerr << "gamboost: " << folds.weights.size() << " " << folds.type << " folds, mean out-of-bag risk "
              << formatNumber(cv.mean.front(), 6) << " -> minimum " << formatNumber(cv.mean[cv.mstop], 6)
              << " at mstop " << cv.mstop
              << (cv.mstop == settings.mstop ? " (the last: the risk may still fall; raise --mstop)" : "") << std::endl;
  return 0;
}

}  // namespace

Command addCvCommand(CLI::App& app) {
  auto o = std::make_shared<CvOptions>();
  CLI::App* sub = app.add_subcommand("cv", "Choose mstop by resampling (mboost's cvrisk); writes cv.json.");
  sub->add_option("--data", o->fit.data, "CSV file with a header row")
      ->required()
      ->check(fileNameValidator())
      ->group("Files");
  sub->add_option("--out", o->fit.out, "cv.json to write (atomically)")->required()->group("Files");
  sub->add_option("--refit", o->refit, "Also fit all rows at the chosen mstop and save that model")
      ->check(fileNameValidator())
      ->group("Files");
  auto overrides = std::make_shared<std::vector<Override>>(addModelOptions(sub, o->fit));
  addComputeOptions(sub, o->fit.compute);
  addFoldOptions(sub, o->fit.folds);
  sub->add_flag("--quiet", o->fit.quiet, "No progress lines or summary on stderr")->group("Output");
  return {sub, [o, overrides]() { return runCv(*o, *overrides); }};
}

}  // namespace gb::cli

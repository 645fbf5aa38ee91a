// gamboost fit: read a CSV, boost penalised B-spline learners, write result.json (and optionally model.json).
// Order matters for the "nothing written on failure" promise: options are validated and every output path is
// checked before the data is read, and outputs are written atomically only after the fit succeeded.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <tuple>

#include "Commands.hpp"
#include "FitBands.hpp"
#include "FitDistributed.hpp"
#include "FitOptions.hpp"
#include "FitProfile.hpp"
#include "FitSummary.hpp"
#include "MstopChoice.hpp"
#include "SetupNotes.hpp"
#include "common/Error.hpp"
#include "common/Format.hpp"
#include "compute/Booster.hpp"
#include "compute/CrossValidation.hpp"
#include "compute/Divergence.hpp"
#include "compute/MpiReducer.hpp"
#include "data/OutputFiles.hpp"
#include "model/Model.hpp"

namespace gb::cli {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One value per row of the input file: the fitted value, or null for a row the fit omitted. keptRows: every used
// row's input row (all processes' in a distributed fit).
nlohmann::json fittedByInputRow(const std::vector<double>& fitted, const std::vector<std::size_t>& keptRows,
                                std::size_t inputRows) {
  nlohmann::json out = nlohmann::json::array();
  std::size_t used = 0;
  for (std::size_t row = 0; row < inputRows; ++row) {
    if (used < keptRows.size() && keptRows[used] == row)
      out.push_back(fitted[used++]);
    else
      out.push_back(nullptr);
  }
  return out;
}

// What the user should know about the fit: row labels dropped, rows omitted, learners left unpenalised, a training
// risk that ended above the offset's.
std::vector<std::string> fitNotes(const Booster& booster) {
  std::vector<std::string> notes = setupNotes(booster);
  const FamilyFunctions& family = booster.family();
  if (std::string overshoot = overshootNote(booster.path().risk, family.family, family.adaptiveDelta,
                                            booster.settings().nu, booster.frame().response);
      !overshoot.empty())
    notes.push_back(std::move(overshoot));
  if (booster.backendInfo().backend == "opencl" && booster.backendInfo().kernel == "host")
    notes.push_back(
        "--backend opencl: the model has no spline learner, so its linear and factor learners ran on the "
        "CPU, in double (the device's B'g has nothing to do for them)");
  if (booster.family().reestimated())
    notes.push_back(FamilyFunctions::nuisanceName(booster.settings().family) +
                    " at the last iteration: " + formatNumber(booster.family().nuisance(), 10) + " (" +
                    FamilyFunctions::nuisanceSource(booster.settings().family) + "; result.json \"nuisance\")");
  return notes;
}

// result.json: the model's own JSON (design.md section 4) plus what only the run knows.
nlohmann::json resultJson(const Booster& booster, const Model& model, const FitOptions& o, double readSeconds,
                          ShardReducer* group) {
  nlohmann::json result = model.toJson();
  const ModelFrame& frame = booster.frame();
  const std::vector<double> fitted =
      booster.fitted();  // every rank's, in rank order; then their rows (both collective)
  result["fitted"] = fittedByInputRow(fitted, group ? allKeptRows(*group, frame) : frame.keptRows, frame.inputRows);
  addRowCounts(result, frame);
  result["notes"] = fitNotes(booster);
  if (booster.family().reestimated()) result["nuisance"] = booster.family().nuisance();
  const BackendInfo info = booster.backendInfo();
  ComputeSettings used = o.compute;  // blanks filled with what the backend chose, so the run can be repeated
  if (used.precision == Precision::Default) used.precision = precisionFromString(info.precision);
  if (used.kernel.empty() && info.backend == "opencl") used.kernel = info.kernel;
  nlohmann::json& settings = result["settings"];
  if (!settings.is_object()) settings = booster.settings();
  settings["data"] = o.data;
  settings["learners"] = frame.splines;  // the resolved lists, also when none was given
  settings["linears"] = frame.linears;
  settings["factors"] = frame.factors;
  if (!o.preset.empty()) settings["preset"] = o.preset;
  settings["compute"] = used;
  result["timing"] = {{"read_s", readSeconds},         {"setup_s", booster.setupSeconds()},
                      {"fit_s", booster.fitSeconds()}, {"backend", info.backend},
                      {"device", info.device},         {"kernel", info.kernel},
                      {"precision", info.precision},   {"tuning", info.tuning},
                      {"scheme", info.scheme}};
  return result;
}

// Nothing non-finite is written with exit status 0: a diverged fit is reported instead of saved as nulls.
void checkFinite(const Booster& booster, const std::string& dataPath) {
  // Poisson (exp(f)) and binomial can overshoot when a step is too long for the gradient's scale, as mboost's do
  // ("Infinite residuals").
  checkRiskFinite(booster.path().risk, 0, dataPath, booster.settings().family, booster.settings().nu,
                  booster.frame().response);
  const std::vector<double> fitted = booster.fitted();
  for (std::size_t i = 0; i < fitted.size(); ++i)
    if (!std::isfinite(fitted[i]))
      throw InputError(dataPath + ": the fit diverged: the fitted value of row " + std::to_string(i + 1) +
                       " is not finite (rescale the data)");
}

// Bytes of result.json: about 25 per fitted value and per risk, plus the learners.
std::uint64_t resultBytesEstimate(std::size_t rows, const ModelSettings& s, std::size_t learners) {
  const std::uint64_t k = static_cast<std::uint64_t>(s.spline.knots + s.spline.degree + 1);
  return 25 * (static_cast<std::uint64_t>(rows) + 2 * static_cast<std::uint64_t>(s.mstop) + 2 * learners * k) + 4096;
}

// The fewest bytes reading and parsing must move: the file, and the doubles it becomes.
std::uint64_t csvBytes(const std::string& path, const Dataset& data) {
  std::error_code ec;
  const std::uintmax_t file = std::filesystem::file_size(path, ec);
  return (ec ? 0 : file) + data.rows() * data.columns.size() * sizeof(double);
}

// Writes result.json (and model.json) atomically; with --profile, times it and prints the time budget after.
void writeOutputs(OutputFiles& outputs, const FitOptions& o, const nlohmann::json& result, const Model& model,
                  FitProfiler& profiler) {
  const auto start = std::chrono::steady_clock::now();
  // nlohmann writes doubles with max_digits10 digits: fitted values and risks round-trip exactly.
  outputs.write(o.out, [&result](std::ostream& out) { out << jsonText(result) << '\n'; });
  if (!o.model.empty())
    outputs.write(o.model, [&model](std::ostream& out) { out << jsonText(model.toJson(), 1) << '\n'; });
  outputs.commit();
  if (!profiler.on()) return;
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(o.out, ec);
  profiler.addStage("write result", secondsSince(start), ec ? 0 : bytes);
  profiler.print(std::cerr);
}

// fit --mstop cv: the folds (as gamboost cv) to --cv-grid iterations; the first minimum of their mean, at least 1.
int chooseMstop(const FitOptions& o, const std::shared_ptr<const Dataset>& data, const ModelSettings& settings,
                const ComputeSettings& compute, nlohmann::json& record) {
  if (o.cvGrid < 1) throw InputError(optionMessage("--cv-grid", "must be at least 1"));
  const std::unique_ptr<Booster> check = makeBooster(data, settings, makeBackend(compute), o.data);
  const ResamplingFolds folds = makeFolds(o.folds, *data, check->frame());
  checkRiskMatrixFits(folds.weights.size(), check->settings().mstop, foldOptionOf(o.folds), "--cv-grid");
  const FoldBackends backends = foldBackends(compute);
  const CvResult cv = crossValidate(data, check->settings(), folds, backends.make, backends.parallel);
  record = {{"type", folds.type}, {"folds", folds.weights.size()}, {"mean", cv.mean}, {"mstop", cv.mstop}};
  record["grid"] = o.cvGrid;
  if (!cv.dropped.empty()) record["dropped"] = cv.dropped;
  if (!cv.note.empty()) std::cerr << "gamboost: note: --mstop cv: " << cv.note << std::endl;
  if (const std::string foldNote = foldNotes(cv, *check); !foldNote.empty())
    std::cerr << "gamboost: note: --mstop cv: " << foldNote << std::endl;
  if (!o.quiet)
    std::cerr << "gamboost: --mstop cv: " << folds.weights.size() << " " << folds.type << " folds choose mstop "
              << cv.mstop << " of " << o.cvGrid << std::endl;
  return std::max(1, cv.mstop);
}

// The fold options choose mstop with --mstop cv; without it a fit would ignore them, so they are an error.
void checkFoldOptionsUse(const FitOptions& o) {
  if (o.mstopWord == "cv") return;
  const FoldOptions& f = o.folds;
  if (f.seedGiven && !(o.holdout > 0.0) && o.bands <= 0)
    throw InputError(optionMessage("--seed",
                                   "draws the folds of --mstop cv, the rows of --holdout or the samples of "
                                   "--bands; a fit without them would ignore it"));
  const char* given = f.kfoldGiven           ? "--kfold"
                      : f.bootstrapGiven     ? "--bootstrap"
                      : f.subsampleGiven     ? "--subsample"
                      : !f.foldsFile.empty() ? "--folds-file"
                      : f.probGiven          ? "--prob"
                      : o.cvGridGiven        ? "--cv-grid"
                                             : nullptr;
  if (given)
    throw InputError(optionMessage(given,
                                   "chooses mstop only with --mstop cv (gamboost cv runs the "
                                   "cross-validation on its own)"));
}

// Refuses what --distributed does not spread over the ranks yet (each rank would repeat it whole).
void checkDistributedOptions(const FitOptions& o) {
  if (!o.distributed) return;
  if (o.mstopWord == "cv") throw InputError(optionMessage("--distributed", "--mstop cv is not built for it yet"));
  if (o.bands > 0) throw InputError(optionMessage("--distributed", "--bands is not built for it yet"));
  if (o.holdout > 0.0)  // its rows are drawn from all used rows at once: each rank would need every row's draw
    throw InputError(optionMessage("--distributed", "--holdout is not built for it yet"));
}

// writes: this process writes the outputs and prints the notes and the summary (false on MPI ranks other than 0).
// Iterations per batch on every rank of fit --distributed.
constexpr int kDistributedBatch = 100;

// group: the MPI ranks of fit --distributed (each reads its part of the file and fits its rows); null for one process.
int runFit(const FitOptions& o, const std::vector<Override>& overrides, bool writes = true,
           ShardReducer* group = nullptr) {
  ModelSettings settings = settingsAsGiven(o, overrides);
  settings.validate();
  ComputeSettings compute = o.compute;
  compute.threads = cappedThreads(o.compute.threads);
  // result.json records the compute settings "as used": the engine refuses what a backend would silently ignore.
  validateComputeSettings(compute);
  checkHoldoutOptions(o);
  checkDistributedOptions(o);
  checkFoldOptionsUse(o);
  // What needs resampled fits is refused before the data is read, not after the fit
  if (o.mstopWord == "cv") settings.requireResamplable("--family");
  if (o.holdout > 0.0) settings.requireResamplable("--holdout");
  if (o.bands > 0) settings.requireResamplable("--bands");
  // Every output is declared (and checked) before the long work, written after it, and renamed into place
  // only when all are complete.
  OutputFiles outputs;
  outputs.addInput(o.data, "--data");
  if (o.summary) outputs.addInput(o.data + ".truth.json", "--summary (the data's truth file)");
  if (o.mstopWord == "cv" && !o.folds.foldsFile.empty()) outputs.addInput(o.folds.foldsFile, "--folds-file");
  if (writes) {  // MPI ranks other than 0 write nothing: their hosts need no --out directory
    outputs.addOutput(o.out, "--out");
    if (!o.model.empty()) outputs.addOutput(o.model, "--model");
  }
  FitProfiler profiler(o.profile);
  std::unique_ptr<Backend> backend = o.distributed ? makeDistributedBackend(compute) : makeBackend(compute);

  const auto readStart = std::chrono::steady_clock::now();
  CsvPartInfo part;
  const std::shared_ptr<const Dataset> data =
      group ? readDataPart(o.data, *group, compute.threads, part) : readData(o.data, o.quiet, compute.threads);
  const double readSeconds = secondsSince(readStart);
  // A rank of a distributed fit: its part of the file (its whole file on the fallback).
  const std::uint64_t readBytes =
      group ? (part.end - part.begin) + data->rows() * data->cols() * sizeof(double) : csvBytes(o.data, *data);
  profiler.addStage("read and parse CSV", readSeconds, readBytes);

  nlohmann::json cvJson;
  if (o.mstopWord == "cv") settings.mstop = chooseMstop(o, data, settings, compute, cvJson);
  const HoldoutSpec holdout{o.holdout, o.folds.seed};
  const std::unique_ptr<Booster> fitted =
      makeBooster(data, settings, std::move(backend), o.data, nullptr, "", o.holdout > 0.0 ? &holdout : nullptr, group);
  Booster& booster = *fitted;
  const std::uint64_t resultBytes =
      resultBytesEstimate(booster.frame().inputRows, booster.settings(), booster.learners().size()) *
      (o.holdout > 0.0 ? 2 : 1);  // "holdout": a risk curve and the held-out rows
  if (writes) {
    outputs.setExpectedBytes(o.out, resultBytes + (o.bands > 0 ? bandsBytesEstimate(booster) : 0));
    if (!o.model.empty()) outputs.setExpectedBytes(o.model, resultBytes / 2);
    outputs.checkSpace();
  }
  const int mstop = booster.settings().mstop;
  ProgressPrinter fitting("fit", !o.quiet);
  // MPI ranks must ask their backends for the same batches (the sharded cached scheme exchanges once a batch):
  // a fixed batch, not the automatic one, which follows each rank's own clock.
  const int batch = group ? kDistributedBatch : 0;
  booster.run(
      mstop,
      [&fitting, mstop](const Booster& b) {
        fitting.update(static_cast<double>(b.iteration()) / mstop, "iteration " + std::to_string(b.iteration()) + "/" +
                                                                       std::to_string(mstop) + ", risk " +
                                                                       formatNumber(b.path().risk.back(), 6));
        return true;
      },
      batch);
  checkFinite(booster, o.data);
  for (const std::string& note : fitNotes(booster))
    if (writes) std::cerr << "gamboost: note: " << note << std::endl;

  const Model model = booster.model();
  FitOptions used = o;
  used.compute = compute;
  nlohmann::json result = resultJson(booster, model, used, readSeconds, group);
  if (group) result["distributed"] = distributedRecord(*group, part);
  if (!cvJson.is_null()) result["cv"] = cvJson;
  if (booster.heldOut()) result["holdout"] = holdoutJson(booster, used);
  if (o.bands > 0) result["bands"] = fitBands(data, booster, o.bands, o.folds.seed, compute, o.quiet);
  if (profiler.on()) result["profile"] = profiler.finish(compute, booster.iteration());
  if (!writes) return 0;  // another MPI rank: rank 0 writes
  writeOutputs(outputs, o, result, model, profiler);
  if (o.summary)
    printFitSummary(std::cout, booster, o.data, readSeconds, mstopSummaryLine(cvJson) + holdoutSummaryLine(booster));
  return 0;
}

// fit --distributed: this process is one MPI rank. A failure on any rank prints its one line there and ends every
// rank (MPI_Abort), before anything is written: only rank 0 writes, and only after the fit.
int runDistributedFit(FitOptions o, const std::vector<Override>& overrides) {
  MpiSession mpi;
  const bool rankZero = mpi.rank() == 0;
  if (!rankZero) o.quiet = true;
  int status = kExitFailure;
  std::string message = "unexpected failure";
  try {
    MpiReducer group;
    return runFit(o, overrides, rankZero, &group);
  } catch (const InputError& e) {
    message = e.what();
    status = kExitBadInput;
  } catch (const std::bad_alloc&) {
    message = "out of memory";
  } catch (const std::exception& e) {
    message = e.what();
  }
  // One write of the whole line: the ranks' stderr meet in mpirun's, and a line in pieces would interleave.
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  const std::string line = "gamboost: " + message + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  mpi.abort(status);
}

}  // namespace

Command addFitCommand(CLI::App& app) {
  auto options = std::make_shared<FitOptions>();
  CLI::App* sub = app.add_subcommand("fit", "Boost a GAM on a CSV file and write result.json.");
  sub->footer("Defaults are mboost's (gamboost + bbs). --preset sets the base; options given explicitly override it.");
  sub->add_option("--data", options->data, "CSV file with a header row")
      ->required()
      ->check(fileNameValidator())
      ->group("Files");
  sub->add_option("--out", options->out, "result.json to write (atomically)")->required()->group("Files");
  sub->add_option("--model", options->model, "Also save the model (for 'gamboost predict')")
      ->check(fileNameValidator())
      ->group("Files");
  auto overrides = std::make_shared<std::vector<Override>>(addModelOptions(sub, *options, true));
  addFoldOptions(sub, options->folds);
  addIntOption(sub, "--cv-grid", options->cvGrid, "With --mstop cv: iterations of each fold's fit (default 1000)")
      ->group("Folds")
      ->each([options](const std::string&) { options->cvGridGiven = true; });
  addHoldoutOption(sub, *options);
  sub->add_option("--preset", options->preset,
                  "Base settings: paper (12 knots, ridge, edf 1, clamped, trace) or mboost (the defaults)")
      ->check(oneOfValidator({"paper", "mboost"}))
      ->group("Model");
  addComputeOptions(sub, options->compute);
  addBandsOption(sub, options->bands);
  sub->add_flag("--summary", options->summary, "Print a human summary of the fit to stdout")->group("Output");
  sub->add_flag("--profile", options->profile,
                "Print the time budget (stages against their floors, device kernels) and add it to result.json")
      ->group("Output");
  sub->add_flag("--quiet", options->quiet, "No progress lines on stderr (they appear only for runs over ~2 s)")
      ->group("Output");
  sub->add_flag("--distributed", options->distributed,
                "One MPI rank of 'mpirun -np N gamboost fit --distributed ...': the ranks share the rows, rank 0 "
                "writes the outputs; implies --backend opencl")
      ->group("Compute");
  return {sub, [options, overrides, sub]() {
            if (!options->distributed) return runFit(*options, *overrides);
            if (sub->get_option("--backend")->count() == 0) options->compute.backend = BackendKind::OpenCl;
            return runDistributedFit(*options, *overrides);
          }};
}

}  // namespace gb::cli

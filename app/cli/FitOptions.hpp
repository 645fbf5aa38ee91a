#pragma once
// The options `gamboost fit` and `gamboost cv` share: the model's (with presets: only options given explicitly override
// the preset), the compute settings, the thread cap, and the Booster made so that data errors name the file.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "CliSupport.hpp"
#include "compute/Booster.hpp"
#include "compute/CrossValidation.hpp"
#include "compute/Holdout.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

namespace gb::cli {

// Which resampling chooses mstop (gamboost cv, fit --mstop cv): one of the four, or the default 25 bootstraps.
struct FoldOptions {
  int kfold = 0, bootstrap = 0, subsample = 0;  // read only where given (kfoldGiven, ...): 0 and negatives are errors
  bool kfoldGiven = false, bootstrapGiven = false, subsampleGiven = false;
  double prob = 0.5;
  bool probGiven = false;  // --prob belongs to --subsample alone
  std::string foldsFile;
  std::uint64_t seed = 1;
  bool seedGiven = false;  // fit: --seed draws the folds, the held-out rows or the bands' samples, nothing else
};

struct FitOptions {
  std::string data, out, model, preset;
  ModelSettings settings;  // holds the parsed values; only options given explicitly override the preset
  std::string boundary = toString(settings.spline.boundary);
  std::string penalty = toString(settings.penalty);
  std::string edfDefinition = toString(settings.edfDefinition);
  std::string family = toString(settings.family);
  std::string link = toString(settings.link);
  std::string missing = toString(settings.missing);
  ComputeSettings compute;
  bool summary = false;
  bool quiet = false;
  bool profile = false;   // fit --profile: the time budget on stderr and in result.json
  std::string mstopWord;  // fit's --mstop as given: a number or "cv"
  FoldOptions folds;      // fit --mstop cv
  int cvGrid = 1000;      // fit --mstop cv: the folds run this many iterations
  bool cvGridGiven = false;
  double holdout = 0.0;      // fit --holdout: the share of used rows held out; 0: none (a given 0 is refused)
  int bands = 0;             // fit --bands: bootstrap refits for the partial effects' bands (0: none)
  bool distributed = false;  // fit --distributed: one MPI rank of `mpirun -np N` (compute/MpiReducer.hpp)
};

// An explicitly given option and how it changes the settings taken from the preset.
struct Override {
  CLI::Option* option;
  std::function<void(ModelSettings&, const FitOptions&)> apply;
};

// The settings from the preset and the options given explicitly.
ModelSettings settingsAsGiven(const FitOptions& o, const std::vector<Override>& overrides);
// Adds the model options to `sub`; returns how each changes the settings when given. With mstopCv, --mstop also
// takes the word "cv" (fit --mstop cv).
std::vector<Override> addModelOptions(CLI::App* sub, FitOptions& o, bool mstopCv = false);
void addFoldOptions(CLI::App* sub, FoldOptions& f);
// The option that chose the folds (--bootstrap where none was given: mboost's 25 bootstrap samples).
std::string foldOptionOf(const FoldOptions& o);
// The folds the options ask for, as weights per input row of `data`. Generated folds are drawn over the rows the
// model uses (`frame`, the model's frame of all rows, with their case weights), as mboost's cv(model.weights(model));
// a folds file may have one row per data row or per used row.
ResamplingFolds makeFolds(const FoldOptions& o, const Dataset& data, const ModelFrame& frame);
void addComputeOptions(CLI::App* sub, ComputeSettings& c);
// --threads beyond a few per core only adds memory (each OpenMP thread has its own stack) and contention.
int cappedThreads(int requested);
// The Booster (a fold's when fold != nullptr, a holdout's when holdout != nullptr); errors about the data found while
// building the learners (a constant covariate, too few rows) still name the file, as every bad-input message does;
// option errors name their option.
std::unique_ptr<Booster> makeBooster(std::shared_ptr<const Dataset> data, const ModelSettings& settings,
                                     std::unique_ptr<Backend> backend, const std::string& dataPath,
                                     const std::vector<double>* fold = nullptr, const std::string& foldName = "",
                                     const HoldoutSpec* holdout = nullptr, ShardReducer* group = nullptr);
// readCsv with a progress line on stderr (unless quiet).
std::shared_ptr<const Dataset> readData(const std::string& path, bool quiet, int threads = 0);  // 0: all

}  // namespace gb::cli

#pragma once
// Resampling to choose mstop, as mboost's cvrisk(model, folds): one fit per fold, weighted by the fold's column of
// weights (the offset and every lambda from them, knots and design from all used rows), each recording its
// out-of-bag risk sum(w_oob loss) / sum(w_oob) after m = 0..mstop iterations (w_oob: the case weights, 1 without
// --weights, on the rows the fold leaves out). The chosen mstop is the first minimum of the folds' mean risk.
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compute/Backend.hpp"
#include "compute/Divergence.hpp"
#include "compute/DroppedFolds.hpp"
#include "data/Dataset.hpp"
#include "learner/ModelFrame.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

class Booster;

struct ResamplingFolds {
  std::string type;                          // "kfold", "bootstrap", "subsample" or "folds-file"
  std::vector<std::vector<double>> weights;  // [fold][input row]: non-negative weights
};

// Folds over `rows` input rows from a seeded generator (our own draws, not R's): k-fold (each row left out by exactly
// one fold, the folds as equal as can be), B bootstrap samples (n draws with replacement, probabilities
// proportional to the case weights), B subsamples of floor(n prob) rows without replacement. Case weights (one per
// input row, NaN or 0 for none; empty: all 1) multiply the k-fold and subsample folds, as mboost's cv() does.
// Throws InputError naming the option for k < 2 or k > rows (called the rows used), B < 1, prob outside (0, 1).
ResamplingFolds kfoldFolds(std::size_t rows, int k, std::uint64_t seed, const std::vector<double>& caseWeights);
ResamplingFolds bootstrapFolds(std::size_t rows, int b, std::uint64_t seed, const std::vector<double>& caseWeights);
// bootstrapFolds' samples one at a time (the s-th call of next() gives its fold s): n draws with replacement,
// probabilities proportional to the case weights, as counts per row. Throws InputError naming `option` when every
// case weight is 0.
class BootstrapSampler {
 public:
  BootstrapSampler(std::size_t rows, std::uint64_t seed, const std::vector<double>& caseWeights,
                   const std::string& option);
  std::vector<double> next();
  // The next `count` samples, as `count` calls of next() would give them (the draws in order, the counting on all
  // cores).
  std::vector<std::vector<double>> next(int count);

 private:
  std::vector<double> cumulative_;
  double total_ = 0.0;
  bool unitWeights_ = true;  // every case weight 1: a draw's row is floor(u), no search
  std::mt19937_64 rng_;
  std::size_t rowOf(double u) const;  // the row a draw u in [0, total) lands on
};
ResamplingFolds subsampleFolds(std::size_t rows, int b, double prob, std::uint64_t seed,
                               const std::vector<double>& caseWeights);
// Generated folds ("kfold": count K; "bootstrap" or "subsample": count B) over the rows `frame` (the model's frame of
// all rows) uses, with their case weights, as mboost's cv(model.weights(model), ...) draws them over its model
// frame, where na.omit's rows are not. Given per input row (onInputRows), 0 on the omitted rows. Without omitted rows
// these are kfoldFolds', bootstrapFolds' or subsampleFolds' folds of all rows.
ResamplingFolds foldsOverUsedRows(const std::string& type, int count, double prob, std::uint64_t seed,
                                  const ModelFrame& frame);
// The folds of a CSV read from --folds-file: one numeric column per fold, one row per data row, non-negative
// integers. Throws InputError naming the file, line and column. rowsUsed, where given: the data rows the model uses
// (its frame's keptRows). Then the file may also have one row per used row, as R's cv(model.weights(model)) writes
// it (mboost's model has no weights for the rows na.omit dropped): its rows go to the used rows in order, and the
// omitted rows get weight 0 (a fit never sees them). With one row per data row, an omitted row's cell may be NA.
// caseWeights, where given: the frame's case weights (one per used row, rescaled as mboost rescales non-integer
// ones). A cell may then also be its row's case weight, as R's cv(model.weights(model), "kfold") writes its folds
// for non-integer weights (its 0/1 folds times those weights); any other fraction is an error.
ResamplingFolds foldsFromTable(const Dataset& table, std::size_t dataRows,
                               const std::vector<std::size_t>* rowsUsed = nullptr,
                               const std::vector<double>* caseWeights = nullptr);

struct CvResult {
  std::vector<std::vector<double>> risk;  // [fold][m], m = 0..mstop
  std::vector<double> mean;               // over the folds kept, per m
  int mstop = 0;                          // the first minimum of mean (a number of iterations)
  // Folds (numbered from 1, as messages and cv.json's "dropped" name them) left out of the mean, as mboost's cvrisk
  // leaves out a fold whose fit fails: their weights leave an unpenalised factor level or linear slope undecided
  // (Learner::undecided; mboost: "system is exactly singular"). Their risk rows stay in `risk`. note: which, and why;
  // empty when none.
  std::vector<int> dropped;
  std::string note;
  // Per fold: its learners' notes (an edf its lambda cannot reach with these weights, ...), as a fit with the fold's
  // weights prints them; empty for a fold without any.
  std::vector<std::vector<std::string>> learnerNotes;
  bool batched = false;         // the folds advanced together (Backend::prepareFolds), not one by one
  double setupSeconds = 0.0;    // batched: the folds' set-ups (CPU) and the batches' device preparation
  double iterateSeconds = 0.0;  // batched: the iterations of every batch
};

// Makes each fold's backend (called once per fold, possibly from several threads at once).
using BackendMaker = std::function<std::unique_ptr<Backend>()>;

// The backends a resampling run (crossValidate, effectBands) uses for `compute`: on the CPU one thread a fold and as
// many folds at once as compute.threads (else the cores); otherwise that backend, one fold (or batch) at a time.
struct FoldBackends {
  BackendMaker make;
  int parallel = 1;
};
FoldBackends foldBackends(const ComputeSettings& compute);

// Folds advancing together on a backend that batches the model (Backend::foldBatchSize > 0: the OpenCL backend for
// spline models), in batches of foldBatchSize(): each fold a Booster set up on the CPU (in parallel; weights from
// weightsOf(b), called in fold order from the calling thread; named "<label> b+1" in errors) whose problem joins the
// batch, then `iterations` iterations of the whole batch. done(b, setUp, results) gets each fold's set-up Booster (its
// offset, path().risk[0]) and its iteration results. keepGoing, when set, is asked between batches and between
// chunks of iterations of about 50 ms (false: return, the unfinished folds never reach done).
struct BatchedFolds {
  int count = 0;
  int iterations = 0;
  std::string label = "fold";
  // The folds' numbers in messages ("<label> N: ..."), where not b + 1: those of the caller's folds when it left some
  // out before (unfittableFold). Empty: b + 1.
  std::vector<int> numbers;
  OutOfBag outOfBag = OutOfBag::Required;  // Optional for bands' refits (learner/ModelFrame.hpp applyFold)
  // Fold b's weights, called in fold order; an empty vector leaves fold b out (never set up, no done call). Where the
  // backend turns out not to batch the model, the first batch's folds were asked for already: a caller's bookkeeping
  // of the folds it leaves out must count each once.
  std::function<std::vector<double>(int)> weightsOf;
  std::function<void(int, const Booster&, const std::vector<IterationResult>&)> done;
  std::function<bool()> keepGoing;
  // Called after each chunk of iterations (about 50 ms with keepGoing, else all): folds [begin, end) have done
  // `done`.
  std::function<void(int begin, int end, int done)> progress;
  // When set, called after each chunk too, with the batch's risk curves so far (risk[0] and one value an iteration
  // done), for a live view of folds that advance together.
  std::function<void(int begin, const std::vector<std::vector<double>>& curves)> partial;
  double* setupSeconds = nullptr;    // accumulated when set
  double* iterateSeconds = nullptr;  // accumulated when set
  // The model's frame of all rows (buildModelFrame of the same data and settings) where the caller has one already;
  // null: built here.
  const ModelFrame* frame = nullptr;
};
// False, having run nothing, when the backend does not batch this model.
bool runFoldsBatched(const std::shared_ptr<const Dataset>& data, const ModelSettings& settings, Backend& backend,
                     const BatchedFolds& run);

// Runs fitFold(b, going) for every fold b = 0..count-1, `parallel` at once (OpenMP threads, one fold each, as they
// come). A fold's InputError is prefixed "<label> b+1: " unless it starts with "<label> " already. Once a fold has
// failed, going() is false: the folds still running should stop (Booster::run's progress), and the others do not
// start; after every fold ended, the first fold's error (in fold order) is rethrown. crossValidate and effectBands
// run their fits through it.
using FoldFit = std::function<void(int fold, const std::function<bool()>& going)>;
void forEachFold(int count, int parallel, const std::string& label, const FoldFit& fitFold);

// Throws InputError "fold F diverged: ..." where fold F's (1-based) risk curve holds a value that is not finite, so
// that no mean of NaN and no mstop chosen from it is reported (`fit` reports a diverged fit the same way). The fold's
// booster gives the advice its family, nu and response (divergenceAdvice).
void checkFoldRisk(int fold, const std::vector<double>& risk, const Booster& booster);

// The risk matrix and the folds' paths (about 32 bytes a fold and iteration, cv.json's text about 20 more) against
// the memory available: InputError naming mstopOption (--mstop, or --cv-grid for fit --mstop cv) and foldOption where
// they need more than half of it (100000 bootstrap folds of 100000 iterations ran until the memory ran out).
void checkRiskMatrixFits(std::size_t folds, int mstop, const std::string& foldOption, const std::string& mstopOption);

// Fits every fold to settings.mstop iterations. `parallelFolds` > 1 runs that many folds at once (CPU backends of
// one thread each). With 1, a backend that batches folds (Backend::foldBatchSize, the OpenCL backend for spline
// models) runs up to that many folds together, their set-ups (weights, offsets, lambdas) in parallel on the CPU. Throws
// InputError naming the fold ("fold 3: ...") for a fold that cannot be fitted or that diverged (checkFoldRisk).
// foldDone, where given, is called after each fold that ran on its own (done of total; one thread at a time).
CvResult crossValidate(std::shared_ptr<const Dataset> data, const ModelSettings& settings, const ResamplingFolds& folds,
                       const BackendMaker& makeBackend, int parallelFolds,
                       const std::function<void(int done, int total)>& foldDone = {});

}  // namespace gb

#pragma once
// The worker side of a cross-validation (mboost's cvrisk): makes the folds, then fits them one by one on the
// worker thread, each fold a gb::Booster weighted by its column of fold weights, and hands every finished fold's
// out-of-bag risk curve to the UI as it comes (so the curves appear live and Cancel acts between folds and within
// a fold at the Booster's batch boundaries).
#include <QString>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "data/Dataset.hpp"
#include "learner/ModelFrame.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

namespace gbui {

class TaskWorker;

// FoldsFile: the folds of a CSV (gamboost cv --folds-file), e.g. written by R's cv().
enum class FoldType { Bootstrap, KFold, Subsample, FoldsFile };
QString foldTypeName(FoldType type);
// The word of the fold type in files (cv.json's "type", the session file): "bootstrap", "kfold", "subsample",
// "folds-file"; foldTypeFromWord throws gb::InputError for another word.
std::string foldTypeWord(FoldType type);
FoldType foldTypeFromWord(const std::string& word);
// mboost's cv(): B = 10 for k-fold, 25 otherwise.
int defaultFoldCount(FoldType type);

struct CvRequest {
  std::shared_ptr<const gb::Dataset> data;
  gb::ModelSettings settings;  // as a Fit uses them (mstop: the length of every curve)
  gb::ComputeSettings compute;
  FoldType type = FoldType::Bootstrap;
  int count = 25;          // B or K
  double prob = 0.5;       // subsample: the share of rows each fold fits on
  std::uint64_t seed = 1;  // the folds' generator
  QString foldsFile;       // FoldsFile: the CSV of fold weights (one column per fold, one row per data row)
};

// What the Cross-validation tab keeps in a session: its controls and, after a finished run, the result.
struct CvState {
  FoldType type = FoldType::Bootstrap;
  int count = 25;
  double prob = 0.5;
  std::uint64_t seed = 1;
  QString foldsFile;
  std::vector<std::vector<double>> risk;  // [fold][m] of a finished run; empty: none
  std::vector<double> mean;               // their mean per m
  int mstop = -1;                         // its first minimum
};

// Filled by the worker, emptied by the UI (take()): the curves of the folds finished since the last take.
class CvCurves {
 public:
  void add(std::vector<double> risk);
  std::vector<std::vector<double>> take();
  // Folds advancing together: their curves so far (replaced at each chunk, emptied when the batch's folds are
  // added), taken by the view as a preview. taken false: nothing new since the last take.
  void setPartial(std::vector<std::vector<double>> curves);
  std::vector<std::vector<double>> takePartial(bool& taken);

 private:
  std::mutex mutex_;
  std::vector<std::vector<double>> pending_;
  std::vector<std::vector<double>> partial_;
  bool partialNew_ = false;
};

struct CvJob {
  CvRequest request;
  std::shared_ptr<CvCurves> curves;
  int foldsDone = 0;  // written by the worker, read after the job
  int foldCount = 0;  // likewise: the folds made (a folds file's columns)
  // Folds advancing together (OpenCL): the batch under way, [begin, end), and its iterations done.
  int batchBegin = 0, batchEnd = 0, batchIterations = -1;
  bool cancelled = false;
  // Folds whose weights leave an effect undecided (gb::undecidedEffect) or that cannot be fitted at all
  // (gb::unfittableFold): no curve, left out of the mean as the engine's crossValidate leaves them; the first one's
  // reason for the log.
  int dropped = 0;
  std::string firstDropped;
  bool firstUnfitted = false;

  // Throws InputError ("fold 3: ...") for a fold that cannot be fitted; reports progress after every fold.
  void operator()(TaskWorker& worker);

 private:
  bool dropFold(int fold, const std::string& why, bool unfitted = false);  // false (kept) where why is empty
  int lastKept(int end) const;  // the last fold before `end` that is fitted (maybe undecided); -1 where none
  static constexpr char kUnfitted = 1, kUndecided = 2;
  std::vector<char> leftOut_;      // per fold: 0, or why dropFold left it out (an unfitted fold never reaches done)
  void checkSomeFoldKept() const;  // InputError where every fold of a finished run was dropped
};

// The fold weights of a request (one vector per fold, one weight per input row). A folds file is read with the CSV
// reader; its errors (gb::InputError) name the file, line and column.
std::vector<std::vector<double>> makeFoldWeights(const CvRequest& request);
// The same with the model's frame of all rows (gb::buildModelFrame of the request's data and settings) given.
std::vector<std::vector<double>> makeFoldWeights(const CvRequest& request, const gb::ModelFrame& frame);

// The mean of the curves per iteration (as the engine's crossValidate: sum of r[m] / count) and its first minimum.
std::vector<double> meanCurve(const std::vector<std::vector<double>>& curves);
int firstMinimum(const std::vector<double>& curve);

}  // namespace gbui

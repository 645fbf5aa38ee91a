#include "fit/CvJob.hpp"

#include <QObject>
#include <algorithm>

#include "common/Error.hpp"
#include "common/QtConvert.hpp"
#include "common/WorkerThread.hpp"
#include "compute/Booster.hpp"
#include "compute/CrossValidation.hpp"
#include "data/CsvReader.hpp"
#include "learner/ModelFrame.hpp"

namespace gbui {

QString foldTypeName(FoldType type) {
  switch (type) {
    case FoldType::KFold:
      return QObject::tr("k-fold");
    case FoldType::Subsample:
      return QObject::tr("subsample");
    case FoldType::FoldsFile:
      return QObject::tr("folds-file");
    default:
      return QObject::tr("bootstrap");
  }
}

std::string foldTypeWord(FoldType type) {
  switch (type) {
    case FoldType::KFold:
      return "kfold";
    case FoldType::Subsample:
      return "subsample";
    case FoldType::FoldsFile:
      return "folds-file";
    default:
      return "bootstrap";
  }
}

FoldType foldTypeFromWord(const std::string& word) {
  for (FoldType t : {FoldType::Bootstrap, FoldType::KFold, FoldType::Subsample, FoldType::FoldsFile})
    if (foldTypeWord(t) == word) return t;
  throw gb::InputError("unknown fold type '" + word + "' (bootstrap, kfold, subsample or folds-file)");
}

int defaultFoldCount(FoldType type) { return type == FoldType::KFold ? 10 : 25; }

void CvCurves::add(std::vector<double> risk) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.push_back(std::move(risk));
}

void CvCurves::setPartial(std::vector<std::vector<double>> curves) {
  std::lock_guard<std::mutex> lock(mutex_);
  partial_ = std::move(curves);
  partialNew_ = true;
}

std::vector<std::vector<double>> CvCurves::takePartial(bool& taken) {
  std::lock_guard<std::mutex> lock(mutex_);
  taken = partialNew_;
  partialNew_ = false;
  return partial_;
}

std::vector<std::vector<double>> CvCurves::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::vector<double>> out;
  out.swap(pending_);
  return out;
}

std::vector<std::vector<double>> makeFoldWeights(const CvRequest& r) {
  return makeFoldWeights(r, gb::buildModelFrame(r.data, r.settings));
}

std::vector<std::vector<double>> makeFoldWeights(const CvRequest& r, const gb::ModelFrame& frame) {
  // Over the rows the model uses, as R's cv(model.weights(model)): the frame says which
  if (r.type == FoldType::FoldsFile)
    return gb::foldsFromTable(gb::readCsv(ss(r.foldsFile)), r.data->rows(), &frame.keptRows,
                              frame.weights.empty() ? nullptr : &frame.weights)
        .weights;
  return gb::foldsOverUsedRows(foldTypeWord(r.type), r.count, r.prob, r.seed, frame).weights;
}

void CvJob::operator()(TaskWorker& worker) {
  // One frame of all rows for the folds' drawing and their batched set-up.
  const gb::ModelFrame frame = gb::buildModelFrame(request.data, request.settings);
  const std::vector<std::vector<double>> folds = makeFoldWeights(request, frame);
  const int count = static_cast<int>(folds.size());
  foldCount = count;
  leftOut_.assign(folds.size(), 0);
  // Where the backend batches the model's folds (OpenCL, spline learners), they advance together: each batch's
  // curves so far after every chunk of iterations (about 50 ms), its whole curves when it ends; Cancel acts between
  // chunks.
  {
    gb::BatchedFolds run;
    run.count = count;
    run.iterations = request.settings.mstop;
    run.frame = &frame;
    // A fold that cannot be fitted (one class of a binomial response, ...) is left out, as mboost's cvrisk does.
    run.weightsOf = [&](int b) {
      const std::vector<double>& w = folds[static_cast<std::size_t>(b)];
      return dropFold(b, gb::unfittableFold(frame, request.settings, w), true) ? std::vector<double>() : w;
    };
    run.keepGoing = [&worker] { return !worker.cancelRequested(); };
    run.done = [&](int b, const gb::Booster& setUp, const std::vector<gb::IterationResult>& out) {
      std::vector<double> risk{setUp.path().risk.front()};
      for (const gb::IterationResult& r : out) risk.push_back(r.risk);
      gb::checkFoldRisk(b + 1, risk, setUp);  // a diverged fold is an error, not a curve of NaN
      if (!dropFold(b, gb::undecidedEffect(setUp))) curves->add(std::move(risk));
      foldsDone = b + 1;
      // The batch's whole curves replace its preview after its last fold fitted (its weights were all asked for).
      if (b == lastKept(batchEnd)) curves->setPartial({});
    };
    run.partial = [&](int, const std::vector<std::vector<double>>& sofar) { curves->setPartial(sofar); };
    run.progress = [&](int begin, int end, int done) {
      batchBegin = begin;
      batchEnd = end;
      batchIterations = done;
      const double share = (begin + double(end - begin) * done / std::max(1, request.settings.mstop)) / count;
      worker.reportProgress(share, QString("folds %1-%2 together").arg(begin + 1).arg(end));
    };
    const std::unique_ptr<gb::Backend> backend = gb::makeBackend(request.compute);
    if (gb::runFoldsBatched(request.data, request.settings, *backend, run)) {
      // The folds left out at the end never reach done: the run is whole when the last fold fitted did.
      cancelled = foldsDone < lastKept(count) + 1;
      if (!cancelled) foldsDone = count;
      checkSomeFoldKept();
      return;
    }
  }
  for (int b = 0; b < count && !worker.cancelRequested(); ++b) {
    const std::string name = "fold " + std::to_string(b + 1);
    std::vector<double> risk;
    if (dropFold(b, gb::unfittableFold(frame, request.settings, folds[static_cast<std::size_t>(b)]), true)) {
      foldsDone = b + 1;
      continue;
    }
    try {
      gb::Booster booster(request.data, request.settings, gb::makeBackend(request.compute),
                          folds[static_cast<std::size_t>(b)], name);
      if (dropFold(b, gb::undecidedEffect(booster))) {
        foldsDone = b + 1;
        continue;
      }
      booster.run(request.settings.mstop, [&worker](const gb::Booster&) { return !worker.cancelRequested(); });
      if (booster.iteration() < request.settings.mstop) break;  // cancelled within the fold
      risk = booster.path().risk;
      gb::checkFoldRisk(b + 1, risk, booster);
    } catch (const gb::InputError& e) {
      const std::string what = e.what();
      if (what.rfind("fold ", 0) == 0) throw;
      throw gb::InputError(name + ": " + what);
    }
    curves->add(std::move(risk));
    foldsDone = b + 1;
    worker.reportProgress(double(b + 1) / count, QString::fromStdString(name));
  }
  cancelled = foldsDone < count;
  checkSomeFoldKept();
}

int CvJob::lastKept(int end) const {
  int last = end - 1;
  while (last >= 0 && leftOut_[static_cast<std::size_t>(last)] == kUnfitted) --last;
  return last;
}

// Once per fold: a batched run asks for a batch's weights before it knows that the backend batches this model, and
// the folds then run one by one, asking again.
bool CvJob::dropFold(int fold, const std::string& why, bool unfitted) {
  if (why.empty()) return false;
  if (leftOut_[static_cast<std::size_t>(fold)]) return true;
  leftOut_[static_cast<std::size_t>(fold)] = unfitted ? kUnfitted : kUndecided;
  if (dropped++ == 0) {
    firstDropped = "fold " + std::to_string(fold + 1) + ": " + why;
    firstUnfitted = unfitted;
  }
  return true;
}

void CvJob::checkSomeFoldKept() const {
  if (cancelled || foldCount == 0 || dropped < foldCount) return;
  if (firstUnfitted)
    throw gb::InputError("no fold can be fitted, e.g. " + firstDropped +
                         " (mboost's cvrisk drops a fold whose fit stops with an error); use more rows in each fold");
  throw gb::InputError("every fold leaves an effect undecided, e.g. " + firstDropped +
                       " (an unpenalised linear or factor learner's X'WX is singular, where mboost's bols() stops); "
                       "penalise the learner (Linear edf, Factor edf) or use folds that keep its rows");
}

std::vector<double> meanCurve(const std::vector<std::vector<double>>& curves) {
  if (curves.empty()) return {};
  std::size_t steps = curves.front().size();
  for (const auto& c : curves) steps = std::min(steps, c.size());
  std::vector<double> mean(steps, 0.0);
  const double count = static_cast<double>(curves.size());
  for (const auto& c : curves)
    for (std::size_t m = 0; m < steps; ++m) mean[m] += c[m] / count;
  return mean;
}

int firstMinimum(const std::vector<double>& curve) {
  if (curve.empty()) return 0;
  return static_cast<int>(std::min_element(curve.begin(), curve.end()) - curve.begin());
}

}  // namespace gbui

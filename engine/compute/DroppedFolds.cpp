#include "compute/DroppedFolds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/Error.hpp"
#include "common/Text.hpp"
#include "compute/Booster.hpp"
#include "compute/CrossValidation.hpp"
#include "family/OffsetReason.hpp"
#include "learner/ModelFrame.hpp"

namespace gb {

std::string undecidedEffect(const Booster& fold) {
  for (const Learner& l : fold.learners()) {
    if (l.undecidedSlope)
      return "the rows of positive weight of learner " + quotedForMessage(l.name) + " all have one value";
    if (!l.undecidedLevels.empty())
      return "level " + quotedForMessage(l.levels[l.undecidedLevels[0]]) + " of learner " + quotedForMessage(l.name) +
             " has no row of positive weight";
  }
  return {};
}

std::string unfittableFold(const ModelFrame& allRows, const ModelSettings& settings,
                           const std::vector<double>& foldByInputRow) {
  if (settings.hasOffset || !offsetCanBeUndefined(settings.family) || foldByInputRow.size() != allRows.inputRows)
    return {};  // no copy of the fold's weights for nothing; applyFold names a bad count
  std::vector<double> w(allRows.keptRows.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    w[i] = foldByInputRow[allRows.keptRows[i]];
    if (!(w[i] >= 0.0) || !std::isfinite(w[i])) return {};  // applyFold names the bad weight
  }
  return undefinedOffsetReason(settings, allRows.response, w, allRows.responseLevels);
}

// The mean over the folds kept and its first minimum; the folds dropped (an effect left undecided, or no fit at all)
// are left out with a note, as mboost's cvrisk drops the folds whose fits fail, and an error when that is every fold.
void summariseFolds(CvResult& result, const std::vector<std::string>& reason, std::size_t steps) {
  // The first fold of each kind: no fit at all (its risk row NaN), or an effect left undecided.
  std::string first[2];
  int firstKind = -1;
  for (std::size_t b = 0; b < reason.size(); ++b)
    if (!reason[b].empty()) {
      result.dropped.push_back(static_cast<int>(b) + 1);
      if (result.risk[b].empty()) result.risk[b].assign(steps, std::numeric_limits<double>::quiet_NaN());
      const int k = std::isnan(result.risk[b].front()) ? 0 : 1;
      if (first[k].empty()) first[k] = "fold " + std::to_string(b + 1) + ": " + reason[b];
      if (firstKind < 0) firstKind = k;
    }
  static const char* const why[2] = {
      " (mboost's cvrisk drops a fold whose fit stops with an error, and says so in a warning)",
      " (an unpenalised --linear or --factor learner's X'WX is singular; mboost's cvrisk drops such folds, its bols() "
      "stopping with 'system is exactly singular')"};
  const bool firstUnfitted = firstKind == 0;
  const int kind = firstUnfitted ? 0 : 1;
  const std::size_t kept = result.risk.size() - result.dropped.size();
  if (!result.dropped.empty()) {
    if (kept == 0)
      throw InputError(
          (firstUnfitted ? "no fold can be fitted, e.g. " : "every fold leaves an effect undecided, e.g. ") +
          first[kind] + why[kind] +
          (firstUnfitted ? "; use more rows in each fold (e.g. --kfold, or a larger --prob)"
                         : "; penalise the learner (--factor-edf, --linear-edf) or use folds that keep "
                           "its rows"));
    result.note = std::to_string(result.dropped.size()) + " of " + std::to_string(result.risk.size()) +
                  " folds left out of the mean, e.g. " + first[kind] + why[kind];
    if (!first[1 - kind].empty()) result.note += "; also " + first[1 - kind] + why[1 - kind];  // both kinds
  }
  result.mean.assign(steps, 0.0);
  for (std::size_t b = 0; b < result.risk.size(); ++b)
    if (reason[b].empty())
      for (std::size_t m = 0; m < steps; ++m) result.mean[m] += result.risk[b][m] / static_cast<double>(kept);
  result.mstop = static_cast<int>(std::min_element(result.mean.begin(), result.mean.end()) - result.mean.begin());
}

}  // namespace gb

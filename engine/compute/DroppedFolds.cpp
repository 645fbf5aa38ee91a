#include "compute/DroppedFolds.hpp"

#include <algorithm>

#include "common/Error.hpp"
#include "common/Text.hpp"
#include "compute/Booster.hpp"
#include "compute/CrossValidation.hpp"

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

// The mean over the folds kept and its first minimum; the folds whose weights leave an effect undecided are dropped
// (with a note), as mboost's cvrisk drops the folds whose fits fail, and an error when that is every fold.
void summariseFolds(CvResult& result, const std::vector<std::string>& undecided, std::size_t steps) {
  std::string first;
  for (std::size_t b = 0; b < undecided.size(); ++b)
    if (!undecided[b].empty()) {
      result.dropped.push_back(static_cast<int>(b) + 1);
      if (first.empty()) first = "fold " + std::to_string(b + 1) + ": " + undecided[b];
    }
  const std::size_t kept = result.risk.size() - result.dropped.size();
  if (!result.dropped.empty()) {
    const std::string why =
        " (an unpenalised --linear or --factor learner's X'WX is singular; mboost's cvrisk drops "
        "such folds, its bols() stopping with 'system is exactly singular')";
    if (kept == 0)
      throw InputError("every fold leaves an effect undecided, e.g. " + first + why +
                       "; penalise the learner (--factor-edf, --linear-edf) or use folds that keep its rows");
    result.note = std::to_string(result.dropped.size()) + " of " + std::to_string(result.risk.size()) +
                  " folds left out of the mean, e.g. " + first + why;
  }
  result.mean.assign(steps, 0.0);
  for (std::size_t b = 0; b < result.risk.size(); ++b)
    if (undecided[b].empty())
      for (std::size_t m = 0; m < steps; ++m) result.mean[m] += result.risk[b][m] / static_cast<double>(kept);
  result.mstop = static_cast<int>(std::min_element(result.mean.begin(), result.mean.end()) - result.mean.begin());
}

}  // namespace gb

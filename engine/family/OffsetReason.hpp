#pragma once
// Why a family's offset is not finite on a response and its weights, in the data's words: a binomial response whose
// rows of positive weight are all of one class, poisson counts that are all 0. Used to name the real cause where the
// weights (a resampling fold's, or --weights) leave only such rows.
#include <string>
#include <vector>

#include "settings/ModelSettings.hpp"

namespace gb {

// "" where family.offset(y, w / max(w)) is finite (only the weights' ratios count, so no sum of large weights
// overflows here; w empty: all 1), or where the family is not binary, poisson or negbin. Else e.g. "its rows of
// positive weight are all of one class ('no'), and binomial needs both" (levels: the binomial response's two levels,
// the second the event, coded +1 in y; empty: 0 and 1).
// The families whose offset the data can leave undefined (a mean's log or log-odds); the others' is a median or an
// optimum over the data's range.
inline bool offsetCanBeUndefined(Family f) { return isBinary(f) || f == Family::Poisson || f == Family::NegBin; }

std::string undefinedOffsetReason(const ModelSettings& settings, const std::vector<double>& y,
                                  const std::vector<double>& w, const std::vector<std::string>& levels);

}  // namespace gb

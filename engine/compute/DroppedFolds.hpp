#pragma once
// Resampling folds whose weights leave an unpenalised bols effect undecided (Learner::undecided), or whose rows leave
// the family's offset undefined: left out of the cross-validation's mean, as mboost's cvrisk leaves out the folds
// whose fits fail ("system is exactly singular", an offset of -Inf).
#include <cstddef>
#include <string>
#include <vector>

namespace gb {

class Booster;
struct CvResult;
struct ModelFrame;
struct ModelSettings;

// What a fold's weights leave undecided (an unpenalised factor level without a row of positive weight, or a linear
// slope over one value), e.g. "level 'g' of learner 'f' has no row of positive weight"; empty when nothing.
std::string undecidedEffect(const Booster& fold);

// Why the fold of these weights (one per input row, as applyFold takes them) cannot be fitted at all, from the
// model's frame of all rows: the response on its rows of positive weight leaves the family's offset not finite (a
// binomial fold of one class, a poisson fold of counts 0), e.g. "its rows of positive weight are all of one class
// ('no')"; empty when it can (and always with a fixed --offset). mboost's cvrisk leaves such a fold out, its fit
// having stopped with an error.
std::string unfittableFold(const ModelFrame& allRows, const ModelSettings& settings,
                           const std::vector<double>& foldByInputRow);

// result.mean over the folds whose reason[b] is empty, its first minimum (result.mstop), result.dropped (numbered
// from 1) and result.note; InputError where every fold is dropped. A fold is dropped either because its weights
// leave an effect undecided (undecidedEffect; its curve of `steps` in result.risk) or because it could not be fitted
// (unfittableFold; its result.risk row empty, filled here with NaN, which cv.json writes as null, as R's cvrisk
// holds NA).
void summariseFolds(CvResult& result, const std::vector<std::string>& reason, std::size_t steps);

}  // namespace gb

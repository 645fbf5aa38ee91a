#pragma once
// Resampling folds whose weights leave an unpenalised bols effect undecided (Learner::undecided): left out of the
// cross-validation's mean, as mboost's cvrisk leaves out the folds whose fits fail ("system is exactly singular").
#include <cstddef>
#include <string>
#include <vector>

namespace gb {

class Booster;
struct CvResult;

// What a fold's weights leave undecided (an unpenalised factor level without a row of positive weight, or a linear
// slope over one value), e.g. "level 'g' of learner 'f' has no row of positive weight"; empty when nothing.
std::string undecidedEffect(const Booster& fold);

// result.mean over the folds whose undecided[b] is empty, its first minimum (result.mstop), result.dropped (numbered
// from 1) and result.note; InputError where every fold is undecided. result.risk holds every fold's curve of `steps`.
void summariseFolds(CvResult& result, const std::vector<std::string>& undecided, std::size_t steps);

}  // namespace gb

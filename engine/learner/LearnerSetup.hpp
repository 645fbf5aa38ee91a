#pragma once
// Internal to the learner layer: the steps that build one learner of each type.
#include <string>
#include <vector>

#include "learner/Learner.hpp"

namespace gb {

// lambda from the target edf (0: unpenalised), then P = (G + lambda S)^-1 and Q = 2P - PGP. Needs gram, penalty.
void finishLearner(Learner& learner, double targetEdf, EdfDefinition definition);

// bols(x): columns 1 and x, ridge penalty on both, edf settings.linearEdf. w null: unweighted.
Learner buildLinear(const std::string& name, int column, const std::vector<double>& x, const double* w,
                    const ModelSettings& settings);
// bols(f): codes 0..L-1 of `levels`; columns 1 and one indicator per level after the first; ridge on all L.
Learner buildFactor(const std::string& name, int column, const std::vector<double>& codes,
                    const std::vector<std::string>& levels, const double* w, const ModelSettings& settings);

}  // namespace gb

#pragma once
// Which columns of the data a model's learners use.
#include <string>
#include <vector>

#include "data/Dataset.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

// The learner names actually used for this data (resolves the empty list: every column except the response).
// Throws InputError for an unknown response/learner column (naming it and the file), or a learner equal to the
// response.
std::vector<std::string> resolveLearners(const ModelSettings& settings, const Dataset& data);

}  // namespace gb

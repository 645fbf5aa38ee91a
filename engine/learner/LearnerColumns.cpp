#include "learner/LearnerColumns.hpp"

#include <set>

#include "common/Error.hpp"
#include "common/Text.hpp"

namespace gb {

std::vector<std::string> resolveLearners(const ModelSettings& settings, const Dataset& data) {
  const std::string& response = settings.response;
  const std::vector<std::string>& learners = settings.learners;
  if (data.columnIndex(response) < 0)
    throw InputError(optionMessage("--response", "no column named " + quotedForMessage(response) + " in " +
                                                     data.sourceName() + data.nameHint(response)));
  std::vector<std::string> names;
  if (learners.empty()) {
    for (const auto& name : data.names)
      if (name != response) names.push_back(name);
    if (names.empty())
      throw InputError(optionMessage(
          "--learners", data.sourceName() + " has no column besides the response " + quotedForMessage(response)));
    return names;
  }
  std::set<std::string> seen;
  for (const auto& name : learners) {
    if (data.columnIndex(name) < 0)
      throw InputError(optionMessage("--learners", "no column named " + quotedForMessage(name) + " in " +
                                                       data.sourceName() + data.nameHint(name)));
    if (name == response)
      throw InputError(optionMessage("--learners", quotedForMessage(name) + " is the response, not a covariate"));
    if (!seen.insert(name).second)
      throw InputError(optionMessage("--learners", quotedForMessage(name) + " is listed twice"));
    names.push_back(name);
  }
  return names;
}

}  // namespace gb

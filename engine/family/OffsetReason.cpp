#include "family/OffsetReason.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/Text.hpp"
#include "family/FamilyFunctions.hpp"

namespace gb {

std::string undefinedOffsetReason(const ModelSettings& settings, const std::vector<double>& y,
                                  const std::vector<double>& w, const std::vector<std::string>& levels) {
  if (!offsetCanBeUndefined(settings.family)) return {};
  std::vector<double> ratios = w;
  double top = 0.0;
  for (double wi : ratios) top = std::max(top, wi);
  if (!ratios.empty() && !(top > 0.0 && std::isfinite(top))) return {};  // the weights' own checks name these
  for (double& wi : ratios) wi /= top;
  const double offset = FamilyFunctions::from(settings).offset(y, ratios);
  if (std::isfinite(offset)) return {};
  const std::string family = toString(settings.family);
  if (isBinary(settings.family)) {
    std::size_t first = 0;
    while (first < y.size() && !ratios.empty() && !(ratios[first] > 0.0)) ++first;
    const bool event = first < y.size() && y[first] > 0.0;
    const std::string level = levels.size() == 2 ? levels[event ? 1 : 0] : (event ? "1" : "0");
    return "its rows of positive weight are all of one class (" + quotedForMessage(level) + "), and " + family +
           " needs both";
  }
  if (offset != -std::numeric_limits<double>::infinity()) return {};  // counts too large: the fit's checks say so
  return "its rows of positive weight all have count 0, where the " + family + " offset log(mean) is -inf";
}

}  // namespace gb

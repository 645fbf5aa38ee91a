#include "compute/Divergence.hpp"

#include <algorithm>

#include "common/Format.hpp"

namespace gb {

std::string divergenceAdvice(Family family) {
  return family == Family::Gaussian ? "the data's scale is beyond double precision; rescale it"
                                    : "the steps overshoot for this family: lower --nu, e.g. --nu 0.01";
}

std::string overshootNote(const std::vector<double>& risk, Family family) {
  if (risk.size() < 2 || !(risk.back() > risk.front() * (1.0 + 1e-6))) return "";
  const auto worst = std::max_element(risk.begin(), risk.end());
  return "the training risk ends at " + formatNumber(risk.back(), 6) + ", above the offset's " +
         formatNumber(risk.front(), 6) + " (it peaked at " + formatNumber(*worst, 6) + " after iteration " +
         std::to_string(worst - risk.begin()) + "): " +
         (family == Family::Gaussian ? std::string("the steps overshoot: lower --nu") : divergenceAdvice(family));
}

}  // namespace gb

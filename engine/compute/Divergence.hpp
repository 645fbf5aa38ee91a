#pragma once
// What a fit's risk path says about its steps: the advice for a risk that became non-finite, and the note for one
// that stayed finite but ended above where it started. `fit`, `cv` and the window report both the same way.
#include <string>
#include <vector>

#include "settings/ModelEnums.hpp"

namespace gb {

// What to do about a fit whose risk became non-finite: gaussian fits diverge only where the data's scale is beyond
// double precision; the other families' steps can overshoot the gradient's scale (poisson's exp(f)), as mboost's do.
std::string divergenceAdvice(Family family);

// A note for a training risk that ends above the offset's own (risk[0]) by more than rounding (a relative 1e-6,
// far above a float fit's): the steps overshoot (poisson on large counts at mboost's nu 0.1, for one), though every
// value stayed finite. Empty where the risk ends lower, within that margin, or the path has one entry. L2 boosting
// (gaussian, nu <= 1) never raises its training risk, so for gaussian it does not come up.
std::string overshootNote(const std::vector<double>& risk, Family family);

}  // namespace gb

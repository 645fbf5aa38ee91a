#pragma once
// What a fit's risk path says about its steps: the advice for a risk that became non-finite, and the note for one
// that stayed finite but ended above where it started. `fit`, `cv` and the window report both the same way.
#include <cstddef>
#include <string>
#include <vector>

#include "settings/ModelEnums.hpp"

namespace gb {

// What to do about a fit whose risk became non-finite: gaussian fits diverge only where the data's scale is beyond
// double precision; the other families' steps can overshoot the gradient's scale (poisson's exp(f)), as mboost's do.
std::string divergenceAdvice(Family family);
// The same, where the response is known: for poisson on counts so large that nu times the largest is above 10, the
// gradient's scale is named and a --nu near 1 / the largest count suggested (mboost's steps are the same).
std::string divergenceAdvice(Family family, double nu, const std::vector<double>& response);

// Throws InputError "<source>: the fit diverged: the risk is X after iteration m (advice)" at the first risk[m],
// m >= from, that is not finite. `fit` checks the whole path; the window each batch's new entries.
void checkRiskFinite(const std::vector<double>& risk, std::size_t from, const std::string& source, Family family,
                     double nu, const std::vector<double>& response);

// A note for a training risk that ends above the offset's own (risk[0]) by more than rounding (a relative 1e-6,
// far above a float fit's): the steps overshoot (poisson on large counts at mboost's nu 0.1, for one), though every
// value stayed finite. Empty where the risk ends lower, within that margin, or the path has one entry. L2 boosting
// (gaussian, nu <= 1) never raises its training risk, so for gaussian it does not come up.
//
// Where the risk ends lower but rose at 1 iteration in 100 or more (at least 2, each by more than 1e-6 of the path's
// largest |risk|), the note says so: such steps overshoot too, and such a path follows the rounding of its inputs
// (mboost's as well: on R's faithful data with GammaReg at nu 0.1, y changed by a relative 1e-14 moves mboost's fit
// by 0.6, and ours differs from it by 0.09; at nu 0.01 the two agree to 2e-10). A fit that settles rises nowhere.
// riskMayRise: the risk's own definition moves with the fit (Huber's adaptive d), so its rises mean nothing.
// nu and response, where given, make the advice divergenceAdvice's for them (poisson on large counts).
std::string overshootNote(const std::vector<double>& risk, Family family, bool riskMayRise = false, double nu = 0.0,
                          const std::vector<double>& response = {});

}  // namespace gb

#include "compute/Divergence.hpp"

#include <algorithm>
#include <cmath>

#include "common/Error.hpp"
#include "common/Format.hpp"

namespace gb {

std::string divergenceAdvice(Family family) {
  return family == Family::Gaussian ? "the data's scale is beyond double precision; rescale it"
                                    : "the steps overshoot for this family: lower --nu, e.g. --nu 0.01";
}

std::string divergenceAdvice(Family family, double nu, const std::vector<double>& response) {
  // Poisson's negative gradient y - exp(f) has the counts' scale; negbin's, sigma (y - mu) / (mu + sigma), does not.
  double largest = 0.0;
  if (family == Family::Poisson)
    for (double y : response)
      if (std::isfinite(y)) largest = std::max(largest, std::abs(y));
  // Measured on 100 rows of exp(sin) counts scaled to 1e3, 1e4, 1e6 and 1e20: the fits held where nu times the
  // largest count was about 3 or less, and diverged at nu 10 times that.
  if (!(largest * nu > 10.0)) return divergenceAdvice(family);
  const double suggested = std::pow(10.0, std::floor(std::log10(1.0 / largest)));
  return "the steps overshoot: poisson's negative gradient y - exp(f) has the counts' scale (up to " +
         formatNumber(largest, 3) + "), so one step can move f, the log of the mean, by about nu times that; lower " +
         "--nu to about 1/" + formatNumber(largest, 3) + " or less (e.g. --nu " + formatNumber(suggested, 1) +
         ", with a --mstop to match), or model log(y + 1) with --family gaussian";
}

void checkRiskFinite(const std::vector<double>& risk, std::size_t from, const std::string& source, Family family,
                     double nu, const std::vector<double>& response) {
  for (std::size_t m = from; m < risk.size(); ++m)
    if (!std::isfinite(risk[m]))
      throw InputError(source + ": the fit diverged: the risk is " +
                       (std::isnan(risk[m]) ? std::string("not a number") : formatNumber(risk[m], 6)) +
                       " after iteration " + std::to_string(m) + " (" + divergenceAdvice(family, nu, response) + ")");
}

namespace {

// Counts the iterations m at which risk[m] rose above risk[m - 1] by more than 1e-6 of the path's largest |risk|.
std::string oscillationNote(const std::vector<double>& risk, Family family, const std::string& advice) {
  double scale = 0.0;
  for (double r : risk) scale = std::max(scale, std::abs(r));
  std::size_t rises = 0, first = 0;
  for (std::size_t m = 1; m < risk.size(); ++m)
    if (risk[m] - risk[m - 1] > 1e-6 * scale && rises++ == 0) first = m;
  const std::size_t iterations = risk.size() - 1;
  if (rises < 2 || rises * 100 < iterations) return "";
  return "the training risk rose at " + std::to_string(rises) + " of " + std::to_string(iterations) +
         " iterations (the first at iteration " + std::to_string(first) +
         "), so it follows the rounding of its data (mboost's too); " +
         (family == Family::Gaussian ? std::string("the steps overshoot: lower --nu") : advice);
}

}  // namespace

std::string overshootNote(const std::vector<double>& risk, Family family, bool riskMayRise, double nu,
                          const std::vector<double>& response) {
  if (risk.size() < 2) return "";
  const std::string advice = divergenceAdvice(family, nu, response);
  // Laplace's and quantile's negative gradient is a sign: each step fits the residuals' signs in least squares, not
  // a descent on the absolute or check loss, so their risk rises and falls near the end at any nu, in mboost as here
  // (an outside sweep: fits equal to mboost's within 3e-10, rising at the same iterations). No note for that.
  const bool signGradient = family == Family::Laplace || family == Family::Quantile;
  if (!(risk.back() > risk.front() * (1.0 + 1e-6)))
    return riskMayRise || signGradient ? "" : oscillationNote(risk, family, advice);
  const auto worst = std::max_element(risk.begin(), risk.end());
  return "the training risk ends at " + formatNumber(risk.back(), 6) + ", above the offset's " +
         formatNumber(risk.front(), 6) + " (it peaked at " + formatNumber(*worst, 6) + " after iteration " +
         std::to_string(worst - risk.begin()) +
         "): " + (family == Family::Gaussian ? std::string("the steps overshoot: lower --nu") : advice);
}

}  // namespace gb

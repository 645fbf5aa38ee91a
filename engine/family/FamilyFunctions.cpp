#include "family/FamilyFunctions.hpp"

#include <algorithm>
#include <cmath>

#include "common/Error.hpp"
#include "family/BinomialLinks.hpp"
#include "family/BrentMinimum.hpp"
#include "family/NegBinomial.hpp"

namespace gb {

namespace {

double sign(double v) { return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0); }

// mboost clips the binomial f to [-36, 36] before forming p (exp(72) is far inside the double range).
double clipped(double f) { return std::min(std::abs(f), 36.0) * sign(f); }

// {sum w v, sum w} (v: 1 where positive and v > 0), the parts of a weighted mean.
std::vector<double> meanSums(const std::vector<double>& v, const std::vector<double>& w, bool positive) {
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double wi = w.empty() ? 1.0 : w[i];
    num += wi * (positive ? (v[i] > 0.0 ? 1.0 : 0.0) : v[i]);
    den += wi;
  }
  return {num, den};
}

double weightedMean(const std::vector<double>& v, const std::vector<double>& w, bool positive) {
  const std::vector<double> sums = meanSums(v, w, positive);
  return sums[0] / sums[1];
}

// mboost's ExpectReg offset, mean(y[w == 1]): the plain mean of the rows of weight exactly 1 (a bootstrap fold's rows
// drawn twice or more do not count). Its parts {sum, count}, and the mean of (every process's) parts.
std::vector<double> weightOneSums(const std::vector<double>& y, const std::vector<double>& w) {
  double sum = 0.0, count = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i)
    if (w.empty() || w[i] == 1.0) {
      sum += y[i];
      count += 1.0;
    }
  return {sum, count};
}

// mboost's offset of a two-class response from p = weighted.mean(y > 0, w): half the log-odds, or linkfun(p).
double binaryOffset(const FamilyFunctions& family, double p) {
  return family.glmLink() ? linkFunction(family.link, p) : 0.5 * std::log(p / (1.0 - p));
}

double expectileOffset(const std::vector<double>& sums) {
  if (sums[1] == 0.0)
    throw InputError(optionMessage("--family",
                                   "expectile: its offset is mboost's mean(y[w == 1]), and no row has "
                                   "weight 1; give the starting value with --offset"));
  return sums[0] / sums[1];
}

}  // namespace

double FamilyFunctions::ngradient(double y, double f) const {
  switch (family) {
    case Family::Gaussian:
      return y - f;
    case Family::Binomial: {
      if (glmLink()) {  // mboost: mu.eta(f) * (y01 / p - (1 - y01) / (1 - p)), one of the two terms being 0
        const double p = linkInverse(link, f), d = linkDerivative(link, f);
        return y > 0.0 ? d * (1.0 / p) : -(d * (1.0 / (1.0 - p)));
      }
      const double e = std::exp(-2.0 * y * f);
      return (2.0 * y * e) / (std::log(2.0) * (1.0 + e));
    }
    case Family::Poisson:
      return y - std::exp(f);
    case Family::Laplace:
      return sign(y - f);
    case Family::Huber:
      return std::abs(y - f) < delta ? y - f : delta * sign(y - f);
    case Family::Quantile:
      return y - f >= 0.0 ? tau : -(1.0 - tau);
    case Family::AdaExp:
      return y * std::exp(-y * f);
    case Family::Gamma:
      return sigma * y * std::exp(-f) - sigma;
    case Family::NegBin:
      return negbinGradient(y, f, sigma);
    case Family::Expectile: {  // mboost: 2 tau r (r > 0), 2 (1 - tau) r (r < 0), 0 at r = 0
      const double r = y - f;
      return r > 0.0 ? 2.0 * tau * r : (r < 0.0 ? 2.0 * (1.0 - tau) * r : 0.0);
    }
  }
  return 0.0;
}

double FamilyFunctions::loss(double y, double f) const {
  switch (family) {
    case Family::Gaussian:
      return (y - f) * (y - f);
    case Family::Binomial: {
      const double c = clipped(f);
      const double p = glmLink() ? linkInverse(link, f) : std::exp(c) / (std::exp(c) + std::exp(-c));
      // mboost: -y01 log(p) - (1 - y01) log(1 - p). Only the term of y's class is formed: the other is 0 * log(...),
      // which is NaN where p rounds to 1 (|f| > ~18.7) and which R's risk then drops (sum(..., na.rm = TRUE)).
      return y > 0.0 ? -std::log(p) : -std::log(1.0 - p);
    }
    case Family::Poisson:
      return std::exp(f) - y * f + std::lgamma(y + 1.0);
    case Family::Laplace:
      return std::abs(y - f);
    case Family::Huber: {
      const double a = std::abs(y - f), d = adaptiveDelta ? riskDelta : delta;
      return a < d ? a * a / 2.0 : d * (a - d / 2.0);
    }
    case Family::Quantile: {
      const double r = y - f;
      return r >= 0.0 ? tau * r : -(1.0 - tau) * r;
    }
    case Family::Expectile: {
      const double r = y - f;
      return (r >= 0.0 ? tau : 1.0 - tau) * r * r;
    }
    case Family::AdaExp:
      return std::exp(-y * f);
    case Family::Gamma:
      return std::lgamma(sigma) + sigma * y * std::exp(-f) - sigma * std::log(y) - sigma * std::log(sigma) + sigma * f;
    case Family::NegBin:
      return negbinLoss(y, f, sigma);
  }
  return 0.0;
}

double FamilyFunctions::nuisanceTerms(const std::vector<double>& y, const std::vector<double>& f,
                                      const std::vector<double>& w) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double wi = w.empty() ? 1.0 : w[i];
    if (wi != 0.0) sum += wi * nuisanceTerm(y[i], f[i]);
  }
  return sum;
}

double FamilyFunctions::nuisanceRisk(double terms, double weight, double s) {
  return weight * std::lgamma(s) + s * (terms - weight * std::log(s));
}

double FamilyFunctions::nuisanceFrom(double terms, double weight) {
  return brentMinimum([&](double s) { return nuisanceRisk(terms, weight, s); }, 0.0, 100.0, kOptimizeTolerance);
}

void FamilyFunctions::setNuisance(const std::vector<double>& y, const std::vector<double>& f,
                                  const std::vector<double>& w) {
  if (adaptiveDelta) {
    delta = riskDelta = medianAbsResidual(y, f);
    return;
  }
  if (family == Family::NegBin) {
    sigma = NegBinShape(y).size(f, w);
    return;
  }
  double weight = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) weight += w.empty() ? 1.0 : w[i];
  sigma = nuisanceFrom(nuisanceTerms(y, f, w), weight);
}

double FamilyFunctions::response(double f) const {
  switch (family) {
    case Family::Binomial:
    case Family::AdaExp: {  // AdaBoost's population minimiser is half the log-odds too (Friedman et al. 2000)
      if (glmLink()) return linkInverse(link, f);
      const double c = clipped(f);
      return std::exp(c) / (std::exp(c) + std::exp(-c));
    }
    case Family::Poisson:
    case Family::Gamma:
    case Family::NegBin:
      return std::exp(f);
    default:
      return f;
  }
}

double FamilyFunctions::risk(const std::vector<double>& y, const std::vector<double>& f, const std::vector<double>& w,
                             ShardReducer* group) const {
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double wi = w.empty() ? 1.0 : w[i];
    if (wi == 0.0) continue;  // R: 0 * loss; a zero-weight row never adds (not even NaN)
    if (family != Family::Gamma) num += wi * loss(y[i], f[i]);
    den += wi;
  }
  if (family == Family::Gamma) num = nuisanceRisk(nuisanceTerms(y, f, w), den, sigma);  // one lgamma, not one a row
  if (!group) return num / den;
  std::vector<double> sums{num, den};
  group->sum(sums);
  return sums[0] / sums[1];
}

double FamilyFunctions::offset(const std::vector<double>& y, const std::vector<double>& w, ShardReducer* group) const {
  if (!group) return offset(y, w);
  if (family == Family::Expectile) {  // a process may hold no row of weight 1; the sums over all decide
    std::vector<double> sums = weightOneSums(y, w);
    group->sum(sums);
    return expectileOffset(sums);
  }
  if (hasNuisance(family))
    throw InputError(
        optionMessage("--distributed", "--family " + toString(family) +
                                           ": its nuisance parameter is re-estimated from all rows at every "
                                           "iteration, which is not built across processes yet"));
  if (family != Family::Gaussian && !isBinary(family) && family != Family::Poisson)
    throw InputError(
        optionMessage("--distributed", "--family " + toString(family) +
                                           ": its offset (a median or optimize() over all rows) is not "
                                           "built across processes yet; give the starting value with --offset"));
  std::vector<double> sums = meanSums(y, w, isBinary(family));
  group->sum(sums);
  const double mean = sums[0] / sums[1];
  if (isBinary(family)) return binaryOffset(*this, mean);
  return family == Family::Poisson ? std::log(mean) : mean;
}

double FamilyFunctions::offset(const std::vector<double>& y, const std::vector<double>& w) const {
  switch (family) {
    case Family::Gaussian:
      return weightedMean(y, w, false);
    case Family::Binomial:
    case Family::AdaExp:
      return binaryOffset(*this, weightedMean(y, w, true));
    case Family::Poisson:
    case Family::NegBin:  // NBinomial: log(weighted.mean(y, w))
      return std::log(weightedMean(y, w, false));
    case Family::Laplace:
    case Family::Huber:
      return optimizedOffset(y, w);
    case Family::Quantile: {
      if (w.empty()) return quantileType7(y, 0.5);
      return replicatedQuantileType7(y, w, 0.5);  // y[rep(1:n, w)]: integer weights (checked by the model frame)
    }
    case Family::Expectile:
      return expectileOffset(weightOneSums(y, w));
    case Family::Gamma: {
      // GammaReg's offset: optimize(risk, c(0, max(y^2))) with the shape at its starting value 1, i.e. the minimum
      // over f of sum w (y exp(-f) - log y + f), lgamma(1) being 0.
      double wy = 0.0, wsum = 0.0, wlog = 0.0, top = 0.0;
      for (std::size_t i = 0; i < y.size(); ++i) {
        const double wi = w.empty() ? 1.0 : w[i];
        wy += wi * y[i];
        wsum += wi;
        wlog += wi * std::log(y[i]);
        top = std::max(top, y[i] * y[i]);
      }
      if (!std::isfinite(top))
        throw InputError(optionMessage("--response",
                                       "gamma: its offset is sought in (0, max(y^2)), and y^2 overflows a "
                                       "double (|y| above 1.3e154): rescale the response"));
      return brentMinimum([&](double f) { return wy * std::exp(-f) - wlog + wsum * f; }, 0.0, top, kOptimizeTolerance);
    }
  }
  return 0.0;
}

// mboost's Family() default, which Laplace() and Huber() keep: optimize(risk, interval = range(y), y = y, w = w),
// risk = sum(w * loss(y, f), na.rm = TRUE). R forms w * loss as doubles and sums them in long double (its rsum), in
// row order; the same here, so that Brent's comparisons, and so its steps, are R's. Adaptive huber's loss takes
// d = median|y| there (its closure's fit is still 0). The minimum of a weighted absolute error is a weighted median,
// but optimize() stops within its tolerance of it (about 1e-4), and that is the offset mboost fits from.
double FamilyFunctions::optimizedOffset(const std::vector<double>& y, const std::vector<double>& w) const {
  if (y.empty()) return std::nan("");
  FamilyFunctions at = *this;
  if (adaptiveDelta) at.riskDelta = medianAbsResidual(y, std::vector<double>(y.size(), 0.0));
  const auto [low, high] = std::minmax_element(y.begin(), y.end());
  auto risk = [&](double f) {
    long double sum = 0.0L;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double term = (w.empty() ? 1.0 : w[i]) * at.loss(y[i], f);
      if (!std::isnan(term)) sum += term;
    }
    return static_cast<double>(sum);
  };
  return brentMinimum(risk, *low, *high, kOptimizeTolerance);
}

void FamilyFunctions::startNuisance(const std::vector<double>& y, const std::vector<double>& f,
                                    const std::vector<double>& w) {
  if (!adaptiveDelta) return setNuisance(y, f, w);
  delta = medianAbsResidual(y, std::vector<double>(y.size(), 0.0));
  riskDelta = medianAbsResidual(y, f);
}

void FamilyFunctions::advanceNuisance(double value) {
  if (!adaptiveDelta) {
    sigma = value;
    return;
  }
  delta = riskDelta;
  riskDelta = value;
}

double FamilyFunctions::medianAbsResidual(const std::vector<double>& y, const std::vector<double>& f) {
  std::vector<double> a(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) a[i] = std::abs(y[i] - f[i]);
  if (a.empty()) return std::nan("");
  const std::size_t half = a.size() / 2;
  std::nth_element(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(half), a.end());
  if (a.size() % 2 == 1) return a[half];
  const double upper = a[half];
  const double lower = *std::max_element(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(half));
  return (lower + upper) / 2.0;  // R: mean of the two middle values
}

std::string FamilyFunctions::nuisanceName(Family family) {
  if (family == Family::Huber) return "Huber's adaptive d";
  return family == Family::NegBin ? "NBinomial's size sigma" : "GammaReg's shape sigma";
}

std::string FamilyFunctions::nuisanceSource(Family family) {
  return family == Family::Huber ? "median |y - f| at the final fit" : "mboost's nuisance()";
}

std::string FamilyFunctions::scaleName() const {
  switch (family) {
    case Family::Binomial:
      switch (link) {
        case BinomialLink::Probit:
          return "probit of the probability";
        case BinomialLink::Cloglog:
          return "complementary log-log of the probability";
        case BinomialLink::Cauchit:
          return "cauchit of the probability";
        case BinomialLink::Logit:
          break;
      }
      return "half log-odds (mboost's Binomial)";
    case Family::AdaExp:
      return "half log-odds (AdaBoost)";
    case Family::Poisson:
      return "log rate";
    case Family::Gamma:
    case Family::NegBin:
      return "log mean";
    case Family::Quantile:
      return "quantile";
    case Family::Expectile:
      return "expectile";
    case Family::Laplace:
      return "median";
    default:
      return "mean";
  }
}

}  // namespace gb

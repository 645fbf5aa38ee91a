#include "family/BinomialLinks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gb {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();  // R's .Machine$double.eps
constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kInvSqrt2Pi = 0.398942280401432677939946059934381868;  // 1 / sqrt(2 pi)
// R's clamps of eta: -qnorm(eps) and -qcauchy(eps), as R 4.2.2 prints them with 17 digits.
constexpr double kProbitBound = 8.125890664701906;
constexpr double kCauchitBound = 1433540284805664.8;

double clamp(double eta, double bound) { return std::min(std::max(eta, -bound), bound); }

double cauchyCdf(double x) {
  if (std::abs(x) > 1.0) {
    const double y = std::atan(1.0 / x) / kPi;
    return x > 0.0 ? 1.0 - y : -y;
  }
  return 0.5 + std::atan(x) / kPi;
}

// qcauchy(p): -1 / tan(pi p) below 1/2, 1 / tan(pi (1 - p)) above (1 - p is exact there).
double cauchyQuantile(double p) {
  if (p == 0.5) return 0.0;
  return p < 0.5 ? -1.0 / std::tan(kPi * p) : 1.0 / std::tan(kPi * (1.0 - p));
}

}  // namespace

double normalCdf(double x) {
  // erfc(z) with z = -x / sqrt 2. In the lower tail erfc's relative slope is about 2 z, so the rounding of z alone
  // would cost 2 z^2 ulps (7e-15 relative at x = -8); the product's rounding error (an fma) and that of 1/sqrt 2's
  // double are added back to first order: erfc(z + d) = erfc(z) - d 2/sqrt(pi) exp(-z^2).
  constexpr double kHi = 0.7071067811865476, kLo = -4.833646656726457e-17;  // kHi + kLo = 1/sqrt 2 to 1e-33
  const double z = -x * kHi;
  const double d = std::fma(-x, kHi, -z) + -x * kLo;
  return 0.5 * (std::erfc(z) - d * 1.1283791670955126 * std::exp(-z * z));
}

double normalDensity(double x) { return kInvSqrt2Pi * std::exp(-0.5 * x * x); }

double normalQuantile(double p) {
  if (!(p > 0.0 && p < 1.0)) {
    if (p == 0.0) return -std::numeric_limits<double>::infinity();
    if (p == 1.0) return std::numeric_limits<double>::infinity();
    return std::nan("");
  }
  // Newton's method, which converges quadratically once close; it stops when a step no longer changes x beyond
  // rounding (or after 100 steps, which it never needs).
  auto newton = [](double x, auto&& residual) {
    for (int i = 0; i < 100; ++i) {
      const double step = residual(x) / normalDensity(x);
      x -= step;
      if (std::abs(step) <= 2.0 * kEps * std::abs(x)) break;
    }
    return x;
  };
  const double q = p - 0.5;  // exact for p in [1/4, 1]
  if (q == 0.0) return 0.0;
  if (std::abs(q) <= 0.425) {
    // Centre: Phi(x) - 1/2 = erf(x / sqrt 2) / 2 keeps full relative accuracy near 0; start at the tangent at 0.
    return newton(q / kInvSqrt2Pi, [q](double x) { return 0.5 * std::erf(x / std::sqrt(2.0)) - q; });
  }
  // Tails: r = min(p, 1 - p) (1 - p is exact above 1/2), x = -qnorm(r) > 0 from Phi(-x) = r, started at Abramowitz
  // and Stegun 26.2.23 (absolute error below 4.5e-4).
  const double r = q > 0.0 ? 1.0 - p : p;
  const double t = std::sqrt(-2.0 * std::log(r));
  const double start =
      t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
  const double x = newton(start, [r](double v) { return r - normalCdf(-v); });
  return q > 0.0 ? x : -x;
}

double linkInverse(BinomialLink link, double eta) {
  switch (link) {
    case BinomialLink::Probit:
      return normalCdf(clamp(eta, kProbitBound));
    case BinomialLink::Cloglog:
      return std::max(std::min(-std::expm1(-std::exp(eta)), 1.0 - kEps), kEps);
    case BinomialLink::Cauchit:
      return cauchyCdf(clamp(eta, kCauchitBound));
    case BinomialLink::Logit:
      break;
  }
  return 1.0 / (1.0 + std::exp(-eta));  // R's plogis; the logit family itself never asks (f is half the log-odds)
}

double linkDerivative(BinomialLink link, double eta) {
  switch (link) {
    case BinomialLink::Probit:
      return std::max(normalDensity(eta), kEps);
    case BinomialLink::Cloglog: {
      const double e = std::min(eta, 700.0);
      return std::max(std::exp(e) * std::exp(-std::exp(e)), kEps);
    }
    case BinomialLink::Cauchit:
      return std::max(1.0 / (kPi * (1.0 + eta * eta)), kEps);
    case BinomialLink::Logit:
      break;
  }
  const double p = linkInverse(BinomialLink::Logit, eta);
  return std::max(p * (1.0 - p), kEps);
}

double linkFunction(BinomialLink link, double p) {
  switch (link) {
    case BinomialLink::Probit:
      return normalQuantile(p);
    case BinomialLink::Cloglog:
      return std::log(-std::log(1.0 - p));
    case BinomialLink::Cauchit:
      return cauchyQuantile(p);
    case BinomialLink::Logit:
      break;
  }
  return std::log(p / (1.0 - p));
}

}  // namespace gb

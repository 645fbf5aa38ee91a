#pragma once
// The binomial's glm links as R's make.link() defines them (stats package, R 4.x), for mboost's
// Binomial(link = "probit" | "cloglog" | "cauchit"): the inverse link with R's clamps, its derivative mu.eta with
// R's floor at the machine epsilon, and the link itself (mboost's offset is linkfun(weighted.mean(y > 0, w))).
// The distribution functions are written here from their definitions: pnorm(x) = erfc(-x / sqrt 2) / 2,
// pcauchy(x) = 1/2 + atan(x) / pi (for |x| > 1 as -atan(1/x)/pi, or 1 minus it, which R uses to avoid cancellation),
// qnorm by Newton's method on pnorm.
#include "settings/ModelEnums.hpp"

namespace gb {

// p = linkinv(eta), in (0, 1).
double linkInverse(BinomialLink link, double eta);
// mu.eta(eta) = dp/deta, at least the machine epsilon.
double linkDerivative(BinomialLink link, double eta);
// linkfun(p) for p in (0, 1).
double linkFunction(BinomialLink link, double p);

// The standard normal's distribution function, density and quantile function.
double normalCdf(double x);
double normalDensity(double x);
double normalQuantile(double p);

}  // namespace gb

#pragma once
// The losses of the families, each with mboost 2.9's exact definitions (its R/family.R), row by row:
//   gaussian  ngradient y - f, loss (y - f)^2, offset weighted.mean(y, w)
//   binomial  y in {-1, +1}, f half the log-odds: ngradient of log2(1 + exp(-2yf)), i.e.
//             2y exp(-2yf) / (log(2) (1 + exp(-2yf))); loss the natural-log negative likelihood with f clipped to
//             [-36, 36]; offset 1/2 log(p / (1 - p)) with p = weighted.mean(y > 0, w)
//   poisson   ngradient y - exp(f), loss exp(f) - y f + lgamma(y + 1) (-log dpois), offset log(weighted.mean(y, w))
//   laplace   ngradient sign(y - f) (sign(0) = 0), loss |y - f|, offset median(y)
//   huber     ngradient y - f where |y - f| < d, else d sign(y - f); loss a^2/2 or d (a - d/2); offset median(y)
//   quantile  ngradient tau where y - f >= 0, else -(1 - tau); loss tau r (r >= 0) or -(1 - tau) r; offset the
//             type-7 median of y with each row repeated w times (QuantReg's qoffset 0.5)
//   expectile ngradient 2 tau r where r = y - f > 0, 2 (1 - tau) r where r < 0, 0 at r = 0; loss tau r^2 (r >= 0) or
//             (1 - tau) r^2; offset mean(y[w == 1]), the plain mean of the rows of weight exactly 1 (ExpectReg)
//   binomial with link probit, cloglog or cauchit (Binomial(link = ...)): f on the link scale, p = linkinv(f) with R's
//             clamps (family/BinomialLinks.hpp), ngradient mu.eta(f) (y01 / p - (1 - y01) / (1 - p)), loss
//             -y01 log(p) - (1 - y01) log(1 - p), offset linkfun(weighted.mean(y > 0, w))
//   adaexp    y in {-1, +1} as binomial: ngradient y exp(-yf), loss exp(-yf), offset the binomial's (AdaExp)
//   gamma     y > 0, f the log mean, shape sigma (GammaReg): loss lgamma(s) + s y exp(-f) - s log y - s log s + s f,
//             ngradient s y exp(-f) - s; s = optimize(sum(w loss), c(0, 100)) at the current f before every gradient
//             (and so before every risk); offset optimize(sum(w loss at s = 1), c(0, max(y^2))), R's Brent steps
//   negbin    y a count, f the log mean, size s (NBinomial): loss -(lgamma(y + s) - lgamma(s) - lgamma(y + 1) +
//             s log s - s log(exp(f) + s) + y f - y log(exp(f) + s)), ngradient y - (y + s) / (exp(f) + s) exp(f);
//             s = optimize(sum(w loss), c(0, 100)) at the current f before every gradient, as gamma's (the
//             sums in family/NegBinomial.hpp); offset log(weighted.mean(y, w))
// Risk after m iterations: sum(w loss) / sum(w).
#include <cmath>
#include <string>
#include <vector>

#include "common/ShardReducer.hpp"
#include "family/QuantileType7.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

struct FamilyFunctions {
  Family family = Family::Gaussian;
  double delta = 0.0;  // huber's d
  double tau = 0.5;    // quantile and expectile
  BinomialLink link = BinomialLink::Logit;
  double sigma = 1.0;  // gamma's shape or negbin's size, re-estimated at every f (mboost starts both at 1)
  // Huber without a fixed d (mboost's Huber(), d = NULL): the gradient at f_m takes delta = median|y - f_(m-1)|
  // (median|y| at the offset, mboost's closure starting from fit = 0), the risk at f_m takes riskDelta =
  // median|y - f_m|; medians over every row, unweighted, as R's median(abs(y - fit)).
  bool adaptiveDelta = false;
  double riskDelta = 0.0;

  static FamilyFunctions from(const ModelSettings& s) {
    FamilyFunctions f{s.family, s.huberDelta, s.tau, s.link};
    f.adaptiveDelta = s.family == Family::Huber && !(s.huberDelta > 0.0);
    return f;
  }
  // Whether a parameter is re-estimated at every f: gamma's shape, negbin's size, adaptive huber's d.
  bool reestimated() const { return hasNuisance(family) || adaptiveDelta; }
  // The binomial with a glm link (probit, cloglog, cauchit): f on the link scale rather than half the log-odds.
  bool glmLink() const { return family == Family::Binomial && link != BinomialLink::Logit; }

  double ngradient(double y, double f) const;
  double loss(double y, double f) const;
  // The mean on the response scale: f, the probability exp(f) / (exp(f) + exp(-f)) (binomial, adaexp; linkinv(f)
  // for the binomial's other links), the rate exp(f).
  double response(double f) const;
  // sum(w loss(y_i, f_i)) / sum(w); w empty means all 1. group: the sums over every process's rows
  // (common/ShardReducer.hpp), added in process order.
  double risk(const std::vector<double>& y, const std::vector<double>& f, const std::vector<double>& w,
              ShardReducer* group = nullptr) const;
  // The family's offset from the (coded) response and the weights (empty: all 1).
  double offset(const std::vector<double>& y, const std::vector<double>& w) const;
  // Laplace's and Huber's: optimize() of the weighted risk over range(y), as mboost's Family() default.
  double optimizedOffset(const std::vector<double>& y, const std::vector<double>& w) const;
  // The same over every process's rows: the weighted means of gaussian, binomial and poisson from their sums; the
  // offsets of laplace, huber and quantile throw InputError naming --distributed and --offset.
  double offset(const std::vector<double>& y, const std::vector<double>& w, ShardReducer* group) const;
  // Gamma's shape at the fitted values f: with T = sum w (y exp(-f) - log y + f) and W = sum w, the risk is
  // W lgamma(s) + s (T - W log s), minimised over (0, 100) as mboost's optimize() does. nuisanceTerms gives T (rows of
  // weight 0 left out; w empty: all 1), nuisanceRisk the risk sum at s.
  static double nuisanceTerm(double y, double f) { return y * std::exp(-f) - std::log(y) + f; }
  double nuisanceTerms(const std::vector<double>& y, const std::vector<double>& f, const std::vector<double>& w) const;
  static double nuisanceFrom(double terms, double weight);
  static double nuisanceRisk(double terms, double weight, double s);
  // sigma = the shape (gamma) or the size (negbin) at f, for the fitting weights w; adaptive huber: both of its d at
  // f (the fit's gradient takes the d of the f before: the teaching views set it, fit/Replay's familyAt).
  void setNuisance(const std::vector<double>& y, const std::vector<double>& f, const std::vector<double>& w);
  // At the start of a fit, f the offset: mboost's first ngradient and risk (adaptive huber: delta median|y|,
  // riskDelta median|y - f|; the others as setNuisance).
  void startNuisance(const std::vector<double>& y, const std::vector<double>& f, const std::vector<double>& w);
  // After an update to f_m, given the value estimated there: sigma = value; adaptive huber: delta = riskDelta,
  // riskDelta = value.
  void advanceNuisance(double value);
  // The value estimated at the current f: sigma, or adaptive huber's riskDelta.
  double nuisance() const { return adaptiveDelta ? riskDelta : sigma; }
  // R's median(abs(y - f)) over every row.
  static double medianAbsResidual(const std::vector<double>& y, const std::vector<double>& f);
  // The nuisance parameter as mboost names it, for notes: "GammaReg's shape sigma", "NBinomial's size sigma",
  // "Huber's adaptive d"; nuisanceSource says where mboost shows it ("mboost's nuisance()", or for huber's d, which
  // mboost keeps inside its family, "median |y - f| at the final fit").
  static std::string nuisanceName(Family family);
  static std::string nuisanceSource(Family family);
  // What the fitted values mean, for plots: "mean", "half log-odds (mboost's Binomial)", "log rate", ...
  std::string scaleName() const;
};

}  // namespace gb

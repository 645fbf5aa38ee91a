#pragma once
// The enumerated choices of a model's settings, below every layer that uses them (spline, learner, model).
#include <string>

namespace gb {

// Boundary knots of a B-spline basis: clamped (repeated ends) or extended (mboost's bbs), spline/SplineBasis.hpp.
enum class Boundary { Clamped, Extended };

struct SplineSpec {
  // With at most a million interior knots every index of a basis (knots + degree + 1 columns, knot vector entries,
  // interval numbers) fits in int with room to spare; sizes that multiply them are formed in std::size_t.
  static constexpr int kMaxKnots = 1'000'000;
  static constexpr int kMaxDegree = 5;

  int knots = 20;  // interior knots, 1..kMaxKnots
  int degree = 3;  // 1..kMaxDegree
  Boundary boundary = Boundary::Extended;
};

// Ridge (S = I) or a difference penalty S = D'D (spline/Penalty.hpp).
enum class PenaltyKind { Ridge, PSpline };

// How the edf of a penalised learner is counted: tr(H) (the paper) or tr(2H - H'H) (mboost), learner/EdfSolver.hpp.
enum class EdfDefinition { Trace, Mboost };

// The loss being boosted, each with mboost 2.9's definitions (family/FamilyFunctions.hpp): Gaussian(), Binomial()
// (logit, f = half the log-odds), Poisson(), Laplace(), Huber(d) with a fixed d, QuantReg(tau), ExpectReg(tau),
// AdaExp() (AdaBoost's exponential loss on the binomial's -1/+1 response), GammaReg() (a positive response, log link,
// its shape sigma re-estimated every iteration), NBinomial() (counts, log link, its size sigma re-estimated every
// iteration).
enum class Family { Gaussian, Binomial, Poisson, Laplace, Huber, Quantile, Expectile, AdaExp, Gamma, NegBin };

// A two-class response coded -1/+1 (binomial and adaexp): 0/1 numbers or two text levels. f is half the log-odds,
// except for the binomial's other links.
inline bool isBinary(Family f) { return f == Family::Binomial || f == Family::AdaExp; }

// A family with a nuisance parameter that mboost re-estimates at every iteration by optimize() (GammaReg's shape,
// NBinomial's size).
inline bool hasNuisance(Family f) { return f == Family::Gamma || f == Family::NegBin; }

// The binomial's link, mboost's Binomial(link = ...): logit is mboost's classic family (f half the log-odds); probit,
// cloglog and cauchit are R's make.link() links with f on the link scale (coefficients of glm's size). R's "log" link
// is left out: its p = exp(f) passes 1, where the likelihood is undefined.
enum class BinomialLink { Logit, Probit, Cloglog, Cauchit };

// Rows with a missing value in a used column: dropped before anything else (R's na.omit) or an error.
enum class MissingPolicy { Omit, Fail };

// What a base learner is: mboost's bbs(x) (spline), bols(x) (linear: intercept and slope) or bols(f) (factor,
// treatment contrasts against the first level).
enum class LearnerType { Spline, Linear, Factor };

std::string toString(Boundary b);                             // "clamped" / "extended"
Boundary boundaryFromString(const std::string& s);            // throws InputError("--boundary: ...")
std::string toString(PenaltyKind p);                          // "ridge" / "pspline"
PenaltyKind penaltyFromString(const std::string& s);          // throws InputError("--penalty: ...")
std::string toString(EdfDefinition e);                        // "trace" / "mboost"
EdfDefinition edfDefinitionFromString(const std::string& s);  // throws InputError("--edf-def: ...")
std::string toString(Family f);                               // "gaussian" / "binomial" / ...
Family familyFromString(const std::string& s);                // throws InputError("--family: ...")
std::string toString(BinomialLink l);                         // "logit" / "probit" / "cloglog" / "cauchit"
BinomialLink linkFromString(const std::string& s);            // throws InputError("--link: ...")
std::string toString(MissingPolicy m);                        // "omit" / "fail"
MissingPolicy missingPolicyFromString(const std::string& s);  // throws InputError("--missing: ...")
std::string toString(LearnerType t);                          // "spline" / "linear" / "factor"
LearnerType learnerTypeFromString(const std::string& s);      // throws InputError("type: ...")

}  // namespace gb

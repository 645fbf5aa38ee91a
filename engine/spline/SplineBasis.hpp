#pragma once
// B-spline basis of one covariate on [lo, hi] with equidistant interior knots (design.md section 2).
//
// Interior knots follow mboost: seq(lo, hi, length = knots + 2) without its ends, spacing dx = (hi-lo)/(knots+1).
//   clamped:  lo and hi repeated degree+1 times (patsy's bs(..., include_intercept=True));
//   extended: the grid continued `degree` steps of dx past each end (mboost's bbs / Eilers & Marx).
// Either way there are k = knots + degree + 1 columns and knots + 1 intervals [lo + i dx, lo + (i+1) dx);
// on interval i the non-zero functions are columns i .. i+degree ("compact form": first column + degree+1 weights).
//
// Two evaluations: evaluate() runs the Cox-de Boor recursion on the knot vector (the reference), and
// evaluateFast() uses per-interval polynomials in the local coordinate u in [0,1) (what every hot loop uses):
//   b_{i+r}(x) = sum_s poly(i, r, s) u^s,   u = (x - lo)/dx - i.
#include <string>
#include <vector>

#include "settings/ModelEnums.hpp"

namespace gb {

class SplineBasis {
 public:
  static constexpr int kMaxDegree = SplineSpec::kMaxDegree;
  static constexpr int kMaxKnots = SplineSpec::kMaxKnots;

  // Throws InputError if knots is outside 1..kMaxKnots, degree outside 1..5, or rangeProblem() objects to
  // [lo, hi] (the message names the numbers; callers that know the column or field catch this earlier).
  SplineBasis(double lo, double hi, const SplineSpec& spec);

  // Why no basis of this spec can be built on [lo, hi], as a phrase ("too narrow a range for a spline basis"),
  // or "" when one can. The rule and its reasons are in SplineBasis.cpp.
  static std::string rangeProblem(double lo, double hi, const SplineSpec& spec);

  const SplineSpec& spec() const { return spec_; }
  int degree() const { return spec_.degree; }
  int numColumns() const { return spec_.knots + spec_.degree + 1; }
  int numIntervals() const { return spec_.knots + 1; }
  double lo() const { return lo_; }
  double hi() const { return hi_; }
  double spacing() const { return dx_; }

  // Full knot vector: numColumns() + degree + 1 entries.
  const std::vector<double>& knotVector() const { return knots_; }
  // The `knots` interior knots.
  std::vector<double> interiorKnots() const;

  // Interval index of x clamped into [0, numIntervals()-1] (x = hi belongs to the last interval).
  int intervalOf(double x) const;

  // Reference: the degree+1 non-zero values at x (lo <= x <= hi) by Cox-de Boor; writes weights[0..degree],
  // returns the first column index. Outside [lo, hi] it evaluates the boundary interval's polynomial pieces.
  int evaluate(double x, double* weights) const;
  // Fast path, same contract, from the per-interval polynomial table.
  int evaluateFast(double x, double* weights) const;
  // First derivatives of the degree+1 non-zero functions at x; returns the first column index.
  int derivative(double x, double* weights) const;

  // Values for prediction: inside [lo, hi] as evaluateFast; outside, the linear extension from the nearest
  // boundary (value + slope * distance). Returns the first column; sets *outside when x was outside.
  int evaluateExtrapolated(double x, double* weights, bool* outside) const;

  // Polynomial table, (numIntervals() x (degree+1) x (degree+1)) row-major: poly(i, r, s).
  const std::vector<double>& polynomialTable() const { return poly_; }
  double poly(int interval, int r, int s) const {
    const int d1 = spec_.degree + 1;
    return poly_[(static_cast<std::size_t>(interval) * d1 + r) * d1 + s];
  }

 private:
  void buildKnots();
  void buildPolynomials();

  SplineSpec spec_;
  double lo_, hi_, dx_;
  std::vector<double> knots_;
  std::vector<double> poly_;
};

}  // namespace gb

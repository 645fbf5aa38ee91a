#include "spline/SplineBasis.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>

#include "common/Error.hpp"
#include "common/Format.hpp"

namespace gb {

namespace {

// R's seq(from, to, length.out = count): exact ends, from + i * ((to - from) / (count - 1)) between (mboost uses it
// for both the interior knots and the extended boundary knots; we repeat its arithmetic, not just its values).
// count >= 2, and count - 1 is at most kMaxKnots + 1: exact as a double.
std::vector<double> rSeq(double from, double to, std::size_t count) {
  std::vector<double> out(count);
  out.front() = from;
  out.back() = to;
  const std::size_t n1 = count - 1;
  const double by = (to - from) / static_cast<double>(n1);
  for (std::size_t i = 1; i < n1; ++i) out[i] = from + static_cast<double>(i) * by;
  return out;
}

using Poly = std::array<double, SplineBasis::kMaxDegree + 1>;  // coefficients in u, lowest power first

}  // namespace

SplineBasis::SplineBasis(double lo, double hi, const SplineSpec& spec) : spec_(spec), lo_(lo), hi_(hi) {
  if (spec.knots < 1 || spec.knots > kMaxKnots)
    throw InputError(optionMessage(
        "--knots", "must be in 1.." + std::to_string(kMaxKnots) + " (got " + std::to_string(spec.knots) + ")"));
  if (spec.degree < 1 || spec.degree > kMaxDegree)
    throw InputError(optionMessage("--degree", "must be between 1 and 5 (got " + std::to_string(spec.degree) + ")"));
  const std::string problem = rangeProblem(lo, hi, spec);
  if (!problem.empty())
    throw InputError("spline range [" + formatNumber(lo, 17) + ", " + formatNumber(hi, 17) + "]: " + problem);
  dx_ = (hi - lo) / (static_cast<double>(spec.knots) + 1.0);
  buildKnots();
  buildPolynomials();
}

// The rule for [lo, hi] (the same at fit, for the observed range of a column, and at load, for a stored range):
//  - lo, hi finite and hi > lo: a basis on an empty or unbounded interval means nothing;
//  - the spacing dx = (hi - lo) / (knots + 1) finite (hi - lo can overflow) and a normal double (>= DBL_MIN):
//    a subnormal dx has lost precision and 1/dx (derivatives, the local coordinate) overflows;
//  - dx >= 64 * DBL_EPSILON * max(|lo|, |hi|), i.e. at least 64 ulp of the largest knot: lo + i dx are then
//    distinct and increasing in double, and the knot differences that the Cox-de Boor recursion divides by are
//    exact to a few percent at worst, so every basis function is well defined (no 0/0, no NaN);
//  - the extended knots lo - degree dx and hi + degree dx finite (they are built for Boundary::Extended;
//    checked for both boundaries, so that a model's range stays valid whatever its boundary setting).
// Ranges of covariates near 1e-321, or of [1e6, 1e6 + 1e-12], fail here with a message instead of inside the
// eigen-solver at fit or as NaN predictions.
std::string SplineBasis::rangeProblem(double lo, double hi, const SplineSpec& spec) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return "the range must be finite";
  if (!(hi > lo)) return "the range must satisfy lo < hi";
  const int knots = std::clamp(spec.knots, 1, kMaxKnots);
  const int degree = std::clamp(spec.degree, 1, kMaxDegree);
  const double dx = (hi - lo) / (static_cast<double>(knots) + 1.0);
  if (!std::isfinite(dx)) return "too wide a range for a spline basis";
  const double scale = std::max(std::abs(lo), std::abs(hi));
  if (!(dx >= DBL_MIN) || !(dx >= 64.0 * DBL_EPSILON * scale)) return "too narrow a range for a spline basis";
  if (!std::isfinite(lo - degree * dx) || !std::isfinite(hi + degree * dx))
    return "too wide a range for a spline basis";
  return {};
}

void SplineBasis::buildKnots() {
  const int p = spec_.degree;
  const std::vector<double> grid = rSeq(lo_, hi_, static_cast<std::size_t>(spec_.knots) + 2);  // lo, interior, hi
  knots_.clear();
  if (spec_.boundary == Boundary::Clamped) {
    knots_.insert(knots_.end(), static_cast<std::size_t>(p + 1), lo_);
    knots_.insert(knots_.end(), grid.begin() + 1, grid.end() - 1);
    knots_.insert(knots_.end(), static_cast<std::size_t>(p + 1), hi_);
  } else {
    // mboost's bsplines(): bk_lower <- seq(lo - degree * dx, lo, length = degree + 1), likewise above hi.
    const std::vector<double> below = rSeq(lo_ - p * dx_, lo_, static_cast<std::size_t>(p) + 1);
    const std::vector<double> above = rSeq(hi_, hi_ + p * dx_, static_cast<std::size_t>(p) + 1);
    knots_.insert(knots_.end(), below.begin(), below.end());
    knots_.insert(knots_.end(), grid.begin() + 1, grid.end() - 1);
    knots_.insert(knots_.end(), above.begin(), above.end());
  }
}

std::vector<double> SplineBasis::interiorKnots() const {
  return std::vector<double>(knots_.begin() + spec_.degree + 1, knots_.end() - spec_.degree - 1);
}

int SplineBasis::intervalOf(double x) const {
  const double t = std::floor((x - lo_) / dx_);
  if (!(t > 0)) return 0;  // also NaN
  const int last = spec_.knots;
  return t >= last ? last : static_cast<int>(t);
}

int SplineBasis::evaluate(double x, double* weights) const {
  // Cox-de Boor in the triangular form of Piegl & Tiller (The NURBS Book, A2.2): the degree+1 functions
  // B_{span-p} .. B_{span} that are non-zero on knot span [t_span, t_span+1).
  const int p = spec_.degree;
  const int q = intervalOf(x);
  const int span = p + q;
  std::array<double, kMaxDegree + 1> left{}, right{};
  weights[0] = 1.0;
  for (int j = 1; j <= p; ++j) {
    left[j] = x - knots_[span + 1 - j];
    right[j] = knots_[span + j] - x;
    double saved = 0.0;
    for (int r = 0; r < j; ++r) {
      const double temp = weights[r] / (right[r + 1] + left[j - r]);
      weights[r] = saved + right[r + 1] * temp;
      saved = left[j - r] * temp;
    }
    weights[j] = saved;
  }
  return q;
}

void SplineBasis::buildPolynomials() {
  // The same recursion as evaluate(), run on polynomials in u with x = a + dx u (a = left end of the interval),
  // so the table inherits the reference's arithmetic structure and stays well conditioned (u in [0, 1)).
  const int p = spec_.degree;
  const int d1 = p + 1;
  poly_.assign(static_cast<std::size_t>(numIntervals()) * d1 * d1, 0.0);
  for (int q = 0; q < numIntervals(); ++q) {
    const int span = p + q;
    const double a = lo_ + q * dx_;
    std::array<Poly, kMaxDegree + 1> N{}, left{}, right{};
    N[0] = Poly{};
    N[0][0] = 1.0;
    auto mulLinear = [](const Poly& f, const Poly& lin) {  // f * (lin[0] + lin[1] u)
      Poly out{};
      for (int s = 0; s <= kMaxDegree; ++s) {
        out[s] += f[s] * lin[0];
        if (s + 1 <= kMaxDegree) out[s + 1] += f[s] * lin[1];
      }
      return out;
    };
    for (int j = 1; j <= p; ++j) {
      left[j] = Poly{};
      left[j][0] = a - knots_[span + 1 - j];
      left[j][1] = dx_;
      right[j] = Poly{};
      right[j][0] = knots_[span + j] - a;
      right[j][1] = -dx_;
      Poly saved{};
      for (int r = 0; r < j; ++r) {
        const double den = knots_[span + r + 1] - knots_[span + 1 - j + r];
        Poly temp = N[r];
        for (double& c : temp) c /= den;
        const Poly fromRight = mulLinear(temp, right[r + 1]);
        for (int s = 0; s <= kMaxDegree; ++s) N[r][s] = saved[s] + fromRight[s];
        saved = mulLinear(temp, left[j - r]);
      }
      N[j] = saved;
    }
    for (int r = 0; r <= p; ++r)
      for (int s = 0; s <= p; ++s) poly_[(static_cast<std::size_t>(q) * d1 + r) * d1 + s] = N[r][s];
  }
}

int SplineBasis::evaluateFast(double x, double* weights) const {
  const int p = spec_.degree;
  const int q = intervalOf(x);
  const double u = (x - lo_) / dx_ - q;
  const double* c = &poly_[static_cast<std::size_t>(q) * (p + 1) * (p + 1)];
  for (int r = 0; r <= p; ++r, c += p + 1) {
    double v = c[p];
    for (int s = p - 1; s >= 0; --s) v = v * u + c[s];
    weights[r] = v;
  }
  return q;
}

int SplineBasis::derivative(double x, double* weights) const {
  const int p = spec_.degree;
  const int q = intervalOf(x);
  const double u = (x - lo_) / dx_ - q;
  const double* c = &poly_[static_cast<std::size_t>(q) * (p + 1) * (p + 1)];
  for (int r = 0; r <= p; ++r, c += p + 1) {
    double v = p * c[p];
    for (int s = p - 1; s >= 1; --s) v = v * u + s * c[s];
    weights[r] = v / dx_;
  }
  return q;
}

int SplineBasis::evaluateExtrapolated(double x, double* weights, bool* outside) const {
  const bool below = x < lo_;
  const bool above = x > hi_;
  if (outside) *outside = below || above;
  if (!below && !above) return evaluateFast(x, weights);
  // Linear extension: f(edge) + f'(edge) (x - edge), with the derivative taken inside the range.
  const double edge = below ? lo_ : hi_;
  std::array<double, kMaxDegree + 1> slope{};
  const int first = evaluateFast(edge, weights);
  // mboost's bbs takes the edge's slope from R's splineDesign(derivs = 1), which for order 2 returns a zero row at
  // the upper boundary knot: a degree-1 P-spline stays flat above its range there, and so here.
  if (above && spec_.degree == 1 && spec_.boundary == Boundary::Extended) return first;
  derivative(edge, slope.data());
  for (int r = 0; r <= spec_.degree; ++r) weights[r] += slope[r] * (x - edge);
  return first;
}

}  // namespace gb

#include "family/BrentMinimum.hpp"

#include <cfloat>
#include <cmath>

namespace gb {

// Brent's method stops within about 1500 steps on any interval of doubles at optimize()'s tolerance. Where every
// value is DBL_MAX (a risk sum that overflows: one response of 9e307 among 60), each step ties, x drifts by tol1 and
// the stopping test is never met (R's optimize() loops the same way): NaN after many more steps than that, not a hang.
constexpr int kMaxSteps = 20000;

double brentMinimum(const std::function<double(double)>& function, double lower, double upper, double tol,
                    double* objective) {
  // R's optimize() refuses a non-finite interval ("invalid 'xmax' value"); here the caller gets NaN, never a loop on
  // NaN steps whose stopping test is never true.
  if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower <= upper)) return std::nan("");
  auto f = [&](double x) {
    const double v = function(x);
    return std::isfinite(v) ? v : DBL_MAX;
  };
  const double golden = (3.0 - std::sqrt(5.0)) * 0.5;  // the squared inverse of the golden ratio
  const double rootEps = std::sqrt(DBL_EPSILON);
  double a = lower, b = upper;
  // x: the best point so far; w: the second best; v: the previous w. d: the last step, e: the one before.
  double x = a + golden * (b - a), w = x, v = x;
  double fx = f(x), fw = fx, fv = fx;
  double d = 0.0, e = 0.0;
  const double third = tol / 3.0;
  int step = 0;
  for (; step < kMaxSteps; ++step) {
    const double middle = (a + b) * 0.5;
    const double tol1 = rootEps * std::abs(x) + third;
    const double tol2 = tol1 * 2.0;
    if (std::abs(x - middle) <= tol2 - (b - a) * 0.5) break;
    double p = 0.0, q = 0.0, r = 0.0;
    if (std::abs(e) > tol1) {  // a parabola through x, w and v
      r = (x - w) * (fx - fv);
      q = (x - v) * (fx - fw);
      p = (x - v) * q - (x - w) * r;
      q = (q - r) * 2.0;
      if (q > 0.0)
        p = -p;
      else
        q = -q;
      r = e;
      e = d;
    }
    double u;
    if (std::abs(p) >= std::abs(q * 0.5 * r) || p <= q * (a - x) || p >= q * (b - x)) {
      e = x < middle ? b - x : a - x;  // golden section into the larger part
      d = golden * e;
    } else {
      d = p / q;  // the parabola's vertex, kept off the ends of [a, b]
      u = x + d;
      if (u - a < tol2 || b - u < tol2) d = x >= middle ? -tol1 : tol1;
    }
    if (std::abs(d) >= tol1)
      u = x + d;
    else
      u = d > 0.0 ? x + tol1 : x - tol1;  // never closer to x than tol1
    const double fu = f(u);
    if (fu <= fx) {
      if (u < x)
        b = x;
      else
        a = x;
      v = w;
      fv = fw;
      w = x;
      fw = fx;
      x = u;
      fx = fu;
    } else {
      if (u < x)
        a = u;
      else
        b = u;
      if (fu <= fw || w == x) {
        v = w;
        fv = fw;
        w = u;
        fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u;
        fv = fu;
      }
    }
  }
  if (objective) *objective = fx;  // DBL_MAX where f was not finite
  return step < kMaxSteps ? x : std::nan("");
}

}  // namespace gb

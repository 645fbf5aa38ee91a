#include "learner/MboostLambda.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/Error.hpp"

namespace gb {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kMboostEps = 10e-10;  // options("mboost_eps"), the weight of S added to B'WB
constexpr double kLambdaMax = 1e15;    // options("mboost_lambdaMax")

// mboost's make_psd(): shift towards the identity until the smallest eigenvalue is at least about sqrt(eps).
Eigen::MatrixXd madePositive(Eigen::MatrixXd a) {
  const Eigen::Index k = a.rows();
  for (int round = 0; round < 64; ++round) {
    const double smallest =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(a, Eigen::EigenvaluesOnly).eigenvalues().minCoeff() -
        std::sqrt(kEps);
    if (!(smallest < -1e-10)) break;
    const double rho = 1.0 / (1.0 - smallest);
    a = rho * a + (1.0 - rho) * Eigen::MatrixXd::Identity(k, k);
  }
  return a;
}

double dfOf(const Eigen::VectorXd& d, double lambda) {
  double h = 0.0, h2 = 0.0;  // the two sums apart, as df2lambda's dfFun forms them
  for (Eigen::Index i = 0; i < d.size(); ++i) h += 1.0 / (1.0 + lambda * d[i]);
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    const double v = 1.0 / (1.0 + lambda * d[i]);
    h2 += v * v;
  }
  return 2.0 * h - h2;
}

}  // namespace

void equilibrate(Eigen::MatrixXd& a, Eigen::MatrixXd& s) {
  Eigen::VectorXd scale = Eigen::VectorXd::Ones(a.rows());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    if (a(i, i) > 0.0) scale[i] = 1.0 / std::sqrt(a(i, i));
  a = scale.asDiagonal() * a * scale.asDiagonal();
  s = scale.asDiagonal() * s * scale.asDiagonal();
}

Eigen::VectorXd mboostDemmlerReinsch(const Eigen::MatrixXd& gram, const Eigen::MatrixXd& penalty, bool equilibrate) {
  const Eigen::Index k = gram.rows();
  Eigen::MatrixXd a = madePositive(gram + kMboostEps * penalty);
  Eigen::MatrixXd s = penalty;
  if (equilibrate) gb::equilibrate(a, s);
  const double traceS = s.trace();
  const double tau = traceS > 0.0 ? a.trace() / traceS : 1.0;
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(s, a + tau * s, Eigen::EigenvaluesOnly);
  if (es.info() != Eigen::Success) throw ComputeError("df2lambda: generalised eigen-solver failed");
  Eigen::VectorXd d(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    const double mu = std::max(es.eigenvalues()[i], 0.0);
    d[i] = mu / std::max(1.0 - tau * mu, std::numeric_limits<double>::min());
  }
  std::sort(d.data(), d.data() + k, std::greater<double>());
  return d;
}

double mboostLambda(const Eigen::VectorXd& d, double target) {
  auto f = [&](double lambda) { return dfOf(d, lambda) - target; };
  const double fUpper = f(kLambdaMax);
  if (fUpper > 0.0) return kLambdaMax;
  return brentZero(f, 0.0, kLambdaMax, f(0.0), fUpper, std::sqrt(kEps), 1000);
}

double brentZero(const std::function<double(double)>& f, double a, double b, double fa, double fb, double tol,
                 int maxIterations) {
  if (fa == 0.0) return a;
  if (fb == 0.0) return b;
  // b: the best estimate; c: the other end of the bracket around the root; a: the estimate before b.
  double c = a, fc = fa;
  for (int it = 0; it <= maxIterations; ++it) {
    const double previous = b - a;
    if (std::abs(fc) < std::abs(fb)) {  // b becomes the end with the smaller |f|
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const double within = 2.0 * kEps * std::abs(b) + tol / 2.0;
    double step = (c - b) / 2.0;  // bisection
    if (std::abs(step) <= within || fb == 0.0) return b;
    if (std::abs(previous) >= within && std::abs(fa) > std::abs(fb)) {
      // Interpolation: the secant through a and b, or inverse quadratic through a, b and c; the step is p / q.
      const double cb = c - b;
      double p, q;
      if (a == c) {
        const double t = fb / fa;
        p = cb * t;
        q = 1.0 - t;
      } else {
        const double qa = fa / fc, t1 = fb / fc, t2 = fb / fa;
        p = t2 * (cb * qa * (qa - t1) - (b - a) * (t1 - 1.0));
        q = (qa - 1.0) * (t1 - 1.0) * (t2 - 1.0);
      }
      if (p > 0.0)
        q = -q;
      else
        p = -p;
      // Taken when b + p/q stays well inside [b, c] and shrinks faster than the step before the last.
      if (p < 0.75 * cb * q - std::abs(within * q) / 2.0 && p < std::abs(previous * q / 2.0)) step = p / q;
    }
    if (std::abs(step) < within) step = step > 0.0 ? within : -within;
    a = b;
    fa = fb;
    b += step;
    fb = f(b);
    if ((fb > 0.0 && fc > 0.0) || (fb < 0.0 && fc < 0.0)) {
      c = a;
      fc = fa;
    }
  }
  return b;
}

}  // namespace gb

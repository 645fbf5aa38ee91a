#pragma once
// lambda from a target df the way mboost 2.9's df2lambda() (R/bl.R) finds it, so that fits equal mboost's to the
// rounding of its arithmetic rather than to its root finder's tolerance:
//   A = B'WB + 1e-9 S (options("mboost_eps")), made positive definite by make_psd() (R/helpers.R: while the smallest
//   eigenvalue minus sqrt(eps) is below -1e-10, A = rho A + (1 - rho) I with rho = 1 / (1 - that value));
//   d = the Demmler-Reinsch values of S v = d A v (mboost: the singular values of R^-T S R^-1, A = R'R);
//   df(lambda) = 2 sum 1/(1 + lambda d) - sum 1/(1 + lambda d)^2 over all k values;
//   lambda = 1e15 (options("mboost_lambdaMax")) where df(1e15) is still above the target, else R's
//   uniroot(df - target, c(0, 1e15), tol = sqrt(eps)): Brent's zero finder as R's zeroin2 runs it.
// d is computed from the pencil S v = mu (A + tau S) v as EdfFunction computes its own, which keeps the small d
// accurate; mboost's R^-T S R^-1 loses them to A's condition number where B'WB is singular (there the two programs
// differ by mboost's rounding, up to about 1e-5 in lambda). The edf reported is the exact one at that lambda.
#include <Eigen/Dense>
#include <functional>

namespace gb {

// D a D and D s D in place, D = diag(a)^(-1/2) (1 where a's diagonal is not positive): the generalised eigenvalues
// d of s v = d a v are kept, and a's diagonal becomes 1 (columns of unlike scale, a linear learner's 1 and x).
void equilibrate(Eigen::MatrixXd& a, Eigen::MatrixXd& s);

// mboost's Demmler-Reinsch values d (descending) of the perturbed pencil.
// equilibrate: the pencil after the congruence D = diag(A)^(-1/2) (the same d), for columns of unlike scale such as a
// linear learner's 1 and x: without it, for x near 19000 (days) the small d lost about 1e-2 of its digits and lambda
// for df 1.5 was 4.611e-4 where mboost's (and an exact solve's) is 4.6787e-4.
Eigen::VectorXd mboostDemmlerReinsch(const Eigen::MatrixXd& gram, const Eigen::MatrixXd& penalty,
                                     bool equilibrate = false);

// df2lambda's root: lambda with df(lambda) = target for the d above (target below k).
double mboostLambda(const Eigen::VectorXd& d, double target);

// Brent's zero finder in the form of R's zeroin2 (uniroot): f(a) = fa and f(b) = fb of opposite signs; stops when
// half the bracket is within 2 eps |b| + tol / 2 or after maxIterations steps. Returns the last iterate b.
double brentZero(const std::function<double(double)>& f, double a, double b, double fa, double fb, double tol,
                 int maxIterations);

}  // namespace gb

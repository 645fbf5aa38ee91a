#pragma once
// An independent, deliberately naive reference for the booster tests: knot vectors built from the design's
// formulas, dense B by the textbook Cox-de Boor recursion, dense penalties, and Algorithm 2 with dense algebra
// (RSS computed as ||g - B delta||^2 directly). Shares no code with the engine's spline or learner code.
#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/Dataset.hpp"

namespace gbtest {

// splitmix64: tiny, portable, deterministic for a seed.
class TestRng {
 public:
  explicit TestRng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // [0, 1)
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  double normal();  // Box-Muller

 private:
  std::uint64_t state_;
};

// Columns y, x1..xp; x_j uniform on a random range [a_j, b_j]; y = sum of a few smooth effects + noise.
std::shared_ptr<gb::Dataset> makeSmoothData(std::size_t rows, int covariates, std::uint64_t seed);
// Columns y, x with x cycling through 1, 2, ..., distinct (no randomness): a covariate with fewer distinct values
// than basis columns. y = sin(x) + a small row pattern, so repeated x values have different responses.
std::shared_ptr<gb::Dataset> makeFewValuesData(int rows, int distinct);

// Knot vector per design.md section 2 (clamped: ends repeated degree+1 times; extended: grid continued).
std::vector<double> referenceKnots(double lo, double hi, int knots, int degree, bool clamped);
// All k = knots.size() - degree - 1 basis values at x by Cox-de Boor; x in [t[degree], t[k]] (hi included).
Eigen::RowVectorXd coxDeBoorRow(const std::vector<double>& t, int degree, double x);
// Derivatives of all k basis functions at x (same domain).
Eigen::RowVectorXd coxDeBoorDerivativeRow(const std::vector<double>& t, int degree, double x);
Eigen::MatrixXd denseBasis(const std::vector<double>& t, int degree, const std::vector<double>& x);
// D'D for the d-th order difference matrix built by repeated differencing (d = 0: identity).
Eigen::MatrixXd referencePenalty(int k, bool ridge, int differences);

// edf of one learner from the n x n hat matrix: tr(H) or tr(2H - H'H).
double denseEdf(const Eigen::MatrixXd& B, const Eigen::MatrixXd& S, double lambda, bool mboostDefinition);

struct DenseLearner {
  Eigen::MatrixXd B, S;
  double lambda = 0.0;
};

struct DenseFit {
  double offset = 0.0;
  std::vector<int> path;
  std::vector<double> risk;  // mstop + 1
  std::vector<double> fitted;
  std::vector<Eigen::VectorXd> gamma;
};

DenseFit denseBoost(const std::vector<double>& y, const std::vector<DenseLearner>& learners, double nu, int mstop);

// max |a - b| / max |b|: the relative error measure of the acceptance tests.
double relativeMaxError(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace gbtest

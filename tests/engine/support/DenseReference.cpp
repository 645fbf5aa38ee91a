#include "support/DenseReference.hpp"

#include <algorithm>
#include <cmath>

namespace gbtest {

std::uint64_t TestRng::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double TestRng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double TestRng::normal() {
  const double u1 = 1.0 - uniform();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

std::shared_ptr<gb::Dataset> makeSmoothData(std::size_t rows, int covariates, std::uint64_t seed) {
  TestRng rng(seed);
  auto data = std::make_shared<gb::Dataset>();
  data->source = "test data (seed " + std::to_string(seed) + ")";
  data->names.push_back("y");
  data->columns.emplace_back(rows, 0.0);
  for (int j = 0; j < covariates; ++j) {
    const double a = rng.uniform(-3.0, 1.0);
    const double b = a + rng.uniform(0.5, 4.0);
    std::vector<double> x(rows);
    for (auto& v : x) v = rng.uniform(a, b);
    // Effects of different shapes and sizes so that the learners compete; every third covariate is noise.
    const double amplitude = (j % 3 == 2) ? 0.0 : 1.0 + j;
    for (std::size_t i = 0; i < rows; ++i) {
      const double z = (x[i] - a) / (b - a);
      data->columns[0][i] += amplitude * (j % 2 ? std::sin(2.0 * M_PI * z) : z * z - z);
    }
    data->names.push_back("x" + std::to_string(j + 1));
    data->columns.push_back(std::move(x));
  }
  for (auto& v : data->columns[0]) v += 3.0 + 0.3 * rng.normal();
  return data;
}

std::shared_ptr<gb::Dataset> makeFewValuesData(int rows, int distinct) {
  auto data = std::make_shared<gb::Dataset>();
  data->source = "few-values test data";
  data->names = {"y", "x"};
  data->columns.assign(2, std::vector<double>(static_cast<std::size_t>(rows)));
  for (std::size_t r = 0; r < data->rows(); ++r) {
    data->columns[1][r] = 1.0 + static_cast<double>(r % static_cast<std::size_t>(distinct));
    data->columns[0][r] = std::sin(data->columns[1][r]) + 0.01 * static_cast<double>(r % 7);
  }
  return data;
}

std::vector<double> referenceKnots(double lo, double hi, int knots, int degree, bool clamped) {
  const double dx = (hi - lo) / (knots + 1);
  std::vector<double> t;
  for (int i = -degree; i <= knots + 1 + degree; ++i) {
    if (clamped)
      t.push_back(i <= 0 ? lo : (i >= knots + 1 ? hi : lo + i * dx));
    else
      t.push_back(lo + i * dx);
  }
  return t;
}

namespace {

// Degree-0 indicator: the domain interval holding x (the last one for x at or beyond the right end).
int spanOf(const std::vector<double>& t, int degree, double x) {
  const int k = static_cast<int>(t.size()) - degree - 1;
  for (int m = degree; m < k; ++m)
    if (x < t[m + 1] && t[m] < t[m + 1]) return m;
  return k - 1;
}

double ratio(double num, double den) { return den == 0.0 ? 0.0 : num / den; }

// N[p][i] for p = 0..degree, with the degree-0 span fixed from the final degree's domain.
std::vector<std::vector<double>> table(const std::vector<double>& t, int degree, double x) {
  const int total = static_cast<int>(t.size());
  std::vector<std::vector<double>> n(degree + 1);
  n[0].assign(total - 1, 0.0);
  n[0][spanOf(t, degree, x)] = 1.0;
  for (int p = 1; p <= degree; ++p) {
    n[p].assign(total - p - 1, 0.0);
    for (int i = 0; i < total - p - 1; ++i)
      n[p][i] = ratio(x - t[i], t[i + p] - t[i]) * n[p - 1][i] +
                ratio(t[i + p + 1] - x, t[i + p + 1] - t[i + 1]) * n[p - 1][i + 1];
  }
  return n;
}

}  // namespace

Eigen::RowVectorXd coxDeBoorRow(const std::vector<double>& t, int degree, double x) {
  const auto n = table(t, degree, x);
  return Eigen::Map<const Eigen::RowVectorXd>(n[degree].data(), static_cast<Eigen::Index>(n[degree].size()));
}

Eigen::RowVectorXd coxDeBoorDerivativeRow(const std::vector<double>& t, int degree, double x) {
  const auto n = table(t, degree, x);
  const int k = static_cast<int>(t.size()) - degree - 1;
  Eigen::RowVectorXd d(k);
  for (int i = 0; i < k; ++i)
    d[i] = degree *
           (ratio(n[degree - 1][i], t[i + degree] - t[i]) - ratio(n[degree - 1][i + 1], t[i + degree + 1] - t[i + 1]));
  return d;
}

Eigen::MatrixXd denseBasis(const std::vector<double>& t, int degree, const std::vector<double>& x) {
  const int k = static_cast<int>(t.size()) - degree - 1;
  Eigen::MatrixXd B(static_cast<Eigen::Index>(x.size()), k);
  for (std::size_t i = 0; i < x.size(); ++i) B.row(static_cast<Eigen::Index>(i)) = coxDeBoorRow(t, degree, x[i]);
  return B;
}

Eigen::MatrixXd referencePenalty(int k, bool ridge, int differences) {
  Eigen::MatrixXd D = Eigen::MatrixXd::Identity(k, k);
  if (!ridge)
    for (int d = 0; d < differences; ++d) D = (D.bottomRows(D.rows() - 1) - D.topRows(D.rows() - 1)).eval();
  return D.transpose() * D;
}

double denseEdf(const Eigen::MatrixXd& B, const Eigen::MatrixXd& S, double lambda, bool mboostDefinition) {
  const Eigen::MatrixXd A = B.transpose() * B + lambda * S;
  const Eigen::MatrixXd H = B * A.fullPivLu().solve(B.transpose());
  return mboostDefinition ? (2.0 * H - H.transpose() * H).trace() : H.trace();
}

DenseFit denseBoost(const std::vector<double>& y, const std::vector<DenseLearner>& learners, double nu, int mstop) {
  const Eigen::Index n = static_cast<Eigen::Index>(y.size());
  const Eigen::Map<const Eigen::VectorXd> yv(y.data(), n);
  DenseFit fit;
  fit.offset = yv.mean();
  Eigen::VectorXd mu = Eigen::VectorXd::Constant(n, fit.offset);
  fit.risk.push_back((yv - mu).squaredNorm() / n);
  std::vector<Eigen::LDLT<Eigen::MatrixXd>> solvers;
  for (const auto& l : learners) {
    solvers.emplace_back(l.B.transpose() * l.B + l.lambda * l.S);
    fit.gamma.push_back(Eigen::VectorXd::Zero(l.B.cols()));
  }
  for (int m = 0; m < mstop; ++m) {
    const Eigen::VectorXd g = yv - mu;
    int best = -1;
    double bestRss = 0.0;
    Eigen::VectorXd bestDelta;
    for (std::size_t j = 0; j < learners.size(); ++j) {
      const Eigen::VectorXd delta = solvers[j].solve(learners[j].B.transpose() * g);
      const double rss = (g - learners[j].B * delta).squaredNorm();
      if (best < 0 || rss < bestRss) {
        best = static_cast<int>(j);
        bestRss = rss;
        bestDelta = delta;
      }
    }
    mu += nu * (learners[best].B * bestDelta);
    fit.gamma[best] += nu * bestDelta;
    fit.path.push_back(best);
    fit.risk.push_back((yv - mu).squaredNorm() / n);
  }
  fit.fitted.assign(mu.data(), mu.data() + n);
  return fit;
}

double relativeMaxError(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return a.size() != b.size() ? INFINITY : diff / scale;
}

}  // namespace gbtest

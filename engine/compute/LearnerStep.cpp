#include "compute/LearnerStep.hpp"

#include <algorithm>

#include "common/Error.hpp"

namespace gb {

void designRow(const Learner& l, double x, double* row) {
  const int k = l.numColumns();
  std::fill(row, row + k, 0.0);
  if (l.type == LearnerType::Spline) {
    double w[SplineBasis::kMaxDegree + 1];
    bool outside = false;
    const int first = l.basis.evaluateExtrapolated(x, w, &outside);
    for (int r = 0; r <= l.basis.degree() && first + r < k; ++r) row[first + r] = w[r];
    return;
  }
  row[0] = 1.0;
  if (l.type == LearnerType::Linear) {
    row[1] = x;
    return;
  }
  const auto level = static_cast<long>(x);
  if (level > 0 && level < k) row[level] = 1.0;
}

LearnerStep learnerStep(const Learner& l, const std::vector<double>& x, const std::vector<double>& u, const double* w,
                        double nu) {
  if (x.size() != u.size()) throw ComputeError("learnerStep: covariate and gradient differ in length");
  const int k = l.numColumns();
  Eigen::VectorXd c = Eigen::VectorXd::Zero(k);
  std::vector<double> row(static_cast<std::size_t>(k));
  double b[SplineBasis::kMaxDegree + 1];
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double wi = w ? w[i] : 1.0;
    if (wi == 0.0) continue;
    if (l.type == LearnerType::Spline) {  // only the degree + 1 non-zero columns of the row
      bool outside = false;
      const int first = l.basis.evaluateExtrapolated(x[i], b, &outside);
      for (int r = 0; r <= l.basis.degree() && first + r < k; ++r) c[first + r] += b[r] * wi * u[i];
      continue;
    }
    designRow(l, x[i], row.data());
    for (int a = 0; a < k; ++a) c[a] += row[static_cast<std::size_t>(a)] * wi * u[i];
  }
  LearnerStep step;
  step.delta = nu * (l.solveMatrix * c);
  step.reduction = c.dot(l.rssMatrix * c);
  return step;
}

}  // namespace gb

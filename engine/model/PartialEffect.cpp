#include "model/PartialEffect.hpp"

#include "model/Model.hpp"

namespace gb {

Eigen::VectorXd designMeans(const Learner& l) {
  if (l.isSpline()) return l.gram.rowwise().sum() / l.gram.sum();
  return l.gram.row(0).transpose() / l.gram(0, 0);
}

std::vector<double> effectGrid(const Learner& l, int points) {
  std::vector<double> x;
  if (l.type == LearnerType::Factor) {
    for (std::size_t level = 0; level < l.levels.size(); ++level) x.push_back(static_cast<double>(level));
    return x;
  }
  const double lo = l.basis.lo(), hi = l.basis.hi();
  x.resize(static_cast<std::size_t>(points));
  // The last point is exactly hi (not lo + (points-1)*step, which may round past it).
  for (int i = 0; i < points; ++i)
    x[static_cast<std::size_t>(i)] = i + 1 == points ? hi : lo + (hi - lo) * i / (points - 1);
  return x;
}

std::vector<double> centredEffect(const Learner& l, const Eigen::VectorXd& means, const Eigen::VectorXd& gamma,
                                  const std::vector<double>& x) {
  const double mean = means.dot(gamma);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    y[i] = learnerEffect(l.type, l.basis, gamma.data(), gamma.size(), x[i], nullptr) - mean;
  return y;
}

}  // namespace gb

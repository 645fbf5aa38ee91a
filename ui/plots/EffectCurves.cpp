#include "plots/EffectCurves.hpp"

#include "model/Model.hpp"

namespace gbui {

EffectCurve centredEffect(const FitSetup& setup, std::size_t learner, const Eigen::VectorXd& gamma, int points) {
  const gb::Learner& l = setup.learners[learner];
  EffectCurve c;
  c.mean = setup.basisMeans[learner].dot(gamma);
  if (l.type == gb::LearnerType::Factor) {
    for (std::size_t level = 0; level < l.levels.size(); ++level) c.x.push_back(static_cast<double>(level));
  } else {
    const double lo = l.basis.lo(), hi = l.basis.hi();
    c.x.resize(points);
    // The last point is exactly hi (not lo + (points-1)*step, which may round past it).
    for (int i = 0; i < points; ++i) c.x[i] = i + 1 == points ? hi : lo + (hi - lo) * i / (points - 1);
  }
  c.y.resize(c.x.size());
  for (std::size_t i = 0; i < c.x.size(); ++i)
    c.y[i] = gb::learnerEffect(l.type, l.basis, gamma.data(), gamma.size(), c.x[i], nullptr) - c.mean;
  return c;
}

std::vector<double> rugSample(const std::vector<double>& x, std::size_t count) {
  std::vector<double> out;
  if (x.empty()) return out;
  // Rows are spread evenly over the file, so ordered data (a sorted column) still gives a representative rug.
  const std::size_t stride = std::max<std::size_t>(1, x.size() / count);
  for (std::size_t i = 0; i < x.size(); i += stride) out.push_back(x[i]);
  return out;
}

}  // namespace gbui

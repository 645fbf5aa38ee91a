#include "plots/EffectCurves.hpp"

#include "model/PartialEffect.hpp"

namespace gbui {

EffectCurve centredEffect(const FitSetup& setup, std::size_t learner, const Eigen::VectorXd& gamma, int points) {
  const gb::Learner& l = setup.learners[learner];
  EffectCurve c;
  c.mean = setup.basisMeans[learner].dot(gamma);
  c.x = gb::effectGrid(l, points);
  c.y = gb::centredEffect(l, setup.basisMeans[learner], gamma, c.x);
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

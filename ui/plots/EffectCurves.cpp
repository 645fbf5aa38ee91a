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
  if (x.size() <= count) return x;
  // Rows are spread evenly over the file, so ordered data (a sorted column) still gives a representative rug.
  std::vector<double> out(count);
  for (std::size_t k = 0; k < count; ++k) out[k] = x[k * x.size() / count];
  return out;
}

}  // namespace gbui

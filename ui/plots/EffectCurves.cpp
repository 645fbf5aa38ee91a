#include "plots/EffectCurves.hpp"

#include "model/Model.hpp"

namespace gbui {

EffectCurve centredEffect(const FitSetup& setup, std::size_t learner, const Eigen::VectorXd& gamma, int points) {
  const gb::SplineBasis& basis = setup.learners[learner].basis;
  EffectCurve c;
  c.mean = setup.basisMeans[learner].dot(gamma);
  c.x.resize(points);
  c.y.resize(points);
  const double lo = basis.lo(), hi = basis.hi();
  for (int i = 0; i < points; ++i) {
    // The last point is exactly hi (not lo + (points-1)*step, which may round past it).
    c.x[i] = i + 1 == points ? hi : lo + (hi - lo) * i / (points - 1);
    c.y[i] = gb::splineEffect(basis, gamma.data(), c.x[i]) - c.mean;
  }
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

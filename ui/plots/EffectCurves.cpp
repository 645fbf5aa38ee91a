#include "plots/EffectCurves.hpp"

#include <algorithm>
#include <cmath>

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

TrueCurves trueCurves(const FitSetup& setup, const gb::TrueEffects& truth, const std::function<bool()>& cancelled) {
  const std::size_t learners = setup.learners.size();
  TrueCurves c;
  c.x.resize(learners);
  c.y.resize(learners);
  c.maxAbs.assign(learners, 0.0);
  static const std::vector<double> kNoWeights;
  const std::vector<double>& weights =
      setup.settings.weights.empty() ? kNoWeights : setup.data->column(setup.settings.weights);
  for (std::size_t j = 0; j < learners; ++j) {
    if (cancelled && cancelled()) break;
    const gb::Learner& l = setup.learners[j];
    if (l.type == gb::LearnerType::Factor) continue;
    c.x[j] = gb::effectGrid(l);
    c.y[j] = gb::centredTrueEffect(truth, l.name, c.x[j], setup.covariate(j), weights);
    for (double v : c.y[j]) c.maxAbs[j] = std::max(c.maxAbs[j], std::abs(v));
  }
  return c;
}

double trueCurvesWork(const FitSetup& setup, const gb::TrueEffects& truth) {
  double work = 0.0;
  for (const gb::Learner& l : setup.learners)
    if (l.type != gb::LearnerType::Factor && truth.isInformative(l.name)) work += static_cast<double>(setup.rows);
  return work;
}

std::vector<double> rugSample(const std::vector<double>& x, std::size_t count) {
  if (x.size() <= count) return x;
  // Rows are spread evenly over the file, so ordered data (a sorted column) still gives a representative rug.
  std::vector<double> out(count);
  for (std::size_t k = 0; k < count; ++k) out[k] = x[k * x.size() / count];
  return out;
}

}  // namespace gbui

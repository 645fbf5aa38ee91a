#include "compute/CpuLearnerRows.hpp"

namespace gb::cpu {

LearnerRows learnerRows(const Learner& learner, const double* x) {
  LearnerRows L;
  L.x = x;
  L.learner = &learner;
  L.k = learner.numColumns();
  Locator loc{};
  if (learner.isSpline()) {
    L.degree = learner.basis.degree();
    L.intervals = learner.basis.numIntervals();
    L.poly = learner.basis.polynomialTable();
    L.polyBySpan = transposedPolynomials(L.poly, L.intervals, L.degree);
    L.view = basisView(learner.basis, L.polyBySpan.data());
    return L;
  }
  if (learner.type == LearnerType::Linear) {
    L.degree = 1;
    L.intervals = 1;
    const double lo = learner.basis.lo(), hi = learner.basis.hi();
    const double half = hi / 2.0 - lo / 2.0;  // u = (x - centre) / half lies in [-1, 1]
    L.centre = lo / 2.0 + hi / 2.0;
    L.poly = {1.0, 0.0, 0.0, half};  // column 1: 1; column 2: half u = x - centre
    loc = Locator{L.centre, 1.0 / half, 0};
  } else {
    L.degree = 0;
    L.intervals = L.k;
    L.indicators = true;
    L.poly.assign(static_cast<std::size_t>(L.k), 1.0);
    loc = Locator{-0.5, 1.0, L.k - 1};  // code c: (c + 0.5) truncates to c
  }
  L.polyBySpan = transposedPolynomials(L.poly, L.intervals, L.degree);
  L.view = BasisView{loc, L.polyBySpan.data()};
  return L;
}

Eigen::VectorXd learnerCoefficients(const LearnerRows& L, const double* c) {
  Eigen::VectorXd own = Eigen::Map<const Eigen::VectorXd>(c + L.coefOffset, L.k);
  if (L.indicators) own[0] = own.sum();
  if (L.centre != 0.0) own[1] += L.centre * own[0];
  return own;
}

Eigen::VectorXd backendStep(const LearnerRows& L, const Eigen::VectorXd& step) {
  Eigen::VectorXd ours = step;
  if (L.centre != 0.0) ours[0] += L.centre * step[1];
  if (L.indicators)
    for (Eigen::Index l = 1; l < ours.size(); ++l) ours[l] = step[0] + step[l];
  return ours;
}

}  // namespace gb::cpu

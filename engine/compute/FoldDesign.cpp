#include "compute/FoldDesign.hpp"

namespace gb {

bool foldsShareSplineDesign(const std::vector<BoostProblem>& folds, std::size_t maxFolds) {
  if (folds.empty() || folds.size() > maxFolds) return false;
  const BoostProblem& first = folds.front();
  for (const BoostProblem& f : folds) {
    if (!f.learners || f.learners->empty() || !f.oobWeights || f.rows != first.rows ||
        f.learners->size() != first.learners->size() || f.family.family != first.family.family ||
        f.covariates.size() != f.learners->size() || *f.response != *first.response)
      return false;
    for (std::size_t j = 0; j < f.learners->size(); ++j) {
      const Learner& a = (*f.learners)[j];
      const Learner& b = (*first.learners)[j];
      if (!a.isSpline() || a.basis.lo() != b.basis.lo() || a.basis.hi() != b.basis.hi() ||
          a.basis.degree() != b.basis.degree() || a.numColumns() != b.numColumns() ||
          (f.covariates[j] != first.covariates[j] && *f.covariates[j] != *first.covariates[j]))
        return false;
    }
  }
  return true;
}

}  // namespace gb

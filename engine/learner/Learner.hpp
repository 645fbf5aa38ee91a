#pragma once
// One base learner: a penalised B-spline of one covariate, with everything precomputed at set-up.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "data/Dataset.hpp"
#include "settings/ModelSettings.hpp"
#include "spline/SplineBasis.hpp"

namespace gb {

struct Learner {
  std::string name;  // covariate name
  int column = -1;   // its column in the Dataset
  SplineBasis basis;
  Eigen::MatrixXd gram;     // G = B'B
  Eigen::MatrixXd penalty;  // S
  double lambda = 0.0;
  double edf = 0.0;
  std::string note;             // from solveLambda (e.g. unpenalised)
  Eigen::MatrixXd solveMatrix;  // P = (G + lambda S)^-1, symmetric: delta = P c
  Eigen::MatrixXd rssMatrix;    // Q = 2P - P G P: RSS reduction of the unshrunk fit = c' Q c

  int numColumns() const { return basis.numColumns(); }
};

// G = B'B from the compact basis, in one pass over x (no dense B).
Eigen::MatrixXd gramMatrix(const SplineBasis& basis, const double* x, std::size_t n);

// Builds one learner per name in settings.learners (all non-response columns when empty), lambda from the edf.
// Throws InputError for: unknown column, constant covariate, fewer rows than basis columns, edf at or below
// the penalty's null space, and bad spline options. Uses both cores across learners.
std::vector<Learner> buildLearners(const Dataset& data, const ModelSettings& settings);

}  // namespace gb

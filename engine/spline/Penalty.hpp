#pragma once
// Penalty matrices S for a basis of k columns: ridge (S = I, mboost differences = 0) or a P-spline
// difference penalty S = D'D with D the d-th order difference matrix (d = 1..3).
#include <Eigen/Dense>
#include <string>

#include "settings/ModelEnums.hpp"

namespace gb {

// differences: 0..3; PenaltyKind::Ridge ignores it (identity). PSpline with differences 0 is the identity too.
Eigen::MatrixXd penaltyMatrix(int k, PenaltyKind kind, int differences);
// d-th order difference matrix ((k-d) x k); d = 0 gives the identity.
Eigen::MatrixXd differenceMatrix(int k, int differences);
// Dimension of the penalty's null space (0 for ridge, d for a d-th order difference penalty).
int penaltyNullSpaceDimension(PenaltyKind kind, int differences);

}  // namespace gb

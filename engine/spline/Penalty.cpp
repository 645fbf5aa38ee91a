#include "spline/Penalty.hpp"

#include "common/Error.hpp"

namespace gb {

Eigen::MatrixXd differenceMatrix(int k, int differences) {
  if (differences < 0 || differences > 3)
    throw InputError(
        optionMessage("--differences", "must be between 0 and 3 (got " + std::to_string(differences) + ")"));
  if (differences >= k)
    throw InputError(optionMessage("--differences", "order " + std::to_string(differences) + " needs more than " +
                                                        std::to_string(k) + " basis columns"));
  Eigen::MatrixXd D = Eigen::MatrixXd::Identity(k, k);
  for (int d = 0; d < differences; ++d) {  // R's diff(): rows i+1 minus rows i
    const Eigen::Index rows = D.rows() - 1;
    D = (D.bottomRows(rows) - D.topRows(rows)).eval();
  }
  return D;
}

Eigen::MatrixXd penaltyMatrix(int k, PenaltyKind kind, int differences) {
  if (kind == PenaltyKind::Ridge || differences == 0) return Eigen::MatrixXd::Identity(k, k);
  const Eigen::MatrixXd D = differenceMatrix(k, differences);
  return D.transpose() * D;
}

int penaltyNullSpaceDimension(PenaltyKind kind, int differences) {
  return kind == PenaltyKind::Ridge ? 0 : differences;
}

}  // namespace gb

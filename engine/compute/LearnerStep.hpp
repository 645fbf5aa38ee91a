#pragma once
// One boosting step worked out on the host, for teaching: what each learner would fit to the current negative
// gradient u, c = B_j'W u, delta = nu P_j c, and the RSS reduction c'Q_j c it competes with (the learner race). The
// same arithmetic as the backends' iteration, in plain loops over the rows (no speed claimed: the window uses it
// for one step at a time).
#include <Eigen/Dense>
#include <vector>

#include "learner/Learner.hpp"

namespace gb {

// Column values of learner l's design at covariate value x (k values): a spline's basis (zero outside its d+1
// non-zero columns), a linear term's (1, x), a factor's (1, [code == 1], ..., [code == L-1]).
void designRow(const Learner& l, double x, double* row);

struct LearnerStep {
  int learner = -1;
  Eigen::VectorXd delta;   // nu P c: the step the learner would add to its coefficients
  double reduction = 0.0;  // c'Qc, the RSS reduction of the unshrunk fit (the race's score)
};

// The step of learner l on covariate column x for gradient u; w null means unit weights.
LearnerStep learnerStep(const Learner& l, const std::vector<double>& x, const std::vector<double>& u, const double* w,
                        double nu);

}  // namespace gb

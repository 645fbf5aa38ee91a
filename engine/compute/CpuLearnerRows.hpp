#pragma once
// Internal to the CPU backend: each learner as a piecewise polynomial of its covariate, so that one set of row loops
// (interval moments, basis rows, steps) serves splines, linear terms and factors (compute/CpuBackend.cpp).
//  - A spline: its knot intervals and B-spline polynomials.
//  - A linear term b0 + b1 x: degree 1 on one interval starting at the centre m of x's range with the half-range h
//    as its spacing, so that the local coordinate u = (x - m) / h lies in [-1, 1] (truncated to interval 0) and the
//    columns are 1 and h u = x - m (to rounding): B = B_m T with T = [1 m; 0 1]. Centred, the cached cross-products of
//    x with the other learners do not carry m^2 (years near 2000 with a spread of 30 cost the incremental risks about
//    1e-11 uncentred, against 1e-15). The learner's c is T' c_m = (c_0, c_1 + m c_0); a step s is T s = (s_0 + m s_1,
//    s_1).
//  - A factor with L levels (codes 0..L-1): degree 0 with one interval per level, centred on its code; its columns
//    are the L level indicators. The learner's own columns are the intercept and the indicators of levels 2..L
//    (treatment contrasts), B = I T with T = [1 | e_2 .. e_L]: the backend keeps c and the cross-products in the
//    indicator columns, the learner's c is T' c (the intercept's entry the sum over the levels) and a step s in the
//    learner's columns is T s in the indicators' (s_0 on level 1, s_0 + s_l on level l), as the gradient path adds it.
#include <Eigen/Dense>
#include <vector>

#include "compute/CpuCrossPass.hpp"

namespace gb::cpu {

// The learner's rows view over covariate x (k, degree, intervals, the tables and the view; not the offsets).
LearnerRows learnerRows(const Learner& learner, const double* x);

// The learner's c (its own columns) from the backend's c in the learner's columns (at its coefOffset).
Eigen::VectorXd learnerCoefficients(const LearnerRows& L, const double* c);

// A step in the learner's columns as coefficients of the backend's columns.
Eigen::VectorXd backendStep(const LearnerRows& L, const Eigen::VectorXd& step);

}  // namespace gb::cpu

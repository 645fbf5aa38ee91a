#pragma once
// The OpenCL backend's path for the models without the residual shortcut (BoostProblem::gradientEachIteration:
// any family but gaussian, case weights, linear or factor learners). Every iteration on the device:
//   wu = w * ngradient(y, f)       family_gradient (kernels/family.cl)
//   c = B'(wu), delta = P c, c'Qc  the compact B'g and learner_solve for the spline learners (DeviceProblem::score)
//   sum v, sum x v, per-level sums  kernels/ols.cl for the linear and factor learners
//   f += nu B_j* delta_j*           the compact update, or linear_update / level_update
//   sum w loss(y, f)                family_risk, partial sums added on the host in a fixed order
// With spline learners only, a batch stays on the device: learner_select picks j* (the largest c_j'Q_j c_j, ties to
// the lowest index), records it and finishes the previous record's risk from the loss's partial sums, so a batch
// has no host round trip. With compact_x, compact_x_family_select_update selects, adds the step and, at the new f,
// forms the next gradient and the loss partials in the same pass: four launches per iteration, as many as the gaussian
// plain scheme. With linear or factor learners the selection is made on the host from the downloaded reductions
// (learners in the Booster's order). At least one spline learner is needed (it carries the compact data).
#include <memory>
#include <vector>

#include "compute/Backend.hpp"
#include "family/NegBinomial.hpp"
#include "opencl/DeviceProblem.hpp"
#include "opencl/FamilyKernels.hpp"
#include "opencl/OlsKernels.hpp"

namespace gb::ocl {

class GradientPath {
 public:
  // Throws InputError when the model has no spline learner.
  GradientPath(Context& ctx, const BoostProblem& problem, const DeviceProblemOptions& options);
  ~GradientPath();
  void iterate(int count, std::vector<IterationResult>& out);
  std::vector<double> fitted();
  CandidateScores candidates();

 private:
  struct OlsLearner {
    const Learner* learner = nullptr;
    Buffer values;  // x (REAL) for a linear learner, level codes (int) for a factor
  };

  IterationResult iterateOnHost();
  void iterateOnDevice(int count, std::vector<IterationResult>& out);
  void selectUpdate(int previous, int record, const Buffer& previousPartials, const Buffer& partials);
  void readRecords(int count, std::vector<IterationResult>& out);
  void gradientAndScores(std::vector<double>& reductions, std::vector<Eigen::VectorXd>& olsC);
  void updateOls(const OlsLearner& l, const Eigen::VectorXd& step);
  double risk();
  // start + sum of w loss over the rows at mu (the family kernel's partial sums, added on the host in order).
  double lossSum(const Buffer& weights, double param, double start = 0.0);

  Context& ctx_;
  BoostProblem problem_;
  std::vector<Learner> splines_;  // the spline learners, for the device problem
  std::unique_ptr<DeviceProblem> device_;
  std::vector<OlsLearner> ols_;
  FamilyKernels family_;
  OlsKernels olsKernels_;
  Buffer weights_, oobWeights_, riskPartials_, olsPartials_, effect_;
  Kernel selectUpdate_;         // compact_x_family_select_update, likewise
  Buffer partials2_;            // the select-update's second partial buffer (they alternate)
  bool gradientValid_ = false;  // p.g holds w * u at the current mu (after a family update)
  double param_ = 0.0, riskConstant_ = 0.0, totalWeight_ = 0.0;
  // negbin: the f-free part of its sums with the fitting weights (the size is optimised on them) and the risk's.
  NegBinCounts fitCounts_, riskCounts_;
  double fitWeight_ = 0.0;  // sum of the fitting weights (gamma's shape)
};

}  // namespace gb::ocl

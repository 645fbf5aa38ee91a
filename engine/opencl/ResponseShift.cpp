#include "opencl/ResponseShift.hpp"

namespace gb::ocl {

namespace {

bool lossOfResidual(Family f) {
  return f == Family::Gaussian || f == Family::Laplace || f == Family::Huber || f == Family::Quantile ||
         f == Family::Expectile;
}

}  // namespace

std::vector<BoostProblem> ResponseShift::apply(const std::vector<BoostProblem>& folds, bool isDouble) {
  shifted_ = false;
  y_.clear();
  if (isDouble || folds.empty() || !lossOfResidual(folds.front().family.family)) return folds;
  shifted_ = true;
  c_ = folds.front().offset;
  const std::vector<double>& y = *folds.front().response;
  y_.resize(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) y_[i] = y[i] - c_;
  std::vector<BoostProblem> out = folds;
  for (BoostProblem& p : out) {
    p.response = &y_;
    p.offset -= c_;
  }
  return out;
}

BoostProblem ResponseShift::apply(const BoostProblem& problem, bool isDouble) {
  return apply(std::vector<BoostProblem>{problem}, isDouble).front();
}

std::vector<double> ResponseShift::restore(std::vector<double> shiftedF) const {
  if (shifted_)
    for (double& f : shiftedF) f += c_;
  return shiftedF;
}

}  // namespace gb::ocl

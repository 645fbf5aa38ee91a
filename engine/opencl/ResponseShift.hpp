#pragma once
// Float on the device carries y - c and f - c, with c the offset, for the families whose loss is a function of
// y - f alone (gaussian, laplace, huber, quantile, expectile). A response far from 0 against its spread (y near
// 1e6, spread 2) otherwise lost the fit to float's steps at |f|: the steps of nu delta fell below them, the fit
// stalled at iteration 10 with half the effect missing, and cv chose mstop 9 where the CPU chose 100. The loss,
// the gradient, the risk and every coefficient are the same for the shifted problem; only f moves by c, which
// fitted() adds back in double. Double is never shifted (it stays the CPU backend's bit for bit where it was).
#include <vector>

#include "compute/Backend.hpp"

namespace gb::ocl {

class ResponseShift {
 public:
  // The problem to hand to the device: `problem` itself, or (float, a family of y - f) one whose response is
  // y - c (kept here: the returned problem points to it) and whose offset is offset - c, with c = problem.offset.
  BoostProblem apply(const BoostProblem& problem, bool isDouble);
  // The same for a batch of folds sharing one response, with c the first fold's offset.
  std::vector<BoostProblem> apply(const std::vector<BoostProblem>& folds, bool isDouble);
  // f - c from the device to f.
  std::vector<double> restore(std::vector<double> shiftedF) const;

 private:
  bool shifted_ = false;
  double c_ = 0.0;
  std::vector<double> y_;
};

}  // namespace gb::ocl

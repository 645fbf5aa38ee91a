#pragma once
// The OpenCL backend's batch of resampling folds (Backend::prepareFolds): every fold advances together, one pass
// over x per iteration serving them all (kernels/fold_path.cl). Per iteration, four launches:
//   fold_btg_partial, fold_btg_reduce  c_b = B'(w_b u_b) for every fold b and learner, from the interval-sorted
//                                      rows (CompactData's sorted layout in chunks of kFoldChunkRows rows)
//   learner_solve                      delta and c'Qc of every (fold, learner): P and Q per fold (lambda per fold)
//   fold_select_update                 per fold j*, the record, mu_b += nu B_j* delta, the next w_b u_b and the
//                                      out-of-bag loss partials (two partial buffers alternate, as in GradientPath)
// For models of spline learners only; at most kMaxFolds folds a batch (the caller splits more).
#include <memory>
#include <vector>

#include "compute/Backend.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/DeviceProblem.hpp"
#include "opencl/Tuning.hpp"

namespace gb::ocl {

constexpr std::size_t kFoldChunkRows = 1024;   // a chunk's w u of 32 folds in float: 128 KiB, about an L1 cache
constexpr std::size_t kFoldChunkRows4 = 2048;  // the same with 4 rows a step (fold_path.cl's FOLD_ROWS4), measured
constexpr int kFoldRows4Warps = 4;             // the same on NVIDIA: warps a group (measured, as the next)
constexpr int kFoldRows4GroupsPerUnit = 16;    // and groups per compute unit
constexpr int kMaxFolds = 32;                  // a fold per work-item of one warp in fold_select_update

class FoldPath final : public FoldBatch {
 public:
  // Whether the folds can run as one batch here: spline learners only (same bases in every fold), one family, the
  // same rows, response and covariates, 1..kMaxFolds folds.
  static bool supports(const std::vector<BoostProblem>& folds);
  // `shape`: the B'g's variant and launch shape where the environment chose them (opencl/Tuning.hpp).
  FoldPath(Context& ctx, const std::vector<BoostProblem>& folds, const DeviceProblemOptions& options,
           const FoldShape& shape = {});
  ~FoldPath() override;
  void iterate(int count, std::vector<std::vector<IterationResult>>& out) override;
  BackendInfo info() const override { return info_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  BackendInfo info_;
};

}  // namespace gb::ocl

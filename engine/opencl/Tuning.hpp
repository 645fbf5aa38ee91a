#pragma once
// Experiment switches of the OpenCL backend, read from the environment in this one place, validated, and
// recorded (BackendInfo::tuning -> result.json's timing), so that a run made with them can be repeated.
//   GAMBOOST_OPENCL_REFRESH   iterations between exact B'g passes with the cross-product cache; 0 turns the cache off
//   GAMBOOST_COMPACT_LANES    work-group size of compact_x's lane-private kernel (a power of two up to 256);
//                             0 selects the atomics kernel instead
//   GAMBOOST_KERNEL_DEFINES   extra -DNAME[=VALUE] options for the compact kernels' builds
//   GAMBOOST_CROSS_FILL       sorted | atomics: the GPU cross-product cache fill (opencl/CrossFill.hpp)
//   GAMBOOST_FUSED_SELECT     1 (default) | 0: the GPU cached scheme's solve and select in one launch or in two
//   GAMBOOST_FUSED_FILL       1 (default) | 0: its update and atomics fill in one launch or in two
//   GAMBOOST_RESIDUAL_UPDATE  1 (default) | 0: its update writes g alone (mu = y - g when asked) or mu and g
//   GAMBOOST_CACHE_COPY       1 (default) | 0: its fill copies the transposed block of a learner that holds a slot,
//                             or sums that learner's rows again
//   GAMBOOST_FOLD_ROWS4       1 (default) | 0: the folds' B'g on NVIDIA GPUs in float (cubic splines) with 4 rows a
//                             warp step and 4 folds a lane, or with a lane per fold (kernels/fold_path.cl)
//   GAMBOOST_FOLD_SHAPE       W,G,C: that B'g's work-groups of W warps (1-8), G of them per compute unit (1-64),
//                             over chunks of C rows (64-65536); 0 for any of them keeps FoldPath's choice
//   GAMBOOST_PACKED_BTG       0 | 1: the batched compact_x B'g on GPUs in float from a packed sorted copy of x
//                             (opencl/PackedBtg.hpp) instead of from x by the lane-private columns kernel; unset:
//                             as the device's tuning entry says (opencl/TuningTable.hpp; the H200's is packed)
//   GAMBOOST_PACK_SHAPE       W,L,S: that B'g's work-groups of W warps (1-8) keeping L learners' moments, S segment
//                             ends a lane (4-16); default: the most learners that fit, with the fewest idle warps
//   GAMBOOST_PACK_GROUPS      G: that B'g's work-groups per compute unit (1-64; default 4, one wave of 4 resident
//                             groups on the H100 and H200), each taking an equal share of the chunks
#include <string>

namespace gb::ocl {

// The folds' B'g (opencl/FoldPath.hpp): 0 leaves a number to FoldPath.
struct FoldShape {
  bool rows4 = true;      // GAMBOOST_FOLD_ROWS4=0: on NVIDIA with a lane per fold (as before)
  int warps = 0;          // GAMBOOST_FOLD_SHAPE=W,G,C: W learners (warps) a work-group (1-8),
  int groupsPerUnit = 0;  // G work-groups per compute unit (1-64),
  int chunkRows = 0;      // C rows per interval-sorted chunk (64-65536)
};

struct OpenClTuning {
  int refreshInterval = -1;  // -1: the backend's default (50)
  int compactLanes = -1;     // -1: the kernel table's default (32 on GPUs)
  std::string kernelDefines;
  std::string crossFill;     // "": the default (sorted where it applies); "sorted" or "atomics"
  long long shardRows = -1;  // -1: no cap; else at most this many rows per shard of the sharded backend
  bool gpuKernels = false;   // GAMBOOST_GPU_KERNELS=1 (tests): the GPU kernel variants, and their cache, on any device
  bool fusedSelect = true;   // GAMBOOST_FUSED_SELECT=0: learner_correct_solve and learner_select_claim in two launches
  bool fusedFill = true;     // GAMBOOST_FUSED_FILL=0: compact_x_update and compact_x_cross_fill in two launches
  bool residualUpdate = true;  // GAMBOOST_RESIDUAL_UPDATE=0: the update writes mu and g
  bool cacheCopy = true;       // GAMBOOST_CACHE_COPY=0: the fill sums every learner's rows
  FoldShape fold;
  int packedBtg = -1;  // GAMBOOST_PACKED_BTG: 1 the batched B'g from the packed sorted copy, 0 not; -1 unset
  int packWarps = 0, packLearners = 0, packSlots = 0;  // GAMBOOST_PACK_SHAPE (0: chosen by PackedBtg)
  int packGroups = 0;                                  // GAMBOOST_PACK_GROUPS (0: PackedBtg's default)
  // "GAMBOOST_OPENCL_REFRESH=0 GAMBOOST_KERNEL_DEFINES=-DLANE_ROWS=16": the variables that were set; "" for none.
  std::string describe() const;
};

// Throws InputError naming the variable for a value that is not what it must be (e.g. "GAMBOOST_COMPACT_LANES:
// 'abc' is not a whole number").
OpenClTuning openClTuningFromEnvironment();

}  // namespace gb::ocl

#pragma once
// The one table of -D parameters of the compact and iteration kernels, per device type. A GPU wants many
// work-items streaming coalesced rows into shared (local-memory) bins; a CPU device (PoCL) wants few work-items
// per learner with long loops and private accumulators (no atomics, a vectorisable inner loop).
#include <string>

#include "compute/ComputeDevices.hpp"
#include "spline/SplineBasis.hpp"

namespace gb::ocl {

// Rows per chunk of the interval-sorted compact layout (compact_sorted); its row index within a chunk is a ushort.
constexpr int kSortChunkRows = 4096;

// Largest K x K block of REALs the GPU cross-product cache fill keeps in local memory (NVIDIA gives 48 KiB a
// work-group): k = 64 fits in float and double, k = 100 only in float.
constexpr std::size_t kMaxCrossBlockBytes = std::size_t(40) << 10;
bool crossBlockFits(const SplineSpec& spec, bool doublePrecision);

struct KernelParameters {
  bool gpu = false;               // local-memory bins with atomics (GPU) vs private accumulators (CPU)
  bool nvidiaAtomics = false;     // inline PTX red.shared.add.f32 for local float atomics (NVIDIA only)
  int btgGroupSize = 1;           // work-items per (learner, chunk) group of the B'g partial kernels
  std::size_t btgChunkRows = 0;   // rows per (learner, chunk) group
  int binCopies = 1;              // local bin replicas per group (GPU: one per sub-group, cuts conflicts)
  int lanes = 0;                  // GPU: work-items (one warp) of compact_x_partial_columns; 0: atomics kernel
  std::size_t laneChunkRows = 0;  // rows per (learner, chunk) group of compact_x_partial_columns
  int laneRows = 8;               // GPU: rows per lane and block of compact_x_partial_columns (LANE_ROWS)
  bool laneRed = false;           // GPU (NVIDIA): its column adds as red.shared instructions (LANE_RED)
  bool packedBtg = false;         // GPU: the batched compact_x B'g from the packed sorted copy (PackedBtg.hpp)
  int packWarps = 0, packLearners = 0, packSlots = 0;  // its shape (GAMBOOST_PACK_SHAPE); 0: PackedBtg chooses
  int packGroups = 0;                                  // its groups per compute unit (GAMBOOST_PACK_GROUPS); 0: 4
  std::size_t localMemoryBytes = 0;                    // the device's local memory per work-group
  int reduceGroupSize = 64;         // work-items of the per-learner reduction / solve / select kernels
  int updateGroupSize = 64;         // work-items per group of the update kernel
  std::size_t updateGroupRows = 0;  // rows per update group
  int learnersPerItem = 1;          // CPU: learners one work-item sums over the same block of rows (g stays in L1)
  int rowBlock = 1024;              // CPU: rows per such block
};

// Parameters for a device (info.type "GPU" -> GPU table; anything else -> CPU table). rows adapts chunk sizes
// so that small problems still give every compute unit work. A GPU's entry in the tuning table
// (opencl/TuningTable.hpp) sets the lane kernel's shape; GAMBOOST_COMPACT_LANES still overrides its lanes.
KernelParameters kernelParameters(const ComputeDeviceInfo& device, std::size_t rows, int learners);

// Work-items of compact_x_partial_columns whose lanes each own copyBytes of local memory: p.lanes, halved (down
// to 16) until the copies fit (at most 48 KiB, NVIDIA's limit a group); 0 means the kernel does not apply.
int laneCount(const KernelParameters& p, std::size_t copyBytes);

// "-DREAL=float -DDEGREE=3 -DK=16 -DINTERVALS=13 -DBTG_GROUP=256 ..." for the given basis shape and precision.
// Every define a kernels/compact_*.cl, iteration_*.cl or learner_*.cl file reads comes from here.
std::string buildOptions(const KernelParameters& p, const SplineSpec& spec, bool doublePrecision);

}  // namespace gb::ocl

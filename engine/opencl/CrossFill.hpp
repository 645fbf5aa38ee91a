#pragma once
// The GPU fill of the cross-product cache: B_j'B_l of every learner j for the learner l = index[0] that the select
// launch just gave cache slot cacheState[0] (nothing when that slot is negative: the launches return at once).
// Used by the GPU cached scheme (opencl/SchemeGpuCached.cpp) and the sharded backend (opencl/OpenClShard.cpp).
// Two ways, chosen once (GAMBOOST_CROSS_FILL=sorted|atomics, opencl/Tuning.hpp; sorted by default):
//   sorted   kernels/cross_sorted.cl: the rows counting-sorted by l's interval, x copied into that order (a scratch
//            of learners x rows REALs), then each lane adds its rows' products into its own K x 4 strip with plain
//            local adds (4 launches: count, scan, gather, fill). Needs degree <= 3 and room for the scratch.
//   atomics  kernels/compact_cross.cl's compact_x_cross_fill: every row's (degree+1)^2 products added into a K x K
//            block in local memory with atomics (1 launch). Where sorted was asked for but does not apply, this
//            one runs and label() says why.
// docs/performance.md ("The sorted cross-product fill") counts the bytes and instructions of both.
#include <cstddef>
#include <string>

#include "opencl/ClRuntime.hpp"
#include "opencl/DeviceProblem.hpp"
#include "opencl/KernelArgs.hpp"

namespace gb::ocl {

// The sorted fill's shape for a problem (pure: tests and the docs' counts use it).
struct SortedFillShape {
  int sortRows = 0;             // rows per chunk of the count and gather kernels (a multiple of 256)
  std::size_t chunks = 0;       // chunks of sortRows rows
  int learnerBlocks = 1;        // gather groups per chunk (each copies a block of the learners)
  int stripLanes = 0;           // work-items of cross_sorted_fill (a power of two); 0: the strips do not fit
  std::size_t segmentRows = 0;  // positions per cross_sorted_fill group
  std::size_t segments = 0;
  std::size_t scratchBytes =
      0;  // the sorted copy of x, u_l, the rows' keys, the counts, the intervals' totals and starts
};
SortedFillShape sortedFillShape(std::size_t rows, int learners, int k, int intervals, std::size_t realBytes,
                                int computeUnits, std::size_t localMemoryBytes);

class CrossFill {
 public:
  enum class Kind { Atomics, Sorted };
  // otherBytes: device memory the caller holds besides the DeviceProblem (the cache), for the scratch's check.
  // withUpdate: also build compact_x_update_fill, the update and the atomics fill in one launch (fusesUpdate()).
  CrossFill(DeviceProblem& p, std::size_t otherBytes, bool withUpdate = false);
  // slotOf (the GPU cached scheme's): a learner j that holds a slot gets the transpose of its block for l copied
  // instead of summed (GAMBOOST_CACHE_COPY=0: summed); null (the sharded backend's one block): every j summed.
  void launch(const Buffer& cacheState, Buffer& cache, const Buffer* slotOf = nullptr);
  // Whether launchWithUpdate() is there: asked for with withUpdate, on compact_x data, with GPU kernel parameters
  // (the update's groups as wide as the fill's).
  bool fusesUpdate() const { return fusedGroups_ > 0; }
  // compact_x_update over the update's groups (update.keepMu as there) and the fill: the atomics fill in the same
  // launch (compact_x_update_fill); the sorted fill's count in the same launch (compact_x_update_count), then its
  // scan, gather and fill.
  void launchWithUpdate(const CompactXUpdateArgs& update, std::size_t updateGroups, const Buffer& cacheState,
                        Buffer& cache, const Buffer* slotOf = nullptr);
  Kind kind() const { return kind_; }
  // "sorted fill", "atomics fill", or "atomics fill (sorted fill: <why not>)".
  const std::string& label() const { return label_; }

 private:
  std::string sortedUnavailable(std::size_t otherBytes) const;
  void prepareAtomics(bool withUpdate);
  void prepareSorted(bool withUpdate);
  // Whether the update is fused into the fill's first launch: asked for, GAMBOOST_FUSED_FILL, x on the device and
  // the update's groups as wide as that launch's (groupSize).
  bool fusesUpdateFor(bool withUpdate, std::size_t groupSize) const;
  CopyCachedArgs copyArgs(const Buffer* slotOf) const;
  void launchAtomics(const Buffer& cacheState, Buffer& cache, const CopyCachedArgs& copy);
  // counted: the update launch (compact_x_update_count) has run the count.
  void launchSorted(const Buffer& cacheState, Buffer& cache, const CopyCachedArgs& copy, bool counted);

  DeviceProblem& p_;
  const bool copyCached_;  // GAMBOOST_CACHE_COPY, read once (launches run every iteration)
  Kind kind_ = Kind::Atomics;
  std::string label_;
  Kernel fill_, updateFill_;
  std::size_t chunkRows_ = 0, chunks_ = 0;  // compact_x_cross_fill's
  std::size_t fusedGroups_ = 0;  // groups the fused launch needs for its fill tasks or count chunks; 0: not built
  SortedFillShape shape_;
  Kernel count_, scan_, gather_, sortedFill_;
  Buffer xSorted_, uSorted_, keys_, offsets_, totals_, bucketStart_;
};

}  // namespace gb::ocl

// The GPU cross-product cache fill, sorted or with atomics (opencl/CrossFill.hpp).
#include "opencl/CrossFill.hpp"

#include <algorithm>
#include <sstream>

#include "common/Error.hpp"
#include "opencl/KernelArgs.hpp"
#include "opencl/Tuning.hpp"

namespace gb::ocl {

namespace {

constexpr std::size_t kFillLanes = 256;  // FILL_LANES of kernels/compact_cross.cl
constexpr std::size_t kFusedFillGroupsPerUnit = 4;
constexpr double kSortedFillMinPairs = 3e7;  // n x learners from which the sorted fill is the default
constexpr std::size_t kSortGroup = 256;      // SORT_GROUP and SCAN_GROUP of kernels/cross_sorted.cl
// STRIP_ROWS' default there: 16 positions a lane and block in float, 8 in double.
std::size_t stripRows(std::size_t realBytes) { return realBytes == 4 ? 16 : 8; }
// Local memory of one work-group, of the 48 KiB NVIDIA gives: the gather's staging, the fill's strips (which
// leave room for the 7 groups of 32 lanes an SM holds at k = 64 in float).
constexpr std::size_t kGatherBudget = std::size_t(44) << 10;
constexpr std::size_t kStripBudget = std::size_t(40) << 10;

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

std::string gigabytes(std::size_t bytes) {
  std::ostringstream s;
  s.precision(3);
  s << static_cast<double>(bytes) / 1e9 << " GB";
  return s.str();
}

}  // namespace

SortedFillShape sortedFillShape(std::size_t rows, int learners, int k, int intervals, std::size_t realBytes,
                                int computeUnits, std::size_t localMemoryBytes) {
  SortedFillShape s;
  const std::size_t units = static_cast<std::size_t>(std::max(1, computeUnits));
  const std::size_t L = static_cast<std::size_t>(std::max(1, learners)), K = static_cast<std::size_t>(k);
  const std::size_t local = localMemoryBytes ? localMemoryBytes : kGatherBudget;
  // The gather stages a chunk's REALs, its rows (ushort) and targets (int) in local memory: 4096 rows in float
  // (40 KiB), 2048 in double; smaller chunks where that still leaves fewer than 4 per compute unit.
  std::size_t most = 4096;
  while (most > kSortGroup &&
         most * (realBytes + 6) + 8 * static_cast<std::size_t>(intervals) > std::min(local, kGatherBudget))
    most /= 2;
  std::size_t sortRows = kSortGroup;
  while (sortRows * 2 <= most && sortRows * 2 * 4 * units <= rows) sortRows *= 2;
  s.sortRows = static_cast<int>(sortRows);
  s.chunks = ceilDiv(std::max<std::size_t>(rows, 1), sortRows);
  s.learnerBlocks = static_cast<int>(std::clamp<std::size_t>(ceilDiv(8 * units, s.chunks), 1, L));
  // Strips of K REAL4 per lane: one warp (32 lanes) where they fit, fewer in double or for large K.
  const std::size_t lane = K * 4 * realBytes;
  for (int lanes = 32; lanes >= 8 && s.stripLanes == 0; lanes /= 2)
    if (lane * static_cast<std::size_t>(lanes) <= std::min(local, kStripBudget)) s.stripLanes = lanes;
  if (s.stripLanes > 0) {
    // About 32 groups per compute unit over all learners; a segment at least two blocks of positions long.
    const std::size_t least = 2 * stripRows(realBytes) * static_cast<std::size_t>(s.stripLanes);
    const std::size_t segments =
        std::clamp<std::size_t>(ceilDiv(32 * units, L), 1, std::max<std::size_t>(1, rows / least));
    s.segmentRows = ceilDiv(ceilDiv(std::max<std::size_t>(rows, 1), segments), s.stripLanes) * s.stripLanes;
    s.segments = ceilDiv(std::max<std::size_t>(rows, 1), s.segmentRows);
  }
  s.scratchBytes =
      (L + 1) * rows * realBytes + rows * 4 + (static_cast<std::size_t>(intervals) * (s.chunks + 2) + 1) * 4;
  return s;
}

CrossFill::CrossFill(DeviceProblem& p, std::size_t otherBytes, bool withUpdate)
    : p_(p), copyCached_(openClTuningFromEnvironment().cacheCopy) {
  const std::string asked = openClTuningFromEnvironment().crossFill;
  if (asked == "atomics") {
    prepareAtomics(withUpdate);
    label_ = "atomics fill";
    return;
  }
  std::string why = sortedUnavailable(otherBytes);
  // Unasked, the sorted fill runs only where it pays: it saves about 48 ms a fill per 1e9 (row, learner) pairs (58 ->
  // 10 ms on the H100 at n = 1e7, p = 100) but adds three launches to every iteration, which mostly return at once
  // (about 20 us an iteration). With about 20 fills in 1000 iterations that breaks even near n x learners = 2e7; at
  // n = 1e5, p = 100 the sorted fill made the fit 0.178 s against 0.089 s (docs/performance.md).
  const double pairs = static_cast<double>(p_.n) * p_.L;
  if (why.empty() && asked.empty() && pairs < kSortedFillMinPairs)
    why = "n x learners = " + std::to_string(static_cast<long long>(pairs)) + ", below the " +
          std::to_string(static_cast<long long>(kSortedFillMinPairs)) + " where it pays";
  if (why.empty()) {
    try {
      prepareSorted(withUpdate);
      kind_ = Kind::Sorted;
      label_ = "sorted fill";
      return;
    } catch (const ComputeError& e) {  // a build the driver rejects, or a scratch it cannot allocate
      const std::string what = e.what();
      why = what.substr(0, what.find('\n'));
      xSorted_ = Buffer();
      uSorted_ = Buffer();
      keys_ = Buffer();
    }
  }
  prepareAtomics(withUpdate);
  label_ = "atomics fill (sorted fill: " + why + ")";
}

std::string CrossFill::sortedUnavailable(std::size_t otherBytes) const {
  const ComputeDeviceInfo& device = p_.ctx.device().info;
  if (p_.spec.degree > 3) return "degree " + std::to_string(p_.spec.degree) + " above 3";
  const SortedFillShape s = sortedFillShape(p_.n, p_.L, p_.k, p_.data->intervals(), p_.realBytes(), device.computeUnits,
                                            p_.params.localMemoryBytes);
  if (s.stripLanes == 0) return "k = " + std::to_string(p_.k) + " strips do not fit local memory";
  const std::size_t copy = static_cast<std::size_t>(p_.L) * p_.n * p_.realBytes();
  if (device.maxAllocationBytes && copy > device.maxAllocationBytes)
    return "its copy of x, " + gigabytes(copy) + ", exceeds the largest allocation, " +
           gigabytes(device.maxAllocationBytes);
  // What the fit already holds: the compact data, the plan's scratch (with the packed copy of x where the batched
  // B'g reads one), about 8 n-vectors, the caller's cache; 10% left for the rest.
  const CompactData& d = *p_.data;
  const std::size_t held =
      CompactData::deviceBytes(p_.n, p_.L, p_.spec, p_.isDouble, d.hasBasis(), d.hasSorted(), d.sortChunkRows()) +
      (p_.plan ? p_.plan->scratchBytes() : 0) + 8 * p_.n * p_.realBytes() + otherBytes;
  if (device.globalMemoryBytes && (held + s.scratchBytes) > device.globalMemoryBytes / 10 * 9)
    return "its scratch of " + gigabytes(s.scratchBytes) + " and the fit's " + gigabytes(held) + " exceed 90% of " +
           gigabytes(device.globalMemoryBytes);
  return "";
}

void CrossFill::prepareAtomics(bool withUpdate) {
  fill_ = Kernel(p_.ctx.kernel("compact_cross", "compact_x_cross_fill", p_.options()));
  const std::size_t units = static_cast<std::size_t>(std::max(1, p_.ctx.device().info.computeUnits));
  const std::size_t learners = static_cast<std::size_t>(p_.L), k = static_cast<std::size_t>(p_.k);
  const std::size_t chunks = (units * 32 + learners - 1) / learners;
  chunkRows_ = std::min(std::max((p_.n + chunks - 1) / chunks, 8 * k * k), std::size_t(1) << 23);
  chunkRows_ = (chunkRows_ + kFillLanes - 1) / kFillLanes * kFillLanes;
  chunks_ = (p_.n + chunkRows_ - 1) / chunkRows_;
  // The fused launch takes the (learner, chunk) tasks kFusedFillGroupsPerUnit groups a compute unit at a time: few
  // enough that an iteration with nothing to fill pays little for them, enough to keep every unit busy in a fill.
  if (fusesUpdateFor(withUpdate, kFillLanes)) {
    updateFill_ = Kernel(
        p_.ctx.kernel("compact_update+compact_cross", "compact_x_update_fill", p_.options() + " -DGB_WITH_UPDATE=1"));
    fusedGroups_ = std::min(learners * chunks_, units * kFusedFillGroupsPerUnit);
  }
}

void CrossFill::launchWithUpdate(const CompactXUpdateArgs& update, std::size_t updateGroups, const Buffer& cacheState,
                                 Buffer& cache, const Buffer* slotOf) {
  if (!fusesUpdate()) throw ComputeError("CrossFill::launchWithUpdate: the fused update and fill were not built");
  const std::size_t groups = std::max(updateGroups, fusedGroups_);
  if (kind_ == Kind::Sorted) {
    CompactXUpdateCountArgs{
        update, static_cast<cl_int>(updateGroups), static_cast<cl_int>(shape_.chunks), &cacheState, &offsets_, &keys_}
        .bind(updateFill_);
    updateFill_.launch(p_.ctx, {kSortGroup * groups}, {kSortGroup});
    launchSorted(cacheState, cache, copyArgs(slotOf), true);
    return;
  }
  CompactXUpdateFillArgs{
      update,          static_cast<cl_int>(updateGroups), static_cast<cl_int>(chunkRows_), p_.L, &cacheState, &cache,
      copyArgs(slotOf)}
      .bind(updateFill_);
  updateFill_.launch(p_.ctx, {kFillLanes * groups}, {kFillLanes});
}

void CrossFill::prepareSorted(bool withUpdate) {
  const CompactData& d = *p_.data;
  shape_ = sortedFillShape(p_.n, p_.L, p_.k, d.intervals(), p_.realBytes(), p_.ctx.device().info.computeUnits,
                           p_.params.localMemoryBytes);
  const int edges = d.uniformPieces() == CompactData::Uniform::All        ? 0
                    : d.uniformPieces() == CompactData::Uniform::Interior ? 1
                                                                          : 2;
  // The fill's own defines first: a GAMBOOST_KERNEL_DEFINES value (at the end of the plan's options) then overrides
  // them, e.g. -DSTRIP_EDGES=2 (every row reads its interval's pieces) in the tests. A real GPU returns at once from
  // a launch with nothing to fill (GB_EARLY_EXIT; kernels/cross_sorted.cl says why not on PoCL).
  const bool gpu = p_.ctx.device().info.type == "GPU";
  const std::string options =
      "-DSORT_ROWS=" + std::to_string(shape_.sortRows) + " -DSTRIP_LANES=" + std::to_string(shape_.stripLanes) +
      " -DSTRIP_EDGES=" + std::to_string(edges) + (gpu ? " -DGB_EARLY_EXIT=1 " : " ") + p_.options();
  count_ = Kernel(p_.ctx.kernel("cross_sorted", "cross_sort_count", options));
  scan_ = Kernel(p_.ctx.kernel("cross_sorted", "cross_sort_scan", options));
  gather_ = Kernel(p_.ctx.kernel("cross_sorted", "cross_sort_gather", options));
  sortedFill_ = Kernel(p_.ctx.kernel("cross_sorted", "cross_sorted_fill", options));
  if (fusesUpdateFor(withUpdate, kSortGroup)) {
    updateFill_ =
        Kernel(p_.ctx.kernel("compact_update+cross_sorted", "compact_x_update_count", options + " -DGB_WITH_UPDATE=1"));
    fusedGroups_ = shape_.chunks;
  }
  const std::size_t real = p_.realBytes(), intervals = static_cast<std::size_t>(d.intervals());
  xSorted_ = Buffer(p_.ctx, static_cast<std::size_t>(p_.L) * p_.n * real);
  uSorted_ = Buffer(p_.ctx, p_.n * real);
  keys_ = Buffer(p_.ctx, p_.n * sizeof(cl_int));
  offsets_ = Buffer(p_.ctx, intervals * shape_.chunks * sizeof(cl_int));
  totals_ = Buffer(p_.ctx, intervals * sizeof(cl_int));
  bucketStart_ = Buffer(p_.ctx, (intervals + 1) * sizeof(cl_int));
}

bool CrossFill::fusesUpdateFor(bool withUpdate, std::size_t groupSize) const {
  return withUpdate && openClTuningFromEnvironment().fusedFill && p_.compactKind != CompactKernel::Compact &&
         static_cast<std::size_t>(p_.params.updateGroupSize) == groupSize;
}

CopyCachedArgs CrossFill::copyArgs(const Buffer* slotOf) const {
  return CopyCachedArgs{slotOf, slotOf && copyCached_ ? 1 : 0};
}

void CrossFill::launch(const Buffer& cacheState, Buffer& cache, const Buffer* slotOf) {
  if (kind_ == Kind::Sorted)
    launchSorted(cacheState, cache, copyArgs(slotOf), false);
  else
    launchAtomics(cacheState, cache, copyArgs(slotOf));
}

void CrossFill::launchAtomics(const Buffer& cacheState, Buffer& cache, const CopyCachedArgs& copy) {
  const CompactData& d = *p_.data;
  CrossFillArgs{static_cast<cl_int>(p_.n),
                static_cast<cl_int>(chunkRows_),
                p_.L,
                &p_.index,
                &cacheState,
                &d.x(),
                &d.geometry(),
                &d.polynomials(),
                &cache,
                copy}
      .bind(fill_);
  fill_.launch(p_.ctx, {kFillLanes * static_cast<std::size_t>(p_.L), chunks_}, {kFillLanes, 1});
}

void CrossFill::launchSorted(const Buffer& cacheState, Buffer& cache, const CopyCachedArgs& copy, bool counted) {
  const CompactData& d = *p_.data;
  const cl_int n = static_cast<cl_int>(p_.n), chunks = static_cast<cl_int>(shape_.chunks);
  const std::size_t groups = shape_.chunks * kSortGroup;
  if (!counted) {
    CrossSortCountArgs{n, &p_.index, &cacheState, &d.x(), &d.geometry(), &offsets_, &keys_}.bind(count_);
    count_.launch(p_.ctx, {groups}, {kSortGroup});
  }
  CrossSortScanArgs{chunks, &cacheState, &offsets_, &totals_}.bind(scan_);
  scan_.launch(p_.ctx, {kSortGroup * static_cast<std::size_t>(p_.data->intervals())}, {kSortGroup});
  const cl_int perGroup = static_cast<cl_int>(ceilDiv(static_cast<std::size_t>(p_.L), shape_.learnerBlocks));
  const std::size_t blocks = ceilDiv(static_cast<std::size_t>(p_.L), static_cast<std::size_t>(perGroup));
  CrossSortGatherArgs{n,      p_.L,      perGroup, &p_.index,     &cacheState, &d.x(),    &d.geometry(),
                      &keys_, &offsets_, &totals_, &bucketStart_, &xSorted_,   &uSorted_, copy}
      .bind(gather_);
  gather_.launch(p_.ctx, {groups, blocks}, {kSortGroup, 1});
  CrossSortedFillArgs{n,
                      static_cast<cl_int>(shape_.segmentRows),
                      p_.L,
                      &p_.index,
                      &cacheState,
                      &xSorted_,
                      &uSorted_,
                      &bucketStart_,
                      &d.geometry(),
                      &d.polynomials(),
                      &cache,
                      copy}
      .bind(sortedFill_);
  const std::size_t lanes = static_cast<std::size_t>(shape_.stripLanes);
  sortedFill_.launch(p_.ctx, {lanes * static_cast<std::size_t>(p_.L), shape_.segments}, {lanes, 1});
}

}  // namespace gb::ocl

#include "opencl/KernelParameters.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "opencl/Tuning.hpp"
#include "opencl/TuningTable.hpp"

namespace gb::ocl {

namespace {

std::size_t roundUp(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

bool isNvidia(const ComputeDeviceInfo& d) {
  auto has = [](const std::string& s) { return s.find("NVIDIA") != std::string::npos; };
  return has(d.platform) || has(d.name);
}

// The lane kernel's shape: the device's tuning entry, else the defaults (tuned on the H100, docs/perf/kernels.md).
LaneTuning gpuLaneTuning(const ComputeDeviceInfo& device) {
  const std::optional<TuningEntry> entry = tuningFor(device);
  return entry ? entry->lanes : LaneTuning{};
}

}  // namespace

KernelParameters kernelParameters(const ComputeDeviceInfo& device, std::size_t rows, int learners) {
  KernelParameters p;
  const std::size_t units = static_cast<std::size_t>(std::max(1, device.computeUnits));
  const std::size_t work = std::max<std::size_t>(1, rows) * static_cast<std::size_t>(std::max(1, learners));
  if (device.type == "GPU") {
    p.gpu = true;
    p.nvidiaAtomics = isNvidia(device);
    p.btgGroupSize = 256;
    // Enough groups for ~32 per compute unit, each streaming at least 16 rows per work-item: big chunks keep
    // the partials (and their reduction) small at n = 1e7.
    p.btgChunkRows = roundUp(std::clamp<std::size_t>(work / (units * 32), 2048, 65536), 256);
    p.binCopies = 8;  // one replica per 32-wide warp of the 256 work-items
    // compact_x's lane-private kernel: a warp per group; ~16 groups per compute unit, each lane streaming
    // 256..2048 rows so that summing its copies (once per group) stays a few per cent of the work.
    // GAMBOOST_COMPACT_LANES=0 selects the atomics kernel instead (for comparing the two in `bench`).
    const LaneTuning shape = gpuLaneTuning(device);
    const OpenClTuning tuning = openClTuningFromEnvironment();
    const int lanes = tuning.compactLanes;
    p.packedBtg = tuning.packedBtg >= 0 ? tuning.packedBtg == 1 : shape.packed;
    p.packWarps = tuning.packWarps;
    p.packLearners = tuning.packLearners;
    p.packSlots = tuning.packSlots;
    p.packGroups = tuning.packGroups;
    p.lanes = lanes >= 0 ? lanes : shape.lanes;
    p.laneRows = shape.laneRows;
    p.laneRed = shape.laneRed && p.nvidiaAtomics;
    const std::size_t groups = units * static_cast<std::size_t>(shape.groupsPerUnit);
    p.laneChunkRows = roundUp(std::clamp<std::size_t>(work / groups, 8192, 65536), 32 * 8);
    p.reduceGroupSize = 64;
    p.updateGroupSize = 256;
    // 1024 rows a group (n = 1e5 still gives ~100 groups), more while that leaves over 32 groups per compute unit:
    // at n = 1e7 on the H100, 4096 rows took the update from 57 to 54 us and the fit from 327 to 320 ms (fewer
    // partial sums for the select to add up).
    p.updateGroupRows = 256 * 4;
    while (p.updateGroupRows < 4096 && std::max<std::size_t>(1, rows) / p.updateGroupRows > 32 * units)
      p.updateGroupRows *= 2;
  } else {
    // CPU devices (PoCL): one work-item per (learner, chunk) with a long private loop; chunks only as small as
    // needed to give each core several work-items.
    p.gpu = false;
    p.btgGroupSize = 1;
    p.btgChunkRows = std::clamp<std::size_t>(work / (units * 8), 2048, std::max<std::size_t>(rows, 2048));
    p.binCopies = 1;
    p.reduceGroupSize = 1;
    p.updateGroupSize = 1;
    p.updateGroupRows = 8192;
    p.learnersPerItem = 4;
    p.rowBlock = 1024;
  }
  p.localMemoryBytes = device.localMemoryBytes;
  return p;
}

int laneCount(const KernelParameters& p, std::size_t copyBytes) {
  if (!p.gpu || p.lanes <= 0) return 0;
  const std::size_t local = std::min<std::size_t>(p.localMemoryBytes, std::size_t(48) << 10);
  int widest = 16;  // the largest power of two <= p.lanes (the kernel's copy index wraps with a mask)
  while (widest * 2 <= p.lanes) widest *= 2;
  for (int lanes = widest; lanes >= 16; lanes /= 2)
    if (copyBytes * static_cast<std::size_t>(lanes) <= local) return lanes;
  return 0;
}

bool crossBlockFits(const SplineSpec& spec, bool doublePrecision) {
  const std::size_t k = static_cast<std::size_t>(spec.knots + spec.degree + 1);
  return k * k * (doublePrecision ? 8 : 4) <= kMaxCrossBlockBytes;
}

std::string buildOptions(const KernelParameters& p, const SplineSpec& spec, bool doublePrecision) {
  const int k = spec.knots + spec.degree + 1;
  // Local bins of the GPU partial kernels: replicas only while they fit in 32 KiB (NVIDIA gives 48 KiB a group).
  const std::size_t binBytes =
      static_cast<std::size_t>(std::max((spec.knots + 1) * (spec.degree + 1), k)) * (doublePrecision ? 8 : 4);
  const int copies = std::clamp(static_cast<int>(32768 / binBytes), 1, p.binCopies);
  std::ostringstream s;
  s << "-DREAL=" << (doublePrecision ? "double" : "float");
  if (doublePrecision) s << " -DREAL_IS_DOUBLE=1";
  s << " -DDEGREE=" << spec.degree << " -DK=" << k << " -DINTERVALS=" << spec.knots + 1
    << " -DBTG_GROUP=" << p.btgGroupSize << " -DBIN_COPIES=" << copies << " -DREDUCE_GROUP=" << p.reduceGroupSize
    << " -DUPDATE_GROUP=" << p.updateGroupSize << " -DROW_STRIDED=" << (p.gpu ? 1 : 0)
    << " -DSORT_CHUNK=" << kSortChunkRows << " -DLEARNER_BLOCK=" << p.learnersPerItem << " -DROW_BLOCK=" << p.rowBlock;
  if (p.gpu && p.nvidiaAtomics) s << " -DGB_NV_PTX_ATOMICS=1";
  // The lane kernel's defaults live in kernels/compact_btg.cl (8 rows, plain adds): only a tuned shape is passed,
  // so that GAMBOOST_KERNEL_DEFINES experiments on other devices keep working as before.
  if (p.gpu && p.laneRows != 8) s << " -DLANE_ROWS=" << p.laneRows;
  if (p.gpu && p.laneRed) s << " -DLANE_RED=1";
  // Extra defines for experiments (docs/cli.md), e.g. GAMBOOST_KERNEL_DEFINES=-DLANE_ROWS=16.
  if (const std::string extra = openClTuningFromEnvironment().kernelDefines; !extra.empty()) s << ' ' << extra;
  return s.str();
}

}  // namespace gb::ocl

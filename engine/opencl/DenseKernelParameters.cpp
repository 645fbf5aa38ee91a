#include "opencl/DenseKernelParameters.hpp"

#include <algorithm>

#include "common/Error.hpp"

namespace gb::ocl {
namespace {

std::size_t nextPow2(std::size_t v) {
  std::size_t p = 1;
  while (p < v) p <<= 1;
  return p;
}
std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }
std::size_t roundUp(std::size_t a, std::size_t b) { return ceilDiv(a, b) * b; }
std::size_t floorPow2(std::size_t v) {
  std::size_t p = 1;
  while (p * 2 <= v) p <<= 1;
  return p;
}

// Work-items that keep the device's memory system busy: a GPU wants about 2048 resident work-items per compute
// unit (an H100 SM holds 2048 threads) to hide DRAM latency; PoCL runs a group's work-items as a loop on one core,
// so a few hundred per core only feed its vector lanes.
std::size_t targetWorkItems(const DenseDeviceLimits& d) {
  return static_cast<std::size_t>(std::max(1, d.computeUnits)) * (d.gpu ? 2048 : 256);
}

// Groups of 256: large enough for full occupancy on NVIDIA (8 groups of 256 per SM), small enough that a
// barrier-heavy group does not serialise much on PoCL.
std::size_t groupSize(const DenseDeviceLimits& d) { return floorPow2(std::min<std::size_t>(256, d.maxWorkGroup)); }

std::string precisionDefines(bool dbl) { return dbl ? "-DREAL=double -DGB_DOUBLE=1" : "-DREAL=float"; }

DenseLaunch naive(std::size_t m, bool dbl, const DenseDeviceLimits& d) {
  DenseLaunch l;
  l.file = "gemv_naive";
  l.kernel = "gemv_naive";
  l.options = precisionDefines(dbl);
  const std::size_t wg = std::min<std::size_t>(128, groupSize(d));
  l.global = {roundUp(m, wg)};
  l.local = {wg};
  return l;
}

// v1: P lanes per dot product, ROWS = group / P rows per group. P grows when there are few outputs (B'g of one
// learner has only k of them) so that the device still gets enough work-items, but never past the sum length.
DenseLaunch v1(bool forward, std::size_t m, std::size_t n, bool dbl, const DenseDeviceLimits& d) {
  DenseLaunch l;
  l.file = "gemv_v1";
  l.kernel = "gemv_v1";
  const std::size_t wg = groupSize(d);
  std::size_t p = std::clamp<std::size_t>(nextPow2(ceilDiv(targetWorkItems(d), m)), std::min<std::size_t>(16, wg), wg);
  p = std::min(p, nextPow2(std::max<std::size_t>(n, 1)));
  const std::size_t rows = wg / p;
  // B'g: rows along dimension 0 (neighbouring outputs are neighbouring columns of B, i.e. neighbouring
  // addresses); B*delta: lanes along dimension 0 (a row of B is contiguous, so a row's lanes should be neighbours).
  const int rowDim = forward ? 1 : 0;
  l.options = precisionDefines(dbl) + " -DP=" + std::to_string(p) + " -DROW_DIM=" + std::to_string(rowDim) +
              " -DCOL_DIM=" + std::to_string(1 - rowDim);
  if (forward) {
    l.global = {p, roundUp(m, rows)};
    l.local = {p, rows};
  } else {
    l.global = {roundUp(m, rows), p};
    l.local = {rows, p};
  }
  l.localBytes = rows * p * (dbl ? 8 : 4);
  return l;
}

// v2: P slices of the sum, each staged through local memory TILE elements at a time; P chosen like v1's lanes
// (enough work-items overall) but with slices of at least 32 elements so the partials stay small next to A.
DenseLaunch v2(std::size_t m, std::size_t n, bool dbl, const DenseDeviceLimits& d) {
  DenseLaunch l;
  l.file = "gemv_v2";
  l.kernel = "gemv_v2";
  const std::size_t wg = std::min<std::size_t>(128, groupSize(d));
  const std::size_t realBytes = dbl ? 8 : 4;
  const std::size_t tile = std::min<std::size_t>(1024, d.localMemoryBytes / (2 * realBytes));
  const std::size_t mRounded = roundUp(m, wg);
  l.slices = std::clamp<std::size_t>(ceilDiv(targetWorkItems(d), mRounded), 1, std::max<std::size_t>(1, n / 32));
  l.options = precisionDefines(dbl) + " -DTILE=" + std::to_string(tile);
  l.global = {mRounded, l.slices};
  l.local = {wg, 1};
  l.localBytes = tile * realBytes;
  l.reduceKernel = "gemv_v2_reduce";
  l.reduceGlobal = {roundUp(m, wg)};
  l.reduceLocal = {wg};
  return l;
}

// Vector width of the 16-byte loads when every row (and learner block) starts 16-byte aligned, else scalar.
std::size_t vectorWidth(std::size_t cols, std::size_t k, bool dbl) {
  const std::size_t full = dbl ? 2 : 4;
  if (cols % full == 0 && k % full == 0) return full;
  if (!dbl && cols % 2 == 0 && k % 2 == 0) return 2;
  return 1;
}

// CPU devices: one work-item streams a block of rows (B'g: an axpy per row into its own row of partials; B*delta:
// one dot product per row), no barriers; about 8 work-items per core balance the load without shrinking the
// blocks below a few hundred rows.
DenseLaunch splitKOnCpu(DenseLaunch l, bool forward, std::size_t outputs, std::size_t sumLength,
                        const DenseDeviceLimits& d) {
  const std::size_t items = static_cast<std::size_t>(std::max(1, d.computeUnits)) * 8;
  l.local = {};
  if (forward) {
    l.kernel = "gemv_rows_forward_cpu";
    l.rowsPerBlock = std::max<std::size_t>(256, ceilDiv(outputs, items));
    l.global = {ceilDiv(outputs, l.rowsPerBlock)};
    return l;
  }
  l.kernel = "gemv_splitk_partial_cpu";
  const std::size_t rows = sumLength;
  const std::size_t blocks = std::clamp<std::size_t>(items, 1, std::max<std::size_t>(1, rows / 256));
  l.rowsPerBlock = ceilDiv(rows, blocks);
  l.slices = ceilDiv(rows, l.rowsPerBlock);
  l.global = {l.slices};
  return l;
}

DenseLaunch splitK(bool forward, std::size_t outputs, std::size_t sumLength, std::size_t cols, bool dbl,
                   const DenseDeviceLimits& d) {
  DenseLaunch l;
  l.file = "gemv_splitk";
  const std::size_t wg = groupSize(d);
  // Transposed: the row length is cols (= outputs); forward: the learner block is k (= sumLength) of cols.
  const std::size_t vec = forward ? vectorWidth(cols, sumLength, dbl) : vectorWidth(cols, cols, dbl);
  const std::size_t vecPerRow = ceilDiv(forward ? sumLength : outputs, vec);
  // Column lanes cover up to 256 bytes of a row (16 x 16-byte loads): two full 128-byte lines per row and step.
  const std::size_t lanesFor256Bytes = 256 / (vec * (dbl ? 8 : 4));
  const std::size_t clanes = std::min<std::size_t>({nextPow2(vecPerRow), lanesFor256Bytes, wg});
  const std::size_t rlanes = wg / clanes;
  // Pass 2: 16 columns x (group / 16) lanes over the row blocks.
  const std::size_t reduceCols = std::min<std::size_t>(16, wg), reduceLanes = wg / reduceCols;
  l.options = precisionDefines(dbl) + " -DVEC=" + std::to_string(vec) + " -DCLANES=" + std::to_string(clanes) +
              " -DRLANES=" + std::to_string(rlanes) + " -DREDUCE_COLS=" + std::to_string(reduceCols) +
              " -DREDUCE_LANES=" + std::to_string(reduceLanes);
  l.local = {clanes, rlanes};
  if (!forward) {
    l.reduceKernel = "gemv_splitk_reduce";
    l.reduceGlobal = {roundUp(outputs, reduceCols), reduceLanes};
    l.reduceLocal = {reduceCols, reduceLanes};
  }
  if (!d.gpu) return splitKOnCpu(l, forward, outputs, sumLength, d);
  if (forward) {
    l.kernel = "gemv_rows_forward";
    l.global = {clanes, roundUp(outputs, rlanes)};
    return l;
  }
  l.kernel = "gemv_splitk_partial";
  const std::size_t rows = sumLength;
  const std::size_t tiles = ceilDiv(vecPerRow, clanes);
  // Enough groups for two waves over the device, but at least 16 rows per row lane (four unrolled steps) so that
  // the partials (blocks x cols) stay a few percent of B and pass 2 stays short.
  const std::size_t targetGroups = std::max<std::size_t>(1, targetWorkItems(d) / wg) * 2;
  const std::size_t blocks =
      std::clamp<std::size_t>(ceilDiv(targetGroups, tiles), 1, std::max<std::size_t>(1, rows / (16 * rlanes)));
  l.rowsPerBlock = roundUp(ceilDiv(rows, blocks), rlanes);
  l.slices = ceilDiv(rows, l.rowsPerBlock);
  l.global = {tiles * clanes, l.slices * rlanes};
  return l;
}

}  // namespace

DenseLaunch denseLaunch(DenseKernel kernel, bool forward, std::size_t outputs, std::size_t sumLength, std::size_t cols,
                        bool doublePrecision, const DenseDeviceLimits& device) {
  if (outputs == 0 || sumLength == 0)
    throw ComputeError("dense gemv: empty product (" + std::to_string(outputs) + " outputs, sum of " +
                       std::to_string(sumLength) + ")");
  switch (kernel) {
    case DenseKernel::Naive:
      return naive(outputs, doublePrecision, device);
    case DenseKernel::V1:
      return v1(forward, outputs, sumLength, doublePrecision, device);
    case DenseKernel::V2:
      return v2(outputs, sumLength, doublePrecision, device);
    case DenseKernel::SplitK:
      return splitK(forward, outputs, sumLength, cols, doublePrecision, device);
    case DenseKernel::ClBlast:
      break;
  }
  throw ComputeError("dense gemv: " + toString(kernel) + " has no kernels/gemv_*.cl launch (it calls CLBlast)");
}

}  // namespace gb::ocl

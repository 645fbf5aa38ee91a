// Runs the packed B'g (kernels/compact_packed.cl) from the PTX that NVIDIA's OpenCL driver built for it, through the
// CUDA driver API, so that Nsight Compute (which sees no OpenCL launches) can profile it. Not part of the product:
// a measuring tool for docs/performance.md, built on the GPU machine only (docs/bench/device/packed-probe.sh).
//
//   ptx_probe PTX ROWS LEARNERS INTERVALS WARPS CHUNKS_PER_GROUP REPS
//
// The PTX is the compact_packed program of the program cache (GAMBOOST_CACHE_DIR), built with the PACK_WARPS,
// PACK_LEARNERS and INTERVALS that the arguments repeat. x is uniform on [0, 1), g uniform on [-1, 1).
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "probe_cuda.hpp"

namespace {

using namespace probe;

struct Shape {
  int n, learners, intervals, warps, chunksPerGroup, reps, chunks;
};

// x uniform on [0, 1), packed on the device by compact_pack; then compact_packed_partial timed, and a copy of x.
void run(CUmodule module, const Shape& s) {
  CUfunction pack, partial;
  check(cuModuleGetFunction(&pack, module, "compact_pack"), "compact_pack");
  check(cuModuleGetFunction(&partial, module, "compact_packed_partial"), "compact_packed_partial");
  describe(partial, "compact_packed_partial", 32 * s.warps);
  std::mt19937_64 random(1);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> x(static_cast<std::size_t>(s.n) * s.learners), g(s.n), geometry(2 * s.learners);
  for (auto& v : x) v = unit(random);
  for (auto& v : g) v = 2.0f * unit(random) - 1.0f;
  for (int j = 0; j < s.learners; ++j) geometry[2 * j + 1] = static_cast<float>(s.intervals);
  std::vector<float> poly(static_cast<std::size_t>(s.learners) * s.intervals * 16, 0.25f);
  const std::size_t cells = static_cast<std::size_t>(s.chunks) * s.learners;
  const std::size_t header = 80 + (s.intervals + 4 + 15) / 16 * 16;
  CUdeviceptr dx = upload(x.data(), x.size() * 4), dg = upload(g.data(), g.size() * 4);
  CUdeviceptr dgeo = upload(geometry.data(), geometry.size() * 4), dpoly = upload(poly.data(), poly.size() * 4);
  CUdeviceptr dpacked = upload(nullptr, cells * 2048 * 4), dheader = upload(nullptr, cells * header);
  const int chunkGroups = (s.chunks + s.chunksPerGroup - 1) / s.chunksPerGroup;
  CUdeviceptr dpartials = upload(nullptr, static_cast<std::size_t>(s.learners) * chunkGroups * (s.intervals + 3) * 4);
  Shape a = s;  // launch arguments must be addressable
  void* packArgs[] = {&a.n, &a.chunks, &dx, &dgeo, &dpacked, &dheader};
  check(cuLaunchKernel(pack, s.chunks, s.learners, 1, 256, 1, 1, 0, nullptr, packArgs, nullptr), "compact_pack");
  check(cuCtxSynchronize(), "compact_pack");

  const int perGroup = std::atoi(std::getenv("PROBE_LEARNERS") ? std::getenv("PROBE_LEARNERS") : "20");
  const int learnerBlocks = (s.learners + perGroup - 1) / perGroup;
  int zero = 0;
  void* args[] = {&a.n, &a.chunks, &a.chunksPerGroup, &zero, &a.learners, &dpacked, &dheader, &dg, &dpoly, &dpartials};
  const unsigned groups = static_cast<unsigned>(learnerBlocks * chunkGroups);
  const float best = bestMs(s.reps, [&] {
    check(cuLaunchKernel(partial, groups, 1, 1, 32 * s.warps, 1, 1, 0, nullptr, args, nullptr), "partial");
  });
  CUdeviceptr dcopy = upload(nullptr, x.size() * 4);  // copy bandwidth in the same run: x read and written
  const float copy = bestMs(5, [&] { check(cuMemcpyDtoD(dcopy, dx, x.size() * 4), "cuMemcpyDtoD"); });
  const double copyRate = 2.0 * x.size() * 4 / copy / 1e6, bytes = 4.0 * s.n * (s.learners + 1.0);
  std::printf(
      "groups %u (%d learner blocks x %d chunk groups of %d chunks): best %.3f ms, %.0f GB/s of x and g, "
      "%.1f%% of the copy's %.0f GB/s\n",
      groups, learnerBlocks, chunkGroups, s.chunksPerGroup, best, bytes / best / 1e6,
      100.0 * bytes / best / 1e6 / copyRate, copyRate);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: ptx_probe PTX ROWS LEARNERS INTERVALS WARPS CHUNKS_PER_GROUP REPS\n");
    return 2;
  }
  Shape s{std::atoi(argv[2]),
          std::atoi(argv[3]),
          std::atoi(argv[4]),
          std::atoi(argv[5]),
          std::atoi(argv[6]),
          std::atoi(argv[7]),
          0};
  s.chunks = (s.n + 2047) / 2048;
  run(loadModule(launchablePtx(argv[1], "compact_packed_partial")), s);
  return 0;
}

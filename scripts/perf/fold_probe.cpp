// Runs the folds' B'g (fold_btg_partial of kernels/fold_path.cl) from the PTX that NVIDIA's OpenCL driver built for
// it, through the CUDA driver API, so that Nsight Compute (which sees no OpenCL launches) can profile it. Not part
// of the product: a measuring tool for docs/performance.md, built on the GPU machine only
// (docs/bench/device/fold-probe.sh).
//
//   fold_probe PTX ROWS LEARNERS INTERVALS STRIDE WARPS CHUNK RANGES REPS
//
// The PTX is the fold_path program of the program cache (GAMBOOST_CACHE_DIR), built by `gamboost bench fit
// --bootstrap` with the INTERVALS, FOLD_STRIDE, FOLD_WARPS and FOLD_CHUNK that the arguments repeat; RANGES is the
// number of row ranges FoldPath launched (the B'g's grid is learner blocks x ranges). x is uniform on [0, 1), so
// each chunk's rows spread evenly over the intervals, as in the paper data; w u is uniform on [-1, 1).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "probe_cuda.hpp"

namespace {

using namespace probe;

struct Shape {
  int n, learners, intervals, stride, warps, chunk, ranges, reps;
};

// Each learner's rows of each chunk counting-sorted by interval, as CompactData::uploadSorted lays them out: the row
// within the chunk (order), its local coordinate (u) and each interval's first sorted row (starts, relative to the
// chunk, INTERVALS + 1 a chunk).
void sortedLayout(const Shape& s, std::vector<unsigned short>& order, std::vector<float>& u, std::vector<int>& starts) {
  const int chunks = (s.n + s.chunk - 1) / s.chunk, width = s.intervals + 1;
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  order.resize(static_cast<std::size_t>(s.learners) * s.n);
  u.resize(order.size());
  starts.assign(static_cast<std::size_t>(s.learners) * chunks * width, 0);
  std::vector<double> t(s.chunk);
  std::vector<int> next(width);
  for (int j = 0; j < s.learners; ++j)
    for (int c = 0; c < chunks; ++c) {
      const int begin = c * s.chunk, rows = std::min(s.n - begin, s.chunk);
      int* first = starts.data() + (static_cast<std::size_t>(j) * chunks + c) * width;
      for (int i = 0; i < rows; ++i) {
        t[i] = unit(random) * s.intervals;
        ++first[std::min(static_cast<int>(t[i]), s.intervals - 1) + 1];
      }
      for (int b = 1; b < width; ++b) first[b] += first[b - 1];
      std::copy(first, first + width, next.begin());
      for (int i = 0; i < rows; ++i) {
        const int q = std::min(static_cast<int>(t[i]), s.intervals - 1);
        const std::size_t at = static_cast<std::size_t>(j) * s.n + begin + next[q]++;
        order[at] = static_cast<unsigned short>(i);
        u[at] = static_cast<float>(t[i] - q);
      }
    }
}

void run(CUmodule module, const Shape& s) {
  CUfunction partial;
  check(cuModuleGetFunction(&partial, module, "fold_btg_partial"), "fold_btg_partial");
  describe(partial, "fold_btg_partial", 32 * s.warps);
  std::vector<unsigned short> order;
  std::vector<float> u;
  std::vector<int> starts;
  sortedLayout(s, order, u, starts);
  std::mt19937_64 random(2);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<float> wu(static_cast<std::size_t>(s.n) * s.stride),
      poly(static_cast<std::size_t>(s.learners) * s.intervals * 16);
  for (auto& v : wu) v = unit(random);
  for (auto& v : poly) v = unit(random);
  const int chunks = (s.n + s.chunk - 1) / s.chunk, perRange = (chunks + s.ranges - 1) / s.ranges;
  const int ranges = (chunks + perRange - 1) / perRange, blocks = (s.learners + s.warps - 1) / s.warps;
  const int k = s.intervals + 3;  // cubic splines
  CUdeviceptr dorder = upload(order.data(), order.size() * 2), du = upload(u.data(), u.size() * 4);
  CUdeviceptr dstarts = upload(starts.data(), starts.size() * 4), dpoly = upload(poly.data(), poly.size() * 4);
  CUdeviceptr dwu = upload(wu.data(), wu.size() * 4);
  CUdeviceptr dpartials = upload(nullptr, static_cast<std::size_t>(ranges) * s.learners * k * 32 * 4);
  Shape a = s;  // launch arguments must be addressable
  int perRangeArg = perRange;
  void* args[] = {&a.n, &a.learners, &perRangeArg, &dorder, &du, &dstarts, &dpoly, &dwu, &dpartials};
  const float best = bestMs(s.reps, [&] {
    check(cuLaunchKernel(partial, blocks, ranges, 1, 32 * s.warps, 1, 1, 0, nullptr, args, nullptr), "partial");
  });
  CUdeviceptr dcopy = upload(nullptr, wu.size() * 4);  // copy bandwidth in the same run: w u read and written
  const float copy = bestMs(5, [&] { check(cuMemcpyDtoD(dcopy, dwu, wu.size() * 4), "cuMemcpyDtoD"); });
  const double copyRate = 2.0 * wu.size() * 4 / copy / 1e6;
  const double bytes = static_cast<double>(s.learners) * s.n * 6.0 + wu.size() * 4.0;  // order, u; w u once
  std::printf(
      "grid %d x %d (learner blocks x ranges of %d chunks): best %.3f ms; byte floor %.3f ms at the copy's "
      "%.0f GB/s (%.1f%%)\n",
      blocks, ranges, perRange, best, bytes / copyRate / 1e6, copyRate, 100.0 * bytes / copyRate / 1e6 / best);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 10) {
    std::fprintf(stderr, "usage: fold_probe PTX ROWS LEARNERS INTERVALS STRIDE WARPS CHUNK RANGES REPS\n");
    return 2;
  }
  int v[8];
  for (int i = 0; i < 8; ++i) {
    v[i] = std::atoi(argv[i + 2]);
    if (v[i] <= 0 || (i == 5 && v[i] > 65535)) {  // CHUNK: rows within a chunk are 16-bit
      std::fprintf(stderr, "fold_probe: argument %d ('%s') must be a positive integer\n", i + 2, argv[i + 2]);
      return 2;
    }
  }
  const Shape s{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
  run(loadModule(launchablePtx(argv[1], "fold_btg_partial")), s);
  return 0;
}

#include "compute/CpuCrossPass.hpp"

#include <cstdint>

#include "common/ParallelErrors.hpp"
#include "compute/CrossPassShape.hpp"

namespace gb::cpu {

namespace {

// Rows per block of the cross-product pass (learner l's basis rows for a block stay in L2), and rows between folds
// of the partial sums into B_j'B_l (a fold costs about k_l intervals_j (degree+1), so per row 1 / kCrossFoldRows of
// that). Learners per chunk of that pass, at most: l's basis rows are computed once per block and chunk, so the
// chunks are as large as leaves two a thread (crossPassShape; 8 a chunk computed them 13 times a pass at p = 100, 25 a
// chunk 4 times: about 7% off the pass on the 2-core Zen 3 machine, docs/perf/cpu.md).
constexpr std::size_t kCrossBlockRows = 8192;
constexpr std::size_t kCrossFoldRows = 4 * kCrossBlockRows;
constexpr int kCrossLearnerChunk = 32;
constexpr std::size_t kLineDoubles = 64 / sizeof(double);
// The first cache-line boundary at or after p (p is at least double-aligned).
double* alignedToLine(double* p) {
  const auto offset = reinterpret_cast<std::uintptr_t>(p) % 64;
  return offset == 0 ? p : p + (64 - offset) / sizeof(double);
}

}  // namespace

std::size_t crossPairDoubles(const std::vector<LearnerRows>& learners, std::size_t l) {
  const LearnerRows& L = learners[l];
  std::size_t largest = 0;
  for (const LearnerRows& J : learners)
    largest = std::max(largest, static_cast<std::size_t>(J.intervals) * static_cast<std::size_t>(J.degree + 1));
  const std::size_t doubles = largest * static_cast<std::size_t>(L.intervals + L.degree);
  return (doubles + kLineDoubles - 1) / kLineDoubles * kLineDoubles;
}

void crossPass(const std::vector<LearnerRows>& learners, std::size_t n, std::size_t l,
               const std::vector<std::size_t>& todo, const double* weights, std::size_t scratchBytes, int maxTeam,
               double* C) {
  const LearnerRows& L = learners[l];
  const int W = L.degree + 1;
  const std::size_t pairSize = crossPairDoubles(learners, l);
  const CrossPassShape shape =
      crossPassShape(scratchBytes / sizeof(double), pairSize, todo.size(), maxTeam, kCrossLearnerChunk);
  const int team = shape.team, perChunk = shape.perChunk;
  const int chunks = chunksOf(todo.size(), static_cast<std::size_t>(perChunk));
  ParallelErrors errors;
#pragma omp parallel num_threads(team)
  {
    std::vector<int> first;
    std::vector<double> w, pairBuffer;
    bool ready = false;
    errors.run([&] {
      first.resize(kCrossBlockRows);
      w.resize(kCrossBlockRows * W);
      // One cache line more than needed, to start the sums on a line.
      pairBuffer.assign(pairSize * static_cast<std::size_t>(perChunk) + kLineDoubles, 0.0);
      ready = true;
    });
    double* const pairs = ready ? alignedToLine(pairBuffer.data()) : nullptr;
#pragma omp for schedule(dynamic, 1)
    for (int ch = 0; ch < chunks; ++ch) {
      if (!ready) continue;  // this thread's buffers failed: thrown below
      // Plain variables, not a structured binding: the lambda below captures them (clang rejects capturing bindings
      // before C++20; the fuzz build compiles this file with clang).
      const auto range = chunk(ch, static_cast<std::size_t>(perChunk), todo.size());
      const std::size_t tb = range.first, te = range.second;
      auto fold = [&] {
        for (std::size_t t = tb; t < te; ++t) {
          const LearnerRows& J = learners[todo[t]];
          foldCrossPairs(pairs + (t - tb) * pairSize, J.intervals, J.degree + 1, L.intervals, W, L.k,
                         C + J.coefOffset * L.k);
        }
      };
      for (std::size_t b = 0; b < n; b += kCrossBlockRows) {
        const std::size_t e = std::min(n, b + kCrossBlockRows);
        basisRowsKernel(L.degree)(L.view, L.x, b, e, first.data(), w.data());
        if (weights)
          for (std::size_t i = b; i < e; ++i)
            for (int t = 0; t < W; ++t) w[(i - b) * W + static_cast<std::size_t>(t)] *= weights[i];
        for (std::size_t t = tb; t < te; ++t) {
          const LearnerRows& J = learners[todo[t]];
          crossKernel(J.degree, L.degree)(J.view, J.x, b, e, first.data(), w.data(), pairs + (t - tb) * pairSize);
        }
        if (e % kCrossFoldRows == 0 || e == n) fold();
      }
    }
  }
  errors.rethrow();
}

}  // namespace gb::cpu

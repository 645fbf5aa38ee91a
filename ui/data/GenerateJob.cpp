#include "data/GenerateJob.hpp"

#include <omp.h>

#include <algorithm>

#include "common/Error.hpp"
#include "common/SystemResources.hpp"
#include "common/WorkerThread.hpp"

namespace gbui {

namespace {

// About 2^21 cells per block: ~10 ms of generation on one core, so Cancel acts well within 200 ms.
constexpr std::size_t kCellsPerBlock = std::size_t{1} << 21;
constexpr std::uint64_t kLargeBytes = std::uint64_t{1} << 30;

}  // namespace

std::uint64_t estimatedGenerateBytes(const gb::PaperDataSpec& spec) {
  const auto cols = static_cast<std::uint64_t>(std::max(spec.covariates, 0)) + 1;
  return cols * static_cast<std::uint64_t>(spec.rows) * sizeof(double);
}

MemoryVerdict judgeMemory(std::uint64_t bytes, std::uint64_t availableBytes) {
  if (static_cast<double>(bytes) > 0.8 * static_cast<double>(availableBytes)) return MemoryVerdict::TooLarge;
  if (bytes > kLargeBytes || bytes > availableBytes / 4) return MemoryVerdict::Large;
  return MemoryVerdict::Fine;
}

std::shared_ptr<GeneratedData> generateInWorker(const gb::PaperDataSpec& spec, TaskWorker& worker) {
  // Per-thread setting: only the parallel regions this worker starts use fewer threads.
  omp_set_num_threads(std::max(1, gb::availableCores() - 1));
  gb::PaperDataStream stream(spec);
  auto out = std::make_shared<GeneratedData>();
  gb::PaperData& paper = out->paper;
  paper.spec = spec;
  paper.informative = stream.informative();
  paper.data.source = "paper data (seed " + std::to_string(spec.seed) + ")";
  paper.data.names = stream.names();
  const std::size_t cols = paper.data.names.size();
  paper.data.columns.resize(cols);
  // reserve, not resize: no page is touched (and no time spent) before the rows arrive.
  for (auto& column : paper.data.columns) column.reserve(spec.rows);
  const std::size_t blockRows = std::max<std::size_t>(1024, kCellsPerBlock / cols);
  std::vector<std::vector<double>> block;
  while (stream.rowsLeft() > 0) {
    if (worker.cancelRequested()) throw gb::InputError("cancelled");
    const std::size_t n = stream.next(blockRows, block);
    for (std::size_t c = 0; c < cols; ++c)
      paper.data.columns[c].insert(paper.data.columns[c].end(), block[c].begin(),
                                   block[c].begin() + static_cast<std::ptrdiff_t>(n));
    const auto done = static_cast<double>(spec.rows - stream.rowsLeft());
    worker.reportProgress(done / static_cast<double>(spec.rows), {});
  }
  out->missing.assign(cols, 0);
  return out;
}

}  // namespace gbui

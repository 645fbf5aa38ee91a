#pragma once
// The paper's data made on a worker thread (the Generate button): the rows are streamed in blocks into columns
// that grow as they fill, so the job reports progress and stops within one block (a few tens of ms) of Cancel,
// and nothing touches memory before it starts. The size is estimated first, so a typo in Rows is caught before
// the window commits gigabytes to it.
#include <cstdint>
#include <memory>
#include <vector>

#include "data/PaperData.hpp"

namespace gbui {

class TaskWorker;

// What a generated table will hold in memory: (covariates + 1) columns of `rows` doubles.
std::uint64_t estimatedGenerateBytes(const gb::PaperDataSpec& spec);

enum class MemoryVerdict { Fine, Large, TooLarge };
// Large: above 1 GiB or a quarter of the available memory (ask first); TooLarge: above 80% of what is available
// (refuse: the fit would need more still).
MemoryVerdict judgeMemory(std::uint64_t bytes, std::uint64_t availableBytes);

// The generated table and what the preview needs without scanning it again on the window's thread.
struct GeneratedData {
  gb::PaperData paper;
  std::vector<std::size_t> missing;  // per column (always 0 for the paper's data, kept for the roles table)
};

// Runs inside a WorkerThread: generates `spec` block by block, reporting progress after every block and throwing
// gb::InputError("cancelled") when the worker is cancelled. The values equal gb::generatePaperData(spec).
// Uses one core fewer than the machine has (at least one), so the window keeps a core on a small machine.
std::shared_ptr<GeneratedData> generateInWorker(const gb::PaperDataSpec& spec, TaskWorker& worker);

}  // namespace gbui

#pragma once
// CSV reading speed (issue 14: >= 1 GB/s on a 1 GB file from the page cache on 2 cores), set against its floor:
// the same file read() into memory by as many threads, in the same run. Kept out of the tests; run by
// `gamboost bench csv`.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace gb {

struct CsvBenchOptions {
  std::string file;              // an existing CSV to read; "" : write one of about sizeMegabytes first
  double sizeMegabytes = 100.0;  // size of the generated file (paper data, 17 significant digits)
  std::string scratchDir = ".";  // where the generated file goes (removed afterwards)
  int repetitions = 3;
  std::uint64_t seed = 1;
  int threads = 0;                                // readCsv's threads (0: OpenMP's count)
  std::size_t chunkBytes = std::size_t{8} << 20;  // 0: the one-thread reader
};

struct CsvBenchReport {
  std::uint64_t bytes = 0;
  std::size_t rows = 0, cols = 0;
  double bestSeconds = 0.0, medianSeconds = 0.0;
  double megabytesPerSecond = 0.0;  // bytes / bestSeconds / 1e6
  int threads = 0;                  // used by the read
  // The floor: the file read() from the page cache into a reused buffer by `threads` threads, best of the reps.
  double floorSeconds = 0.0, floorMegabytesPerSecond = 0.0;
  double fractionOfFloor = 0.0;  // floorSeconds / bestSeconds
  // CPU seconds of the read over all its threads (getrusage), least of the reps: what the read costs whatever else
  // runs on the machine (on a loaded machine the wall time says more about the load).
  double cpuSeconds = 0.0;
  nlohmann::json toJson() const;
};

CsvBenchReport runCsvBenchmark(const CsvBenchOptions& options);

}  // namespace gb

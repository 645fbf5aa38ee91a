#pragma once
// CSV reading speed (issue: >= 100 MB/s on a 100 MB file). Kept out of the tests; run by `gamboost bench csv`.
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
};

struct CsvBenchReport {
  std::uint64_t bytes = 0;
  std::size_t rows = 0, cols = 0;
  double bestSeconds = 0.0, medianSeconds = 0.0;
  double megabytesPerSecond = 0.0;  // bytes / bestSeconds / 1e6
  nlohmann::json toJson() const;
};

CsvBenchReport runCsvBenchmark(const CsvBenchOptions& options);

}  // namespace gb

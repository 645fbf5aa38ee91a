#include "bench/CsvBenchmark.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <vector>

#include "common/Error.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "data/PaperData.hpp"

namespace gb {

namespace {

// Removes the generated file however the benchmark ends.
struct RemoveOnExit {
  std::string path;
  ~RemoveOnExit() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

// Rows of the default paper data that make about `megabytes`, measured on a sample (17-digit numbers vary in length).
std::size_t rowsForSize(double megabytes, std::uint64_t seed) {
  PaperDataSpec sample;
  sample.rows = 2000;
  sample.seed = seed;
  std::ostringstream text;
  writeCsv(text, generatePaperData(sample).data);
  const double bytesPerRow = static_cast<double>(text.str().size()) / static_cast<double>(sample.rows);
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(megabytes * 1e6 / bytesPerRow)));
}

std::string writeBenchFile(const CsvBenchOptions& options) {
  checkWritable((std::filesystem::path(options.scratchDir) / "probe.csv").string(), "--scratch-dir");
  const std::string path =
      (std::filesystem::path(options.scratchDir) / ("gb-csv-bench-" + std::to_string(::getpid()) + ".csv")).string();
  PaperDataSpec spec;
  spec.rows = rowsForSize(options.sizeMegabytes, options.seed);
  spec.seed = options.seed;
  writeCsv(path, generatePaperData(spec).data);  // the data is freed before reading starts
  return path;
}

}  // namespace

nlohmann::json CsvBenchReport::toJson() const {
  return {{"bytes", bytes},
          {"rows", rows},
          {"cols", cols},
          {"best_s", bestSeconds},
          {"median_s", medianSeconds},
          {"megabytes_per_s", megabytesPerSecond}};
}

CsvBenchReport runCsvBenchmark(const CsvBenchOptions& options) {
  if (options.repetitions < 1)
    throw InputError(optionMessage("--reps", "must be at least 1, got " + std::to_string(options.repetitions)));
  if (options.file.empty() && !(options.sizeMegabytes > 0.0 && options.sizeMegabytes < 1e6))
    throw InputError(optionMessage("--size-mb", "must be between 0 and 1e6 megabytes"));

  RemoveOnExit generated;
  std::string path = options.file;
  if (path.empty()) {
    path = writeBenchFile(options);
    generated.path = path;
  }

  CsvBenchReport report;
  report.bytes = std::filesystem::file_size(path);
  std::vector<double> seconds;
  for (int r = 0; r < options.repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const Dataset data = readCsv(path);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    report.rows = data.rows();
    report.cols = data.cols();
  }
  std::sort(seconds.begin(), seconds.end());
  report.bestSeconds = seconds.front();
  const std::size_t mid = seconds.size() / 2;
  report.medianSeconds = seconds.size() % 2 == 1 ? seconds[mid] : 0.5 * (seconds[mid - 1] + seconds[mid]);
  report.megabytesPerSecond = static_cast<double>(report.bytes) / report.bestSeconds / 1e6;
  return report;
}

}  // namespace gb

#include "bench/CsvBenchmark.hpp"

#include <fcntl.h>
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include "common/Error.hpp"
#include "common/TemporaryFiles.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "data/PaperData.hpp"

namespace gb {

namespace {

// Removes the generated file however the benchmark ends: its destructor, or SIGINT / SIGTERM (common/TemporaryFiles).
struct RemoveOnExit {
  std::string path;
  std::optional<TemporaryFileRegistration> onSignal;
  void set(const std::string& p) {
    removeTemporaryFilesOnSignals();
    path = p;
    onSignal.emplace(p);
  }
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

std::string benchFilePath(const CsvBenchOptions& options) {
  checkWritable((std::filesystem::path(options.scratchDir) / "probe.csv").string(), "--scratch-dir");
  return (std::filesystem::path(options.scratchDir) / ("gb-csv-bench-" + std::to_string(::getpid()) + ".csv")).string();
}

void writeBenchFile(const CsvBenchOptions& options, const std::string& path) {
  PaperDataSpec spec;
  spec.rows = rowsForSize(options.sizeMegabytes, options.seed);
  spec.seed = options.seed;
  writeCsv(path, generatePaperData(spec).data);  // the data is freed before reading starts
}

// Seconds to read() the whole file with `threads` threads, each its share into its own 8 MiB buffer, allocated and
// touched before the clock starts: what reading the bytes from the page cache costs, before any parsing.
double readSeconds(const std::string& path, std::uint64_t bytes, int threads) {
  constexpr std::size_t kBuffer = std::size_t{8} << 20;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(locate(path, 0, 0, "cannot open"));
  const std::uint64_t share = (bytes + static_cast<std::uint64_t>(threads) - 1) / static_cast<std::uint64_t>(threads);
  std::vector<std::vector<char>> buffers(static_cast<std::size_t>(threads), std::vector<char>(kBuffer));
  // The thread team is started once before timing too (OpenMP keeps it for the parallel region below).
#pragma omp parallel num_threads(threads)
  buffers[static_cast<std::size_t>(omp_get_thread_num())][0] = 1;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads)
  {
    std::vector<char>& buffer = buffers[static_cast<std::size_t>(omp_get_thread_num())];
    const std::uint64_t t = static_cast<std::uint64_t>(omp_get_thread_num());
    std::uint64_t at = std::min(bytes, t * share);
    const std::uint64_t stop = std::min(bytes, at + share);
    while (at < stop) {
      const ssize_t got =
          ::pread(fd, buffer.data(), std::min<std::uint64_t>(kBuffer, stop - at), static_cast<off_t>(at));
      if (got <= 0) break;
      at += static_cast<std::uint64_t>(got);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::close(fd);
  return seconds;
}

double processCpuSeconds() {
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

}  // namespace

nlohmann::json CsvBenchReport::toJson() const {
  return {{"bytes", bytes},
          {"rows", rows},
          {"cols", cols},
          {"best_s", bestSeconds},
          {"median_s", medianSeconds},
          {"megabytes_per_s", megabytesPerSecond},
          {"threads", threads},
          {"floor_s", floorSeconds},
          {"floor_megabytes_per_s", floorMegabytesPerSecond},
          {"fraction_of_floor", fractionOfFloor},
          {"cpu_s", cpuSeconds}};
}

CsvBenchReport runCsvBenchmark(const CsvBenchOptions& options) {
  if (options.repetitions < 1)
    throw InputError(optionMessage("--reps", "must be at least 1, got " + std::to_string(options.repetitions)));
  if (options.file.empty() && !(options.sizeMegabytes > 0.0 && options.sizeMegabytes < 1e6))
    throw InputError(optionMessage("--size-mb", "must be above 0 and below 1e6 megabytes"));

  RemoveOnExit generated;
  std::string path = options.file;
  if (path.empty()) {
    path = benchFilePath(options);
    generated.set(path);  // before writing: a signal during the write removes the part written
    writeBenchFile(options, path);
  }

  CsvBenchReport report;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw InputError(optionMessage("--file", path + ": no such file"));
  if (!std::filesystem::is_regular_file(path, error))  // a device, a pipe or a directory: no size to time a read by
    throw InputError(optionMessage("--file", path + ": not a regular file (a device, a pipe or a directory)"));
  report.bytes = std::filesystem::file_size(path);
  const int asked = options.chunkBytes == 0 ? 1 : options.threads > 0 ? options.threads : omp_get_max_threads();
  CsvOptions csvOptions;
  csvOptions.threads = asked;
  csvOptions.chunkBytes = options.chunkBytes;
  // The threads the read can use: one per chunk at most (a file under one chunk is read by one), so the floor reads
  // with as many.
  const std::uint64_t chunks =
      options.chunkBytes == 0
          ? 1
          : std::max<std::uint64_t>(1, (report.bytes + options.chunkBytes - 1) / options.chunkBytes);
  report.threads = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(asked), chunks));
  std::vector<double> seconds;
  report.floorSeconds = std::numeric_limits<double>::infinity();
  for (int r = 0; r < options.repetitions; ++r) {  // floor and read taken in turns: both see the same load
    report.floorSeconds = std::min(report.floorSeconds, readSeconds(path, report.bytes, report.threads));
    const double cpuStart = processCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    const Dataset data = readCsv(path, csvOptions);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    const double cpu = processCpuSeconds() - cpuStart;
    report.cpuSeconds = r == 0 ? cpu : std::min(report.cpuSeconds, cpu);
    report.rows = data.rows();
    report.cols = data.cols();
  }
  std::sort(seconds.begin(), seconds.end());
  report.bestSeconds = seconds.front();
  const std::size_t mid = seconds.size() / 2;
  report.medianSeconds = seconds.size() % 2 == 1 ? seconds[mid] : 0.5 * (seconds[mid - 1] + seconds[mid]);
  report.megabytesPerSecond = static_cast<double>(report.bytes) / report.bestSeconds / 1e6;
  report.floorMegabytesPerSecond = static_cast<double>(report.bytes) / report.floorSeconds / 1e6;
  report.fractionOfFloor = report.floorSeconds / report.bestSeconds;
  return report;
}

}  // namespace gb

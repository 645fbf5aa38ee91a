#include "bench/E2eBenchmark.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <sstream>

#include "bench/CopyBandwidth.hpp"
#include "common/Error.hpp"
#include "common/TemporaryFiles.hpp"
#include "compute/Booster.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "data/PaperData.hpp"
#include "model/Model.hpp"

namespace gb {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::uint64_t fileBytes(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  return ec ? 0 : bytes;
}

// The benchmark's files, removed however it ends.
// Removed when the benchmark ends, also by SIGINT or SIGTERM (registered with common/TemporaryFiles).
struct ScratchFiles {
  std::string csv, result;
  std::optional<TemporaryFileRegistration> csvOnSignal, resultOnSignal;
  explicit ScratchFiles(const std::string& dir) {
    const std::filesystem::path base =
        dir.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(dir);
    const std::string stem = "gamboost-e2e-" + std::to_string(::getpid());
    csv = (base / (stem + ".csv")).string();
    result = (base / (stem + ".result.json")).string();
    removeTemporaryFilesOnSignals();
    csvOnSignal.emplace(csv);
    resultOnSignal.emplace(result);
  }
  ~ScratchFiles() {
    std::error_code ec;
    std::filesystem::remove(csv, ec);
    std::filesystem::remove(result, ec);
  }
};

// result.json as `gamboost fit` writes its core: the model and the fitted values.
void writeResult(const std::string& path, const Booster& booster) {
  nlohmann::json result = booster.model().toJson();
  result["fitted"] = booster.fitted();
  writeFileAtomically(path, [&result](std::ostream& out) {
    out << result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  });
}

// One config from reading the CSV to result.json, with a profile active throughout.
E2eRun runOne(const E2eBenchOptions& options, const ComputeSettings& compute, const ScratchFiles& files,
              const std::function<bool(const Booster&)>& progress) {
  E2eRun run;
  run.compute = compute;
  RunProfile profile;
  const auto start = Clock::now();
  {
    const RunProfile::Activation on(profile);
    const auto readStart = Clock::now();
    auto data = std::make_shared<const Dataset>(readCsv(files.csv));
    profile.addStage("read and parse CSV", secondsSince(readStart),
                     fileBytes(files.csv) + data->rows() * data->cols() * sizeof(double));
    Booster booster(data, options.model, makeBackend(compute));
    booster.run(options.model.mstop, progress);
    const auto writeStart = Clock::now();
    writeResult(files.result, booster);
    profile.addStage("write result", secondsSince(writeStart), fileBytes(files.result));
    run.info = booster.backendInfo();
    run.iterations = booster.iteration();
    run.finalRisk = booster.path().risk.back();
  }
  run.wallSeconds = secondsSince(start);
  run.floors = measureProfileFloors(compute);
  run.stages = profile.stages();
  run.kernels = profile.kernels();
  run.profile = profileJson(profile, run.floors, run.iterations);
  return run;
}

struct Cancelled {};

}  // namespace

E2eBenchReport runE2eBenchmark(const E2eBenchOptions& options) {
  options.model.validate();
  const std::vector<ComputeSettings> configs =
      options.configs.empty() ? std::vector<ComputeSettings>{ComputeSettings{}} : options.configs;
  E2eBenchReport report;
  report.rows = options.rows;
  report.covariates = options.covariates;
  auto step = [&options](double fraction, const std::string& what) {
    if (options.progress && !options.progress(fraction, what)) throw Cancelled{};
  };
  const ScratchFiles files(options.scratchDir);
  try {
    step(0.0, "generating " + std::to_string(options.rows) + " rows");
    PaperDataSpec spec{options.rows, options.covariates, options.informative, 1e-3, 7.0, options.seed};
    auto start = Clock::now();
    const Dataset data = generatePaperData(spec).data;
    report.generateSeconds = secondsSince(start);
    step(0.0, "writing the CSV");
    start = Clock::now();
    writeCsv(files.csv, data);
    report.csvBytes = fileBytes(files.csv);
    report.writeCsv = {"write CSV", secondsSince(start), 1, report.csvBytes + data.rows() * data.cols() * 8, 0.0};
    for (std::size_t c = 0; c < configs.size(); ++c) {
      const std::string what = "config " + std::to_string(c + 1) + " of " + std::to_string(configs.size());
      const int mstop = options.model.mstop;
      auto progress = [&](const Booster& b) {
        step((static_cast<double>(c) + static_cast<double>(b.iteration()) / mstop) / configs.size(), what);
        return true;
      };
      report.runs.push_back(runOne(options, configs[c], files, progress));
    }
  } catch (const Cancelled&) {
    // Keep what finished.
  }
  report.hostGigabytesPerSecond =
      report.runs.empty() ? hostCopyBandwidth() : report.runs.front().floors.hostGigabytesPerSecond;
  return report;
}

nlohmann::json E2eBenchReport::toJson() const {
  ProfileFloors host;
  host.hostGigabytesPerSecond = hostGigabytesPerSecond;
  const double csvFloor = stageFloorSeconds(writeCsv, host);
  nlohmann::json list = nlohmann::json::array();
  for (const E2eRun& r : runs)
    list.push_back({{"compute", r.compute},
                    {"backend", r.info.backend},
                    {"device", r.info.device},
                    {"kernel", r.info.kernel},
                    {"precision", r.info.precision},
                    {"iterations", r.iterations},
                    {"wall_s", r.wallSeconds},
                    {"final_risk", r.finalRisk},
                    {"profile", r.profile}});
  return {{"rows", rows},
          {"covariates", covariates},
          {"csv_bytes", csvBytes},
          {"generate_s", generateSeconds},
          {"write_csv",
           {{"seconds", writeCsv.seconds},
            {"bytes", writeCsv.bytes},
            {"floor_s", csvFloor},
            {"fraction_of_floor", csvFloor > 0 && writeCsv.seconds > 0 ? nlohmann::json(csvFloor / writeCsv.seconds)
                                                                       : nlohmann::json(nullptr)}}},
          {"host_copy_gb_per_s", hostGigabytesPerSecond},
          {"runs", list}};
}

std::string E2eBenchReport::toCsv() const {
  std::ostringstream out;
  out << "rows,covariates,backend,device,precision,stage,calls,seconds,threads,bytes,floor_s,fraction_of_floor\n";
  ProfileFloors host;
  host.hostGigabytesPerSecond = hostGigabytesPerSecond;
  // Unknown cells stay empty (a 0 would read as a floor of 0 s or 0% of it); a kernel row ("kernel NAME") has its
  // device seconds over all launches and no threads.
  auto row = [&](const E2eRun* r, const std::string& stage, std::uint64_t calls, double seconds, int threads,
                 std::uint64_t bytes, double floor, double together) {
    out << rows << ',' << covariates << ',' << csvField(r ? r->info.backend : "") << ','
        << csvField(r ? r->info.device : "") << ',' << csvField(r ? r->info.precision : "") << ',' << csvField(stage)
        << ',' << calls << ',' << seconds << ',' << (threads > 0 ? std::to_string(threads) : "") << ','
        << (bytes > 0 ? std::to_string(bytes) : "") << ',';
    if (floor > 0) out << floor;
    out << ',';
    if (floor > 0 && together > 0) out << floor / together;
    out << '\n';
  };
  auto stageRow = [&](const E2eRun* r, const ProfileStage& s, const ProfileFloors& floors) {
    row(r, s.name, s.calls, s.seconds, s.threads, s.bytes, stageFloorSeconds(s, floors), stageTogetherSeconds(s));
  };
  stageRow(nullptr, writeCsv, host);
  for (const E2eRun& r : runs) {
    for (const ProfileStage& s : r.stages) stageRow(&r, s, r.floors);
    for (const ProfileKernel& k : r.kernels)
      row(&r, "kernel " + k.name, k.count, k.seconds, 0, k.bytes, kernelFloorSeconds(k, r.floors), k.seconds);
  }
  return out.str();
}

}  // namespace gb

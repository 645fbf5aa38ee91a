// gamboost bench csv | kernels | fit: the benchmarks of design.md section 5 (never run by the tests).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>

#include "Commands.hpp"
#include "FitOptions.hpp"
#include "bench/CsvBenchmark.hpp"
#include "bench/E2eBenchmark.hpp"
#include "bench/FitBenchmark.hpp"
#include "bench/KernelBenchmark.hpp"
#include "common/Error.hpp"
#include "common/SystemResources.hpp"
#include "common/Text.hpp"
#include "compute/Backend.hpp"
#include "data/CsvWriter.hpp"

namespace gb::cli {
namespace {

struct CsvBenchCli {
  CsvBenchOptions bench;
  bool serial = false;
  std::string out;
};

struct KernelBenchCli {
  KernelBenchOptions bench;
  std::string out;
};

struct FitBenchCli {
  FitBenchOptions bench;
  int knots = 12;
  int mstop = 100;
  std::string family = "gaussian";
  std::string link = "logit";
  std::vector<std::string> configs{"cpu"};
  std::string device;
  std::vector<std::string> devices;  // the opencl configs on several devices (the sharded backend)
  std::string out;
  CLI::Option* informative = nullptr;
};

struct E2eBenchCli {
  E2eBenchOptions bench;
  int knots = 60;
  int mstop = 1000;
  std::vector<std::string> configs{"cpu"};
  std::string device;
  std::string out;
  CLI::Option* informative = nullptr;
};

// PREFIX.json and PREFIX.csv of a report, committed together, and a line saying so.
void writeReportFiles(OutputFiles& outputs, const std::string& prefix, const nlohmann::json& json,
                      const std::string& csv) {
  writeText(outputs, prefix + ".json", jsonText(json, 2) + "\n");
  writeText(outputs, prefix + ".csv", csv);
  outputs.commit();
  std::cerr << "wrote " << prefix << ".json and " << prefix << ".csv" << std::endl;
}

// Benchmarks run long: progress goes to stderr after a second, stdout keeps the table.
std::function<bool(double, const std::string&)> progressTo(std::shared_ptr<ProgressPrinter> printer) {
  return [printer](double fraction, const std::string& what) {
    printer->update(fraction, what);
    return true;
  };
}

int runCsvBench(const CsvBenchCli& o) {
  OutputFiles outputs;
  if (!o.bench.file.empty()) {
    checkReadableFile(o.bench.file, "--file");
    outputs.addInput(o.bench.file, "--file");
  }
  if (!o.out.empty()) outputs.addOutput(o.out, "--out");
  if (o.bench.repetitions < 1) throw InputError(optionMessage("--reps", "must be >= 1"));
  CsvBenchOptions bench = o.bench;
  bench.threads = cappedThreads(o.bench.threads);  // as fit: refused below 0, capped at a few per core
  if (o.serial) bench.chunkBytes = 0;
  const CsvBenchReport report = runCsvBenchmark(bench);
  printTable(std::cout,
             {"bytes", "rows", "cols", "threads", "best", "median", "MB/s", "floor MB/s", "of floor", "CPU s"},
             {{formatBytes(report.bytes), std::to_string(report.rows), std::to_string(report.cols),
               std::to_string(report.threads), formatSeconds(report.bestSeconds), formatSeconds(report.medianSeconds),
               formatNumber(report.megabytesPerSecond, 4), formatNumber(report.floorMegabytesPerSecond, 4),
               formatNumber(100.0 * report.fractionOfFloor, 3) + "%", formatSeconds(report.cpuSeconds)}});
  if (!o.out.empty()) {
    writeText(outputs, o.out, jsonText(report.toJson(), 2) + "\n");
    outputs.commit();
  }
  return 0;
}

int runKernelBench(KernelBenchCli o) {
  OutputFiles outputs;
  addPrefixOutputs(outputs, o.out, "--out");
  if (o.bench.repetitions < 1) throw InputError(optionMessage("--reps", "must be >= 1"));
  o.bench.progress = progressTo(std::make_shared<ProgressPrinter>("bench kernels", true, 1.0));
  const KernelBenchReport report = runKernelBenchmark(o.bench);
  std::cout << "device " << report.device << " (" << report.platform << "), " << report.precision << ", copy bandwidth "
            << formatNumber(report.copyGigabytesPerSecond, 4) << " GB/s (host copy "
            << formatNumber(report.hostCopyGigabytesPerSecond, 4) << " GB/s, the Eigen rows' floor)\n";
  std::vector<std::vector<std::string>> rows;
  bool anyInCache = false;
  for (const KernelTiming& t : report.timings) {
    std::vector<std::string> row{t.kernel, t.operation, t.granularity, std::to_string(t.rows), std::to_string(t.k)};
    if (t.skipped.empty())
      row.insert(row.end(), {formatSeconds(t.medianSeconds), formatNumber(t.gigabytesPerSecond, 4),
                             t.inCache  ? std::string("in cache")
                             : t.onHost ? formatNumber(100.0 * t.fractionOfCopy, 3) + "% (host)"
                                        : formatNumber(100.0 * t.fractionOfCopy, 3) + "%",
                             formatNumber(t.maxRelativeError, 2), std::to_string(t.repetitions)});
    else
      row.push_back("skipped: " + t.skipped);
    rows.push_back(std::move(row));
  }
  printTable(std::cout,
             {"kernel", "op", "granularity", "rows", "k", "median", "GB/s", "of copy", "max rel err", "reps"}, rows);
  for (const KernelTiming& t : report.timings) anyInCache = anyInCache || (t.skipped.empty() && t.inCache);
  if (anyInCache)
    std::cout << "note: \"in cache\": the row's bytes are within the cache of where it ran ("
              << formatNumber(report.deviceCacheBytes / 1048576.0, 4) << " MiB on the device, "
              << formatNumber(report.hostCacheBytes / 1048576.0, 4)
              << " MiB on the host), so its repetitions can read from the cache and a memory copy is no floor for it\n";
  for (const std::string& note : report.notes) std::cout << "note: " << note << "\n";
  writeReportFiles(outputs, o.out, report.toJson(), report.toCsv());
  if (!report.failures.empty()) {
    // The report is written (it shows the errors), but a wrong kernel must not look like a successful run.
    std::string names;
    for (const std::string& name : report.failures) names += (names.empty() ? "" : ", ") + name;
    throw ComputeError("kernels failed their check against the CPU reference: " + names);
  }
  return 0;
}

// "backend[:kernel[:precision]][@A+B+...]", e.g. "cpu", "opencl:compact_x:float", "opencl::float@0:0+0:1" (that
// config sharded over the devices A, B, ... as fit --devices A,B,... does).
ComputeSettings parseConfig(const std::string& config, const std::string& device) {
  const std::size_t at = config.find('@');
  const std::string text = config.substr(0, at);
  std::vector<std::string> devices;
  if (at != std::string::npos) {
    std::size_t start = at + 1;
    while (true) {
      const std::size_t plus = config.find('+', start);
      devices.push_back(config.substr(start, plus == std::string::npos ? std::string::npos : plus - start));
      if (devices.back().empty())
        throw InputError(
            optionMessage("--configs", quotedForMessage(config) + " has an empty device after '@' or '+'"));
      if (plus == std::string::npos) break;
      start = plus + 1;
    }
  }
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() > 3 || parts[0].empty())
    throw InputError(optionMessage("--configs", quotedForMessage(text) + " is not backend[:kernel[:precision]]"));
  ComputeSettings c;
  if (parts[0] != "cpu" && parts[0] != "opencl")
    throw InputError(optionMessage("--configs", "unknown backend '" + parts[0] + "' (cpu or opencl)"));
  c.backend = backendFromString(parts[0]);
  if (parts.size() > 1) c.kernel = parts[1];
  if (parts.size() > 2 && parts[2] != "double" && parts[2] != "float")
    throw InputError(optionMessage("--configs", "precision '" + parts[2] + "' is not double or float"));
  if (parts.size() > 2) c.precision = precisionFromString(parts[2]);
  if (!devices.empty() && c.backend != BackendKind::OpenCl)
    throw InputError(
        optionMessage("--configs", quotedForMessage(config) + ": devices after '@' need the opencl backend"));
  if (c.backend == BackendKind::OpenCl) c.device = devices.empty() ? device : std::string();
  c.devices = devices;
  // Named as the config: bench has no --kernel or --precision of its own.
  const std::vector<std::string> kernels = kernelChoices(c.backend);
  if (!c.kernel.empty() && std::find(kernels.begin(), kernels.end(), c.kernel) == kernels.end()) {
    std::string known;
    for (const std::string& k : kernels) known += (known.empty() ? "" : ", ") + k;
    throw InputError(optionMessage("--configs", quotedForMessage(config) + ": unknown kernel " +
                                                    quotedForMessage(c.kernel) + " for " + parts[0] + " (" + known +
                                                    ")"));
  }
  const std::vector<Precision> precisions = precisionChoices(c.backend);
  if (c.precision != Precision::Default &&
      std::find(precisions.begin(), precisions.end(), c.precision) == precisions.end())
    throw InputError(optionMessage(
        "--configs",
        quotedForMessage(config) + ": the CPU backend computes in double only (float: " + "opencl::float)"));
  return c;
}

// Generated data of rows x (covariates + 1) doubles must fit the memory there is (twice: the data and what the
// fit keeps beside it), else the run would end in "out of memory" naming nothing. At least 2 rows: one row makes
// every covariate constant.
void checkGeneratedSize(std::size_t rows, int covariates) {
  if (rows < 2)
    throw InputError(optionMessage("--rows", "must be at least 2 (one row makes every covariate constant)"));
  const double bytes = 2.0 * static_cast<double>(rows) * (static_cast<double>(covariates) + 1.0) * sizeof(double);
  requireAvailableMemory(bytes, "--rows",
                         std::to_string(rows) + " rows of " + std::to_string(covariates) + " covariates", "memory",
                         " (lower --rows or --covariates)");
}

int runFitBench(FitBenchCli o) {
  OutputFiles outputs;
  if (!o.out.empty()) addPrefixOutputs(outputs, o.out, "--out");
  if (o.bench.repetitions < 1) throw InputError(optionMessage("--reps", "must be >= 1"));
  if (o.bench.bootstrap < 0) throw InputError(optionMessage("--bootstrap", "must be >= 0"));
  if (o.bench.covariates < 1) throw InputError(optionMessage("--covariates", "must be at least 1"));
  for (std::size_t rows : o.bench.rows) checkGeneratedSize(rows, o.bench.covariates);
  // "--covariates 10" alone should work: the default 20 informative covariates shrink to fit.
  if (o.informative->count() == 0) o.bench.informative = std::min(o.bench.informative, o.bench.covariates);
  o.bench.model.spline.knots = o.knots;
  o.bench.model.mstop = o.mstop;
  o.bench.model.family = familyFromString(o.family);
  o.bench.model.link = linkFromString(o.link);
  o.bench.model.validate();
  for (const std::string& config : o.configs) {
    o.bench.configs.push_back(parseConfig(config, o.device));
    ComputeSettings& c = o.bench.configs.back();
    if (c.backend == BackendKind::OpenCl && c.devices.empty()) c.devices = o.devices;
  }
  o.bench.progress = progressTo(std::make_shared<ProgressPrinter>("bench fit", true, 1.0));
  const FitBenchReport report = runFitBenchmark(o.bench);

  std::vector<std::vector<std::string>> rows;
  bool diverged = false;
  for (const FitTiming& t : report.timings) {
    diverged = diverged || !std::isfinite(t.finalRisk);
    rows.push_back({std::to_string(t.rows), t.info.backend, t.info.kernel, t.info.precision, t.info.device,
                    formatSeconds(t.setupSeconds), formatSeconds(t.fitSeconds), formatSeconds(t.secondsPerIteration),
                    std::isfinite(t.finalRisk) ? formatNumber(t.finalRisk, 6) : "diverged",
                    std::to_string(t.samePathIterations)});
  }
  printTable(
      std::cout,
      {"rows", "backend", "kernel", "precision", "device", "set-up", "fit", "per iteration", "final risk", "same path"},
      rows);
  std::cout << "(same path: leading iterations that select the same learners as the first config)\n";
  if (diverged)
    std::cout
        << "(diverged: the risk is not finite at the end; the family's steps overshoot on this synthetic "
           "response, as `gamboost fit` would report (there: lower --nu); the timings are those of the iterations "
           "run)\n";
  if (o.bench.bootstrap > 0) {
    std::vector<std::vector<std::string>> cv;
    for (const FitTiming& t : report.timings) {
      const double one = t.setupSeconds + t.fitSeconds;
      const std::string ran = t.cvBatched        ? "together"
                              : t.cvParallel > 1 ? std::to_string(t.cvParallel) + " at a time"
                                                 : "one by one";
      cv.push_back({std::to_string(t.rows), t.info.backend, t.info.precision, std::to_string(t.cvFolds), ran,
                    formatSeconds(t.cvDrawSeconds), formatSeconds(t.cvSeconds),
                    t.cvBatched ? formatSeconds(t.cvSetupSeconds) : "-",
                    t.cvBatched ? formatSeconds(t.cvIterateSeconds) : "-", formatSeconds(one),
                    formatNumber((t.cvDrawSeconds + t.cvSeconds) / one, 3),
                    t.cvBatched ? formatNumber(t.cvIterateSeconds / t.fitSeconds, 3) : std::string("-")});
    }
    printTable(std::cout,
               {"rows", "backend", "precision", "folds", "folds ran", "folds drawn", "cv", "cv set-up", "cv iterations",
                "one fit (set-up + fit)", "(drawn + cv) / one fit", "cv iterations / fit"},
               cv);
  }
  if (!o.out.empty()) writeReportFiles(outputs, o.out, report.toJson(), report.toCsv());
  return 0;
}

void printE2eRun(const E2eRun& run) {
  std::cout << "\n"
            << run.info.backend << " " << run.info.precision << " on " << run.info.device << ": "
            << formatSeconds(run.wallSeconds) << " from reading the CSV to result.json written, " << run.iterations
            << " iterations\n";
  std::vector<std::vector<std::string>> rows;
  for (const ProfileStage& s : run.stages) {
    const double floor = stageFloorSeconds(s, run.floors);
    rows.push_back({s.name, std::to_string(s.calls), formatSeconds(s.seconds), s.bytes ? formatBytes(s.bytes) : "-",
                    floor > 0 ? formatSeconds(floor) : "-",
                    floor > 0 && s.seconds > 0 ? formatNumber(100.0 * floor / stageTogetherSeconds(s), 3) + "%" : "-"});
  }
  for (const ProfileKernel& k : run.kernels) {
    const double floor = kernelFloorSeconds(k, run.floors);  // against the device copy bandwidth
    rows.push_back({"kernel " + k.name, std::to_string(k.count), formatSeconds(k.seconds),
                    k.bytes ? formatBytes(k.bytes) : "-", floor > 0 ? formatSeconds(floor) : "-",
                    floor > 0 && k.seconds > 0 ? formatNumber(100.0 * floor / k.seconds, 3) + "%" : "-"});
  }
  printTable(std::cout, {"stage", "calls", "time", "bytes", "floor", "of floor"}, rows);
}

int runE2eBench(E2eBenchCli o) {
  OutputFiles outputs;
  if (!o.out.empty()) addPrefixOutputs(outputs, o.out, "--out");
  if (o.bench.covariates < 1) throw InputError(optionMessage("--covariates", "must be at least 1"));
  checkGeneratedSize(o.bench.rows, o.bench.covariates);
  if (!o.bench.scratchDir.empty())  // checked before the data are generated (the default, the temporary folder, is)
    checkWritable((std::filesystem::path(o.bench.scratchDir) / "probe.csv").string(), "--scratch-dir");
  if (o.informative->count() == 0) o.bench.informative = std::min(o.bench.informative, o.bench.covariates);
  o.bench.model.spline.knots = o.knots;
  o.bench.model.mstop = o.mstop;
  o.bench.model.validate();
  for (const std::string& config : o.configs) o.bench.configs.push_back(parseConfig(config, o.device));
  o.bench.progress = progressTo(std::make_shared<ProgressPrinter>("bench e2e", true, 1.0));
  const E2eBenchReport report = runE2eBenchmark(o.bench);
  const double csvFloor = report.writeCsv.bytes / (report.hostGigabytesPerSecond * 1e9);
  std::cout << report.rows << " rows, " << report.covariates << " covariates: generated in "
            << formatSeconds(report.generateSeconds) << "; CSV of " << formatBytes(report.csvBytes) << " written in "
            << formatSeconds(report.writeCsv.seconds) << " (floor " << formatSeconds(csvFloor) << ", "
            << formatNumber(100.0 * csvFloor / report.writeCsv.seconds, 3) << "%); host copy "
            << formatNumber(report.hostGigabytesPerSecond, 4) << " GB/s (read + write)\n";
  for (const E2eRun& run : report.runs) printE2eRun(run);
  if (!o.out.empty()) writeReportFiles(outputs, o.out, report.toJson(), report.toCsv());
  return 0;
}

Command addCsvBench(CLI::App* bench) {
  auto o = std::make_shared<CsvBenchCli>();
  CLI::App* sub = bench->add_subcommand("csv", "Time reading a CSV file (MB/s).");
  addRealOption(sub, "--size-mb", o->bench.sizeMegabytes, "Size of the generated file when --file is not given");
  sub->add_option("--file", o->bench.file, "Read this CSV instead of generating one")->excludes("--size-mb");
  sub->add_option("--scratch-dir", o->bench.scratchDir, "Where the generated file goes (removed afterwards)")
      ->capture_default_str();
  addIntOption(sub, "--reps", o->bench.repetitions, "Repetitions (best and median reported)");
  addSeedOption(sub, "--seed", o->bench.seed, "Seed of the generated data");
  addIntOption(sub, "--threads", o->bench.threads, "Threads of the read (0 = all cores)");
  sub->add_flag("--serial", o->serial, "Use the one-thread reader (no chunks), for comparison")->excludes("--threads");
  sub->add_option("--out", o->out, "Write the report as JSON here")->check(fileNameValidator());
  return {sub, [o]() { return runCsvBench(*o); }};
}

Command addKernelBench(CLI::App* bench) {
  auto o = std::make_shared<KernelBenchCli>();
  KernelBenchOptions& b = o->bench;
  CLI::App* sub = bench->add_subcommand("kernels", "Time the OpenCL kernels of one boosting iteration.");
  sub->add_option("--device", b.device, "OpenCL device: part of its name (default: first GPU, else CPU)");
  addSizeListOption(sub, "--rows", b.rows, "Row counts n");
  addIntListOption(sub, "--k", b.columns, "Basis columns k per learner");
  addIntOption(sub, "--covariates", b.covariates, "Learners per batched launch");
  addIntOption(sub, "--reps", b.repetitions, "Timed repetitions after one warm-up");
  sub->add_option("--precision", b.precision, "float or double")
      ->check(oneOfValidator({"float", "double"}))
      ->capture_default_str();
  addTextListOption(sub, "--kernels", b.kernels, "Kernels to time (default: all)");
  addSeedOption(sub, "--seed", b.seed, "Seed of the random inputs");
  sub->add_option("--out", o->out, "Output prefix: writes <prefix>.json and <prefix>.csv")
      ->required()
      ->check(fileNameValidator());
  return {sub, [o]() { return runKernelBench(*o); }};
}

Command addFitBench(CLI::App* bench) {
  auto o = std::make_shared<FitBenchCli>();
  FitBenchOptions& b = o->bench;
  CLI::App* sub = bench->add_subcommand("fit", "Time whole fits per backend and kernel on the paper's data.");
  addSizeListOption(sub, "--rows", b.rows, "Row counts n");
  addIntOption(sub, "--covariates", b.covariates, "Covariates (one learner each)");
  o->informative = addIntOption(sub, "--informative", b.informative, "Informative covariates (at most --covariates)");
  addIntOption(sub, "--knots", o->knots, "Interior knots (k = knots + 4 for cubic splines)");
  addIntOption(sub, "--mstop", o->mstop, "Iterations per fit");
  sub->add_option("--family", o->family,
                  "gaussian, binomial (y above its median), poisson and negbin (counts from y), gamma (exp(z / 2), z "
                  "the standardised y); the "
                  "others fit y as it is")
      ->capture_default_str();
  sub->add_option("--link", o->link, "The binomial's link: logit, probit, cloglog or cauchit")->capture_default_str();
  addTextListOption(sub, "--configs", o->configs,
                    "Configs backend[:kernel[:precision]][@A+B...], e.g. cpu,opencl:compact_x:float,"
                    "opencl::float@0:0+0:1 (sharded over devices A, B, ... as fit --devices A,B,...)")
      ->capture_default_str();
  sub->add_option("--device", o->device, "OpenCL device for the opencl configs: P:D or part of its name");
  addTextListOption(sub, "--devices", o->devices, "The opencl configs sharded over these devices (as fit --devices)");
  addIntOption(sub, "--reps", b.repetitions, "Repetitions per config (best reported)");
  addSeedOption(sub, "--seed", b.seed, "Seed of the data (and of the --bootstrap folds)");
  addIntOption(sub, "--bootstrap", b.bootstrap,
               "Also time this many bootstrap folds (gamboost cv) per rows and config, beside the one fit");
  sub->add_flag("--profile", b.profile,
                "Also run one untimed fit per rows and config under the time budget of fit --profile (to stderr)");
  sub->add_option("--out", o->out, "Output prefix: writes <prefix>.json and <prefix>.csv")->check(fileNameValidator());
  return {sub, [o]() { return runFitBench(*o); }};
}

Command addE2eBench(CLI::App* bench) {
  auto o = std::make_shared<E2eBenchCli>();
  E2eBenchOptions& b = o->bench;
  CLI::App* sub = bench->add_subcommand(
      "e2e", "Time the whole job per config: generate, write the CSV, read it, set up, fit, write result.json.");
  addSizeOption(sub, "--rows", b.rows, "Rows n")->capture_default_str();
  addIntOption(sub, "--covariates", b.covariates, "Covariates (one learner each)");
  o->informative = addIntOption(sub, "--informative", b.informative, "Informative covariates (at most --covariates)");
  addIntOption(sub, "--knots", o->knots, "Interior knots (k = knots + 4 for cubic splines)");
  addIntOption(sub, "--mstop", o->mstop, "Iterations per fit");
  addTextListOption(sub, "--configs", o->configs, "Configs backend[:kernel[:precision]], e.g. cpu,opencl::float")
      ->capture_default_str();
  sub->add_option("--device", o->device, "OpenCL device for the opencl configs: part of its name");
  addSeedOption(sub, "--seed", b.seed, "Seed of the data");
  sub->add_option("--scratch-dir", b.scratchDir, "Where the CSV and result.json go (removed afterwards)");
  sub->add_option("--out", o->out, "Output prefix: writes <prefix>.json and <prefix>.csv")->check(fileNameValidator());
  return {sub, [o]() { return runE2eBench(*o); }};
}

}  // namespace

std::vector<Command> addBenchCommands(CLI::App& app) {
  CLI::App* bench =
      app.add_subcommand("bench", "Benchmarks: CSV reading, kernels, whole fits, end to end; kernel tuning.");
  bench->require_subcommand(1);
  return {addCsvBench(bench), addKernelBench(bench), addFitBench(bench), addE2eBench(bench), addTuneBench(bench)};
}

}  // namespace gb::cli

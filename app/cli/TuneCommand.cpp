// gamboost bench tune: the compact B'g's lane shape searched on the device at hand (bench/TuneBenchmark.hpp).
#include <iostream>
#include <memory>

#include "Commands.hpp"
#include "bench/TuneBenchmark.hpp"
#include "common/Error.hpp"
#include "data/OutputFiles.hpp"

namespace gb::cli {
namespace {

struct TuneCli {
  TuneOptions tune;
  bool dryRun = false;
  std::string out;
};

int runTune(TuneCli o) {
  OutputFiles outputs;
  if (!o.out.empty()) outputs.addOutput(o.out, "--out");
  o.tune.write = !o.dryRun;
  o.tune.progress = [printer = std::make_shared<ProgressPrinter>("bench tune", true, 1.0)](double f,
                                                                                           const std::string& what) {
    printer->update(f, what);
    return true;
  };
  const TuneReport r = runTuneBenchmark(o.tune);
  std::cout << "device " << r.kernels.device << " (" << r.kernels.platform << "), " << r.kernels.precision
            << ", copy bandwidth " << formatNumber(r.kernels.copyGigabytesPerSecond, 4) << " GB/s\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const TuneCandidate& c = r.candidates[i];
    std::string mark = static_cast<int>(i) == r.best ? "best" : static_cast<int>(i) == r.defaults ? "default" : "";
    if (static_cast<int>(i) == r.best && r.best == r.defaults) mark = "best, default";
    std::vector<std::string> row{laneShapeLabel(c.shape)};
    if (c.skipped.empty())
      row.insert(row.end(), {formatSeconds(c.medianSeconds),
                             c.inCache ? std::string("in cache") : formatNumber(100.0 * c.fractionOfCopy, 3) + "%",
                             formatNumber(c.maxRelativeError, 2), mark});
    else
      row.insert(row.end(), {"skipped: " + c.skipped, "", "", mark});
    rows.push_back(std::move(row));
  }
  printTable(std::cout, {"shape", "median", "of copy", "max rel err", ""}, rows);
  if (!r.writtenTo.empty()) std::cerr << "wrote the device's entry to " << r.writtenTo << std::endl;
  if (!o.out.empty()) {
    writeText(outputs, o.out, jsonText(r.toJson(), 2) + "\n");
    outputs.commit();
  }
  return 0;
}

}  // namespace

Command addTuneBench(CLI::App* bench) {
  auto o = std::make_shared<TuneCli>();
  TuneOptions& t = o->tune;
  CLI::App* sub = bench->add_subcommand(
      "tune", "Search the compact B'g kernel's launch shape on this device and save it as the device's tuning.");
  sub->add_option("--device", t.device,
                  "OpenCL device: its address P:D (gamboost devices) or part of its name (default: first GPU)");
  addSizeOption(sub, "--rows", t.rows, "Rows n of the timed B'g");
  addIntOption(sub, "--k", t.k, "Basis columns k per learner");
  addIntOption(sub, "--covariates", t.covariates, "Learners per batched launch");
  addIntOption(sub, "--reps", t.repetitions, "Timed repetitions per shape after one warm-up");
  sub->add_option("--precision", t.precision, "float or double")
      ->check(oneOfValidator({"float", "double"}))
      ->capture_default_str();
  addSeedOption(sub, "--seed", t.seed, "Seed of the random inputs");
  sub->add_option(
      "--file", t.file,
      "Tuning file to write (default: $GAMBOOST_TUNING_FILE, else $XDG_CONFIG_HOME/gamboost/tuning.json, else "
      "~/.config/gamboost/tuning.json)");
  sub->add_flag("--dry-run", o->dryRun, "Report the search without writing the tuning file");
  sub->add_option("--out", o->out, "Also write the whole search as JSON here");
  return {sub, [o]() { return runTune(*o); }};
}

}  // namespace gb::cli

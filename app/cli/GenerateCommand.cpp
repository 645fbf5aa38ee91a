// gamboost generate: the paper's simulated data (section 4.1) as CSV, plus <out>.truth.json naming the
// informative covariates so a fit can be checked against the truth. The rows are generated and written in
// blocks, so memory stays the same whatever --rows is; both files appear together or not at all.
#include <algorithm>
#include <iostream>
#include <memory>

#include "Commands.hpp"
#include "data/CsvWriter.hpp"
#include "data/OutputFiles.hpp"
#include "data/PaperData.hpp"

namespace gb::cli {
namespace {

struct GenerateOptions {
  PaperDataSpec spec;
  CLI::Option* informative = nullptr;
  std::string out;
  bool quiet = false;
};

// Values per block: 2^21 doubles (16 MiB; 20763 rows of the paper's 101 columns), large enough for the threads
// and the writer, and the same memory whatever --rows and --covariates are.
constexpr std::size_t kBlockValues = std::size_t{1} << 21;
// Bytes per value in the CSV: U(0,1) numbers print with up to 17 significant digits ("0.12345678901234567,").
constexpr std::uint64_t kBytesPerValue = 21;

int runGenerate(GenerateOptions& options) {
  // "--covariates 3" alone should work: the default 20 informative covariates shrink to fit (as in bench).
  if (options.informative->count() == 0)
    options.spec.informative = std::min(options.spec.informative, options.spec.covariates);
  const std::string truthPath = options.out + ".truth.json";
  PaperDataStream stream(options.spec);  // validates the options first
  // A bad --out or too little disk must fail before the (possibly long) generation, and leave no file behind.
  OutputFiles outputs;
  const std::uint64_t cols = static_cast<std::uint64_t>(options.spec.covariates) + 1;
  const long double bytes = static_cast<long double>(options.spec.rows) * cols * kBytesPerValue;
  outputs.addOutput(options.out, "--out", bytes > 1.8e19L ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes));
  outputs.addOutput(truthPath, "--out");
  outputs.checkSpace();

  ProgressPrinter progress("generate", !options.quiet);
  const std::size_t rows = options.spec.rows;
  outputs.write(options.out, [&](std::ostream& out) {
    writeCsvHeader(out, stream.names());
    std::vector<std::vector<double>> block;
    while (stream.rowsLeft() > 0) {
      const std::size_t count = stream.next(std::max<std::size_t>(1, kBlockValues / cols), block);
      writeCsvRows(out, block, count);
      if (!out) return;  // OutputFiles reports the stream's failure (a full disk) with its reason
      progress.update(static_cast<double>(rows - stream.rowsLeft()) / static_cast<double>(rows));
    }
  });
  outputs.write(truthPath, [&](std::ostream& out) { out << truthJson(options.spec, stream.informative()) << '\n'; });
  outputs.commit();
  std::cerr << "wrote " << options.out << " (" << rows << " rows, " << cols << " columns) and " << truthPath
            << std::endl;
  return 0;
}

}  // namespace

Command addGenerateCommand(CLI::App& app) {
  auto options = std::make_shared<GenerateOptions>();
  PaperDataSpec& spec = options->spec;
  CLI::App* sub = app.add_subcommand(
      "generate",
      "Write the paper's simulated data: y = intercept + sum of 10 sin(2 pi x_j) over the informative "
      "covariates + N(0, noise-var), x_j ~ U(0,1).");
  addSizeOption(sub, "--rows", spec.rows, "Number of rows")->required()->default_str("");
  addIntOption(sub, "--covariates", spec.covariates, "Number of covariates x1..xp");
  options->informative =
      addIntOption(sub, "--informative", spec.informative,
                   "How many covariates carry a signal (drawn by the seed; default 20, at most --covariates)")
          ->default_str("");
  addRealOption(sub, "--noise-var", spec.noiseVariance, "Variance of the Gaussian noise");
  addRealOption(sub, "--intercept", spec.intercept, "Intercept of y");
  addSeedOption(sub, "--seed", spec.seed, "Random seed (the same seed gives the same file on any machine)");
  sub->add_option("--out", options->out, "CSV file to write (header y,x1,...,xp); also writes <out>.truth.json")
      ->required();
  sub->add_flag("--quiet", options->quiet, "No progress lines on stderr (they appear only for runs over ~2 s)");
  return {sub, [options]() { return runGenerate(*options); }};
}

}  // namespace gb::cli

// gamboost generate: the paper's simulated data (section 4.1) as CSV, plus <out>.truth.json naming the
// informative covariates so a fit can be checked against the truth.
#include <iostream>
#include <memory>

#include "Commands.hpp"
#include "data/CsvWriter.hpp"
#include "data/PaperData.hpp"

namespace gb::cli {
namespace {

struct GenerateOptions {
  PaperDataSpec spec;
  std::string out;
};

int runGenerate(const GenerateOptions& options) {
  const std::string truthPath = options.out + ".truth.json";
  // A bad --out must fail before the (possibly long) generation, and leave neither file behind.
  checkWritable(options.out, "--out");
  checkWritable(truthPath, "--out");
  const PaperData data = generatePaperData(options.spec);
  writeCsv(options.out, data.data);
  writeTextFile(truthPath, truthJson(data) + "\n");
  std::cerr << "wrote " << options.out << " (" << data.data.rows() << " rows, " << data.data.cols() << " columns) and "
            << truthPath << std::endl;
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
  addIntOption(sub, "--informative", spec.informative, "How many covariates carry a signal (drawn by the seed)");
  addRealOption(sub, "--noise-var", spec.noiseVariance, "Variance of the Gaussian noise");
  addRealOption(sub, "--intercept", spec.intercept, "Intercept of y");
  addSeedOption(sub, "--seed", spec.seed, "Random seed (the same seed gives the same file on any machine)");
  sub->add_option("--out", options->out, "CSV file to write (header y,x1,...,xp); also writes <out>.truth.json")
      ->required();
  return {sub, [options]() { return runGenerate(*options); }};
}

}  // namespace gb::cli

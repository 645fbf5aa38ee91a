// gamboost predict: apply a saved model (model.json or result.json) to new data.
#include <iostream>
#include <memory>

#include "Commands.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "data/OutputFiles.hpp"
#include "model/Model.hpp"
#include "settings/ModelEnums.hpp"

namespace gb::cli {
namespace {

struct PredictOptions {
  std::string model, data, out;
  std::string type = "link";
  std::string missing = "omit";
};

int runPredict(const PredictOptions& o) {
  OutputFiles outputs;
  outputs.addInput(o.model, "--model");
  outputs.addInput(o.data, "--data");
  outputs.addOutput(o.out, "--out");
  const Model model = Model::load(o.model);
  const Dataset data = readCsv(o.data);
  Prediction prediction = model.predict(data, missingPolicyFromString(o.missing));
  if (o.type == "response") model.toResponseScale(prediction.values, o.data);

  Dataset table;
  table.source = o.out;
  table.names = {"prediction"};
  table.columns.push_back(std::move(prediction.values));
  outputs.setExpectedBytes(o.out, 25 * static_cast<std::uint64_t>(table.rows()) + 64);
  outputs.checkSpace();
  outputs.write(o.out, [&table](std::ostream& out) { writeCsv(out, table); });
  outputs.commit();
  // Outside the training range the splines are extended linearly: usable, but the user should know.
  if (prediction.extrapolatedRows > 0)
    std::cerr << "gamboost: note: " << prediction.extrapolatedRows << " of " << data.rows()
              << " rows extrapolated outside the training range" << std::endl;
  if (prediction.missingRows > 0)
    std::cerr << "gamboost: note: " << missingRowsNote(prediction, data.rows()) << " (--missing fail refuses them)"
              << std::endl;
  return 0;
}

}  // namespace

Command addPredictCommand(CLI::App& app) {
  auto options = std::make_shared<PredictOptions>();
  CLI::App* sub =
      app.add_subcommand("predict", "Predict with a saved model; writes a CSV with one column 'prediction'.");
  sub->add_option("--model", options->model, "model.json from 'gamboost fit --model' (a result.json works too)")
      ->required()
      ->check(fileNameValidator());
  sub->add_option("--data", options->data, "CSV with (at least) the columns of the learners the fit selected")
      ->required()
      ->check(fileNameValidator());
  sub->add_option("--out", options->out, "CSV file to write")->required();
  sub->add_option("--type", options->type,
                  "link: f (half log-odds for binomial, log rate for poisson); response: the mean, probability or rate")
      ->check(oneOfValidator({"link", "response"}))
      ->capture_default_str();
  sub->add_option(
         "--missing", options->missing,
         "A row with a missing value in a selected learner's column: omit (its prediction is NA, as mboost's) or fail")
      ->check(oneOfValidator({"omit", "fail"}))
      ->capture_default_str();
  return {sub, [options]() { return runPredict(*options); }};
}

}  // namespace gb::cli

// libFuzzer harness for the model reader (gb::Model::load, gb::Model::fromJson) and Model::predict.
//
// Input: the bytes of a model.json (or result.json), as is, so that real model files are the seed corpus.
// Documented errors (gb::InputError, gb::Error) are fine; anything else is a finding, as is a broken property
// of a model that loaded:
//   - it re-serialises (toJson().dump()), the text reloads, and the reloaded model serialises to the same text;
//   - predict() on a small table with a column per learner (each learner's lo, midpoint and hi, values just
//     outside, far outside, and 0; a factor's column is text holding its levels) gives one value per row and at most
//     that many extrapolated rows; the last row (NA in the first column, 0 elsewhere) is predicted NA, every other row
//     a finite number, and
//     --missing fail refuses the table.
#include <cmath>
#include <limits>

#include "FuzzSupport.hpp"
#include "common/Error.hpp"
#include "model/Model.hpp"

namespace {

// A table of every learner's column. Its last row is missing in the column of the first learner that predict reads
// (one the fit selected, or with a non-zero coefficient: LearnerModel::contributes), if any; *missingPlaced says so.
gb::Dataset predictionTable(const gb::Model& m, bool* missingPlaced) {
  gb::Dataset d;
  *missingPlaced = false;
  const auto lastRow = [missingPlaced](const gb::LearnerModel& l) {
    if (*missingPlaced || !l.contributes()) return 0.0;
    *missingPlaced = true;
    return std::numeric_limits<double>::quiet_NaN();
  };
  d.source = "fuzz-table";
  const double inf = std::numeric_limits<double>::infinity();
  for (const gb::LearnerModel& l : m.learners) {
    if (d.columnIndex(l.name) >= 0) continue;                      // a model may name a column twice; a table may not
    if (l.type == gb::LearnerType::Factor && !l.levels.empty()) {  // a text column of the model's levels
      std::vector<double> codes;
      for (std::size_t i = 0; i < 8; ++i) codes.push_back(static_cast<double>(i % l.levels.size()));
      codes.push_back(lastRow(l));
      d.names.push_back(l.name);
      d.columns.push_back(std::move(codes));
      d.kinds.push_back(gb::ColumnKind::Text);
      d.levels.push_back(l.levels);
      continue;
    }
    std::vector<double> x = {l.lo, l.lo + 0.5 * (l.hi - l.lo), l.hi, -1e300, 1e300, 0.0};
    for (double v : {std::nextafter(l.lo, -inf), std::nextafter(l.hi, inf)}) x.push_back(std::isfinite(v) ? v : 0.0);
    for (double& v : x)
      if (!std::isfinite(v)) v = 0.0;  // lo + (hi - lo) / 2 overflows for the widest ranges
    x.push_back(lastRow(l));
    d.names.push_back(l.name);
    d.columns.push_back(std::move(x));
    d.kinds.push_back(gb::ColumnKind::Numeric);
    d.levels.emplace_back();
  }
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static gbfuzz::MemFile file;
  file.assign(data, size);
  const std::string& path = file.path();

  gb::Model model;
  try {
    model = gb::Model::load(path);
  } catch (const gb::InputError& e) {
    gbfuzz::checkMessage(e.what(), path + ":");
    return 0;
  } catch (const gb::Error& e) {
    return 0;
  }

  GBFUZZ_CHECK(!model.learners.empty(), "a model without learners loaded");
  const std::size_t k = static_cast<std::size_t>(model.settings.spline.knots + model.settings.spline.degree + 1);
  for (const gb::LearnerModel& l : model.learners) {
    GBFUZZ_CHECK(std::isfinite(l.lo) && std::isfinite(l.hi) && l.lo < l.hi, "a learner range that is not lo < hi");
    // A spline has knots + degree + 1 coefficients, a linear learner 2 (b0, b1), a factor one a level.
    const std::size_t expected = l.type == gb::LearnerType::Linear   ? 2
                                 : l.type == gb::LearnerType::Factor ? l.levels.size()
                                                                     : k;
    GBFUZZ_CHECK(l.coefficients.size() == expected, "coefficients do not match the settings");
  }

  // Save and reload: what the engine writes, it must read back, unchanged.
  const std::string text = model.toJson().dump();
  gb::Model again;
  try {
    again = gb::Model::fromJson(nlohmann::json::parse(text), "resaved");
  } catch (const std::exception& e) {
    gbfuzz::finding(std::string("a loaded model, saved again, does not reload: ") + e.what() + "\n" +
                    text.substr(0, 2000));
  }
  GBFUZZ_CHECK(again.toJson().dump() == text, "a reloaded model serialises differently");

  // Predict on a table that has every learner's column. A learner the fit never selected is not read (as in mboost's
  // predict), so the missing cell sits in a column predict reads, or nowhere when it reads none.
  bool missingPlaced = false;
  const gb::Dataset table = predictionTable(model, &missingPlaced);
  try {
    const gb::Prediction p = model.predict(table);
    GBFUZZ_CHECK(p.values.size() == table.rows(), "predict gave a wrong number of values");
    GBFUZZ_CHECK(p.extrapolatedRows <= table.rows(), "more extrapolated rows than rows");
    if (missingPlaced)
      GBFUZZ_CHECK(p.missingRows == 1 && std::isnan(p.values.back()), "the row with a missing cell is not NA");
    else
      GBFUZZ_CHECK(p.missingRows == 0 && !std::isnan(p.values.back()), "a row is NA with no cell missing");
    for (std::size_t i = 0; i + 1 < p.values.size(); ++i)
      GBFUZZ_CHECK(std::isfinite(p.values[i]), "a prediction that is not a finite number");
    bool refused = false;
    try {
      model.predict(table, gb::MissingPolicy::Fail);
    } catch (const gb::InputError& e) {
      gbfuzz::checkMessage(e.what(), "fuzz-table:");
      refused = true;
    }
    GBFUZZ_CHECK(refused == missingPlaced, "--missing fail and the missing cell disagree");
  } catch (const gb::InputError& e) {
    gbfuzz::checkMessage(e.what(), "fuzz-table:");
  }
  return 0;
}

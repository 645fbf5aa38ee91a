#include "model/Model.hpp"

#include <cmath>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/Text.hpp"
#include "data/CsvWriter.hpp"
#include "model/ModelReader.hpp"

namespace gb {

double splineEffect(const SplineBasis& basis, const double* gamma, double x, bool* outside) {
  double w[SplineBasis::kMaxDegree + 1];
  bool out = false;
  const int first = basis.evaluateExtrapolated(x, w, &out);
  double sum = 0.0;
  for (int r = 0; r <= basis.degree(); ++r) sum += w[r] * gamma[first + r];
  if (outside) *outside = out;
  return sum;
}

double Model::partialEffect(std::size_t learner, double x, bool* outside) const {
  if (learner >= learners.size()) throw InputError("model has no learner number " + std::to_string(learner));
  const LearnerModel& l = learners[learner];
  return splineEffect(l.basis(settings.spline), l.coefficients.data(), x, outside);
}

namespace {

// Why row value x of a learner made the prediction non-finite, for the message.
std::string nonFiniteReason(const LearnerModel& l, double x, bool outside) {
  std::string why = "the prediction is not a finite number";
  if (outside)
    // 15 digits show back any cell written with at most 15 significant digits as it was written.
    return why + " (" + quotedForMessage(l.name) + " = " + formatNumber(x, 15) +
           " lies too far outside its training range [" + formatNumber(l.lo, 17) + ", " + formatNumber(l.hi, 17) + "])";
  return why + " (the model's coefficients of " + quotedForMessage(l.name) + " overflow)";
}

}  // namespace

Prediction Model::predict(const Dataset& data) const {
  const std::size_t n = data.rows();
  Prediction p;
  p.values.assign(n, offset);
  std::vector<char> extrapolated(n, 0);
  for (const LearnerModel& l : learners) {
    const int c = data.columnIndex(l.name);
    if (c < 0)
      throw InputError(
          locate(data.source, 1, 0, "no column named " + quotedForMessage(l.name) + " (a learner of the model)"));
    const std::vector<double>& x = data.columns[static_cast<std::size_t>(c)];
    const SplineBasis basis = l.basis(settings.spline);
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(x[i]))
        throw InputError(
            locate(data.source, static_cast<long>(i) + 2, c + 1, quotedForMessage(l.name) + " is not a finite number"));
      bool outside = false;
      p.values[i] += splineEffect(basis, l.coefficients.data(), x[i], &outside);
      // Checked after every learner, so the message names the cell that tipped the sum over (inf + -inf = NaN
      // later would hide it): a prediction file must never hold inf or NaN.
      if (!std::isfinite(p.values[i]))
        throw InputError(locate(data.source, static_cast<long>(i) + 2, c + 1, nonFiniteReason(l, x[i], outside)));
      extrapolated[i] |= static_cast<char>(outside);
    }
  }
  for (char e : extrapolated) p.extrapolatedRows += static_cast<std::size_t>(e);
  return p;
}

nlohmann::json Model::toJson() const {
  nlohmann::json ls = nlohmann::json::array();
  for (const LearnerModel& l : learners) {
    const SplineBasis basis = l.basis(settings.spline);
    ls.push_back({{"name", l.name},
                  {"lambda", l.lambda},
                  {"edf", l.edf},
                  {"k", basis.numColumns()},
                  {"knots", basis.knotVector()},
                  {"range", {l.lo, l.hi}},
                  {"coefficients", l.coefficients},
                  {"selected", l.selected}});
  }
  return nlohmann::json{{"format", "gamboost-model"},
                        {"version", kFormatVersion},
                        {"offset", offset},
                        {"learners", std::move(ls)},
                        {"path", {{"learner", pathLearner}, {"risk", pathRisk}}},
                        {"settings", settings}};
}

Model Model::fromJson(const nlohmann::json& j, const std::string& source) {
  try {
    return modelreader::read(j);
  } catch (const InputError& e) {  // "<field>: ...", e.g. from SplineBasis or the settings
    throw InputError(source + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {  // not expected (every field is type-checked first): still named
    throw InputError(source + ": " + e.what());
  }
}

Model Model::load(const std::string& path) { return fromJson(modelreader::parseFile(path), path); }

void Model::save(const std::string& path) const {
  const nlohmann::json j = toJson();
  writeFileAtomically(path, [&j](std::ostream& out) { out << j.dump(1) << '\n'; });
}

}  // namespace gb

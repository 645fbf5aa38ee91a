#include "model/Model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/Text.hpp"
#include "data/CsvText.hpp"
#include "data/CsvWriter.hpp"
#include "family/FamilyFunctions.hpp"
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

double learnerEffect(LearnerType type, const SplineBasis& basis, const double* gamma, long k, double x, bool* outside) {
  if (type == LearnerType::Spline) return splineEffect(basis, gamma, x, outside);
  if (outside) *outside = type == LearnerType::Linear && (x < basis.lo() || x > basis.hi());
  if (type == LearnerType::Linear) return gamma[0] + gamma[1] * x;
  const auto level = static_cast<long>(x);
  return gamma[0] + (level > 0 && level < k ? gamma[level] : 0.0);
}

bool LearnerModel::contributes() const {
  return selected > 0 || std::any_of(coefficients.begin(), coefficients.end(), [](double c) { return c != 0; });
}

LearnerModel learnerModelOf(const Learner& l, const Eigen::VectorXd& gamma, int selected) {
  LearnerModel lm;
  lm.name = l.name;
  lm.type = l.type;
  lm.levels = l.levels;
  lm.lo = l.basis.lo();
  lm.hi = l.basis.hi();
  lm.lambda = l.lambda;
  lm.edf = l.edf;
  lm.coefficients.assign(gamma.data(), gamma.data() + gamma.size());
  lm.selected = selected;
  return lm;
}

SplineBasis LearnerModel::basis(const SplineSpec& spec) const {
  if (type == LearnerType::Spline) return SplineBasis(lo, hi, spec);
  SplineSpec placeholder = spec;
  placeholder.knots = 1;
  return SplineBasis(type == LearnerType::Linear ? lo : 0.0, type == LearnerType::Linear ? hi : 1.0, placeholder);
}

double Model::partialEffect(std::size_t learner, double x, bool* outside) const {
  if (learner >= learners.size()) throw InputError("model has no learner number " + std::to_string(learner));
  const LearnerModel& l = learners[learner];
  return learnerEffect(l.type, l.basis(settings.spline), l.coefficients.data(),
                       static_cast<long>(l.coefficients.size()), x, outside);
}

void Model::toResponseScale(std::vector<double>& values, const std::string& source) const {
  const FamilyFunctions family = FamilyFunctions::from(settings);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double f = values[i];
    if (std::isnan(f)) continue;  // a row predicted NA (a missing covariate) stays NA
    values[i] = family.response(f);
    if (!std::isfinite(values[i]))
      throw InputError(locate(source, static_cast<long>(i) + 2, 0,
                              "the prediction on the response scale is not a finite number (f = " +
                                  formatNumber(f, 10) + " on the link scale; --type link writes f)"));
  }
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

// "file:line:column: 'x' holds text (...)" at the first text cell of a column a spline or linear learner reads.
std::string textCellAt(const Dataset& data, int c, const std::string& name) {
  const auto col = static_cast<std::size_t>(c);
  const std::vector<double>& x = data.columns[col];
  // The first cell that the CSV reader does not take for a finite number (a column of numbers and one word is
  // text in every cell; "0x10" is text to the reader, though strtod would read it as hex).
  std::size_t row = 0;
  while (row < x.size() &&
         (std::isnan(x[row]) || isNumberCell(data, data.levelsOf(col)[static_cast<std::size_t>(x[row])])))
    ++row;
  if (row == x.size())  // no such cell (cannot come from the reader): the column, not a line
    return locate(data.source, 1, data.fileColumn(col),
                  quotedForMessage(name) + " holds text; the model's learner needs numbers");
  const std::string cell = row < x.size() ? data.levelsOf(col)[static_cast<std::size_t>(x[row])] : "";
  return locate(
      data.source, static_cast<long>(row) + 2, data.fileColumn(col),
      quotedForMessage(name) + " holds text (" + quotedForMessage(cell) + "); the model's learner needs numbers");
}

// A factor's codes in the model's level order for the data's column c: a text cell by its level name, or where no
// level has that name and the cell is a number, by the level that reads as that number (a column of numbers has lost
// its spelling: "01" and "1" are the number 1); a number that two levels read as ("01" and "1") is an error. A text
// column's levels are matched once each; the first row of one that matches nothing is named.
std::vector<double> levelCodes(const LearnerModel& l, const Dataset& data, int c) {
  std::unordered_map<std::string, double> index;
  std::map<double, std::vector<std::size_t>> byNumber;  // the levels that read as each number (-0 as 0)
  const auto key = [](double v) { return v == 0.0 ? 0.0 : v; };
  for (std::size_t a = 0; a < l.levels.size(); ++a) {
    index.emplace(l.levels[a], static_cast<double>(a));
    if (const std::optional<double> v = numberOf(l.levels[a])) byNumber[key(*v)].push_back(a);
  }
  // The code of the number `number` (the cell's value, or what its text reads as); NaN with `why` where none, its
  // text written by text() only then.
  const auto byValue = [&](std::optional<double> number, const auto& text, std::string& why) {
    const auto match = number ? byNumber.find(key(*number)) : byNumber.end();
    if (match == byNumber.end())
      why = "level " + quotedForMessage(text()) + " was not seen in training (" + std::to_string(l.levels.size()) +
            " levels, from " + quotedForMessage(l.levels.front()) + ")";
    else if (match->second.size() > 1)
      why = "the number " + quotedForMessage(text()) + " is both level " +
            quotedForMessage(l.levels[match->second[0]]) + " and level " +
            quotedForMessage(l.levels[match->second[1]]) +
            " of the model (a column of numbers keeps no spelling; a text cell in the column keeps each)";
    else
      return static_cast<double>(match->second.front());
    return std::numeric_limits<double>::quiet_NaN();
  };
  const auto col = static_cast<std::size_t>(c);
  std::vector<double> perLevel;  // a text column: each of its levels' code
  std::vector<std::string> whyLevel;
  if (data.isText(col)) {
    const std::vector<std::string>& levels = data.levelsOf(col);
    whyLevel.resize(levels.size());
    for (std::size_t d = 0; d < levels.size(); ++d) {
      const auto it = index.find(levels[d]);
      perLevel.push_back(it != index.end() ? it->second
                                           : byValue(
                                                 numberOf(levels[d]), [&] { return levels[d]; }, whyLevel[d]));
    }
  }
  const std::vector<double>& x = data.columns[col];
  std::vector<double> codes(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) {
      codes[i] = x[i];
      continue;
    }
    std::string why;
    codes[i] = data.isText(col) ? perLevel[static_cast<std::size_t>(x[i])]
                                : byValue(
                                      x[i], [&] { return levelName(x[i]); }, why);
    if (std::isnan(codes[i]))
      throw InputError(locate(data.source, static_cast<long>(i) + 2, data.fileColumn(col),
                              "factor " + quotedForMessage(l.name) + ": " +
                                  (data.isText(col) ? whyLevel[static_cast<std::size_t>(x[i])] : why)));
  }
  return codes;
}

// Each contributing learner's column of `data` as predict reads it, checked for presence and text: a numeric column
// itself (not a copy: predict runs on files as large as fits do), a factor's as level codes in the model's order.
struct LearnerColumns {
  std::vector<std::vector<double>> factorCodes;  // reserved up front: x points into it
  std::vector<const LearnerModel*> learner;      // the contributing learners, in the model's order
  std::vector<const std::vector<double>*> x;     // per such learner
  std::vector<std::size_t> column;               // per such learner, its index in data
};

LearnerColumns learnerColumns(const std::vector<LearnerModel>& learners, const Dataset& data) {
  LearnerColumns out;
  out.factorCodes.reserve(learners.size());
  for (const LearnerModel& l : learners) {
    if (!l.contributes()) continue;
    out.learner.push_back(&l);
    const int c = data.columnIndex(l.name);
    if (c < 0)
      throw InputError(
          locate(data.source, 1, 0, "no column named " + quotedForMessage(l.name) + " (a learner of the model)"));
    if (l.type != LearnerType::Factor && data.isText(static_cast<std::size_t>(c)))
      throw InputError(textCellAt(data, c, l.name));
    if (l.type == LearnerType::Factor) {
      out.factorCodes.push_back(levelCodes(l, data, c));
      out.x.push_back(&out.factorCodes.back());
    } else {
      out.x.push_back(&data.columns[static_cast<std::size_t>(c)]);
    }
    out.column.push_back(static_cast<std::size_t>(c));
  }
  return out;
}

}  // namespace

std::string missingRowsNote(const Prediction& p, std::size_t rows) {
  std::string note =
      std::to_string(p.missingRows) + " of " + std::to_string(rows) +
      " rows have a missing value (NA; also NaN or empty in a numeric column) in a selected learner's column (";
  for (std::size_t i = 0; i < p.missingByColumn.size(); ++i)
    note += (i > 0 ? ", " : "") + quotedForMessage(p.missingByColumn[i].first) + " " +
            std::to_string(p.missingByColumn[i].second);
  return note + "): their prediction is NA, as in mboost's predict";
}

Prediction Model::predict(const Dataset& data, MissingPolicy missingPolicy) const {
  const std::size_t n = data.rows();
  Prediction p;
  p.values.assign(n, offset);
  const LearnerColumns columns = learnerColumns(learners, data);
  const auto& xs = columns.x;
  const std::vector<const LearnerModel*>& used = columns.learner;
  // Rows with a missing cell (the reader's NA; NaN or empty in a numeric column) in any contributing learner's column
  // are found first: they predict NA whatever the other learners give, so no other cell of theirs can fail the
  // prediction.
  std::vector<char> missing(n, 0);
  for (std::size_t j = 0; j < used.size(); ++j) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (std::isnan((*xs[j])[i])) {
        ++count;
        missing[i] = 1;
      }
    if (count > 0) p.missingByColumn.emplace_back(used[j]->name, count);
  }
  const auto first = std::find(missing.begin(), missing.end(), 1);
  if (missingPolicy == MissingPolicy::Fail && first != missing.end()) {  // the first such row's first such cell
    const auto i = static_cast<std::size_t>(first - missing.begin());
    std::size_t j = 0;
    while (!std::isnan((*xs[j])[i])) ++j;
    throw InputError(locate(data.source, static_cast<long>(i) + 2, data.fileColumn(columns.column[j]),
                            quotedForMessage(used[j]->name) + " is missing (" +
                                (data.isText(columns.column[j]) ? "NA" : "NA, NaN or empty") +
                                "); --missing omit predicts NA for such rows"));
  }
  std::vector<char> extrapolated(n, 0);
  for (std::size_t j = 0; j < used.size(); ++j) {
    const LearnerModel& l = *used[j];
    const std::vector<double>& x = *xs[j];
    const long column = data.fileColumn(columns.column[j]);
    const SplineBasis basis = l.basis(settings.spline);
    const auto k = static_cast<long>(l.coefficients.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (missing[i]) continue;
      if (!std::isfinite(x[i]))
        throw InputError(
            locate(data.source, static_cast<long>(i) + 2, column, quotedForMessage(l.name) + " is not finite"));
      bool outside = false;
      p.values[i] += learnerEffect(l.type, basis, l.coefficients.data(), k, x[i], &outside);
      // Checked after every learner, so the message names the cell that tipped the sum over (inf + -inf = NaN
      // later would hide it): a prediction file must never hold inf, nor a NaN that is not a missing row's NA.
      if (!std::isfinite(p.values[i]))
        throw InputError(locate(data.source, static_cast<long>(i) + 2, column, nonFiniteReason(l, x[i], outside)));
      extrapolated[i] |= static_cast<char>(outside);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    p.extrapolatedRows += static_cast<std::size_t>(extrapolated[i]);
    p.missingRows += static_cast<std::size_t>(missing[i]);
    if (missing[i]) p.values[i] = std::numeric_limits<double>::quiet_NaN();
  }
  return p;
}

nlohmann::json Model::toJson() const {
  nlohmann::json ls = nlohmann::json::array();
  for (const LearnerModel& l : learners) {
    nlohmann::json entry{{"name", l.name},        {"type", toString(l.type)},   {"lambda", l.lambda},
                         {"edf", l.edf},          {"k", l.coefficients.size()}, {"coefficients", l.coefficients},
                         {"selected", l.selected}};
    if (l.type == LearnerType::Spline) entry["knots"] = l.basis(settings.spline).knotVector();
    if (l.type != LearnerType::Factor) entry["range"] = {l.lo, l.hi};
    if (l.type == LearnerType::Factor) entry["levels"] = l.levels;
    ls.push_back(std::move(entry));
  }
  nlohmann::json j{{"format", "gamboost-model"}, {"version", kFormatVersion}, {"family", toString(settings.family)},
                   {"offset", offset},           {"learners", std::move(ls)}, {"settings", settings}};
  // A model read without a path (the reader allows it) has none to write: an empty one would not read back.
  if (!pathRisk.empty()) j["path"] = {{"learner", pathLearner}, {"risk", pathRisk}};
  if (!responseLevels.empty()) j["response_levels"] = responseLevels;
  return j;
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

#include "model/Model.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "common/Error.hpp"
#include "data/CsvWriter.hpp"

namespace gb {

namespace {

constexpr const char* kFormat = "gamboost-model";
constexpr int kVersion = 1;

// Malformed model files: collected as plain messages, prefixed with the source once in fromJson.
struct Malformed {
  std::string message;
};

const nlohmann::json& member(const nlohmann::json& j, const std::string& key, const std::string& where) {
  if (!j.is_object()) throw Malformed{where + " is not a JSON object"};
  const auto it = j.find(key);
  if (it == j.end()) throw Malformed{"missing key '" + key + "'" + (where.empty() ? "" : " in " + where)};
  return *it;
}

double number(const nlohmann::json& j, const std::string& what) {
  if (!j.is_number()) throw Malformed{what + " must be a number"};
  return j.get<double>();
}

std::vector<double> numbers(const nlohmann::json& j, const std::string& what) {
  if (!j.is_array()) throw Malformed{what + " must be an array of numbers"};
  std::vector<double> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(number(j[i], what + "[" + std::to_string(i) + "]"));
  return out;
}

LearnerModel parseLearner(const nlohmann::json& j, std::size_t index, const ModelSettings& settings) {
  const std::string where = "learners[" + std::to_string(index) + "]";
  LearnerModel l;
  const nlohmann::json& name = member(j, "name", where);
  if (!name.is_string()) throw Malformed{where + ".name must be a string"};
  l.name = name.get<std::string>();
  const std::vector<double> range = numbers(member(j, "range", where), where + ".range");
  if (range.size() != 2 || !(range[0] < range[1]) || !std::isfinite(range[0]) || !std::isfinite(range[1]))
    throw Malformed{where + ".range must be [lo, hi] with lo < hi"};
  l.lo = range[0];
  l.hi = range[1];
  l.coefficients = numbers(member(j, "coefficients", where), where + ".coefficients");
  const std::size_t k = static_cast<std::size_t>(settings.spline.knots + settings.spline.degree + 1);
  if (l.coefficients.size() != k)
    throw Malformed{where + ".coefficients has " + std::to_string(l.coefficients.size()) +
                    " values, the settings give " + std::to_string(k) + " basis columns"};
  if (j.contains("k") && number(j["k"], where + ".k") != static_cast<double>(k))
    throw Malformed{where + ".k does not match the settings (" + std::to_string(k) + ")"};
  if (j.contains("knots")) {
    // The knot vector is rebuilt from range + settings; a stored one that disagrees means a corrupt file.
    const std::vector<double> stored = numbers(j["knots"], where + ".knots");
    const std::vector<double> rebuilt = l.basis(settings.spline).knotVector();
    bool same = stored.size() == rebuilt.size();
    for (std::size_t i = 0; same && i < stored.size(); ++i)
      same = std::abs(stored[i] - rebuilt[i]) <= 1e-12 * std::max(1.0, std::abs(rebuilt[i]));
    if (!same) throw Malformed{where + ".knots does not match the knots of range and settings"};
  }
  if (j.contains("lambda")) l.lambda = number(j["lambda"], where + ".lambda");
  if (j.contains("edf")) l.edf = number(j["edf"], where + ".edf");
  if (j.contains("selected")) l.selected = static_cast<int>(number(j["selected"], where + ".selected"));
  return l;
}

Model parseModel(const nlohmann::json& j) {
  if (!j.is_object()) throw Malformed{"expected a JSON object"};
  if (j.contains("format") && j["format"] != kFormat) throw Malformed{"format is not '" + std::string(kFormat) + "'"};
  if (j.contains("version") && j["version"] != kVersion)
    throw Malformed{"unsupported version " + j["version"].dump() + " (this build reads " + std::to_string(kVersion) +
                    ")"};
  Model m;
  try {
    from_json(member(j, "settings", ""), m.settings);
    m.settings.validate();
  } catch (const nlohmann::json::exception& e) {
    throw Malformed{std::string("settings: ") + e.what()};
  } catch (const InputError& e) {
    throw Malformed{std::string("settings: ") + e.what()};
  }
  m.offset = number(member(j, "offset", ""), "offset");
  const nlohmann::json& learners = member(j, "learners", "");
  if (!learners.is_array() || learners.empty()) throw Malformed{"learners must be a non-empty array"};
  for (std::size_t i = 0; i < learners.size(); ++i) m.learners.push_back(parseLearner(learners[i], i, m.settings));
  if (j.contains("path")) {
    const nlohmann::json& path = j["path"];
    const nlohmann::json& names = member(path, "learner", "path");
    if (!names.is_array()) throw Malformed{"path.learner must be an array of names"};
    for (const auto& name : names) {
      if (!name.is_string()) throw Malformed{"path.learner must be an array of names"};
      m.pathLearner.push_back(name.get<std::string>());
    }
    m.pathRisk = numbers(member(path, "risk", "path"), "path.risk");
    if (m.pathRisk.size() != m.pathLearner.size() + 1)
      throw Malformed{"path.risk has " + std::to_string(m.pathRisk.size()) + " values, expected " +
                      std::to_string(m.pathLearner.size() + 1) + " (one per iteration plus the offset's)"};
  }
  return m;
}

}  // namespace

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

Prediction Model::predict(const Dataset& data) const {
  const std::size_t n = data.rows();
  Prediction p;
  p.values.assign(n, offset);
  std::vector<char> extrapolated(n, 0);
  for (const LearnerModel& l : learners) {
    const int c = data.columnIndex(l.name);
    if (c < 0) throw InputError(locate(data.source, 1, 0, "no column named '" + l.name + "' (a learner of the model)"));
    const std::vector<double>& x = data.columns[static_cast<std::size_t>(c)];
    const SplineBasis basis = l.basis(settings.spline);
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(x[i]))
        throw InputError(
            locate(data.source, static_cast<long>(i) + 2, c + 1, "'" + l.name + "' is not a finite number"));
      bool outside = false;
      p.values[i] += splineEffect(basis, l.coefficients.data(), x[i], &outside);
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
  return nlohmann::json{{"format", kFormat},
                        {"version", kVersion},
                        {"offset", offset},
                        {"learners", std::move(ls)},
                        {"path", {{"learner", pathLearner}, {"risk", pathRisk}}},
                        {"settings", settings}};
}

Model Model::fromJson(const nlohmann::json& j, const std::string& source) {
  try {
    return parseModel(j);
  } catch (const Malformed& e) {
    throw InputError(source + ": " + e.message);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": " + e.what());
  } catch (const InputError& e) {  // e.g. SplineBasis rejecting the stored range
    throw InputError(source + ": " + e.what());
  }
}

Model Model::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open for reading");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": not valid JSON (" + e.what() + ")");
  }
  return fromJson(j, path);
}

void Model::save(const std::string& path) const {
  const nlohmann::json j = toJson();
  writeFileAtomically(path, [&j](std::ostream& out) { out << j.dump(1) << '\n'; });
}

}  // namespace gb

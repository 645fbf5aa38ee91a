#include "boost/ModelSettings.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "common/Error.hpp"
#include "common/Format.hpp"

namespace gb {

namespace {

void require(bool ok, const std::string& option, const std::string& rule, double got) {
  if (!ok) throw InputError(optionMessage(option, rule + " (got " + formatNumber(got, 12) + ")"));
}

std::string describeSource(const Dataset& data) { return data.source.empty() ? "the data" : data.source; }

// Missing keys keep their defaults (older files, hand-written settings); present keys must have the right type
// (nlohmann throws type_error otherwise).
template <typename T>
void readIfPresent(const nlohmann::json& j, const char* key, T& value) {
  if (const auto it = j.find(key); it != j.end()) it->get_to(value);
}

// Enum words must be known: InputError from the *FromString parser.
template <typename E>
void readIfPresent(const nlohmann::json& j, const char* key, E& value, E (*parse)(const std::string&)) {
  if (const auto it = j.find(key); it != j.end()) value = parse(it->get<std::string>());
}

}  // namespace

void ModelSettings::validate() const {
  require(spline.knots >= 1, "--knots", "must be at least 1", spline.knots);
  require(spline.degree >= 1 && spline.degree <= SplineBasis::kMaxDegree, "--degree", "must be in 1..5", spline.degree);
  require(differences >= 0 && differences <= 3, "--differences", "must be in 0..3", differences);
  // Written as !(edf > 0) so that NaN fails too.
  require(edf > 0.0, "--edf", "must be greater than 0", edf);
  require(nu > 0.0 && nu <= 1.0, "--nu", "must be in (0, 1]", nu);
  require(mstop >= 1, "--mstop", "must be at least 1", mstop);
  if (response.empty()) throw InputError(optionMessage("--response", "must name a column"));
}

std::vector<std::string> ModelSettings::resolveLearners(const Dataset& data) const {
  if (data.columnIndex(response) < 0)
    throw InputError(optionMessage("--response", "no column named '" + response + "' in " + describeSource(data)));
  std::vector<std::string> names;
  if (learners.empty()) {
    for (const auto& name : data.names)
      if (name != response) names.push_back(name);
    if (names.empty())
      throw InputError(
          optionMessage("--learners", describeSource(data) + " has no column besides the response '" + response + "'"));
    return names;
  }
  std::set<std::string> seen;
  for (const auto& name : learners) {
    if (data.columnIndex(name) < 0)
      throw InputError(optionMessage("--learners", "no column named '" + name + "' in " + describeSource(data)));
    if (name == response)
      throw InputError(optionMessage("--learners", "'" + name + "' is the response, not a covariate"));
    if (!seen.insert(name).second) throw InputError(optionMessage("--learners", "'" + name + "' is listed twice"));
    names.push_back(name);
  }
  return names;
}

ModelSettings ModelSettings::paperPreset() {
  // Section 4.1: 16 basis functions per covariate = 12 interior knots + cubic; ridge penalty with edf 1 = tr(H).
  ModelSettings s;
  s.spline = SplineSpec{12, 3, Boundary::Clamped};
  s.penalty = PenaltyKind::Ridge;
  s.differences = 0;
  s.edf = 1.0;
  s.edfDefinition = EdfDefinition::Trace;
  return s;
}

ModelSettings ModelSettings::mboostPreset() {
  // The member defaults are mboost's: bbs(knots = 20, degree = 3, differences = 2, df = 4) with the edf
  // definition mboost uses since 2012, and boost_control(nu = 0.1, mstop = 100).
  return ModelSettings{};
}

void to_json(nlohmann::json& j, const ModelSettings& s) {
  j = nlohmann::json{{"response", s.response},
                     {"learners", s.learners},
                     {"knots", s.spline.knots},
                     {"degree", s.spline.degree},
                     {"boundary", toString(s.spline.boundary)},
                     {"penalty", toString(s.penalty)},
                     {"differences", s.differences},
                     {"edf", s.edf},
                     {"edf_definition", toString(s.edfDefinition)},
                     {"nu", s.nu},
                     {"mstop", s.mstop}};
}

void from_json(const nlohmann::json& j, ModelSettings& s) {
  if (!j.is_object()) throw InputError("settings: expected a JSON object");
  readIfPresent(j, "response", s.response);
  readIfPresent(j, "learners", s.learners);
  readIfPresent(j, "knots", s.spline.knots);
  readIfPresent(j, "degree", s.spline.degree);
  readIfPresent(j, "boundary", s.spline.boundary, &boundaryFromString);
  readIfPresent(j, "penalty", s.penalty, &penaltyFromString);
  readIfPresent(j, "differences", s.differences);
  readIfPresent(j, "edf", s.edf);
  readIfPresent(j, "edf_definition", s.edfDefinition, &edfDefinitionFromString);
  readIfPresent(j, "nu", s.nu);
  readIfPresent(j, "mstop", s.mstop);
}

void to_json(nlohmann::json& j, const ComputeSettings& s) {
  j = nlohmann::json{{"backend", s.backend},
                     {"device", s.device},
                     {"precision", s.precision},
                     {"kernel", s.kernel},
                     {"threads", s.threads}};
}

void from_json(const nlohmann::json& j, ComputeSettings& s) {
  if (!j.is_object()) throw InputError("compute settings: expected a JSON object");
  readIfPresent(j, "backend", s.backend);
  readIfPresent(j, "device", s.device);
  readIfPresent(j, "precision", s.precision);
  readIfPresent(j, "kernel", s.kernel);
  readIfPresent(j, "threads", s.threads);
}

}  // namespace gb

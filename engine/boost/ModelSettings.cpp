#include "boost/ModelSettings.hpp"

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/Error.hpp"

namespace gb {

namespace {

std::string number(double v) {
  std::ostringstream out;
  out.precision(12);
  out << v;
  return out.str();
}

void require(bool ok, const std::string& option, const std::string& rule, double got) {
  if (!ok) throw InputError(optionMessage(option, rule + " (got " + number(got) + ")"));
}

std::string describeSource(const Dataset& data) { return data.source.empty() ? "the data" : data.source; }

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
  // bbs() defaults: knots = 20, degree = 3, differences = 2, df = 4; boost_control(): nu = 0.1, mstop = 100.
  ModelSettings s;
  s.spline = SplineSpec{20, 3, Boundary::Extended};
  s.penalty = PenaltyKind::PSpline;
  s.differences = 2;
  s.edf = 4.0;
  s.edfDefinition = EdfDefinition::Mboost;
  return s;
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

// Missing keys keep their defaults (older files, hand-written settings); present keys must have the right type
// (nlohmann throws type_error otherwise) and enum strings must be known (InputError from the *FromString helpers).
void from_json(const nlohmann::json& j, ModelSettings& s) {
  if (!j.is_object()) throw InputError("settings: expected a JSON object");
  if (j.contains("response")) j.at("response").get_to(s.response);
  if (j.contains("learners")) j.at("learners").get_to(s.learners);
  if (j.contains("knots")) j.at("knots").get_to(s.spline.knots);
  if (j.contains("degree")) j.at("degree").get_to(s.spline.degree);
  if (j.contains("boundary")) s.spline.boundary = boundaryFromString(j.at("boundary").get<std::string>());
  if (j.contains("penalty")) s.penalty = penaltyFromString(j.at("penalty").get<std::string>());
  if (j.contains("differences")) j.at("differences").get_to(s.differences);
  if (j.contains("edf")) j.at("edf").get_to(s.edf);
  if (j.contains("edf_definition"))
    s.edfDefinition = edfDefinitionFromString(j.at("edf_definition").get<std::string>());
  if (j.contains("nu")) j.at("nu").get_to(s.nu);
  if (j.contains("mstop")) j.at("mstop").get_to(s.mstop);
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
  if (j.contains("backend")) j.at("backend").get_to(s.backend);
  if (j.contains("device")) j.at("device").get_to(s.device);
  if (j.contains("precision")) j.at("precision").get_to(s.precision);
  if (j.contains("kernel")) j.at("kernel").get_to(s.kernel);
  if (j.contains("threads")) j.at("threads").get_to(s.threads);
}

}  // namespace gb

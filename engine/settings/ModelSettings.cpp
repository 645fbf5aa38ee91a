#include "settings/ModelSettings.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/JsonFields.hpp"

namespace gb {

namespace {

void require(bool ok, const std::string& option, const std::string& rule, double got) {
  if (!ok) throw InputError(optionMessage(option, rule + " (got " + formatNumber(got, 12) + ")"));
}

std::string field(const char* key) { return std::string("settings.") + key; }

// Missing keys keep their defaults (older files, hand-written settings); present keys must have the right type
// and range. Integers are range-checked before any cast (a 1e300 read by get_to<int> is undefined behaviour).
void readInt(const nlohmann::json& j, const char* key, int& value, int lo, int hi) {
  if (const auto it = j.find(key); it != j.end()) value = static_cast<int>(jsonfield::integer(*it, field(key), lo, hi));
}

void readReal(const nlohmann::json& j, const char* key, double& value) {
  if (const auto it = j.find(key); it != j.end()) value = jsonfield::number(*it, field(key));
}

void readNames(const nlohmann::json& j, const char* key, std::vector<std::string>& names) {
  const auto it = j.find(key);
  if (it == j.end()) return;
  if (!it->is_array()) jsonfield::fail(field(key), "must be an array of names, got " + jsonfield::describe(*it));
  names.clear();
  for (std::size_t i = 0; i < it->size(); ++i)
    names.push_back(jsonfield::text((*it)[i], jsonfield::element(field(key), i)));
}

// Enum words must be known.
template <typename E>
void readWord(const nlohmann::json& j, const char* key, E& value, E (*parse)(const std::string&)) {
  jsonfield::word(j, key, field(key), value, parse);
}

// The range rules of validate(), each named both ways: the option for the command line, the field for a file.
struct Named {
  const char* option;
  const char* key;
};

void checkRanges(const ModelSettings& s, bool file) {
  auto name = [file](Named n) { return file ? field(n.key) : std::string(n.option); };
  const std::string knotsRule = "must be in 1.." + std::to_string(ModelSettings::kMaxKnots);
  require(s.spline.knots >= 1 && s.spline.knots <= ModelSettings::kMaxKnots, name({"--knots", "knots"}), knotsRule,
          s.spline.knots);
  require(s.spline.degree >= 1 && s.spline.degree <= SplineSpec::kMaxDegree, name({"--degree", "degree"}),
          "must be in 1..5", s.spline.degree);
  require(s.differences >= 0 && s.differences <= 3, name({"--differences", "differences"}), "must be in 0..3",
          s.differences);
  // Written as !(edf > 0) style comparisons so that NaN fails too; inf is no degrees of freedom either.
  require(s.edf > 0.0 && std::isfinite(s.edf), name({"--edf", "edf"}), "must be a finite number greater than 0", s.edf);
  require(s.nu > 0.0 && s.nu <= 1.0, name({"--nu", "nu"}), "must be in (0, 1]", s.nu);
  require(s.mstop >= 1 && s.mstop <= ModelSettings::kMaxMstop, name({"--mstop", "mstop"}),
          "must be in 1.." + std::to_string(ModelSettings::kMaxMstop), s.mstop);
  require(s.linearEdf >= 0.0 && std::isfinite(s.linearEdf), name({"--linear-edf", "linear_edf"}),
          "must be a finite number greater than 0", s.linearEdf);
  require(s.factorEdf >= 0.0 && std::isfinite(s.factorEdf), name({"--factor-edf", "factor_edf"}),
          "must be a finite number greater than 0", s.factorEdf);
  // A file's settings are all checked, used or not: tau 2 in a gaussian model is a corrupt file. The command
  // line checks them where the family uses them (it refuses --tau for other families before this).
  if (file || s.family == Family::Quantile || s.family == Family::Expectile)
    require(s.tau > 0.0 && s.tau < 1.0, name({"--tau", "tau"}), "must be in (0, 1)", s.tau);
  if (file || s.family == Family::Huber)
    require(s.huberDelta >= 0.0 && std::isfinite(s.huberDelta), name({"--huber-delta", "huber_delta"}),
            "must be a finite number greater than 0 (Huber's d), or 0 for mboost's adaptive d", s.huberDelta);
  if (s.link != BinomialLink::Logit && s.family != Family::Binomial)
    throw InputError(optionMessage(name({"--link", "link"}), "'" + toString(s.link) +
                                                                 "' is a link of --family binomial only (mboost's "
                                                                 "Binomial(link = ...)); --family " +
                                                                 toString(s.family) + " has no link to choose"));
  if (s.hasOffset) require(std::isfinite(s.offset), name({"--offset", "offset"}), "must be a finite number", s.offset);
  if (s.response.empty())
    throw InputError(file ? field("response") + ": must name a column"
                          : optionMessage("--response", "must name a column"));
}

}  // namespace

// Limits. knots <= 1e6 (SplineBasis::kMaxKnots): k = knots + degree + 1 and every index sum of the basis stay
// far inside int, and sizes such as intervals * (degree+1)^2 or k * k are formed in std::size_t / Eigen::Index.
// mstop <= 1e7: the path keeps one index and one risk per iteration (120 MB at the bound; result.json about
// twice that), iteration counters stay far inside int, and 1e7 iterations already take hours at the fastest
// per-iteration times measured (docs/performance.md): a larger value is a typo, not a fit.
void ModelSettings::validate() const { checkRanges(*this, false); }

bool ModelSettings::resamplable() const { return !(family == Family::Huber && !(huberDelta > 0.0)); }

void ModelSettings::requireResamplable(const std::string& option) const {
  if (!resamplable())
    throw InputError(optionMessage(
        option,
        "huber without --huber-delta (mboost's adaptive d) cannot be resampled: mboost's d keeps the state "
        "of the fit before (in cvrisk the full model's, or the fold before's, by how the folds are run), so "
        "mboost has no resampled fit of its own to equal; give a fixed --huber-delta"));
}

std::vector<std::string> ModelSettings::differencesBesideMstop(const ModelSettings& other) const {
  const nlohmann::json a = *this, b = other;
  std::vector<std::string> keys;
  for (const auto& [key, value] : a.items())
    if (key != "mstop" && (!b.contains(key) || b[key] != value)) keys.push_back(key);
  return keys;
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
                     {"linears", s.linears},
                     {"factors", s.factors},
                     {"weights", s.weights},
                     {"missing", toString(s.missing)},
                     {"family", toString(s.family)},
                     {"link", toString(s.link)},
                     {"linear_edf", s.linearEdf},
                     {"factor_edf", s.factorEdf},
                     {"tau", s.tau},
                     {"huber_delta", s.huberDelta},
                     {"offset", s.hasOffset ? nlohmann::json(s.offset) : nlohmann::json(nullptr)},
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
  if (!j.is_object()) jsonfield::fail("settings", "must be a JSON object, got " + jsonfield::describe(j));
  if (const auto it = j.find("response"); it != j.end()) s.response = jsonfield::text(*it, field("response"));
  readNames(j, "learners", s.learners);
  readNames(j, "linears", s.linears);
  readNames(j, "factors", s.factors);
  if (const auto it = j.find("weights"); it != j.end()) s.weights = jsonfield::text(*it, field("weights"));
  readWord(j, "missing", s.missing, &missingPolicyFromString);
  readWord(j, "family", s.family, &familyFromString);
  readWord(j, "link", s.link, &linkFromString);  // absent in files before the links: logit
  readReal(j, "linear_edf", s.linearEdf);
  readReal(j, "factor_edf", s.factorEdf);
  readReal(j, "tau", s.tau);
  readReal(j, "huber_delta", s.huberDelta);
  if (const auto it = j.find("offset"); it != j.end() && !it->is_null()) {
    s.offset = jsonfield::number(*it, field("offset"));
    s.hasOffset = true;
  }
  readInt(j, "knots", s.spline.knots, 1, ModelSettings::kMaxKnots);
  readInt(j, "degree", s.spline.degree, 1, SplineSpec::kMaxDegree);
  readWord(j, "boundary", s.spline.boundary, &boundaryFromString);
  readWord(j, "penalty", s.penalty, &penaltyFromString);
  readInt(j, "differences", s.differences, 0, 3);
  readReal(j, "edf", s.edf);
  readWord(j, "edf_definition", s.edfDefinition, &edfDefinitionFromString);
  readReal(j, "nu", s.nu);
  readInt(j, "mstop", s.mstop, 1, ModelSettings::kMaxMstop);
  checkRanges(s, true);
}

}  // namespace gb

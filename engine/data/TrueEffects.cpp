#include "data/TrueEffects.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>

#include "common/Error.hpp"

namespace gb {

namespace {

double paperEffect(double x) { return 10.0 * std::sin(2.0 * std::numbers::pi * x); }

[[noreturn]] void malformed(const std::string& path, const std::string& what) { throw InputError(path + ": " + what); }

const nlohmann::json& field(const nlohmann::json& root, const std::string& path, const char* name) {
  const auto it = root.find(name);
  if (it == root.end()) malformed(path, std::string("field \"") + name + "\" is missing");
  return *it;
}

}  // namespace

bool TrueEffects::effectKnown() const { return effect == kPaperEffectFormula; }

bool TrueEffects::isInformative(const std::string& covariate) const {
  return std::find(informative.begin(), informative.end(), covariate) != informative.end();
}

double TrueEffects::value(const std::string& covariate, double x) const {
  if (!effectKnown()) throw InputError(source + ": effect \"" + effect + "\" is not one this program can evaluate");
  return isInformative(covariate) ? paperEffect(x) : 0.0;
}

TrueEffects trueEffectsOf(const PaperData& data) {
  TrueEffects t;
  t.informative = data.informative;
  t.effect = kPaperEffectFormula;
  t.intercept = data.spec.intercept;
  t.source = data.data.source;
  return t;
}

std::string truthPathFor(const std::string& csvPath) { return csvPath + ".truth.json"; }

TrueEffects parseTrueEffects(const std::string& jsonText, const std::string& path) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(jsonText);
  } catch (const nlohmann::json::parse_error& e) {
    malformed(path, std::string("not valid JSON: ") + e.what());
  }
  if (!root.is_object()) malformed(path, "expected a JSON object");
  TrueEffects t;
  t.source = path;
  const nlohmann::json& informative = field(root, path, "informative");
  if (!informative.is_array()) malformed(path, "field \"informative\" must be an array of covariate names");
  for (const auto& name : informative) {
    if (!name.is_string()) malformed(path, "field \"informative\" must be an array of covariate names");
    t.informative.push_back(name.get<std::string>());
  }
  const nlohmann::json& effect = field(root, path, "effect");
  if (!effect.is_string()) malformed(path, "field \"effect\" must be a string such as \"10*sin(2*pi*x)\"");
  t.effect = effect.get<std::string>();
  const nlohmann::json& intercept = field(root, path, "intercept");
  if (!intercept.is_number()) malformed(path, "field \"intercept\" must be a number");
  t.intercept = intercept.get<double>();
  return t;
}

std::optional<TrueEffects> readTrueEffects(const std::string& csvPath) {
  const std::string path = truthPathFor(csvPath);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) malformed(path, "cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return parseTrueEffects(text.str(), path);
}

std::vector<double> centredTrueEffect(const TrueEffects& truth, const std::string& covariate,
                                      const std::vector<double>& grid, const std::vector<double>& usedX,
                                      const std::vector<double>& weights) {
  if (!truth.effectKnown()) truth.value(covariate, 0.0);  // throws, naming the formula
  if (!truth.isInformative(covariate)) return std::vector<double>(grid.size(), 0.0);
  if (!weights.empty() && weights.size() != usedX.size())
    throw InputError(covariate + ": " + std::to_string(weights.size()) + " weights for " +
                     std::to_string(usedX.size()) + " rows");
  double sum = 0.0, total = 0.0;
  const auto n = static_cast<long long>(usedX.size());
  const bool weighted = !weights.empty();
#pragma omp parallel for reduction(+ : sum, total) schedule(static) if (n >= 100000)
  for (long long i = 0; i < n; ++i) {
    const double w = weighted ? weights[static_cast<std::size_t>(i)] : 1.0;
    sum += w * paperEffect(usedX[static_cast<std::size_t>(i)]);
    total += w;
  }
  const double mean = total > 0.0 ? sum / total : 0.0;
  std::vector<double> out(grid.size());
  for (std::size_t k = 0; k < grid.size(); ++k) out[k] = paperEffect(grid[k]) - mean;
  return out;
}

}  // namespace gb

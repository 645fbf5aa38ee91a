#include "window/SessionFile.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>

#include "common/Error.hpp"
#include "common/QtConvert.hpp"
#include "data/CsvWriter.hpp"
#include "data/Dataset.hpp"
#include "fit/BandsJob.hpp"
#include "model/ModelReader.hpp"

namespace gbui {

namespace {

using nlohmann::json;

json toJson(const QStringList& list) {
  json a = json::array();
  for (const QString& s : list) a.push_back(ss(s));
  return a;
}

QStringList toList(const json& a) {
  QStringList out;
  for (const auto& s : a) out << qs(s.get<std::string>());
  return out;
}

json rolesToJson(const ColumnRoles& r) {
  return {{"response", ss(r.response)},   {"learners", toJson(r.learners)}, {"linears", toJson(r.linears)},
          {"factors", toJson(r.factors)}, {"weights", ss(r.weights)},       {"ignored", toJson(r.ignored)}};
}

ColumnRoles rolesFromJson(const json& r) {
  ColumnRoles roles;
  roles.response = qs(r.at("response").get<std::string>());
  roles.learners = toList(r.at("learners"));
  roles.linears = toList(r.value("linears", json::array()));
  roles.factors = toList(r.value("factors", json::array()));
  roles.weights = qs(r.value("weights", std::string()));
  roles.ignored = toList(r.value("ignored", json::array()));
  return roles;
}

json cvToJson(const CvState& cv) {
  json result = nullptr;
  if (!cv.risk.empty()) result = {{"risk", cv.risk}, {"mean", cv.mean}, {"mstop", cv.mstop}};
  return {{"type", foldTypeWord(cv.type)},
          {"count", cv.count},
          {"prob", cv.prob},
          {"seed", cv.seed},
          {"folds_file", cv.foldsFile.isEmpty() ? json(nullptr) : json(ss(QFileInfo(cv.foldsFile).absoluteFilePath()))},
          {"result", result}};
}

// Throws gb::InputError naming the field for what the tab could not show.
CvState cvFromJson(const json& j, const QDir& base) {
  CvState cv;
  cv.type = foldTypeFromWord(j.at("type").get<std::string>());
  cv.count = j.at("count").get<int>();
  cv.prob = j.at("prob").get<double>();
  cv.seed = j.at("seed").get<std::uint64_t>();
  if (j.contains("folds_file") && j.at("folds_file").is_string())
    cv.foldsFile = base.absoluteFilePath(qs(j.at("folds_file").get<std::string>()));
  if (cv.count < 1 || !(cv.prob > 0.0 && cv.prob < 1.0))
    throw gb::InputError("cross_validation: count must be at least 1 and prob in (0, 1)");
  const json& r = j.value("result", json(nullptr));
  if (r.is_null()) return cv;
  r.at("risk").get_to(cv.risk);
  r.at("mean").get_to(cv.mean);
  cv.mstop = r.at("mstop").get<int>();
  bool ok = !cv.risk.empty() && !cv.mean.empty() && cv.mstop >= 0 && cv.mstop < static_cast<int>(cv.mean.size());
  for (const auto& curve : cv.risk) ok = ok && curve.size() == cv.mean.size();
  if (!ok)
    throw gb::InputError(
        "cross_validation.result: needs one risk curve per fold, each as long as the mean, and "
        "mstop an index into the mean");
  return cv;
}

}  // namespace

QString dataFingerprint(const gb::Dataset& data) {
  std::uint64_t h = 14695981039346656037ull;
  auto bytes = [&h](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  auto text = [&](const std::string& s) {
    bytes(s.data(), s.size() + 1);
  };  // with its terminator: "ab","c" != "a","bc"
  const std::size_t rows = data.rows();
  bytes(&rows, sizeof rows);
  for (std::size_t c = 0; c < data.cols(); ++c) {
    text(data.names[c]);
    const int kind = static_cast<int>(data.kind(c));
    bytes(&kind, sizeof kind);
    if (c < data.levels.size())
      for (const std::string& level : data.levels[c]) text(level);
    bytes(data.columns[c].data(), data.columns[c].size() * sizeof(double));
  }
  return QString::number(h, 16);
}

void saveSession(const QString& path, const Session& s) {
  json data;
  if (s.data.kind == DataSourceSpec::Kind::Paper) {
    data = {{"kind", "paper"},
            {"rows", s.data.paper.rows},
            {"covariates", s.data.paper.covariates},
            {"informative", s.data.paper.informative},
            {"noise_var", s.data.paper.noiseVariance},
            {"intercept", s.data.paper.intercept},
            {"seed", s.data.paper.seed}};
  } else if (s.data.kind == DataSourceSpec::Kind::Csv) {
    data = {{"kind", "csv"}, {"path", ss(QFileInfo(s.data.path).absoluteFilePath())}};
  } else {
    data = {{"kind", "none"}};
  }
  if (!s.dataFingerprint.isEmpty()) data["fingerprint"] = ss(s.dataFingerprint);
  json j{{"format", "gamboost-studio-session"},
         {"version", 1},
         {"data", data},
         {"roles", rolesToJson(s.roles)},
         {"settings", s.settings},
         {"compute", s.compute},
         {"model", s.modelPath.isEmpty() ? json(nullptr) : json(ss(s.modelPath))},
         {"bands", s.bands},
         {"cross_validation", cvToJson(s.cv)}};
  gb::writeFileAtomically(ss(path), [&](std::ostream& out) { out << j.dump(2) << '\n'; });
}

Session loadSession(const QString& path) {
  // As a model file is read: a regular file, strict JSON, errors at "<path>:line:column: not valid JSON: ..." (a
  // truncated session said "malformed session file: [json.exception.parse_error.101] ...").
  const json j = gb::modelreader::parseFile(ss(path));
  Session s;
  try {
    if (j.value("format", "") != "gamboost-studio-session")
      throw gb::InputError(ss(path) +
                           ": not a GAMBoost Studio session file (no \"format\": \"gamboost-studio-session\")");
    const json& d = j.at("data");
    const std::string kind = d.at("kind").get<std::string>();
    const QDir base = QFileInfo(path).absoluteDir();
    if (kind == "paper") {
      s.data.kind = DataSourceSpec::Kind::Paper;
      s.data.paper.rows = d.at("rows").get<std::size_t>();
      s.data.paper.covariates = d.at("covariates").get<int>();
      s.data.paper.informative = d.at("informative").get<int>();
      s.data.paper.noiseVariance = d.at("noise_var").get<double>();
      s.data.paper.intercept = d.value("intercept", 7.0);
      s.data.paper.seed = d.at("seed").get<std::uint64_t>();
    } else if (kind == "csv") {
      s.data.kind = DataSourceSpec::Kind::Csv;
      s.data.path = base.absoluteFilePath(qs(d.at("path").get<std::string>()));
    } else if (kind != "none") {
      throw gb::InputError(ss(path) + ": unknown data kind '" + kind + "' (paper, csv or none)");
    }
    s.dataFingerprint = qs(d.value("fingerprint", std::string()));
    s.roles = rolesFromJson(j.at("roles"));
    j.at("settings").get_to(s.settings);
    j.at("compute").get_to(s.compute);
    if (j.contains("model") && j.at("model").is_string())
      s.modelPath = base.absoluteFilePath(qs(j.at("model").get<std::string>()));
    if (j.contains("cross_validation")) s.cv = cvFromJson(j.at("cross_validation"), base);
    s.bands = j.value("bands", 0);
    if (s.bands < 0 || s.bands > kMaxWindowBands)
      throw gb::InputError("\"bands\": " + std::to_string(s.bands) + " is outside 0.." +
                           std::to_string(kMaxWindowBands));
  } catch (const gb::InputError& e) {
    const std::string what = e.what();
    if (what.rfind(ss(path), 0) == 0) throw;
    throw gb::InputError(ss(path) + ": " + what);
  } catch (const std::exception& e) {
    throw gb::InputError(ss(path) + ": malformed session file: " + e.what());
  }
  return s;
}

QString rolesToText(const ColumnRoles& roles) { return qs(rolesToJson(roles).dump()); }

std::optional<ColumnRoles> rolesFromText(const QString& text) {
  try {
    return rolesFromJson(json::parse(ss(text)));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace gbui

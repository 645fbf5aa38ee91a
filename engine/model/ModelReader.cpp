#include "model/ModelReader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/JsonFields.hpp"
#include "common/Text.hpp"
#include "settings/ComputeSettings.hpp"

namespace gb::modelreader {

namespace {

using nlohmann::json;
using namespace jsonfield;

// Opening a directory "succeeds" in an ifstream and then reads as an empty file, and opening a FIFO blocks until
// a writer comes: both are refused by type before any open, with a message that says what the path is.
std::string readRegularFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (st.type() == fs::file_type::not_found) throw InputError(path + ": cannot open for reading (no such file)");
  if (ec) throw InputError(path + ": cannot open for reading (" + ec.message() + ")");
  if (fs::is_directory(st)) throw InputError(path + ": is a directory, not a model file");
  if (!fs::is_regular_file(st)) throw InputError(path + ": is not a regular file (a FIFO, socket or device)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open for reading (" + std::strerror(errno) + ")");
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) text.append(buffer, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw InputError(path + ": read error (" + std::strerror(errno) + ")");
  return text;
}

// A key for a message: as written when it is a plain identifier, else quoted and shortened.
std::string keyForMessage(const std::string& key) {
  const bool plain = !key.empty() && key.size() <= 40 && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
  return plain ? key : quotedForMessage(key, 40);
}

struct TooDeep {
  std::string key;  // the top-level key under which it happened ("" : the root itself)
};

struct DuplicateKey {
  std::string field;  // the key's path ("learners[0].offset")
};

// Where the parser is, kept from its callback's events, so that errors the parser raises itself (a number
// beyond the double range: nlohmann throws out_of_range 406 for 1e400) can name the field, and nesting is
// limited. One level per open container: its element count (arrays) or its current key (objects).
class Cursor {
 public:
  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (depth >= kMaxDepth) throw TooDeep{levels_.empty() || levels_[0].array ? "" : levels_[0].key};
        levels_.push_back({event == json::parse_event_t::array_start, 0, {}, {}});
        break;
      case json::parse_event_t::key:
        levels_.back().key = parsed.get<std::string>();
        // nlohmann keeps the last of two equal keys: {"offset": 0.3, "offset": 99} would predict with 99, silently.
        if (!levels_.back().keys.insert(levels_.back().key).second) throw DuplicateKey{path()};
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        levels_.pop_back();
        countElement();
        break;
      case json::parse_event_t::value:
        countElement();
        break;
    }
    return true;
  }

  // The path of the value being read now, as the reader names fields ("learners[0].coefficients[2]").
  std::string path() const {
    std::string out;
    for (const Level& level : levels_)
      out = level.array ? element(out, level.count) : child(out, keyForMessage(level.key).c_str());
    return out;
  }

 private:
  struct Level {
    bool array;
    std::size_t count;
    std::string key;
    std::unordered_set<std::string> keys;  // an object's keys so far
  };
  void countElement() {
    if (!levels_.empty() && levels_.back().array) ++levels_.back().count;
  }
  std::vector<Level> levels_;
};

// "file:line:column" of a byte offset of text (nlohmann reports the offset after the offending character).
std::string locateByte(const std::string& path, const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  long line = 1, column = 1;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return locate(path, line, column, "");
}

}  // namespace

nlohmann::json parseFile(const std::string& path) {
  const std::string text = readRegularFile(path);
  // nlohmann 3.11 parses and destroys iteratively (heap stacks), so depth alone would not crash it; but copies,
  // comparisons and dump() of a value recurse, and no model file needs more than 3 levels: the cursor stops the
  // parse at kMaxDepth and names the top-level field.
  Cursor cursor;
  try {
    return json::parse(text, std::ref(cursor));
  } catch (const TooDeep& e) {
    throw InputError(path + ": " + (e.key.empty() ? "" : keyForMessage(e.key) + ": ") + "nested deeper than " +
                     std::to_string(kMaxDepth) + " levels (a model file needs 3)");
  } catch (const DuplicateKey& e) {
    throw InputError(path + ": " + e.field + ": appears twice (a JSON object's keys must differ)");
  } catch (const json::out_of_range& e) {  // 406: a number literal beyond the double range, e.g. 1e400
    const std::string field = cursor.path();
    throw InputError(path + ": " + (field.empty() ? "" : field + ": ") + "a number beyond the double range");
  } catch (const json::parse_error& e) {
    std::string reason = e.what();
    const std::size_t colon = reason.find(": ", reason.find("column"));
    if (colon != std::string::npos) reason = reason.substr(colon + 2);
    const std::string quoted = quotedForMessage(reason, 160);  // escapes what nlohmann echoes of the input
    throw InputError(locateByte(path, text, e.byte) + "not valid JSON: " + quoted.substr(1, quoted.size() - 2));
  }
}

namespace {

constexpr const char* kFormat = "gamboost-model";

// A real number without a fraction (2.0 where an integer belongs).
bool integralReal(const json& j) {
  if (!j.is_number_float()) return false;
  const double v = j.get<double>();
  return std::isfinite(v) && v == std::floor(v);
}

// Checked before anything else: a file of another format or version is named as such, not as a list of
// missing keys.
int readVersion(const json& root) {
  if (!root.is_object()) fail("", "must be a JSON object, got " + describe(root));
  const json& format = member(root, "format", "");
  if (!format.is_string() || format.get_ref<const std::string&>() != kFormat)
    fail("format", std::string("must be '") + kFormat + "', got " + describe(format));
  const json& version = member(root, "version", "");
  const bool known = (version.is_number_integer() || version.is_number_unsigned()) &&
                     (version.get<std::int64_t>() == 1 || version.get<std::int64_t>() == Model::kFormatVersion);
  if (!known)
    fail("version", "this build reads versions 1 and " + std::to_string(Model::kFormatVersion) + ", got " +
                        describe(version) +
                        (integralReal(version) ? " written as a real number (write it without a fraction)" : ""));
  return static_cast<int>(version.get<std::int64_t>());
}

void readSettings(const json& root, ModelSettings& settings) {
  const json& s = member(root, "settings", "");
  if (!s.is_object()) fail("settings", "must be a JSON object, got " + describe(s));
  // The settings' own keys, plus what result.json adds: the data file, the preset and the compute settings.
  rejectUnknownKeys(s,
                    {"response", "learners",   "linears",    "factors",     "weights",     "missing",        "family",
                     "link",     "linear_edf", "factor_edf", "tau",         "huber_delta", "offset",         "knots",
                     "degree",   "boundary",   "penalty",    "differences", "edf",         "edf_definition", "nu",
                     "mstop",    "data",       "preset",     "compute"},
                    "settings");
  from_json(s, settings);
  if (const auto it = s.find("data"); it != s.end()) text(*it, "settings.data");
  if (const auto it = s.find("preset"); it != s.end()) text(*it, "settings.preset");
  if (const auto it = s.find("compute"); it != s.end()) {
    ComputeSettings compute;
    from_json(*it, compute);
  }
}

// Stored knots are rebuilt from range + settings; a stored vector that disagrees means a corrupt file.
void checkStoredKnots(const json& j, const std::string& path, const LearnerModel& l, const SplineSpec& spec) {
  const std::vector<double> stored = numbers(j, path);
  const std::vector<double> rebuilt = l.basis(spec).knotVector();
  bool same = stored.size() == rebuilt.size();
  for (std::size_t i = 0; same && i < stored.size(); ++i)
    same = std::abs(stored[i] - rebuilt[i]) <= 1e-12 * std::max(1.0, std::abs(rebuilt[i]));
  if (!same) fail(path, "does not match the knots of range and settings");
}

double nonNegative(const json& j, const std::string& path) {
  const double v = number(j, path);
  if (!(v >= 0.0)) fail(path, "must be at least 0, got " + describe(j));
  return v;
}

// The spline part of a learner: its range (valid for a basis of the settings) and k from the settings.
std::size_t readSplineShape(const json& j, const std::string& where, const ModelSettings& settings, LearnerModel& l) {
  const std::string rangePath = child(where, "range");
  const std::vector<double> range = numbers(member(j, "range", where), rangePath);
  if (range.size() != 2) fail(rangePath, "must be [lo, hi], got " + std::to_string(range.size()) + " numbers");
  l.lo = range[0];
  l.hi = range[1];
  if (l.type == LearnerType::Linear) {
    if (!(std::isfinite(l.lo) && std::isfinite(l.hi) && l.lo < l.hi)) fail(rangePath, "must be finite with lo < hi");
    return 2;
  }
  const std::string problem = SplineBasis::rangeProblem(range[0], range[1], settings.spline);
  if (!problem.empty())
    fail(rangePath, "[" + formatNumber(range[0], 17) + ", " + formatNumber(range[1], 17) + "]: " + problem);
  // The settings are checked (knots <= 1e6, degree <= 5): this sum cannot overflow.
  return static_cast<std::size_t>(settings.spline.knots) + settings.spline.degree + 1;
}

std::size_t readLevels(const json& j, const std::string& where, LearnerModel& l) {
  const std::string path = child(where, "levels");
  const json& levels = member(j, "levels", where);
  if (!levels.is_array() || levels.size() < 2) fail(path, "must be an array of at least two level names");
  std::unordered_map<std::string, int> seen;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    l.levels.push_back(text(levels[i], element(path, i)));
    if (!seen.emplace(l.levels.back(), 0).second) fail(element(path, i), "repeats the level " + describe(levels[i]));
  }
  return l.levels.size();
}

LearnerModel readLearner(const json& j, const std::string& where, const ModelSettings& settings) {
  if (!j.is_object()) fail(where, "must be a JSON object, got " + describe(j));
  rejectUnknownKeys(j, {"name", "type", "levels", "lambda", "edf", "k", "knots", "range", "coefficients", "selected"},
                    where);
  LearnerModel l;
  l.name = text(member(j, "name", where), child(where, "name"));
  if (const auto it = j.find("type"); it != j.end()) {
    try {
      l.type = learnerTypeFromString(text(*it, child(where, "type")));
    } catch (const InputError&) {
      fail(child(where, "type"), "must be 'spline', 'linear' or 'factor', got " + describe(*it));
    }
  }
  const std::size_t k =
      l.type == LearnerType::Factor ? readLevels(j, where, l) : readSplineShape(j, where, settings, l);
  l.coefficients = numbers(member(j, "coefficients", where), child(where, "coefficients"));
  if (l.coefficients.size() != k)
    fail(child(where, "coefficients"), "has " + std::to_string(l.coefficients.size()) + " values, the " +
                                           toString(l.type) + " learner needs " + std::to_string(k));
  if (const auto it = j.find("k"); it != j.end() && integer(*it, child(where, "k"), 1, INT32_MAX) != std::int64_t(k))
    fail(child(where, "k"), "does not match the learner (" + std::to_string(k) + "), got " + describe(*it));
  if (const auto it = j.find("knots"); it != j.end() && l.type == LearnerType::Spline)
    checkStoredKnots(*it, child(where, "knots"), l, settings.spline);
  if (const auto it = j.find("lambda"); it != j.end()) l.lambda = nonNegative(*it, child(where, "lambda"));
  if (const auto it = j.find("edf"); it != j.end()) l.edf = nonNegative(*it, child(where, "edf"));
  if (const auto it = j.find("selected"); it != j.end())
    l.selected = static_cast<int>(integer(*it, child(where, "selected"), 0, ModelSettings::kMaxMstop));
  return l;
}

// Learner names must be unique: prediction looks columns up by name, and a version 1 path names learners.
void readLearners(const json& root, Model& m, std::unordered_map<std::string, int>& index) {
  const json& learners = member(root, "learners", "");
  if (!learners.is_array() || learners.empty())
    fail("learners", "must be a non-empty array of learners, got " + describe(learners));
  if (learners.size() > static_cast<std::size_t>(INT32_MAX)) fail("learners", "too many learners");
  for (std::size_t i = 0; i < learners.size(); ++i) {
    const std::string where = element("learners", i);
    m.learners.push_back(readLearner(learners[i], where, m.settings));
    const auto [it, fresh] = index.emplace(m.learners.back().name, static_cast<int>(i));
    if (!fresh)
      fail(child(where, "name"), quotedForMessage(it->first) + " is also the name of " +
                                     element("learners", static_cast<std::size_t>(it->second)));
  }
}

// Version 2: path.learner holds 0-based indices into learners; version 1 held the learners' names.
void readPath(const json& root, int version, Model& m, const std::unordered_map<std::string, int>& index) {
  const auto found = root.find("path");
  if (found == root.end()) return;
  const json& path = *found;
  if (!path.is_object()) fail("path", "must be a JSON object, got " + describe(path));
  rejectUnknownKeys(path, {"learner", "risk"}, "path");
  const json& steps = member(path, "learner", "path");
  const char* what = version == 1 ? "learner names" : "learner indices";
  if (!steps.is_array()) fail("path.learner", std::string("must be an array of ") + what + ", got " + describe(steps));
  if (steps.size() > static_cast<std::size_t>(ModelSettings::kMaxMstop))
    fail("path.learner", "has more than " + std::to_string(ModelSettings::kMaxMstop) + " iterations");
  const std::int64_t last = static_cast<std::int64_t>(m.learners.size()) - 1;
  m.pathLearner.reserve(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string at = element("path.learner", i);
    if (version >= 2) {
      m.pathLearner.push_back(static_cast<int>(integer(steps[i], at, 0, last)));
      continue;
    }
    const auto it = index.find(text(steps[i], at));
    if (it == index.end()) fail(at, describe(steps[i]) + " is not the name of a learner");
    m.pathLearner.push_back(it->second);
  }
  m.pathRisk = numbers(member(path, "risk", "path"), "path.risk");
  if (m.pathRisk.size() != m.pathLearner.size() + 1)
    fail("path", "path.risk has " + std::to_string(m.pathRisk.size()) + " values and path.learner " +
                     std::to_string(m.pathLearner.size()) +
                     " iterations; the risk needs one value more than the iterations (the offset's, then one per "
                     "iteration), so one of the two was cut or edited");
}

}  // namespace

Model read(const json& j) {
  const int version = readVersion(j);
  // result.json adds "fitted", "timing", the records of how mstop was judged, the bands (--bands), the profile
  // (--profile) and the processes (--distributed) to the model's keys; anything else is a mistake worth naming.
  rejectUnknownKeys(j, {"format",  "version",    "family", "response_levels", "offset",       "learners",
                        "path",    "settings",   "fitted", "rows_used",       "rows_omitted", "rows_omitted_by_column",
                        "notes",   "nuisance",   "cv",     "holdout",         "timing",       "bands",
                        "profile", "distributed"},
                    "");
  Model m;
  readSettings(j, m.settings);
  if (const auto it = j.find("family"); it != j.end() && text(*it, "family") != toString(m.settings.family))
    fail("family", describe(*it) + " disagrees with settings.family");
  if (const auto it = j.find("response_levels"); it != j.end()) {
    if (!it->is_array() || it->size() != 2) fail("response_levels", "must be an array of two level names");
    for (std::size_t i = 0; i < 2; ++i) m.responseLevels.push_back(text((*it)[i], element("response_levels", i)));
  }
  m.offset = number(member(j, "offset", ""), "offset");
  std::unordered_map<std::string, int> index;
  readLearners(j, m, index);
  readPath(j, version, m, index);
  if (const auto it = j.find("fitted"); it != j.end()) {  // numbers, null for a row the fit omitted
    if (!it->is_array()) fail("fitted", "must be an array, got " + describe(*it));
    for (std::size_t i = 0; i < it->size(); ++i)
      if (!(*it)[i].is_null()) number((*it)[i], element("fitted", i));
  }
  if (const auto it = j.find("timing"); it != j.end() && !it->is_object())
    fail("timing", "must be a JSON object, got " + describe(*it));
  return m;
}

}  // namespace gb::modelreader

#include "common/JsonFields.hpp"

#include <algorithm>
#include <cmath>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/Text.hpp"

namespace gb::jsonfield {

std::string describe(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::boolean:
      return j.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::number_integer:
      return std::to_string(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return std::to_string(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: {
      const double v = j.get<double>();
      // nlohmann turns a literal beyond the double range into inf: the text is gone, say what happened.
      return std::isfinite(v) ? formatNumber(v, 17) : "a number beyond the double range";
    }
    case nlohmann::json::value_t::string:
      return "the string " + quotedForMessage(j.get_ref<const std::string&>(), 40);
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::object:
      return "an object";
    default:
      return "a binary value";
  }
}

void fail(const std::string& path, const std::string& message) {
  throw InputError(path.empty() ? message : path + ": " + message);
}

std::string child(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }

std::string element(const std::string& path, std::size_t index) { return path + "[" + std::to_string(index) + "]"; }

const nlohmann::json& member(const nlohmann::json& j, const char* key, const std::string& path) {
  if (!j.is_object()) fail(path, "must be a JSON object, got " + describe(j));
  const auto it = j.find(key);
  if (it == j.end()) fail(child(path, key), "missing");
  return *it;
}

void rejectUnknownKeys(const nlohmann::json& j, std::initializer_list<const char*> known, const std::string& path) {
  for (const auto& item : j.items()) {
    const std::string& key = item.key();
    if (std::none_of(known.begin(), known.end(), [&key](const char* k) { return key == k; }))
      fail(path, "unknown key " + quotedForMessage(key, 40));
  }
}

std::int64_t integer(const nlohmann::json& j, const std::string& path, std::int64_t lo, std::int64_t hi) {
  const std::string rule = "must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
  if (j.is_number_unsigned()) {
    const std::uint64_t v = j.get<std::uint64_t>();
    if (hi < 0 || v > static_cast<std::uint64_t>(hi) || static_cast<std::int64_t>(v) < lo)
      fail(path, rule + ", got " + describe(j));
    return static_cast<std::int64_t>(v);
  }
  if (j.is_number_integer()) {
    const std::int64_t v = j.get<std::int64_t>();
    if (v < lo || v > hi) fail(path, rule + ", got " + describe(j));
    return v;
  }
  if (!j.is_number_float()) fail(path, rule + ", got " + describe(j));
  const double v = j.get<double>();
  if (!std::isfinite(v) || v != std::trunc(v)) fail(path, "must be an integer, got " + describe(j));
  // Compared as doubles before the cast: casting a double outside the int64 range is undefined behaviour.
  // lo and hi are far below 2^53 in every use, so their conversion is exact.
  if (v < static_cast<double>(lo) || v > static_cast<double>(hi)) fail(path, rule + ", got " + describe(j));
  return static_cast<std::int64_t>(v);
}

double number(const nlohmann::json& j, const std::string& path) {
  if (!j.is_number()) fail(path, "must be a number, got " + describe(j));
  const double v = j.get<double>();
  if (!std::isfinite(v)) fail(path, "must be a finite number, got " + describe(j));
  return v;
}

std::vector<double> numbers(const nlohmann::json& j, const std::string& path) {
  if (!j.is_array()) fail(path, "must be an array of numbers, got " + describe(j));
  std::vector<double> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(number(j[i], element(path, i)));
  return out;
}

std::string text(const nlohmann::json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "must be a string, got " + describe(j));
  return j.get<std::string>();
}

std::string acceptedWords(const std::string& m) {
  const std::size_t from = m.find("must be ");
  const std::size_t to = from == std::string::npos ? from : m.find(" (got ", from);
  if (from != std::string::npos && to != std::string::npos) return m.substr(from, to - from);
  return "must be a known word";
}

}  // namespace gb::jsonfield

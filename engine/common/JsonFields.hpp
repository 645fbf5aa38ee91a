#pragma once
// Typed reading of one field of a user's JSON file (a model, saved settings). Every reader throws InputError
// "<path>: <rule>, got <what>" where path is the field's JSON path (e.g. "settings.knots", "learners[3].range");
// the caller prefixes the file. Messages describe a wrong value without dump(): a user's value can be megabytes
// long or nested a million levels deep, and dump() recurses.
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/Error.hpp"

namespace gb::jsonfield {

// A short description for a message: numbers and booleans as written, strings quoted and shortened,
// containers by their type only ("an array", "an object").
std::string describe(const nlohmann::json& j);

// "<path>: <message>" as an InputError (just the message for the top level, path "").
[[noreturn]] void fail(const std::string& path, const std::string& message);

// The value of key in object j (path names j); InputError when j is not an object or lacks the key.
const nlohmann::json& member(const nlohmann::json& j, const char* key, const std::string& path);
// Member path: "a.b", or "b" at the top level (empty path).
std::string child(const std::string& path, const char* key);
std::string element(const std::string& path, std::size_t index);  // "a[3]"

// Rejects keys outside `known` (a misspelt key would otherwise fall back silently to a default).
void rejectUnknownKeys(const nlohmann::json& j, std::initializer_list<const char*> known, const std::string& path);

// An integer in lo..hi. Accepts JSON integers and floats with an integral value (2.0); rejects 2.5, 1e300 and
// numbers beyond the double range (nlohmann reads 1e400 as inf) without ever casting an out-of-range value.
std::int64_t integer(const nlohmann::json& j, const std::string& path, std::int64_t lo, std::int64_t hi);
// A finite number.
double number(const nlohmann::json& j, const std::string& path);
// An array of finite numbers.
std::vector<double> numbers(const nlohmann::json& j, const std::string& path);
std::string text(const nlohmann::json& j, const std::string& path);

// The accepted words of an engine enum, from its parser's own message ("--x: must be 'a' or 'b' (got ...)"), so the
// list stays in one place; "must be a known word" if the message has no list.
std::string acceptedWords(const std::string& parserMessage);

// The enum word at key (if present) through the engine's parser; a wrong word names the field and the accepted
// words, and never echoes the user's text unshortened.
template <typename E>
void word(const nlohmann::json& j, const char* key, const std::string& path, E& value, E (*parse)(const std::string&)) {
  const auto it = j.find(key);
  if (it == j.end()) return;
  const std::string w = text(*it, path);
  try {
    value = parse(w);
  } catch (const InputError& e) {
    fail(path, acceptedWords(e.what()) + ", got " + describe(*it));
  }
}

}  // namespace gb::jsonfield

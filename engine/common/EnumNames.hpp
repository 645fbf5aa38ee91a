#pragma once
// Two-way tables between an enum and the words that stand for it on the command line, in JSON files and in
// the GUI, so that each word is written once. Parsing errors name the option and list the accepted words.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "common/Error.hpp"
#include "common/NameHint.hpp"
#include "common/Text.hpp"

namespace gb {

template <typename E>
struct EnumName {
  E value;
  const char* word;
};

template <typename E, std::size_t N>
using EnumNames = std::array<EnumName<E>, N>;

template <typename E, std::size_t N>
std::string enumToString(const EnumNames<E, N>& names, E value) {
  for (const EnumName<E>& n : names)
    if (n.value == value) return n.word;
  return "unknown";  // only for a value outside the table, i.e. a table that misses an enumerator
}

// Throws InputError "<option>: must be 'a', 'b' or 'c' (got 'text')", with "; did you mean 'b'?" where a word is
// that close (common/NameHint.hpp).
template <typename E, std::size_t N>
E enumFromString(const EnumNames<E, N>& names, const std::string& text, const std::string& option) {
  std::string accepted;
  std::vector<std::string> words;
  for (std::size_t i = 0; i < N; ++i) {
    if (text == names[i].word) return names[i].value;
    accepted += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + "'" + names[i].word + "'";
    words.emplace_back(names[i].word);
  }
  // The user's text escaped and shortened: a control character or a line break never reaches the message.
  throw InputError(
      optionMessage(option, "must be " + accepted + " (got " + quotedForMessage(text) + ")" + didYouMean(text, words)));
}

}  // namespace gb

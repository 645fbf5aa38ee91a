#pragma once
// User text inside messages. A column name or a cell can hold anything (control bytes, NUL, invalid UTF-8,
// megabytes): messages show it escaped and shortened, so a message stays one readable line.
#include <cstddef>
#include <string>
#include <string_view>

namespace gb {

// True when text is well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view text);

// Byte offset of the first byte that breaks UTF-8, or npos.
std::size_t firstInvalidUtf8(std::string_view text);

// 'text' in single quotes: control bytes and bytes that break UTF-8 as \xNN, other invisible characters (C1
// controls, the byte-order mark, bidirectional overrides) as \u{XXXX}; cut after maxBytes with "...".
std::string quotedForMessage(std::string_view text, std::size_t maxBytes = 60);

// The same escapes, without quotes or a cut: for file paths in "file:line:column: message".
std::string printableText(std::string_view text);

}  // namespace gb

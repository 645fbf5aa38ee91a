#pragma once
// What the CSV reader accepts as text: UTF-8, with or without a byte order mark. Other encodings and binary
// files are recognised from their first bytes and rejected with a message saying what the file is, rather than
// transcoded: a model's column names then stay exactly what the user sees in the file.
#include <cstddef>
#include <string>
#include <string_view>

namespace gb::csv {

// Length of the UTF-8 byte order mark at the start of head: 3 or 0.
std::size_t utf8BomLength(std::string_view head);

// How many of a file's first bytes notUtf8Text weighs: give it all of them (or the whole file if shorter), so that
// its verdict does not depend on how much of the file happens to be read.
constexpr std::size_t kEncodingCheckBytes = 512;

// Why a file starting with head cannot be read as UTF-8 text ("the file is UTF-16 (little-endian) text; save it
// as UTF-8"), or empty when it may be. head holds the first bytes of the file (at least 4 unless it is shorter).
std::string notUtf8Text(std::string_view head);

// Why name cannot be a column name (bytes that break UTF-8, control characters, an invisible byte order mark),
// or empty when it can.
// A tab inside a name is kept: it is a character like any other there.
std::string nameProblem(std::string_view name);

// The same test for the text of a cell (a factor level); the message calls it "the text".
std::string textProblem(std::string_view text);

}  // namespace gb::csv

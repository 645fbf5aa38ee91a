#include "common/Text.hpp"

#include <cstdio>

namespace gb {

namespace {

// Length of the well-formed UTF-8 sequence at text[i], or 0 when it is not one (RFC 3629, table 3-7 of Unicode).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
  const auto byte = [&text](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return length;
}

}  // namespace

std::size_t firstInvalidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8SequenceLength(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

bool isValidUtf8(std::string_view text) { return firstInvalidUtf8(text) == std::string_view::npos; }

namespace {

// The code point of a well-formed sequence of `length` bytes at text[i].
char32_t codePoint(std::string_view text, std::size_t i, std::size_t length) {
  const auto b = [&text, i](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(text[i + k])); };
  if (length == 1) return b(0);
  if (length == 2) return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (length == 3) return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

// Characters that would break a message's line or hide its text: C0 and C1 controls, DEL, the byte-order mark,
// and the bidirectional overrides and isolates (which reorder what a terminal shows).
bool invisible(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFEFF || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

// text[0, maxBytes) with every byte that breaks UTF-8 as \xNN and every invisible character as \u{XXXX}.
std::string escaped(std::string_view text, std::size_t maxBytes, std::size_t* consumed) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size() && i < maxBytes) {
    const std::size_t length = utf8SequenceLength(text, i);
    char buffer[16];
    if (length == 0) {
      std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned char>(text[i]));
      out += buffer;
      ++i;
      continue;
    }
    const char32_t c = codePoint(text, i, length);
    if (invisible(c)) {
      std::snprintf(buffer, sizeof buffer, c < 0x80 ? "\\x%02X" : "\\u{%04X}", static_cast<unsigned>(c));
      out += buffer;
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  *consumed = i;
  return out;
}

}  // namespace

std::string quotedForMessage(std::string_view text, std::size_t maxBytes) {
  std::size_t consumed = 0;
  std::string out = "'" + escaped(text, maxBytes, &consumed);
  if (consumed < text.size()) out += "...";
  return out + "'";
}

std::string printableText(std::string_view text) {
  std::size_t consumed = 0;
  return escaped(text, text.size(), &consumed);
}

}  // namespace gb

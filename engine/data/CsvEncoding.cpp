#include "data/CsvEncoding.hpp"

#include <cstdio>

#include "common/Text.hpp"

namespace gb::csv {

namespace {

std::string hexByte(unsigned char b) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", b);
  return text;
}

bool startsWith(std::string_view head, std::string_view magic) { return head.substr(0, magic.size()) == magic; }

// The encoding of a UTF-16 or UTF-32 file, from its byte order mark or, without one, from where the NUL bytes
// of its first characters lie: the header is ASCII in nearly every file, and an ASCII character is one
// non-zero byte padded with zeros ("y\0,\0" in UTF-16 little-endian).
std::string_view wideEncoding(std::string_view head) {
  using namespace std::string_view_literals;
  if (startsWith(head, "\xFF\xFE\0\0"sv)) return "UTF-32 (little-endian)";
  if (startsWith(head, "\0\0\xFE\xFF"sv)) return "UTF-32 (big-endian)";
  if (startsWith(head, "\xFF\xFE"sv)) return "UTF-16 (little-endian)";
  if (startsWith(head, "\xFE\xFF"sv)) return "UTF-16 (big-endian)";
  bool zero[4] = {};
  const std::size_t n = head.size() < 4 ? head.size() : 4;
  for (std::size_t i = 0; i < n; ++i) zero[i] = head[i] == '\0';
  if (n == 4) {
    if (!zero[0] && zero[1] && zero[2] && zero[3]) return "UTF-32 (little-endian)";
    if (zero[0] && zero[1] && zero[2] && !zero[3]) return "UTF-32 (big-endian)";
    if (!zero[0] && zero[1] && !zero[2] && zero[3]) return "UTF-16 (little-endian)";
    if (zero[0] && !zero[1] && zero[2] && !zero[3]) return "UTF-16 (big-endian)";
  } else if (n >= 2) {
    if (!zero[0] && zero[1]) return "UTF-16 (little-endian)";
    if (zero[0] && !zero[1]) return "UTF-16 (big-endian)";
  }
  return {};
}

}  // namespace

std::size_t utf8BomLength(std::string_view head) { return startsWith(head, "\xEF\xBB\xBF") ? 3 : 0; }

std::string notUtf8Text(std::string_view head) {
  if (utf8BomLength(head) > 0) return {};
  const std::string_view wide = wideEncoding(head);
  if (!wide.empty()) return "the file is " + std::string(wide) + " text; save it as UTF-8";
  // Files people pick by mistake: a workbook instead of its CSV export, a compressed file.
  if (startsWith(head, "PK\x03\x04"))
    return "the file is a ZIP archive (an .xlsx or .ods workbook?), not CSV text; export the sheet as CSV (UTF-8)";
  if (startsWith(head, "\x1F\x8B")) return "the file is gzip-compressed, not CSV text; decompress it first";
  if (!head.empty() && head[0] == '\0') return "the file is not text (it starts with a NUL byte)";
  return {};
}

std::string nameProblem(std::string_view name) {
  const std::size_t bad = firstInvalidUtf8(name);
  if (bad != std::string_view::npos)
    return "the name is not valid UTF-8 (byte " + hexByte(static_cast<unsigned char>(name[bad])) +
           "); save the file as UTF-8";
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto b = static_cast<unsigned char>(name[i]);
    if ((b < 0x20 && b != '\t') || b == 0x7F)
      return std::string("the name contains a ") + (b == '\n' || b == '\r' ? "line break" : "control character") +
             " (byte " + hexByte(b) + ")";
    // The text is valid UTF-8 here: U+0080..U+009F is 0xC2 0x80..0x9F, U+FEFF is 0xEF 0xBB 0xBF.
    const auto next = i + 1 < name.size() ? static_cast<unsigned char>(name[i + 1]) : 0;
    if (b == 0xC2 && next >= 0x80 && next <= 0x9F)
      return "the name contains a control character (U+00" + hexByte(next).substr(2) + ")";
    if (name.substr(i, 3) == "\xEF\xBB\xBF")
      return "the name contains an invisible U+FEFF (a byte order mark inside the file: two files joined?)";
  }
  return {};
}

}  // namespace gb::csv

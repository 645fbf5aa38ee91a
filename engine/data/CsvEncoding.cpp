#include "data/CsvEncoding.hpp"

#include <algorithm>
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
// of its first characters lie: UTF-8 text never holds a NUL, while in UTF-16 every ASCII character (digits,
// delimiters, line breaks, most names) is a byte and a NUL ("y\0,\0" little-endian), and in UTF-32 three NULs.
std::string_view wideEncoding(std::string_view head) {
  using namespace std::string_view_literals;
  if (startsWith(head, "\xFF\xFE\0\0"sv)) return "UTF-32 (little-endian)";
  if (startsWith(head, "\0\0\xFE\xFF"sv)) return "UTF-32 (big-endian)";
  if (startsWith(head, "\xFF\xFE"sv)) return "UTF-16 (little-endian)";
  if (startsWith(head, "\xFE\xFF"sv)) return "UTF-16 (big-endian)";
  if (head.size() < 4) {  // one UTF-16 character
    if (head.size() >= 2 && head[0] != '\0' && head[1] == '\0') return "UTF-16 (little-endian)";
    if (head.size() >= 2 && head[0] == '\0' && head[1] != '\0') return "UTF-16 (big-endian)";
    return {};
  }
  // Counted over the first few hundred bytes, so that a header of CJK names (no NUL bytes) is outweighed by
  // the ASCII digits and delimiters after it.
  const std::size_t n = std::min(head.size(), kEncodingCheckBytes) / 4 * 4, perPosition = n / 4;
  std::size_t zeros[4] = {};
  for (std::size_t i = 0; i < n; ++i) zeros[i % 4] += head[i] == '\0';
  if (zeros[3] == perPosition && zeros[2] * 4 >= perPosition * 3 && zeros[0] < perPosition)
    return "UTF-32 (little-endian)";
  if (zeros[0] == perPosition && zeros[1] * 4 >= perPosition * 3 && zeros[3] < perPosition)
    return "UTF-32 (big-endian)";
  const std::size_t evenZeros = zeros[0] + zeros[2], oddZeros = zeros[1] + zeros[3];
  if (oddZeros >= perPosition && evenZeros * 4 < oddZeros) return "UTF-16 (little-endian)";
  if (evenZeros >= perPosition && oddZeros * 4 < evenZeros) return "UTF-16 (big-endian)";
  return {};
}

}  // namespace

std::size_t utf8BomLength(std::string_view head) { return startsWith(head, "\xEF\xBB\xBF") ? 3 : 0; }

std::string notUtf8Text(std::string_view head) {
  if (utf8BomLength(head) > 0) return {};
  // Files people pick by mistake: a workbook instead of its CSV export, a compressed file. Their magic bytes
  // go first: the NUL bytes after them could pass for UTF-16.
  if (startsWith(head, "PK\x03\x04"))
    return "the file is a ZIP archive (an .xlsx or .ods workbook?), not CSV text; export the sheet as CSV (UTF-8)";
  if (startsWith(head, "\x1F\x8B")) return "the file is gzip-compressed, not CSV text; decompress it first";
  const std::string_view wide = wideEncoding(head);
  if (!wide.empty()) return "the file is " + std::string(wide) + " text; save it as UTF-8";
  if (!head.empty() && head[0] == '\0') return "the file is not text (it starts with a NUL byte)";
  // Text holds no NUL byte; programs, images and most binary formats hold many within their first bytes (from an
  // ELF program's 9th byte on), whose first "line" was otherwise reported as a column name of escaped bytes. One
  // or two NUL bytes in a text are left to the name and cell checks, which point at them. Counted within the first
  // kEncodingCheckBytes only, as the encoding is, so that the verdict does not depend on how much of the file the
  // caller holds (a fuzzer found NULs after byte 512 refused with 8 MiB blocks and read with 64-byte ones).
  const std::string_view first = head.substr(0, kEncodingCheckBytes);
  if (std::count(first.begin(), first.end(), '\0') >= 4)
    return "the file is not text (NUL bytes from byte " + std::to_string(first.find('\0') + 1) +
           ": a program, an image or another binary file?); choose a CSV file";
  return {};
}

namespace {

std::string problemOf(std::string_view name, const std::string& what) {
  const std::size_t bad = firstInvalidUtf8(name);
  if (bad != std::string_view::npos)
    return what + " is not valid UTF-8 (byte " + hexByte(static_cast<unsigned char>(name[bad])) +
           "); save the file as UTF-8";
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto b = static_cast<unsigned char>(name[i]);
    if ((b < 0x20 && b != '\t') || b == 0x7F)
      return what + " contains a " + (b == '\n' || b == '\r' ? "line break" : "control character") + " (byte " +
             hexByte(b) + ")";
    // The text is valid UTF-8 here: U+0080..U+009F is 0xC2 0x80..0x9F, U+FEFF is 0xEF 0xBB 0xBF.
    const auto next = i + 1 < name.size() ? static_cast<unsigned char>(name[i + 1]) : 0;
    if (b == 0xC2 && next >= 0x80 && next <= 0x9F)
      return what + " contains a control character (U+00" + hexByte(next).substr(2) + ")";
    if (name.substr(i, 3) == "\xEF\xBB\xBF")
      return what + " contains an invisible U+FEFF (a byte order mark inside the file: two files joined?)";
  }
  return {};
}

}  // namespace

std::string nameProblem(std::string_view name) { return problemOf(name, "the name"); }

std::string textProblem(std::string_view text) { return problemOf(text, "the text"); }

}  // namespace gb::csv

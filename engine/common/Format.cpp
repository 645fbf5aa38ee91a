#include "common/Format.hpp"

#include <charconv>

namespace gb {

std::string formatNumber(double value, int significant) {
  // to_chars's general format is printf's %g by definition, but never reads the locale.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, significant);
  return std::string(buffer, result.ptr);
}

}  // namespace gb

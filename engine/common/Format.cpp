#include "common/Format.hpp"

#include <charconv>
#include <cmath>

namespace gb {

std::string formatNumber(double value, int significant) {
  // to_chars's general format is printf's %g by definition, but never reads the locale.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, significant);
  return std::string(buffer, result.ptr);
}

std::optional<double> numberOf(std::string_view text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  if (result.ec != std::errc() || result.ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string levelName(double value) {
  if (value == 0.0) return "0";
  std::string name = formatNumber(value, 15);
  if (numberOf(name) != value) name = formatNumber(value, 17);
  return name;
}

}  // namespace gb

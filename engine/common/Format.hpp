#pragma once
// Numbers in messages, notes and summaries, written the same way everywhere and independently of the locale
// (the GUI runs under the user's locale; a message must still say "1.5", never "1,5").
#include <optional>
#include <string>
#include <string_view>

namespace gb {

// printf's "%.<significant>g" in the C locale: 1.5 -> "1.5", 1e-07 -> "1e-07", NaN -> "nan".
// 17 significant digits round-trip any double.
std::string formatNumber(double value, int significant);

// The name of a number used as a factor level (R's as.character, 15 significant digits), or 17 digits where 15 do
// not read back as the same double (0.1 + 0.2 beside 0.3 would both be "0.3"); -0 is "0".
std::string levelName(double value);

// value, where the whole of text is one finite number (locale-independent, as from_chars reads it); else nullopt.
std::optional<double> numberOf(std::string_view text);

}  // namespace gb

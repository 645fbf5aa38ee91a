#pragma once
// Numbers in messages, notes and summaries, written the same way everywhere and independently of the locale
// (the GUI runs under the user's locale; a message must still say "1.5", never "1,5").
#include <string>

namespace gb {

// printf's "%.<significant>g" in the C locale: 1.5 -> "1.5", 1e-07 -> "1e-07", NaN -> "nan".
// 17 significant digits round-trip any double.
std::string formatNumber(double value, int significant);

}  // namespace gb

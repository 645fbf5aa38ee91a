#include "common/NameHint.hpp"

#include <algorithm>
#include <cctype>

#include "common/Text.hpp"

namespace gb {

namespace {

std::string lowered(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Edits (insert, delete, replace) between a and b, counted up to `cap` (more give cap + 1).
std::size_t editDistance(const std::string& a, const std::string& b, std::size_t cap) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > cap) return cap + 1;
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  // "--spline a,b" read as two names where the header has one column "a,b".
  for (const auto& c : candidates)
    if (c.find(',') != std::string::npos && !name.empty() &&
        ("," + c + ",").find("," + name + ",") != std::string::npos)
      return "; the column " + quotedForMessage(c) +
             " holds a comma: in a list of names write it in double quotes, \"" + c + "\"";
  const std::string low = lowered(name);
  for (const auto& c : candidates)
    if (c != name && lowered(c) == low) return "; did you mean " + quotedForMessage(c) + "? (names are case-sensitive)";
  const std::size_t cap = name.size() < 3 ? 0 : name.size() < 6 ? 1 : 2;
  if (cap == 0) return {};
  for (const auto& c : candidates)
    if (!c.empty() && editDistance(low, lowered(c), cap) <= cap) return "; did you mean " + quotedForMessage(c) + "?";
  return {};
}

}  // namespace gb

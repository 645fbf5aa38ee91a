#pragma once
// "Did you mean ...?" for a name the user typed that names nothing: a column name, an option's word.
#include <string>
#include <vector>

namespace gb {

// "; did you mean 'X'?" where a candidate differs from name only in letter case (then with "(names are
// case-sensitive)"), or by at most one edit (insert, delete, replace) for names of 3 to 5 characters and two for longer
// ones, case ignored; "" when none is that close. The first candidate found wins.
std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace gb

#pragma once
// Writing tables and files so that a failure never leaves a half-written output: write to a temporary
// file beside the target, then rename over it.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "data/Dataset.hpp"

namespace gb {

// Throws InputError("<path>: cannot write: <reason>") if the file cannot be created in its directory.
// Checks without leaving anything behind: call it before long work so a bad --out fails fast.
void checkWritable(const std::string& path, const std::string& option);

// Writes via a temporary file + rename; on any exception the target is untouched and the temporary removed.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// Header + rows, numbers with 17 significant digits (round-trip exact), '.' decimal point.
void writeCsv(const std::string& path, const Dataset& data);
void writeCsv(std::ostream& out, const Dataset& data);

}  // namespace gb

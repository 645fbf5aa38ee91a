#pragma once
// Writing tables and files so that a failure never leaves a half-written output (data/OutputFiles.hpp: a
// temporary file beside the target, renamed over it when complete). Commands with several outputs use
// OutputFiles directly, so that all of them appear or none.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "data/Dataset.hpp"

namespace gb {

// Throws InputError("<option>: <path>: cannot write: <reason>") if the file cannot be created in its directory
// (or is empty, a directory, a device).
// Checks without leaving anything behind: call it before long work so a bad --out fails fast.
void checkWritable(const std::string& path, const std::string& option);

// Writes via a temporary file + rename; on any exception the target is untouched and the temporary removed.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// Header + rows, numbers with 17 significant digits (round-trip exact), '.' decimal point.
void writeCsv(const std::string& path, const Dataset& data);
void writeCsv(std::ostream& out, const Dataset& data);
// The same in pieces, for tables streamed in blocks of rows (gamboost generate): the first `rows` values of
// every column.
void writeCsvHeader(std::ostream& out, const std::vector<std::string>& names);
void writeCsvRows(std::ostream& out, const std::vector<std::vector<double>>& columns, std::size_t rows);
// One text cell as written above: quoted when reading it back would otherwise change it (a delimiter, a quote, a
// line break, a space at either end); an empty text stays an empty cell.
std::string csvField(const std::string& text);

}  // namespace gb

#pragma once
// Streaming CSV reader: header row; delimiter ',' or detected ';' / tab; RFC 4180 quoted fields;
// numbers parsed locale-independently. Every error is an InputError "file:line:column: ...".
#include <cstdint>
#include <functional>
#include <string>

#include "data/Dataset.hpp"

namespace gb {

struct CsvOptions {
  char delimiter = 0;  // 0: detect from the header line (',' ';' or '\t')
};

// Called now and then with bytes consumed and the file size; returning false cancels (throws gb::Error "cancelled").
using CsvProgress = std::function<bool(std::uint64_t bytesDone, std::uint64_t bytesTotal)>;

// Reads a whole numeric CSV file into columns. Rejects: missing/unreadable file, empty file, header only,
// ragged rows, non-numeric / empty / NaN / Inf cells, duplicate or empty column names.
Dataset readCsv(const std::string& path, const CsvOptions& options = {}, const CsvProgress& progress = {});

// Reads at most maxRows data rows (for previews); same validation on what it reads.
Dataset readCsvHead(const std::string& path, std::size_t maxRows, const CsvOptions& options = {});

}  // namespace gb

#pragma once
// Internal to the CSV reader: the chunked, multi-threaded read of a regular file (see CsvOptions::chunkBytes).
#include <optional>
#include <string>

#include "data/CsvReader.hpp"

namespace gb::csv {

// The table of a file whose rows are all plain (CsvChunkRows.hpp), read by options.threads threads; nothing when
// the file needs the one-thread reader (a pipe, a header it rejects, a row that is not plain). Progress is
// reported from the calling thread; cancelling throws gb::Error("cancelled").
std::optional<Dataset> readCsvChunked(const std::string& path, const CsvOptions& options, const CsvProgress& progress);

// The chunks of [begin, end): each about chunkBytes long and ending just past a line break (or at end). A "\r\n"
// is never split.
std::vector<std::pair<const char*, const char*>> splitAtLineEnds(const char* begin, const char* end,
                                                                 std::size_t chunkBytes);

}  // namespace gb::csv

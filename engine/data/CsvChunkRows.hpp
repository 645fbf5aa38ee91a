#pragma once
// Internal to the CSV reader: the rows of one chunk of a file held in memory, for the chunked reader
// (CsvChunked.cpp). Only the plain case is parsed here: every cell a number or missing (NA, NaN, empty), R's row
// names in column 1 if the header says so. Anything else (a text or quoted cell, a blank line, a ragged row, an
// infinite value, a very long row) stops the chunk, and the file goes to the one-thread reader, which gives the
// table or the error.
#include <cstddef>

namespace gb::csv {

struct ChunkFormat {
  char delimiter = ',';
  std::size_t fields = 0;       // per row, the row-label field included
  bool rowLabels = false;       // field 1 holds R's row names: checked for its quotes, not stored
  std::size_t maxRowBytes = 0;  // a row this long or longer stops the chunk (the one-thread reader judges it)
};

// How many bytes of [p, end) equal `byte` (std::count, vectorised).
std::size_t countByte(const char* p, const char* end, char byte);

// Rows of [p, end) if it is plain: its line breaks ("\r\n" counted once), and a last line without one.
std::size_t countChunkRows(const char* p, const char* end);

// Parses the rows in [p, end) into columns[c][0 .. rows), one column per field but the row labels. [p, end) holds
// whole lines: end is just past a line break or the file's end. Returns whether all of it is plain and holds
// exactly `rows` rows (countChunkRows); it writes no row past `rows`.
bool parseChunkRows(const char* p, const char* end, const ChunkFormat& format, double* const* columns,
                    std::size_t rows);

}  // namespace gb::csv

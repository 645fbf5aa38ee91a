#pragma once
// Streaming CSV reader: UTF-8 text (a BOM is skipped); line ends "\n", "\r\n" or a lone "\r", mixed too; header
// row; delimiter ',' or detected ';' / tab / spaces (runs of spaces and tabs, as read.table's sep = "": R's
// write.table default, tables aligned by hand or printed by R); RFC 4180 quoted fields; numbers
// parsed locale-independently. Every error is an InputError "file:line:column: ..." of one printable line (user text
// escaped, shortened).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "data/Dataset.hpp"

namespace gb {

struct CsvOptions {
  char delimiter = 0;  // 0: detect from the header line (',' ';' '\t' or ' ')
  // Bytes read from the file at a time. Large blocks keep the reader fast; tests shrink it to cross block edges.
  std::size_t blockBytes = std::size_t{8} << 20;
  // readCsv on a regular file: the rows are split at line ends into chunks of about this many bytes, parsed by
  // `threads` threads (0: OpenMP's count, --threads) straight from the mapped file. A chunk that holds anything
  // but numbers and missing cells (text, quotes, blank lines, errors) sends the whole file to the one-thread
  // reader, so the table and every error are the same either way. 0: the one-thread reader only.
  std::size_t chunkBytes = std::size_t{8} << 20;
  int threads = 0;
};

// Called now and then with bytes consumed and the file size; returning false cancels (throws gb::Error "cancelled").
using CsvProgress = std::function<bool(std::uint64_t bytesDone, std::uint64_t bytesTotal)>;

// Reads a whole CSV file into columns, R's write.csv output included. An unnamed first column holds R's row names:
// it is dropped and Dataset::rowLabelsNote says so. Missing (quiet NaN), as R's read.csv reads cells: NA; in a
// numeric column also NaN and blank cells (quoted or not, spaces around a number ignored). A column with any other
// cell that is not a number is a text column: its levels are its distinct texts as written (blanks kept; "" and
// "NaN" too) in byte order, its values their codes (a number's own text is a level there, "1.50" too).
// Rejects: missing/unreadable file, empty file, header only, UTF-16/UTF-32 and binary files, ragged rows,
// infinite numbers in a numeric column (Inf, 1e400), a numeric column written with decimal commas, duplicate or
// empty column names (but the first), names or texts that are not UTF-8 or hold control characters.
Dataset readCsv(const std::string& path, const CsvOptions& options = {}, const CsvProgress& progress = {});

// Reads at most maxRows data rows (for previews) in small blocks, so a large file is not read to its end; same
// validation on what it reads. maxRows = 0 reads and checks the header only.
Dataset readCsvHead(const std::string& path, std::size_t maxRows, const CsvOptions& options = {});

// How many times readCsv has been called in this process (the window's tests check that a second fit does not
// read its file again).
std::uint64_t csvReadCount();

}  // namespace gb

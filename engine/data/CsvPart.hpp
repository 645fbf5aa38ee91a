#pragma once
// One process's part of a CSV file read by several (`mpirun -np N gamboost fit --distributed`, issue 15). Process p of
// N reads only the bytes [p S / N, (p + 1) S / N) of the data part of the file (S bytes after the header), each end
// moved on to the next line start: it owns the lines that start in its range. The one-thread reader (CsvParser)
// parses them, its lines numbered as in the whole file (the processes exchange their line counts first), and the
// processes then agree, through the ShardReducer, on what needs the whole file: the first error in file order (with
// its global file:line:column), which columns are text (a column is text if any part holds a text), the levels of
// each text column (the union of the parts' levels, in byte order, as one reader gives them), and where each part's
// rows start in the table. The table each process gets is the one readCsv gives, restricted to its rows.
//
// Falls back to every process reading the whole file and keeping its rows (shares of the rows differing by at most
// one) where splitting by bytes is unsafe or impossible: a line break inside a quoted field at a part's boundary
// (found from the parity of the quotes before it), a file that is not a regular file, or a header the reader rejects
// (then every process reports the same error).
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/ShardReducer.hpp"
#include "data/CsvReader.hpp"

namespace gb {

struct CsvPartInfo {
  std::uint64_t begin = 0, end = 0;    // the bytes of the file this process parsed (the whole file on a fallback)
  std::size_t firstRow = 0, rows = 0;  // its rows of the table: [firstRow, firstRow + rows)
  std::size_t rowsRead = 0;            // rows it parsed: `rows`, or every row of the file on a fallback
  std::string wholeFile;               // "" when each process read its part; else why each read the whole file
};

// This process's rows of the file (Dataset::firstRow says where they start); throws InputError, the same on every
// process, for what readCsv would reject. `group` must span every process that reads the file.
Dataset readCsvPart(const std::string& path, ShardReducer& group, const CsvOptions& options = {},
                    CsvPartInfo* info = nullptr);

}  // namespace gb

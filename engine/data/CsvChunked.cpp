#include "data/CsvChunked.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "common/ParallelErrors.hpp"
#include "data/CsvBlocks.hpp"
#include "data/CsvChunkRows.hpp"
#include "data/CsvParser.hpp"
#include "data/OffsetReader.hpp"

namespace gb::csv {

namespace {

using Chunks = std::vector<std::pair<const char*, const char*>>;

// A chunk of the file, [offset, offset + length), and the thread's buffer to read it into (OffsetReader: read, not
// mapped, since the mapping's page faults cost more than the copy).
struct ChunkReads {
  const OffsetReader& file;
  std::uint64_t base = 0;           // the offset of chunks[0].first in the file
  std::vector<ReadBuffer> buffers;  // one a thread

  // The chunk's bytes in this thread's buffer; [nullptr, nullptr) when the file gives fewer bytes than it had.
  std::pair<const char*, const char*> read(const Chunks& chunks, std::size_t k) {
    ReadBuffer& buffer = buffers[static_cast<std::size_t>(omp_get_thread_num())];
    const auto length = static_cast<std::size_t>(chunks[k].second - chunks[k].first);
    const std::uint64_t offset = base + static_cast<std::uint64_t>(chunks[k].first - chunks[0].first);
    if (!file.read(offset, length, buffer)) return {nullptr, nullptr};
    return {buffer.bytes.get(), buffer.bytes.get() + length};
  }
};

// Where each chunk's rows start in the table (countChunkRows), and the total at the end; nothing when a read fails
// (the one-thread reader then reads the file and reports what it finds).
std::optional<std::vector<std::size_t>> firstRows(const Chunks& chunks, int threads, ChunkReads& reads) {
  std::vector<std::size_t> first(chunks.size() + 1, 0);
  std::atomic<bool> readFailed{false};
  ParallelErrors errors;
  const auto n = static_cast<std::ptrdiff_t>(chunks.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (std::ptrdiff_t k = 0; k < n; ++k)
    errors.run([&] {
      const auto [b, e] = reads.read(chunks, static_cast<std::size_t>(k));
      if (!b)
        readFailed = true;
      else
        first[k + 1] = countChunkRows(b, e);
    });
  errors.rethrow();
  if (readFailed) return std::nullopt;
  for (std::size_t k = 0; k < chunks.size(); ++k) first[k + 1] += first[k];
  return first;
}

// Whether the first rows of the first chunk (up to kHeadRows lines) are plain. A file with a text column or quotes
// usually shows it in its first row; it then goes to the one-thread reader before the count pass and the table's
// allocation, which it would otherwise waste (in a profile of a 143 MB file with one text column, zeroing the table
// that was then dropped took 24% of the samples).
constexpr std::size_t kHeadRows = 64;

bool headIsPlain(const Chunks& chunks, const ChunkFormat& format, std::size_t cols, ChunkReads& reads) {
  const auto [b, e] = reads.read(chunks, 0);
  if (!b) return false;
  const char* cut = b;
  for (std::size_t line = 0; line < kHeadRows && cut != e; ++line) {
    const void* next = std::memchr(cut, '\n', static_cast<std::size_t>(e - cut));
    cut = next ? static_cast<const char*>(next) + 1 : e;
  }
  const std::size_t rows = countChunkRows(b, cut);
  std::vector<double> values(rows * cols);
  std::vector<double*> slots(cols);
  for (std::size_t c = 0; c < cols; ++c) slots[c] = values.data() + c * rows;
  return parseChunkRows(b, cut, format, slots.data(), rows);
}

// Columns of `rows` values, each zeroed by one of the threads (where its pages are first touched). Out of memory
// is thrown here, on the caller's thread, as by the one-thread reader (an exception must not leave a parallel region).
std::vector<std::vector<double>> emptyColumns(std::size_t cols, std::size_t rows, int threads) {
  std::vector<std::vector<double>> columns(cols);
  ParallelErrors errors;
  const auto n = static_cast<std::ptrdiff_t>(cols);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (std::ptrdiff_t c = 0; c < n; ++c) errors.run([&] { columns[c].resize(rows); });
  errors.rethrow();
  return columns;
}

// Parses every chunk into its rows of the columns, `threads` at a time. Returns false when a chunk is not plain
// or cannot be read again.
// Thread 0 (the caller's) reports progress after each of its chunks; its cancel or exception stops all.
bool parseChunks(const Chunks& chunks, const std::vector<std::size_t>& first, const ChunkFormat& format, int threads,
                 ChunkReads& reads, std::vector<std::vector<double>>& columns,
                 const std::function<bool(std::uint64_t)>& progress) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::uint64_t> bytesDone{0};
  std::atomic<bool> stop{false}, plain{true};
  std::exception_ptr failure;  // set once, under the critical section
  std::vector<std::vector<double*>> slotsOf(static_cast<std::size_t>(threads), std::vector<double*>(columns.size()));
#pragma omp parallel num_threads(threads)
  {
    std::vector<double*>& slots = slotsOf[static_cast<std::size_t>(omp_get_thread_num())];
    for (;;) {
      const std::size_t k = next.fetch_add(1);
      if (k >= chunks.size() || stop.load(std::memory_order_relaxed)) break;
      try {
        for (std::size_t c = 0; c < columns.size(); ++c) slots[c] = columns[c].data() + first[k];
        const auto [b, e] = reads.read(chunks, k);
        if (!b || !parseChunkRows(b, e, format, slots.data(), first[k + 1] - first[k])) {
          plain = false;  // a read that fails goes to the one-thread reader too
          stop = true;
        }
        bytesDone += static_cast<std::uint64_t>(chunks[k].second - chunks[k].first);
        if (omp_get_thread_num() == 0 && progress && !stop && !progress(bytesDone.load())) stop = true;
      } catch (...) {
#pragma omp critical(gb_csv_chunk_failure)
        if (!failure) failure = std::current_exception();
        stop = true;
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  if (stop && plain) throw Error("cancelled");
  return plain;
}

Dataset datasetOf(const std::string& path, CsvParser::Layout& layout, std::vector<std::vector<double>> columns) {
  Dataset data;
  data.source = path;
  data.names = std::move(layout.names);
  if (layout.rowLabels) {
    data.names.erase(data.names.begin());
    data.rowLabelsNote = rowLabelsNote(layout.shortHeader);
  }
  data.columns = std::move(columns);
  data.kinds.assign(data.columns.size(), ColumnKind::Numeric);
  data.levels.assign(data.columns.size(), {});
  return data;
}

}  // namespace

Chunks splitAtLineEnds(const char* begin, const char* end, std::size_t chunkBytes) {
  Chunks chunks;
  chunkBytes = std::max<std::size_t>(chunkBytes, 1);
  while (begin != end) {
    const char* cut = end;
    if (static_cast<std::size_t>(end - begin) > chunkBytes) {
      cut = std::find_if(begin + chunkBytes, end, isLineBreakByte);
      if (cut != end) cut += (*cut == '\r' && cut + 1 != end && cut[1] == '\n') ? 2 : 1;
    }
    chunks.emplace_back(begin, cut);
    begin = cut;
  }
  return chunks;
}

std::optional<Dataset> readCsvChunked(const std::string& path, const CsvOptions& options, const CsvProgress& progress) {
  const MappedFile file(path);  // first: a pipe must not lose its header to a read that gives up
  if (!file.data()) return std::nullopt;
  CsvParser::Layout layout;
  try {  // a header it rejects: the one-thread reader reports it, with its own progress and cancelling
    const CsvProgress none;
    layout = CsvParser(path, options, options.blockBytes, none).readLayout();
  } catch (const Error&) {
    return std::nullopt;
  }
  if (layout.dataOffset >= file.size()) return std::nullopt;
  const std::uint64_t total = file.size();
  const Chunks chunks = splitAtLineEnds(file.data() + layout.dataOffset, file.data() + file.size(), options.chunkBytes);
  const int threads = static_cast<int>(std::min<std::size_t>(
      chunks.size(), static_cast<std::size_t>(options.threads > 0 ? options.threads : omp_get_max_threads())));
  const ChunkFormat format{layout.delimiter, layout.names.size(), layout.rowLabels, layout.maxRowBytes};
  const std::size_t cols = layout.names.size() - (layout.rowLabels ? 1 : 0);
  // The mapping finds the chunks' ends (a few pages each); its pages go back before the chunks are read.
  MappedFile::release(file.data(), file.data() + file.size());
  const OffsetReader reader(path);
  if (!reader.isOpen()) return std::nullopt;
  ChunkReads reads{reader, layout.dataOffset, std::vector<ReadBuffer>(static_cast<std::size_t>(threads))};
  if (!headIsPlain(chunks, format, cols, reads)) return std::nullopt;
  // Rows counted first, so that each chunk parses straight into its place in the table's columns.
  const std::optional<std::vector<std::size_t>> counted = firstRows(chunks, threads, reads);
  if (!counted || counted->back() == 0) return std::nullopt;
  const std::vector<std::size_t>& first = *counted;
  std::vector<std::vector<double>> columns = emptyColumns(cols, first.back(), threads);
  std::function<bool(std::uint64_t)> report;
  if (progress) report = [&](std::uint64_t done) { return progress(layout.dataOffset + done, total); };
  if (!parseChunks(chunks, first, format, threads, reads, columns, report)) return std::nullopt;
  if (progress && !progress(total, total)) throw Error("cancelled");
  return datasetOf(path, layout, std::move(columns));
}

}  // namespace gb::csv

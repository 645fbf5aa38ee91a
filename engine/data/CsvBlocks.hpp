#pragma once
// Internal helpers of the CSV reader: a file read in large blocks, and values collected per column in chunks.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gb::csv {

// Reads a file block by block into one buffer. The caller parses whole rows; the unparsed tail of a block
// (a row cut by the block edge) is moved to the front before the next block is appended, so memory stays at
// about one block whatever the file size. A row longer than the buffer grows it.
class BlockReader {
 public:
  BlockReader(const std::string& path, std::size_t blockBytes);
  ~BlockReader();
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  const char* data() const { return buffer_.get(); }
  const char* end() const { return buffer_.get() + filled_; }
  bool eof() const { return eof_; }
  std::uint64_t fileSize() const { return fileSize_; }
  bool regularFile() const { return regularFile_; }  // false for a pipe: it cannot be read a second time
  std::uint64_t offsetOf(const char* p) const { return base_ + static_cast<std::uint64_t>(p - data()); }

  // Keeps [keep, end()) (moved to data()) and appends the next block. Pointers into the buffer become invalid.
  void refill(const char* keep);
  // Continues at byte `offset` of a regular file and ends (eof()) at byte `limit`: one process's part of the rows
  // (data/CsvPart.hpp). The buffer is emptied; refill() reads from there.
  void restart(std::uint64_t offset, std::uint64_t limit);

 private:
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0, filled_ = 0;
  std::uint64_t base_ = 0, fileSize_ = 0;
  std::uint64_t limit_ = 0;  // 0: the file's end; else restart()'s limit
  bool eof_ = false;
  bool regularFile_ = true;
};

// A regular file mapped read-only; empty (data() null) when it cannot be (a pipe, an empty file).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }

  // Unmaps the pages of [b, e) from this process (they stay in the page cache; a later read maps them again), so
  // that the peak memory is the table plus the chunks being read, not the whole file as well.
  static void release(const char* b, const char* e);

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// Values of every column, collected in chunks of rows. No vector ever doubles while reading (that would need
// up to twice the data at its peak); the columns are assembled once at the end, chunk by chunk, each chunk freed
// once copied, so the peak is the data plus one chunk. A chunk is one allocation for all its columns (up to 64 MiB):
// allocations of 2 MiB and more get huge pages (app/common/HugePageNew.cpp), where a column's own 512 KiB did not,
// and each 4 KiB page cost a fault of about 12 us on the 2-core VM of 2026-11-30.
class ColumnChunks {
 public:
  explicit ColumnChunks(std::size_t cols) : cols_(cols), slots_(cols, nullptr) {}

  // Makes room for one more row; slots()[c][filled()] is where column c's value of that row goes.
  void ensureRoom();
  double* const* slots() const { return slots_.data(); }
  std::size_t filled() const { return filled_; }
  void commitRow() {
    ++filled_;
    ++rows_;
  }
  std::size_t rows() const { return rows_; }
  // Whether column c holds a value that is not NaN in the committed rows.
  bool anyNumber(std::size_t c) const;

  std::vector<std::vector<double>> assemble();

 private:
  struct Chunk {
    std::size_t rows = 0, capacity = 0;
    std::unique_ptr<double[]> values;  // column c's rows at values[c * capacity]
  };
  std::size_t cols_;
  std::vector<Chunk> chunks_;
  std::vector<double*> slots_;
  std::size_t filled_ = 0, capacity_ = 0, rows_ = 0;
};

}  // namespace gb::csv

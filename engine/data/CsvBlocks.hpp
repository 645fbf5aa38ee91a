#pragma once
// Internal helpers of the CSV reader: a file read in large blocks, and values collected per column in chunks.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gb::csv {

// A pipe's bytes, kept in an unlinked temporary file (in $TMPDIR, else /tmp) as they are read, so that its rows can be
// read a second time (a column that turns text after rows of numbers). ok() is false when no such file could be
// made or written (a full disk): the second reading is then refused as for a pipe without one.
class Spool {
 public:
  Spool();
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  bool ok() const { return fd_ >= 0; }
  void append(const char* bytes, std::size_t n);
  // Up to n bytes from offset, as ::pread (0 at the end, -1 on an error).
  long readAt(char* into, std::size_t n, std::uint64_t offset) const;

 private:
  int fd_ = -1;
};

// Reads a file block by block into one buffer. The caller parses whole rows; the unparsed tail of a block
// (a row cut by the block edge) is moved to the front before the next block is appended, so memory stays at
// about one block whatever the file size. A row longer than the buffer grows it.
class BlockReader {
 public:
  BlockReader(const std::string& path, std::size_t blockBytes);
  // Reads a pipe's bytes again from the spool a first reader of that pipe wrote (spool()); path names it in messages.
  BlockReader(const std::string& path, std::size_t blockBytes, std::shared_ptr<const Spool> replay);
  ~BlockReader();
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  const char* data() const { return buffer_.get(); }
  const char* end() const { return buffer_.get() + filled_; }
  bool eof() const { return eof_; }
  std::uint64_t fileSize() const { return fileSize_; }
  bool regularFile() const { return regularFile_; }  // false for a pipe
  // A pipe's bytes read so far, for a second reading; null for a regular file, or where no spool could be kept.
  std::shared_ptr<const Spool> spool() const { return spool_ && spool_->ok() ? spool_ : nullptr; }
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
  std::shared_ptr<Spool> spool_;             // a pipe's bytes, written as they are read
  std::shared_ptr<const Spool> replay_;      // read from here instead of fd_
  std::uint64_t replayed_ = 0;               // the next byte of replay_
  long readSome(char* into, std::size_t n);  // from fd_ (spooled) or replay_, as ::read
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

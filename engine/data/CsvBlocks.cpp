#include "data/CsvBlocks.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/Error.hpp"

namespace gb::csv {

namespace {
// Too small a block only costs speed; a floor keeps the BOM (3 bytes) and a line break inside the first block.
constexpr std::size_t kMinBlock = 16;
// Chunks start small (a 10-row file must not allocate megabytes per column) and grow to a cap that keeps
// the slack of the last, partly filled chunk a few percent of a large table. Both are also capped in bytes
// over all columns: a header of a million columns must not cost gigabytes before its first row is read.
constexpr std::size_t kFirstChunkRows = 1024;
constexpr std::size_t kMaxChunkRows = std::size_t{1} << 16;
constexpr std::size_t kFirstChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxChunkBytes = std::size_t{64} << 20;

std::size_t rowsWithin(std::size_t bytes, std::size_t cols, std::size_t rows) {
  return std::clamp<std::size_t>(bytes / (sizeof(double) * std::max<std::size_t>(cols, 1)), 1, rows);
}

std::string systemError() { return std::strerror(errno); }

int openTemporary() {
  const char* dir = std::getenv("TMPDIR");
  for (const char* d : {dir, "/tmp"}) {
    if (!d || !*d) continue;
    const int fd = ::open(d, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
  }
  return -1;
}
}  // namespace

Spool::Spool() : fd_(openTemporary()) {}

Spool::~Spool() {
  if (fd_ >= 0) ::close(fd_);
}

void Spool::append(const char* bytes, std::size_t n) {
  while (fd_ >= 0 && n > 0) {
    const ssize_t put = ::write(fd_, bytes, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) {  // a full disk: no second reading, and no half-kept spool read as if whole
      ::close(fd_);
      fd_ = -1;
      return;
    }
    bytes += put;
    n -= static_cast<std::size_t>(put);
  }
}

long Spool::readAt(char* into, std::size_t n, std::uint64_t offset) const {
  for (;;) {
    const ssize_t got = ::pread(fd_, into, n, static_cast<off_t>(offset));
    if (got >= 0 || errno != EINTR) return static_cast<long>(got);
  }
}

BlockReader::BlockReader(const std::string& path, std::size_t blockBytes)
    : path_(path), capacity_(std::max(blockBytes, kMinBlock)) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw InputError(locate(path, 0, 0, "cannot open: " + systemError()));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const std::string why = systemError();
    ::close(fd_);
    throw InputError(locate(path, 0, 0, "cannot open: " + why));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd_);
    throw InputError(locate(path, 0, 0, "cannot open: " + std::string(std::strerror(EISDIR))));
  }
  fileSize_ = static_cast<std::uint64_t>(st.st_size);
  regularFile_ = S_ISREG(st.st_mode);
  if (!regularFile_) spool_ = std::make_shared<Spool>();
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  buffer_.reset(new char[capacity_]);
}

BlockReader::BlockReader(const std::string& path, std::size_t blockBytes, std::shared_ptr<const Spool> replay)
    : path_(path), capacity_(std::max(blockBytes, kMinBlock)), regularFile_(false), replay_(std::move(replay)) {
  buffer_.reset(new char[capacity_]);
}

long BlockReader::readSome(char* into, std::size_t n) {
  if (replay_) {
    const long got = replay_->readAt(into, n, replayed_);
    if (got > 0) replayed_ += static_cast<std::uint64_t>(got);
    return got;
  }
  for (;;) {
    const ssize_t got = ::read(fd_, into, n);
    if (got < 0 && errno == EINTR) continue;
    if (got > 0 && spool_) spool_->append(into, static_cast<std::size_t>(got));
    return static_cast<long>(got);
  }
}

BlockReader::~BlockReader() {
  if (fd_ >= 0) ::close(fd_);
}

void BlockReader::refill(const char* keep) {
  const std::size_t skipped = static_cast<std::size_t>(keep - data());
  const std::size_t kept = filled_ - skipped;
  base_ += skipped;
  if (kept > capacity_ / 2) {  // a row as long as half the buffer: grow it, so every refill reads a lot
    std::unique_ptr<char[]> bigger(new char[capacity_ * 2]);
    std::memcpy(bigger.get(), keep, kept);
    buffer_ = std::move(bigger);
    capacity_ *= 2;
  } else if (skipped > 0) {
    std::memmove(buffer_.get(), keep, kept);
  }
  filled_ = kept;
  while (!eof_ && filled_ < capacity_) {
    std::size_t want = capacity_ - filled_;
    if (limit_ > 0) {
      const std::uint64_t at = base_ + filled_;
      want = static_cast<std::size_t>(std::min<std::uint64_t>(want, limit_ > at ? limit_ - at : 0));
      if (want == 0) {
        eof_ = true;
        break;
      }
    }
    const long got = readSome(buffer_.get() + filled_, want);
    if (got < 0) throw InputError(locate(path_, 0, 0, "cannot read: " + systemError()));
    if (got == 0) eof_ = true;
    filled_ += static_cast<std::size_t>(got);
  }
}

void BlockReader::restart(std::uint64_t offset, std::uint64_t limit) {
  if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0)
    throw InputError(locate(path_, 0, 0, "cannot read: " + systemError()));
  base_ = offset;
  filled_ = 0;
  limit_ = limit;
  eof_ = limit <= offset;
}

MappedFile::MappedFile(const std::string& path) {
  struct stat st {};
  // Opening a pipe would wait for its writer and lose what it writes: only a regular file is opened here.
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    size_ = static_cast<std::size_t>(st.st_size);
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      data_ = static_cast<const char*>(p);
      ::madvise(p, size_, MADV_WILLNEED);
    }
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::release(const char* b, const char* e) {
  if (b == e) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(b) / page * page;
  ::madvise(reinterpret_cast<void*>(from), static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(e) - from),
            MADV_DONTNEED);
}

void ColumnChunks::ensureRoom() {
  if (filled_ < capacity_) return;
  if (!chunks_.empty()) chunks_.back().rows = filled_;
  capacity_ = chunks_.empty() ? rowsWithin(kFirstChunkBytes, cols_, kFirstChunkRows)
                              : std::min(capacity_ * 2, rowsWithin(kMaxChunkBytes, cols_, kMaxChunkRows));
  Chunk chunk;
  chunk.capacity = capacity_;
  chunk.values.reset(new double[cols_ * capacity_]);  // uninitialised: every slot is written before use
  for (std::size_t c = 0; c < cols_; ++c) slots_[c] = chunk.values.get() + c * capacity_;
  chunks_.push_back(std::move(chunk));
  filled_ = 0;
}

bool ColumnChunks::anyNumber(std::size_t c) const {
  for (std::size_t k = 0; k < chunks_.size(); ++k) {
    const double* values = chunks_[k].values.get() + c * chunks_[k].capacity;
    const std::size_t rows = k + 1 == chunks_.size() ? filled_ : chunks_[k].rows;
    for (std::size_t r = 0; r < rows; ++r)
      if (!std::isnan(values[r])) return true;
  }
  return false;
}

std::vector<std::vector<double>> ColumnChunks::assemble() {
  if (!chunks_.empty()) chunks_.back().rows = filled_;
  std::vector<std::vector<double>> columns(cols_);
  for (std::size_t c = 0; c < cols_; ++c) columns[c].reserve(rows_);  // touched only as the chunks are copied in
  for (Chunk& chunk : chunks_) {
    for (std::size_t c = 0; c < cols_; ++c) {
      const double* values = chunk.values.get() + c * chunk.capacity;
      columns[c].insert(columns[c].end(), values, values + chunk.rows);
    }
    chunk.values.reset();
  }
  chunks_.clear();
  capacity_ = filled_ = 0;
  return columns;
}

}  // namespace gb::csv

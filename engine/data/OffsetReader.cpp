#include "data/OffsetReader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace gb::csv {

OffsetReader::OffsetReader(const std::string& path) {
  // O_NONBLOCK: a pipe's open must not wait for its writer (it is refused just below); no effect on a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
    fd_ = fd;
  else if (fd >= 0)
    ::close(fd);
}

OffsetReader::~OffsetReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool OffsetReader::read(std::uint64_t offset, std::size_t length, ReadBuffer& buffer) const {
  if (buffer.capacity < length) {
    buffer.bytes.reset();  // the old buffer first: the peak stays at one buffer a thread
    buffer.capacity = 0;
    buffer.bytes.reset(new char[length]);  // uninitialised: read() fills what is used
    buffer.capacity = length;
  }
  for (std::size_t done = 0; done < length;) {
    const ssize_t got = ::pread(fd_, buffer.bytes.get() + done, length - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<std::size_t>(got);
  }
  return true;
}

}  // namespace gb::csv

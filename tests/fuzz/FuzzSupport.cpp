#include "FuzzSupport.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace gbfuzz {

MemFile::MemFile() {
  fd_ = ::memfd_create("gb-fuzz-input", MFD_CLOEXEC);
  if (fd_ < 0) {
    std::perror("memfd_create");
    std::abort();
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

MemFile::~MemFile() {
  if (fd_ >= 0) ::close(fd_);
}

void MemFile::assign(const std::uint8_t* data, std::size_t size) {
  if (::ftruncate(fd_, 0) != 0) {
    std::perror("ftruncate");
    std::abort();
  }
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) {
      std::perror("pwrite");
      std::abort();
    }
    done += static_cast<std::size_t>(n);
  }
}

void finding(const std::string& what) {
  std::fprintf(stderr, "gb-fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

void checkMessage(const char* what, const std::string& expectedPrefix) {
  const std::string m = what ? what : "";
  if (m.empty()) finding("an error with an empty message");
  if (m.find('\n') != std::string::npos || m.find('\r') != std::string::npos)
    finding("an error message with a line break: " + m);
  if (m.compare(0, expectedPrefix.size(), expectedPrefix) != 0)
    finding("an error message that does not start with '" + expectedPrefix + "': " + m);
}

}  // namespace gbfuzz

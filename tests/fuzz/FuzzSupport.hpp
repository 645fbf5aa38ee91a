#pragma once
// Shared by the libFuzzer harnesses: the input as a file the readers can open, and a loud stop for findings.
#include <cstddef>
#include <cstdint>
#include <string>

namespace gbfuzz {

// An anonymous in-memory file (memfd_create) whose contents are replaced for each input. path() is
// "/proc/self/fd/N": the readers open it like any file, so the harness needs no extra engine API and writes
// nothing to disk.
class MemFile {
 public:
  MemFile();
  ~MemFile();
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  void assign(const std::uint8_t* data, std::size_t size);
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// A broken property: prints what and aborts, so libFuzzer saves the input as crash-<sha1>.
[[noreturn]] void finding(const std::string& what);

// One-line check of an error message: not empty, no line breaks (the CLI prints it as one line).
void checkMessage(const char* what, const std::string& expectedPrefix);

}  // namespace gbfuzz

#define GBFUZZ_CHECK(cond, what)                                                                          \
  do {                                                                                                    \
    if (!(cond)) ::gbfuzz::finding(std::string(__FILE__ ":") + std::to_string(__LINE__) + ": " + (what)); \
  } while (0)

#pragma once
// All-or-nothing output of a command. Every file is declared (and checked) before the work starts, written to a
// temporary file beside its target, and only when all of them have been written completely are they renamed onto
// their targets. A failure (a full disk, an exception, SIGINT/SIGTERM: see common/TemporaryFiles.hpp) removes the
// temporary files and leaves every target as it was.
//
// Symbolic links are followed: an output named by a link replaces the file the link points to (the link stays),
// as `cp` and a shell's `>` do. No output may be one of the command's inputs or another output, however named
// (compared by device and inode, so links, hard links and other spellings of a path count).
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace gb {

class TemporaryFileRegistration;

class OutputFiles {
 public:
  OutputFiles();
  ~OutputFiles();  // removes every temporary file not yet committed
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  // A file the command reads; no output declared before or after it may be the same file.
  void addInput(const std::string& path, const std::string& option);

  // Declares an output and checks it now: a non-empty path, not a directory, not an input or another output,
  // and a directory that takes a new file. expectedBytes (an estimate) feeds checkSpace().
  // Errors are InputErrors naming the option.
  void addOutput(const std::string& path, const std::string& option, std::uint64_t expectedBytes = 0);

  // The expected size of a declared output, once it is known (after the input was read).
  void setExpectedBytes(const std::string& path, std::uint64_t bytes);

  // Fails (InputError naming the option) when the declared outputs' expected sizes exceed the free space of a
  // file system, with a margin.
  void checkSpace() const;

  // Writes a declared output to its temporary file (flushed and fsync'ed); throws InputError on any failure.
  void write(const std::string& path, const std::function<void(std::ostream&)>& writer);

  // Renames every written temporary file onto its target. Throws if an output was declared but not written.
  void commit();

 private:
  struct Output;
  Output& find(const std::string& path);
  std::vector<std::unique_ptr<Output>> outputs_;
  struct Input {
    std::string path, option;
    std::uint64_t device = 0, inode = 0;
  };
  std::vector<Input> inputs_;
};

// The path that writing `path` really replaces: a symbolic link's final target (relative targets resolved
// against the link's directory); `path` itself otherwise.
std::string resolveOutputPath(const std::string& path);

}  // namespace gb

#include "data/OutputFiles.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "common/Error.hpp"
#include "common/SystemResources.hpp"
#include "common/TemporaryFiles.hpp"
#include "common/Text.hpp"

namespace gb {

namespace fs = std::filesystem;

namespace {

std::atomic<unsigned long> temporaryCounter{0};

// Beside the target (same file system, so rename is atomic), hidden, and short enough for NAME_MAX whatever the
// target's name is.
// `kind` tells a writability probe ("probe") from an output being written ("tmp").
std::string temporaryPathFor(const std::string& target, const char* kind = "tmp") {
  const fs::path path(target);
  std::string stem = path.filename().string().substr(0, 96);
  const std::string name =
      "." + stem + "." + kind + "-" + std::to_string(::getpid()) + "-" + std::to_string(temporaryCounter++);
  return (path.parent_path() / name).string();
}

std::string directoryOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// "--out: message", or the message alone for a file that no option named (the window's session files).
std::string withOption(const std::string& option, const std::string& message) {
  return option.empty() ? message : optionMessage(option, message);
}

[[noreturn]] void cannotWrite(const std::string& option, const std::string& path, const std::string& why) {
  throw InputError(withOption(option, path + ": cannot write: " + why));
}

}  // namespace

std::string resolveOutputPath(const std::string& path) {
  fs::path current(path);
  for (int hops = 0; hops < 40; ++hops) {  // 40: the kernel's own limit on nested links (ELOOP)
    std::error_code ec;
    if (!fs::is_symlink(current, ec)) return current.string();
    const fs::path target = fs::read_symlink(current, ec);
    if (ec) return current.string();
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  return current.string();
}

struct OutputFiles::Output {
  std::string path, option, target, canonical, temporary;
  std::uint64_t expectedBytes = 0;
  bool written = false;
  std::unique_ptr<TemporaryFileRegistration> registration;
};

OutputFiles::OutputFiles() { removeTemporaryFilesOnSignals(); }

OutputFiles::~OutputFiles() {
  for (const auto& output : outputs_)
    if (!output->temporary.empty()) ::unlink(output->temporary.c_str());
}

void OutputFiles::addInput(const std::string& path, const std::string& option) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;  // a missing input is reported by its reader
  for (const auto& output : outputs_) {        // an output declared before this input
    struct stat out {};
    if (::stat(output->target.c_str(), &out) == 0 && out.st_dev == st.st_dev && out.st_ino == st.st_ino)
      throw InputError(withOption(output->option, output->path + " is also the input " + option + " " + path +
                                                      ": writing it would destroy the input"));
  }
  inputs_.push_back({path, option, static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)});
}

void OutputFiles::addOutput(const std::string& path, const std::string& option, std::uint64_t expectedBytes) {
  if (path.empty()) throw InputError(withOption(option, "empty file name"));
  const std::string target = resolveOutputPath(path);
  std::error_code linkError;
  if (fs::is_symlink(target, linkError))  // still a link after the kernel's 40 hops: a loop, which `>` refuses too
    cannotWrite(option, path, "a loop of symbolic links");
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) cannotWrite(option, path, "is a directory");
    if (!S_ISREG(st.st_mode)) cannotWrite(option, path, "not a regular file (a device or a pipe)");
    // The directory may let us replace a file that we may not write (a read-only file in a shared directory); a
    // shell's `>` refuses that, and so do we.
    if (::access(target.c_str(), W_OK) != 0) cannotWrite(option, path, std::strerror(errno));
    for (const Input& input : inputs_)
      if (input.device == static_cast<std::uint64_t>(st.st_dev) && input.inode == static_cast<std::uint64_t>(st.st_ino))
        throw InputError(withOption(option, path + " is also the input " + input.option + " " + input.path +
                                                ": writing it would destroy the input"));
  }
  // The same file however spelled: "./r.json", "dir/../r.json" and links to a missing file all count. Made absolute
  // first: weakly_canonical leaves a relative name with no existing part ("r.json" before it exists) as it is, and
  // "./r.json" beside it became "/cwd/r.json", so the two passed as different files and one output was lost.
  std::error_code ec;
  const fs::path absolute = fs::absolute(target, ec);
  const std::string canonical = fs::weakly_canonical(ec ? fs::path(target) : absolute, ec).string();
  for (const auto& other : outputs_)
    if (other->canonical == canonical)
      throw InputError(withOption(option, path + " is also the output " + other->option));
  // Create (and remove) a file beside the target: exactly what write() will need.
  const std::string probe = temporaryPathFor(target, "probe");
  {
    const TemporaryFileRegistration registration(probe);
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) cannotWrite(option, path, std::strerror(errno));
    ::close(fd);
    ::unlink(probe.c_str());
  }
  auto output = std::make_unique<Output>();
  output->path = path;
  output->option = option;
  output->target = target;
  output->canonical = canonical;
  output->expectedBytes = expectedBytes;
  outputs_.push_back(std::move(output));
}

void OutputFiles::setExpectedBytes(const std::string& path, std::uint64_t bytes) { find(path).expectedBytes = bytes; }

void OutputFiles::checkSpace() const {
  std::map<std::string, std::uint64_t> needed;  // by directory: outputs side by side share one file system
  std::map<std::string, const Output*> example;
  for (const auto& output : outputs_) {
    const std::string dir = directoryOf(output->target);
    needed[dir] += output->expectedBytes;
    example[dir] = output.get();
  }
  for (const auto& [dir, bytes] : needed) {
    const std::uint64_t free = freeDiskBytes(dir);
    // 5% and 16 MiB of margin: the estimate is rough, and a disk filled to the last byte hurts everyone else.
    const std::uint64_t want = bytes + bytes / 20 + (std::uint64_t{16} << 20);
    if (bytes > 0 && free < want)
      throw InputError(withOption(example[dir]->option, "about " + describeBytes(want) + " needed in " + dir +
                                                            ", only " + describeBytes(free) + " free"));
  }
}

OutputFiles::Output& OutputFiles::find(const std::string& path) {
  for (auto& output : outputs_)
    if (output->path == path) return *output;
  throw Error("OutputFiles: " + path + " was not declared");
}

void OutputFiles::write(const std::string& path, const std::function<void(std::ostream&)>& writer) {
  Output& output = find(path);
  if (output.temporary.empty()) {
    output.temporary = temporaryPathFor(output.target);
    output.registration = std::make_unique<TemporaryFileRegistration>(output.temporary);
  }
  // Streams do not say why they failed; errno usually does (ENOSPC, EFBIG, EACCES, ...).
  const auto failed = [&output]() {
    const int error = errno;
    ::unlink(output.temporary.c_str());
    cannotWrite(output.option, output.path, error != 0 ? std::strerror(error) : "write failed");
  };
  errno = 0;
  {
    std::ofstream out(output.temporary, std::ios::binary | std::ios::trunc);
    if (!out) failed();
    try {
      writer(out);
    } catch (...) {
      ::unlink(output.temporary.c_str());
      throw;
    }
    out.flush();
    if (!out) failed();
    out.close();
    if (out.fail()) failed();
  }
  // On disk before the rename: a crash after commit() must not leave an empty or partial target.
  const int fd = ::open(output.temporary.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    if (fd >= 0) ::close(fd);
    failed();
  }
  ::close(fd);
  // The replaced file keeps its permissions (a private 0600 result stays private).
  struct stat st {};
  if (::stat(output.target.c_str(), &st) == 0 && ::chmod(output.temporary.c_str(), st.st_mode & 07777) != 0) failed();
  output.written = true;
}

void OutputFiles::commit() {
  for (const auto& output : outputs_)
    if (!output->written) throw Error("OutputFiles: " + output->path + " was declared but not written");
  const SignalsHeldBack held;
  // Each existing target is first kept under a second name (a hard link), so that if a later rename fails, the
  // earlier ones can be undone and every target is left as it was. Where the file system has no hard links, the
  // target is replaced without that safety, as before.
  std::vector<std::string> kept(outputs_.size());
  std::vector<bool> existed(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    struct stat st {};
    existed[i] = ::lstat(outputs_[i]->target.c_str(), &st) == 0;
    const std::string old = temporaryPathFor(outputs_[i]->target, "old");
    if (existed[i] && ::link(outputs_[i]->target.c_str(), old.c_str()) == 0) kept[i] = old;
  }
  const auto undo = [&](std::size_t renamed) {
    for (std::size_t i = 0; i < renamed; ++i)
      if (!kept[i].empty())
        ::rename(kept[i].c_str(), outputs_[i]->target.c_str());
      else if (!existed[i])
        ::unlink(outputs_[i]->target.c_str());  // new: removed (one that existed unkept stays replaced)
    for (std::size_t i = renamed; i < outputs_.size(); ++i)
      if (!kept[i].empty()) ::unlink(kept[i].c_str());
  };
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    Output& output = *outputs_[i];
    if (std::rename(output.temporary.c_str(), output.target.c_str()) != 0) {
      const int error = errno;
      undo(i);
      cannotWrite(output.option, output.path, std::strerror(error));
    }
  }
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    if (!kept[i].empty()) ::unlink(kept[i].c_str());
    outputs_[i]->temporary.clear();
    outputs_[i]->registration.reset();
  }
}

}  // namespace gb

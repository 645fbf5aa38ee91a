#include "data/CsvWriter.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "common/Error.hpp"

namespace gb {

namespace {

std::atomic<unsigned long> temporaryCounter{0};

std::string temporaryPath(const std::string& path) {
  return path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(temporaryCounter++);
}

std::string cannotWrite(const std::string& path, int error) { return path + ": cannot write: " + std::strerror(error); }

// A name is quoted when reading it back would otherwise change it (delimiters, quotes, line breaks, edge spaces).
void appendName(std::string& out, const std::string& name) {
  const bool needsQuotes = name.empty() || name.find_first_of(",;\t\"\r\n") != std::string::npos ||
                           name.front() == ' ' || name.back() == ' ';
  if (!needsQuotes) {
    out += name;
    return;
  }
  out += '"';
  for (const char ch : name) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

}  // namespace

void checkWritable(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(optionMessage(option, cannotWrite(path, EISDIR)));
  // Create (and remove) a file beside the target: that is exactly what writeFileAtomically will need.
  const std::string probe = temporaryPath(path);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(optionMessage(option, cannotWrite(path, errno)));
  ::close(fd);
  ::unlink(probe.c_str());
}

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string temporary = temporaryPath(path);
  // Streams do not say why they failed; errno usually does (ENOSPC, EACCES, ...).
  const auto failure = [&path]() {
    return InputError(
        locate(path, 0, 0, "cannot write: " + std::string(errno != 0 ? std::strerror(errno) : "write failed")));
  };
  try {
    errno = 0;
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw failure();
    write(out);
    out.flush();
    if (!out) throw failure();
    out.close();
    if (out.fail()) throw failure();
    if (std::rename(temporary.c_str(), path.c_str()) != 0) throw failure();
  } catch (...) {
    std::remove(temporary.c_str());
    throw;
  }
}

void writeCsv(std::ostream& out, const Dataset& data) {
  // Rows are formatted into one buffer and handed to the stream in large pieces: the stream's own
  // formatting is slow and locale-dependent.
  constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
  if (data.names.size() != data.cols())
    throw Error("writeCsv: " + std::to_string(data.names.size()) + " names for " + std::to_string(data.cols()) +
                " columns");
  for (const auto& column : data.columns)
    if (column.size() != data.rows()) throw Error("writeCsv: columns of different lengths");
  std::string buffer;
  buffer.reserve(kFlushBytes + 4096);
  for (std::size_t c = 0; c < data.cols(); ++c) {
    if (c > 0) buffer += ',';
    appendName(buffer, data.names[c]);
  }
  buffer += '\n';
  const std::size_t rows = data.rows(), cols = data.cols();
  char number[32];
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      // Shortest text that reads back to the same double (at most 17 significant digits), '.' always.
      const auto result = std::to_chars(number, number + sizeof number, data.columns[c][r]);
      if (c > 0) buffer += ',';
      buffer.append(number, result.ptr);
    }
    buffer += '\n';
    if (buffer.size() >= kFlushBytes) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

void writeCsv(const std::string& path, const Dataset& data) {
  writeFileAtomically(path, [&data](std::ostream& out) { writeCsv(out, data); });
}

}  // namespace gb

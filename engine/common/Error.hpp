#pragma once
// Engine errors. InputError is the user's fault (bad file, bad option: the CLI exits with status 2);
// ComputeError is a device or numerical failure (an OpenCL call, a kernel build; carries details such as a build log).
#include <stdexcept>
#include <string>

namespace gb {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input or options. what() is one line naming the file:line:column or the --option.
class InputError : public Error {
 public:
  using Error::Error;
};

// A failure of the compute device or runtime. details() holds multi-line extra text (e.g. a kernel build log).
class ComputeError : public Error {
 public:
  explicit ComputeError(const std::string& message, std::string details = {})
      : Error(message), details_(std::move(details)) {}
  const std::string& details() const { return details_; }

 private:
  std::string details_;
};

// "file:line:column: message" (line/column 1-based; 0 omits them).
std::string locate(const std::string& file, long line, long column, const std::string& message);
// "--option: message"
std::string optionMessage(const std::string& option, const std::string& message);

}  // namespace gb

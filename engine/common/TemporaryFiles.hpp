#pragma once
// Temporary output files that must not outlive a killed process. A file being written is registered here; if
// SIGINT, SIGTERM, SIGHUP or SIGQUIT ends the process, the handler removes every registered file (unlink is
// async-signal-safe) and then lets the signal take its default course (the exit status still says "killed").
#include <string>

namespace gb {

// Installs the handlers once (idempotent). Also ignores SIGXFSZ, so that a write past the file-size limit fails
// with EFBIG (reported as an error) instead of killing the process.
void removeTemporaryFilesOnSignals();

// Registers a path for the lifetime of the object. Neither creates nor removes the file itself.
class TemporaryFileRegistration {
 public:
  explicit TemporaryFileRegistration(const std::string& path);
  ~TemporaryFileRegistration();
  TemporaryFileRegistration(const TemporaryFileRegistration&) = delete;
  TemporaryFileRegistration& operator=(const TemporaryFileRegistration&) = delete;

 private:
  int slot_;
};

}  // namespace gb

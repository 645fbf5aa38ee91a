#pragma once
// Temporary output files that must not outlive a killed process. A file being written is registered here; if
// SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU, SIGALRM, SIGVTALRM, SIGUSR1 or SIGUSR2 ends the process, the
// handler removes every registered file (unlink is async-signal-safe) and then lets the signal take its default
// course (the exit status still says "killed"). A signal already ignored or handled by someone else is left alone.
#include <signal.h>

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

// Holds back, for its lifetime, the signals whose handler removeTemporaryFilesOnSignals installs, so that none ends
// the process in the middle of something that must finish (the renames of several outputs); a pending one is
// delivered when the object goes. For short sections only.
class SignalsHeldBack {
 public:
  SignalsHeldBack();
  ~SignalsHeldBack();
  SignalsHeldBack(const SignalsHeldBack&) = delete;
  SignalsHeldBack& operator=(const SignalsHeldBack&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace gb

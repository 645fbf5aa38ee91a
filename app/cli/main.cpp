// gamboost: the command-line twin of GAMBoost Studio (design.md section 4). The app itself is in CliApp.cpp.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>

#include "CliApp.hpp"
#include "common/OpenMpPolicy.hpp"

namespace {

// A command started with stdin, stdout or stderr closed (`gamboost ... >&-`) would hand those numbers to the first
// files it opens, and its report would go into, say, result.json's temporary file. Each closed one gets /dev/null
// opened the wrong way round instead (stdout and stderr read-only), so that writing to it still fails, as it would
// have, and is reported.
void keepStandardStreamsClosed() {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      const int opened = ::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
      if (opened >= 0 && opened != fd) ::close(opened);
    }
}

}  // namespace

int main(int argc, char** argv) {
  keepStandardStreamsClosed();
  gb::preferPassiveOpenMpWait(argv);
  if (const std::string note = gb::capOpenMpThreads(); !note.empty()) std::cerr << "gamboost: note: " << note << "\n";
  return gb::cli::runCli(argc, argv);
}

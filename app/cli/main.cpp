// gamboost: the command-line twin of GAMBoost Studio (design.md section 4). The app itself is in CliApp.cpp.
#include <iostream>

#include "CliApp.hpp"
#include "common/OpenMpPolicy.hpp"

int main(int argc, char** argv) {
  gb::preferPassiveOpenMpWait(argv);
  if (const std::string note = gb::capOpenMpThreads(); !note.empty()) std::cerr << "gamboost: note: " << note << "\n";
  return gb::cli::runCli(argc, argv);
}

#pragma once
// The whole gamboost command line as a library: main() and the option-parser fuzzer build the same app.
#include <memory>
#include <vector>

#include "Commands.hpp"

namespace gb::cli {

struct CliApp {
  CLI::App app{"gamboost: gradient-boosted GAMs with penalised B-spline learners (CPU or OpenCL)."};
  std::vector<Command> commands;  // the leaf subcommands; the parsed one runs
};

// Builds the app with every subcommand and option (nothing runs).
std::unique_ptr<CliApp> makeCliApp();

// Parses argv and runs the chosen command; returns the exit status (0, 1, or 2 for bad input or options).
int runCli(int argc, char** argv);

}  // namespace gb::cli

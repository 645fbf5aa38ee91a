#pragma once
// One function per subcommand: it adds the subcommand and its options to the app and returns what runs it.
#include <vector>

#include "CliSupport.hpp"

namespace gb::cli {

Command addDevicesCommand(CLI::App& app);
Command addGenerateCommand(CLI::App& app);
Command addFitCommand(CLI::App& app);
Command addPredictCommand(CLI::App& app);
Command addCvCommand(CLI::App& app);
std::vector<Command> addBenchCommands(CLI::App& app);  // bench csv | kernels | fit | e2e | tune
Command addTuneBench(CLI::App* bench);                 // bench tune (TuneCommand.cpp)

}  // namespace gb::cli

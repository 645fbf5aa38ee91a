// libFuzzer harness for the gamboost option parser: the app of gb::cli::makeCliApp() (every subcommand and
// option, the strict number validators) parses an argv made from the input, and no command runs (a command
// could write files anywhere).
//
// Input: the arguments, one per line ("fit\n--data\na.csv\n--knots\n20"); a NUL ends an argument early, as in
// a real argv. Documented errors (CLI::ParseError, including --help and --version, and gb::InputError) are
// fine; anything else is a finding, as is a parse that selects more than one command to run. After
// --help the help text is rendered (without printing), as gamboost would.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "CliApp.hpp"
#include "FuzzSupport.hpp"
#include "common/Error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // long command lines add nothing but time
  std::vector<std::string> args = {"gamboost"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (size > 0) args.push_back(current);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());  // c_str: an embedded NUL ends the argument
  argv.push_back(nullptr);

  const std::unique_ptr<gb::cli::CliApp> cli = gb::cli::makeCliApp();
  try {
    cli->app.parse(static_cast<int>(args.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    (void)cli->app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    (void)cli->app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError&) {
    return 0;
  } catch (const gb::InputError& e) {
    gbfuzz::checkMessage(e.what(), "");
    return 0;
  }
  int chosen = 0;
  for (const gb::cli::Command& command : cli->commands) chosen += command.app->parsed() ? 1 : 0;
  GBFUZZ_CHECK(chosen <= 1, "more than one command parsed");
  return 0;
}

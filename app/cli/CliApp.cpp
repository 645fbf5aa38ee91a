// The gamboost command line: every subcommand, and the one place where failures become exit statuses.
// Every failure ends here as one line "gamboost: <message>" on stderr: status 2 for bad input or options
// (gb::InputError and CLI11's parse errors), 1 for device failures and anything unexpected. Never a crash.
#include "CliApp.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/Error.hpp"

namespace gb::cli {
namespace {

// Messages must stay one line: a multi-line message would break "one line on stderr" for scripts.
std::string oneLine(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

int fail(int status, const std::string& message) {
  std::cerr << "gamboost: " << oneLine(message) << std::endl;
  return status;
}

// The command of the arguments ("fit", "bench fit"), for messages: "" where none is named.
std::string commandOf(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return "";
  const std::string first = argv[1];
  return first == "bench" && argc > 2 && argv[2][0] != '-' ? first + " " + argv[2] : first;
}

// CLI11's words as a sentence: an option given more than once ("--knots: At Most 1 required but received 2"), an
// option without its value ("--mstop: 1 required INT|cv missing"), and
// arguments it did not expect, which it lists last first ("... not expected: 0.5 --holdout" for "cv --holdout 0.5").
std::string parseMessage(const CLI::ParseError& e, const std::string& command) {
  static const std::regex repeated("^(-[^:]*): At Most 1 required but received ([0-9]+)$");
  static const std::regex extras("^The following arguments? (?:was|were) not expected: (.*)$");
  static const std::regex missing("^(-[^:]*): 1 required (\\S+) missing$");
  const std::string text = e.what();
  std::smatch m;
  if (std::regex_match(text, m, repeated)) return m[1].str() + ": given " + m[2].str() + " times; give it once";
  if (std::regex_match(text, m, missing)) return m[1].str() + ": needs a value (" + m[2].str() + ")";
  if (std::regex_match(text, m, extras)) {
    std::vector<std::string> words;
    std::istringstream in(m[1].str());
    for (std::string word; in >> word;) words.insert(words.begin(), word);
    std::string given;
    for (const std::string& word : words) given += (given.empty() ? "" : " ") + word;
    const auto option = std::find_if(words.begin(), words.end(), [](const std::string& w) { return w[0] == '-'; });
    const std::string help = "'gamboost " + (command.empty() ? "" : command + " ") + "--help' lists the options";
    if (option != words.end())
      return *option + ": not an option of " + (command.empty() ? "gamboost" : "'" + command + "'") +
             " (arguments not expected: " + given + "); " + help;
    return "arguments not expected: " + given + " (an option's value needs its option before it); " + help;
  }
  return text;
}

// A command's report on stdout (--summary, devices, bench tables) counts as an output: a full disk or a closed
// stdout must not pass as success with a short or empty report. (A closed pipe ends the process with SIGPIPE.)
int checkStandardOutput(int status) {
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (status != 0 || (flushed && std::cout && !std::ferror(stdout))) return status;
  return fail(kExitBadInput, std::string("standard output: cannot write: ") +
                                 (error != 0 ? std::strerror(error) : "a write failed (a full disk, or closed)"));
}

}  // namespace

std::unique_ptr<CliApp> makeCliApp() {
  auto cli = std::make_unique<CliApp>();
  CLI::App& app = cli->app;
  app.name("gamboost");
  app.require_subcommand(1);
  app.set_version_flag("--version", "gamboost 0.1.0");
  app.footer(
      "Run 'gamboost <command> --help' for a command's options. Exit status: 0 ok, 2 bad input or "
      "options, 1 device or other failure.");

  std::vector<Command>& commands = cli->commands;
  commands.push_back(addDevicesCommand(app));
  commands.push_back(addGenerateCommand(app));
  commands.push_back(addFitCommand(app));
  commands.push_back(addPredictCommand(app));
  commands.push_back(addCvCommand(app));
  for (Command& bench : addBenchCommands(app)) commands.push_back(std::move(bench));
  return cli;
}

// CLI11 checks required options before unknown ones, so "fit --dta x" would say "--data is required".
// A missing option is reported only when the arguments, parsed with nothing required, have no other error.
std::string firstErrorBeyondRequired(int argc, char** argv, const std::string& requiredMessage) {
  try {
    std::unique_ptr<CliApp> relaxed = makeCliApp();
    for (const Command& command : relaxed->commands)
      for (CLI::Option* option : command.app->get_options()) option->required(false);
    relaxed->app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parseMessage(e, commandOf(argc, argv));
  } catch (const std::exception& e) {
    return e.what();
  }
  return requiredMessage;
}

int runCli(int argc, char** argv) {
  std::unique_ptr<CliApp> cli;
  try {
    cli = makeCliApp();
  } catch (const std::exception& e) {
    return fail(kExitFailure, std::string("internal error while setting up options: ") + e.what());
  }
  CLI::App& app = cli->app;
  // "gamboost nosuch" said only "A subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known = known || sub->get_name() == argv[1];
      names.push_back(sub->get_name());
    }
    if (!known) {
      std::string list;
      for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
      return fail(kExitBadInput, "'" + std::string(argv[1]) + "' is not a command; the commands: " + list);
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    return fail(kExitBadInput, firstErrorBeyondRequired(argc, argv, e.what()));
  } catch (const CLI::ParseError& e) {
    return fail(kExitBadInput, parseMessage(e, commandOf(argc, argv)));
  } catch (const gb::InputError& e) {
    return fail(kExitBadInput, e.what());
  } catch (const std::exception& e) {
    return fail(kExitBadInput, e.what());
  }

  try {
    for (Command& command : cli->commands)
      if (command.app->parsed()) return checkStandardOutput(command.run());
    return fail(kExitBadInput, "no command given (try --help)");
  } catch (const gb::InputError& e) {
    return fail(kExitBadInput, e.what());
  } catch (const CLI::ParseError& e) {
    return fail(kExitBadInput, e.what());
  } catch (const gb::ComputeError& e) {
    const int status = fail(kExitFailure, e.what());
    if (!e.details().empty()) std::cerr << e.details() << std::endl;  // e.g. an OpenCL build log, after the line
    return status;
  } catch (const std::bad_alloc&) {
    return fail(kExitFailure, "out of memory");
  } catch (const std::exception& e) {
    return fail(kExitFailure, e.what());
  } catch (...) {
    return fail(kExitFailure, "unexpected failure");
  }
}

}  // namespace gb::cli

#pragma once
// Pieces every gamboost subcommand shares: strict number options, the Command record main() dispatches on,
// a progress printer for long runs and a plain-text table.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/Format.hpp"
#include "data/OutputFiles.hpp"

namespace gb::cli {

// A leaf subcommand and what runs when it was the one parsed. run() returns the exit status.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Exit statuses (design.md section 4): 2 for bad input or options, 1 for device failures and the unexpected.
constexpr int kExitBadInput = 2;
constexpr int kExitFailure = 1;

// Validators that accept exactly a decimal number and nothing else: no trailing text, no hex, no sign on
// unsigned values, no NaN/Inf. CLI11's own conversion wraps "-3" into a huge size_t and accepts "nan".
CLI::Validator integerValidator();
// A file name that is not empty (an empty one was read as the file "" or ignored).
CLI::Validator fileNameValidator();
CLI::Validator wholeNumberValidator();  // >= 0
CLI::Validator finiteRealValidator();
// One of these words, in the engine's words: "must be 'omit' or 'fail' (got 'skip')".
CLI::Validator oneOfValidator(const std::vector<std::string>& words);

// Options bound to a variable, strictly parsed, with the default shown in --help.
CLI::Option* addIntOption(CLI::App* app, const std::string& name, int& value, const std::string& help);
CLI::Option* addSizeOption(CLI::App* app, const std::string& name, std::size_t& value, const std::string& help);
CLI::Option* addSeedOption(CLI::App* app, const std::string& name, std::uint64_t& value, const std::string& help);
CLI::Option* addRealOption(CLI::App* app, const std::string& name, double& value, const std::string& help);
// An option whose word becomes an engine enum through the engine's own parser (one list of accepted words, one
// message: "--backend: must be 'cpu' or 'opencl' (got 'gpu')").
template <typename E>
CLI::Option* addEnumOption(CLI::App* app, const std::string& name, E& value, E (*parse)(const std::string&),
                           const std::string& help) {
  return app
      ->add_option_function<std::string>(
          name, [&value, parse](const std::string& word) { value = parse(word); }, help)
      ->type_name("WORD");
}
// Comma-separated lists ("--rows 1000,10000").
CLI::Option* addSizeListOption(CLI::App* app, const std::string& name, std::vector<std::size_t>& value,
                               const std::string& help);
CLI::Option* addIntListOption(CLI::App* app, const std::string& name, std::vector<int>& value, const std::string& help);
// Column names, comma-separated; a name that holds a comma goes in double quotes ("\"a,b\""), a quote in it doubled.
CLI::Option* addTextListOption(CLI::App* app, const std::string& name, std::vector<std::string>& value,
                               const std::string& help);
// One column name, quoted or not, so that a name written as in a list ("\"a,b\"") means the same here.
CLI::Option* addNameOption(CLI::App* app, const std::string& name, std::string& value, const std::string& help);

// Prints "<label>: 40% <detail> (3.1 s)" to stderr at each new tenth of the work, but only once the run has
// taken longer than `quietSeconds`: short runs stay silent, long ones show they are alive. A tenth that takes longer
// than kHeartbeatSeconds gets lines between (the whole percent done, "3%"), at most one per kHeartbeatSeconds, so
// that a run of many minutes (--bands 1000000) is not silent for its first ones.
class ProgressPrinter {
 public:
  explicit ProgressPrinter(std::string label, bool enabled = true, double quietSeconds = 2.0);
  void update(double fraction, const std::string& detail = {});
  double elapsedSeconds() const;

 private:
  std::string label_;
  bool enabled_;
  double quietSeconds_;
  static constexpr double kHeartbeatSeconds = 15.0;
  int lastTenth_ = 0, lastPercent_ = 0;
  double lastLine_ = 0.0;  // seconds from start_ to the last line printed
  std::chrono::steady_clock::time_point start_;
};

// Left-aligned text, right-aligned numbers (a cell is numeric when it starts with a digit, '-', or '.').
void printTable(std::ostream& out, const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows);

// Short formats for tables and summaries (numbers: gb::formatNumber from common/Format.hpp).
std::string formatSeconds(double seconds);
std::string formatBytes(std::uint64_t bytes);

// Both "<prefix>.json" and "<prefix>.csv" declared (and checked) before a benchmark runs.
void addPrefixOutputs(OutputFiles& outputs, const std::string& prefix, const std::string& option);
// Writes text to a declared output (renamed into place by outputs.commit()).
void writeText(OutputFiles& outputs, const std::string& path, const std::string& text);
// JSON text of a result or report: a string that is not UTF-8 (a file path can be any bytes) is written with
// U+FFFD in place of the bad bytes instead of failing after the work.
std::string jsonText(const nlohmann::json& j, int indent = -1);
// InputError naming the option unless path is a regular file this process can read.
void checkReadableFile(const std::string& path, const std::string& option);

}  // namespace gb::cli

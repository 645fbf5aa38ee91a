#include "CliSupport.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <sstream>

#include "common/Error.hpp"
#include "common/NameHint.hpp"
#include "common/SystemResources.hpp"
#include "common/Text.hpp"
#include "data/CsvWriter.hpp"

namespace gb::cli {
namespace {

enum class Parsed { Ok, NotANumber, OutOfRange };

template <typename T>
Parsed parsesExactly(const std::string& text, T& value) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;  // from_chars rejects a leading '+', people write it
  if (first == last) return Parsed::NotANumber;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ptr != last) return Parsed::NotANumber;
  if (ec == std::errc::result_out_of_range) return Parsed::OutOfRange;
  return ec == std::errc() ? Parsed::Ok : Parsed::NotANumber;
}

// T is the option's own type: a count beyond it is named as such, not left to CLI11's "Could not convert".
template <typename T>
CLI::Validator exactNumber(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        T value{};
        const Parsed parsed = parsesExactly(text, value);
        if (parsed == Parsed::OutOfRange) {
          if constexpr (std::is_integral_v<T>)
            return text.front() == '-' ? gb::quotedForMessage(text) + " is too small (at least " +
                                             std::to_string(std::numeric_limits<T>::min()) + ")"
                                       : gb::quotedForMessage(text) + " is too large (at most " +
                                             std::to_string(std::numeric_limits<T>::max()) + ")";
          else
            return gb::quotedForMessage(text) + " is beyond the double range";
        }
        if (parsed != Parsed::Ok) return gb::quotedForMessage(text) + " is not " + what;
        if constexpr (std::is_floating_point_v<T>) {
          if (!std::isfinite(value)) return gb::quotedForMessage(text) + " is not a finite number";
        }
        return {};
      },
      "", what);  // no description: --help shows the option's type name once (INT=20, not INT:INT=20)
}

}  // namespace

CLI::Validator integerValidator() { return exactNumber<int>("an integer"); }

CLI::Validator fileNameValidator() {
  return CLI::Validator([](std::string& path) { return path.empty() ? std::string("empty file name") : std::string(); },
                        "", "");
}
CLI::Validator wholeNumberValidator() { return exactNumber<unsigned long long>("a whole number (0, 1, 2, ...)"); }
CLI::Validator finiteRealValidator() { return exactNumber<double>("a number"); }

CLI::Validator oneOfValidator(const std::vector<std::string>& words) {
  return CLI::Validator(
      [words](std::string& text) -> std::string {
        if (std::find(words.begin(), words.end(), text) != words.end()) return {};
        std::string list;
        for (std::size_t i = 0; i < words.size(); ++i)
          list += (i == 0 ? "'" : i + 1 == words.size() ? " or '" : ", '") + words[i] + "'";
        return "must be " + list + " (got " + quotedForMessage(text) + ")" + didYouMean(text, words);
      },
      "", "");
}

CLI::Option* addIntOption(CLI::App* app, const std::string& name, int& value, const std::string& help) {
  return app->add_option(name, value, help)->check(integerValidator())->capture_default_str()->type_name("INT");
}

CLI::Option* addSizeOption(CLI::App* app, const std::string& name, std::size_t& value, const std::string& help) {
  return app->add_option(name, value, help)->check(wholeNumberValidator())->capture_default_str()->type_name("UINT");
}

CLI::Option* addSeedOption(CLI::App* app, const std::string& name, std::uint64_t& value, const std::string& help) {
  return app->add_option(name, value, help)->check(wholeNumberValidator())->capture_default_str()->type_name("UINT");
}

CLI::Option* addRealOption(CLI::App* app, const std::string& name, double& value, const std::string& help) {
  return app->add_option(name, value, help)->check(finiteRealValidator())->capture_default_str()->type_name("NUMBER");
}

namespace {

// A comma-separated list of numbers of type T, each checked by `check` (an exactNumber validator). CLI11's own
// delimiter drops empty items ("1000,,2000" read as two sizes): here an empty item is an error naming the option.
template <typename T>
CLI::Option* addNumberListOption(CLI::App* app, const std::string& name, std::vector<T>& value, const std::string& help,
                                 const CLI::Validator& check, const std::string& typeName) {
  std::string shown;
  for (const T& v : value) shown += (shown.empty() ? "" : ",") + std::to_string(v);
  return app
      ->add_option_function<std::vector<std::string>>(
          name,
          [&value, name, check](const std::vector<std::string>& given) {
            value.clear();
            for (const std::string& text : given) {
              std::size_t start = 0;
              while (true) {
                const std::size_t end = std::min(text.find(',', start), text.size());
                std::string item = text.substr(start, end - start);
                if (item.empty())
                  throw InputError(optionMessage(name, quotedForMessage(text) + " has an empty item; give " +
                                                           "numbers separated by single commas"));
                const std::string problem = check(item);
                if (!problem.empty()) throw InputError(optionMessage(name, problem));
                T parsed{};
                parsesExactly(item, parsed);
                value.push_back(parsed);
                if (end == text.size()) break;
                start = end + 1;
              }
            }
          },
          help)
      ->default_str(shown)
      ->type_name(typeName);
}

}  // namespace

CLI::Option* addSizeListOption(CLI::App* app, const std::string& name, std::vector<std::size_t>& value,
                               const std::string& help) {
  return addNumberListOption(app, name, value, help, wholeNumberValidator(), "UINT,...");
}

CLI::Option* addIntListOption(CLI::App* app, const std::string& name, std::vector<int>& value,
                              const std::string& help) {
  return addNumberListOption(app, name, value, help, integerValidator(), "INT,...");
}

namespace {

// "a,\"b,c\",d" -> a | b,c | d: a name that holds a comma (a CSV header "b,c") is written in double quotes, as in
// the CSV itself, with "" for a quote inside them.
void splitNameList(const std::string& option, const std::string& text, std::vector<std::string>& names) {
  std::string name;
  bool quoted = false;
  // No column or device has an empty name (the reader refuses one), so an empty item is a stray comma.
  auto push = [&] {
    if (name.empty())
      throw InputError(optionMessage(option, "an empty entry in the list " + quotedForMessage(text) +
                                                 " (a comma at an end or two in a row; a name that holds a comma "
                                                 "goes in double quotes)"));
    names.push_back(std::move(name));
    name.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
      name += '"';
      ++i;
    } else if (c == '"' && (quoted || name.empty())) {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      push();
    } else {
      name += c;
    }
  }
  if (quoted)
    throw InputError(optionMessage(option, quotedForMessage(text) + " opens a double quote that it does not close"));
  push();
}

}  // namespace

CLI::Option* addTextListOption(CLI::App* app, const std::string& name, std::vector<std::string>& value,
                               const std::string& help) {
  const std::string option = name.substr(0, name.find(','));  // "--spline,--learners": the first name
  return app
      ->add_option_function<std::vector<std::string>>(
          name,
          [&value, option](const std::vector<std::string>& given) {
            value.clear();
            for (const std::string& text : given) splitNameList(option, text, value);
          },
          help)
      ->type_name("NAME,...");
}

CLI::Option* addNameOption(CLI::App* app, const std::string& name, std::string& value, const std::string& help) {
  return app
      ->add_option_function<std::string>(
          name,
          [&value, name](const std::string& given) {
            if (given == "\"\"") throw InputError(optionMessage(name, "an empty name (\"\")"));
            std::vector<std::string> one;
            if (!given.empty() && given.front() == '"') splitNameList(name, given, one);
            value = one.size() == 1 ? one.front() : given;
          },
          help)
      ->default_str(value)
      ->type_name("NAME");
}

ProgressPrinter::ProgressPrinter(std::string label, bool enabled, double quietSeconds)
    : label_(std::move(label)),
      enabled_(enabled),
      quietSeconds_(quietSeconds),
      start_(std::chrono::steady_clock::now()) {}

double ProgressPrinter::elapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressPrinter::update(double fraction, const std::string& detail) {
  if (!enabled_) return;
  const double done = std::clamp(fraction, 0.0, 1.0);
  const int tenth = static_cast<int>(std::floor(done * 10.0 + 1e-9));
  const int percent = static_cast<int>(std::floor(done * 100.0 + 1e-9));
  if (percent <= lastPercent_) return;
  const double elapsed = elapsedSeconds();
  if (elapsed < quietSeconds_) return;  // lastTenth_ stays: the first line after the quiet time shows the latest
  if (tenth <= lastTenth_ && elapsed - lastLine_ < kHeartbeatSeconds) return;
  lastTenth_ = tenth;
  lastPercent_ = percent;
  lastLine_ = elapsed;
  std::cerr << label_ << ": " << (tenth * 10 == percent ? tenth * 10 : percent) << "%";
  if (!detail.empty()) std::cerr << " " << detail;
  std::cerr << " (" << formatSeconds(elapsed) << ")" << std::endl;
}

void printTable(std::ostream& out, const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size(), 0);
  auto widen = [&width](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
  };
  widen(header);
  for (const auto& row : rows) widen(row);
  // A number, optionally with a short unit ("12.5 ms", "4.2%", "13.7 GiB"); "2-core CPU" is text.
  auto numeric = [](const std::string& s) {
    if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '.')) return false;
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    const std::size_t rest = s.size() - static_cast<std::size_t>(end - s.c_str());
    return end != s.c_str() && (rest == 0 || ((*end == ' ' || *end == '%') && rest <= 4));
  };
  auto line = [&](const std::vector<std::string>& row, bool isHeader) {
    std::string text;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : std::string();
      const std::string pad(width[c] - cell.size(), ' ');
      text += (!isHeader && numeric(cell)) ? pad + cell : cell + pad;
      if (c + 1 < width.size()) text += "  ";
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << '\n';
  };
  line(header, true);
  std::size_t total = 0;
  for (std::size_t w : width) total += w + 2;
  out << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
  for (const auto& row : rows) line(row, false);
}

std::string formatSeconds(double seconds) {
  char buffer[64];
  if (seconds < 1e-3)
    std::snprintf(buffer, sizeof buffer, "%.1f us", seconds * 1e6);
  else if (seconds < 1.0)
    std::snprintf(buffer, sizeof buffer, "%.1f ms", seconds * 1e3);
  else
    std::snprintf(buffer, sizeof buffer, "%.2f s", seconds);
  return buffer;
}

std::string formatBytes(std::uint64_t bytes) { return describeBytes(bytes); }

void addPrefixOutputs(OutputFiles& outputs, const std::string& prefix, const std::string& option) {
  outputs.addOutput(prefix + ".json", option);
  outputs.addOutput(prefix + ".csv", option);
}

void writeText(OutputFiles& outputs, const std::string& path, const std::string& text) {
  outputs.write(path, [&text](std::ostream& out) { out << text; });
}

std::string jsonText(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void checkReadableFile(const std::string& path, const std::string& option) {
  struct stat st {};
  if (path.empty()) throw InputError(optionMessage(option, "empty file name"));
  if (::stat(path.c_str(), &st) != 0) throw InputError(optionMessage(option, path + ": " + std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw InputError(optionMessage(option, path + ": is a directory"));
  if (::access(path.c_str(), R_OK) != 0) throw InputError(optionMessage(option, path + ": " + std::strerror(errno)));
}

}  // namespace gb::cli

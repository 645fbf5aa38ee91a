#include "common/Error.hpp"

#include "common/Text.hpp"

namespace gb {

std::string locate(const std::string& file, long line, long column, const std::string& message) {
  std::string out = printableText(file);  // a path may hold a line break or bytes that are not UTF-8
  if (line > 0) out += ":" + std::to_string(line);
  if (line > 0 && column > 0) out += ":" + std::to_string(column);
  return out + ": " + message;
}

std::string optionMessage(const std::string& option, const std::string& message) { return option + ": " + message; }

}  // namespace gb

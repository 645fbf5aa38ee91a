// The model frame's codings: the response for its family, and factor columns as codes of the levels they use.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/Text.hpp"
#include "learner/ModelFrame.hpp"

namespace gb {

namespace {

// "file:line" of a used row, or "file:line:column" with the file's 1-based column (0: the line only).
std::string inputLine(const ModelFrame& f, const Dataset& data, std::size_t row, long fileColumn = 0) {
  const std::size_t input = row < f.keptRows.size() ? f.keptRows[row] : row;
  const std::string line = data.sourceName() + ":" + std::to_string(input + 2);
  return fileColumn > 0 ? line + ":" + std::to_string(fileColumn) : line;
}

// The response's column in the input file (the frame's data holds the used columns only).
long responseColumn(const Dataset& file, const ModelSettings& s) {
  const int c = file.columnIndex(s.response);
  return c < 0 ? 0 : file.fileColumn(static_cast<std::size_t>(c));
}

// Levels that occur (codes of a text column), sorted like the column's levels; over every process's rows with a group.
std::vector<int> presentCodes(const std::vector<double>& codes, std::size_t levels, ShardReducer* group) {
  std::vector<double> seen(levels, 0.0);
  for (double v : codes) seen[static_cast<std::size_t>(v)] = 1.0;
  if (group) group->sum(seen);
  std::vector<int> present;
  for (std::size_t l = 0; l < levels; ++l)
    if (seen[l] > 0.0) present.push_back(static_cast<int>(l));
  return present;
}

// "; columns with two classes: 'a', 'b'": the file's other columns that a two-class family could take as its response
// (text with two levels, or numbers with two values; missing cells aside), for a response that is not.
std::string twoClassHint(const Dataset& data, const std::string& response) {
  std::vector<std::string> found;
  for (std::size_t c = 0; c < data.columns.size() && found.size() < 5; ++c) {
    if (data.names[c] == response) continue;
    const std::vector<double>& v = data.columns[c];
    bool two = false;
    if (data.isText(c)) {
      std::vector<bool> seen(data.levelsOf(c).size(), false);
      for (double x : v)
        if (!std::isnan(x)) seen[static_cast<std::size_t>(x)] = true;
      two = std::count(seen.begin(), seen.end(), true) == 2;
    } else {
      double first = std::numeric_limits<double>::quiet_NaN(), second = first;
      bool other = false;
      for (double x : v) {
        if (std::isnan(x) || x == first || x == second) continue;
        if (std::isnan(first))
          first = x;
        else if (std::isnan(second))
          second = x;
        else
          other = true;
      }
      two = !std::isnan(second) && !other;
    }
    if (two) found.push_back(quotedForMessage(data.names[c]));
  }
  if (found.empty()) return {};
  std::string out = "; columns with two classes: ";
  for (std::size_t i = 0; i < found.size(); ++i) out += (i ? ", " : "") + found[i];
  return out;
}

void codeBinomial(const Dataset& data, const Dataset& file, std::size_t c, const ModelSettings& s, ModelFrame& f,
                  ShardReducer* group) {
  const std::vector<double>& y = data.columns[c];
  const std::string who = "response " + quotedForMessage(s.response) + " with --family " + toString(s.family);
  if (data.isText(c)) {
    const std::vector<std::string>& levels = data.levelsOf(c);
    const std::vector<int> present = presentCodes(y, levels.size(), group);
    if (present.size() != 2) {
      std::string list;
      for (std::size_t i = 0; i < present.size() && i < 5; ++i)
        list += (i ? ", " : "") + quotedForMessage(levels[static_cast<std::size_t>(present[i])]);
      throw InputError(optionMessage(
          "--response", who + ": needs exactly two levels, found " + std::to_string(present.size()) + " (" + list +
                            (present.size() > 5 ? ", ..." : "") + ")" + twoClassHint(file, s.response)));
    }
    f.responseLevels = {levels[static_cast<std::size_t>(present[0])], levels[static_cast<std::size_t>(present[1])]};
    f.response.resize(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) f.response[i] = static_cast<int>(y[i]) == present[1] ? 1.0 : -1.0;
    return;
  }
  // Numbers: two values, as R's factor(y) makes two levels of them, the larger the event (+1): 0/1, 1/2, -1/1. The two
  // are 0 and 1 where both occur, else the first two in row order, so that a stray third value (a 2 among 0/1) is
  // the one named.
  std::vector<double> firstTwo;           // this process's first two distinct values
  std::vector<double> zeroOne{0.0, 0.0};  // whether a 0, a 1 occurs
  checkTogether(group, [&] {
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (!std::isfinite(y[i]))
        throw InputError(inputLine(f, data, i, responseColumn(file, s)) + ": " + who + ": value " +
                         formatNumber(y[i], 10) +
                         " is not a class (a binary response has two values, such as 0/1, "
                         "or is a text column with two levels)");
      if (firstTwo.size() < 2 && (firstTwo.empty() || firstTwo[0] != y[i])) firstTwo.push_back(y[i]);
      if (y[i] == 0.0 || y[i] == 1.0) zeroOne[y[i] == 1.0 ? 1 : 0] = 1.0;
    }
  });
  reduceMax(group, zeroOne);
  std::vector<double> two;
  if (zeroOne[0] > 0.0 && zeroOne[1] > 0.0) two = {0.0, 1.0};
  for (const std::vector<double>& part :
       group ? group->allGather(firstTwo) : std::vector<std::vector<double>>{firstTwo})
    for (double v : part)
      if (two.size() < 2 && (two.empty() || two[0] != v)) two.push_back(v);
  if (two.size() < 2)
    throw InputError(optionMessage(
        "--response",
        who + ": every used row is " + formatNumber(two.empty() ? 0.0 : two[0], 10) + " (both classes are needed)"));
  std::vector<double> low{std::min(two[0], two[1])}, high{std::max(two[0], two[1])};
  f.response.resize(y.size());
  checkTogether(group, [&] {
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (y[i] != low[0] && y[i] != high[0])
        throw InputError(inputLine(f, data, i, responseColumn(file, s)) + ": " + who + ": value " +
                         formatNumber(y[i], 10) + " is a third class besides " + formatNumber(low[0], 10) + " and " +
                         formatNumber(high[0], 10) +
                         " (a binary response has two values, such as 0/1, or is a text column with two levels)" +
                         twoClassHint(file, s.response));
      f.response[i] = y[i] == high[0] ? 1.0 : -1.0;
    }
  });
  f.responseLevels = {levelName(low[0]), levelName(high[0])};  // as R's as.character, distinct where the values are
}

void checkNumericResponse(const Dataset& data, const std::vector<double>& y, const ModelSettings& s,
                          const ModelFrame& f, long column) {
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!std::isfinite(y[i]))
      throw InputError(inputLine(f, data, i, column) + ": response " + quotedForMessage(s.response) + ": value " +
                       formatNumber(y[i], 10) + " is not finite");
    if (s.family == Family::Gamma && !(y[i] > 0.0))
      throw InputError(inputLine(f, data, i, column) + ": response " + quotedForMessage(s.response) +
                       " with --family gamma: " + formatNumber(y[i], 10) +
                       " is not positive (GammaReg's loss takes log y)");
    if ((s.family == Family::Poisson || s.family == Family::NegBin) && (y[i] < 0.0 || y[i] != std::floor(y[i])))
      throw InputError(inputLine(f, data, i, column) + ": response " + quotedForMessage(s.response) +
                       " with --family " + toString(s.family) + ": " + formatNumber(y[i], 10) +
                       " is not a count (a non-negative integer)");
  }
}

void codeNumeric(const Dataset& data, std::size_t c, const ModelSettings& s, ModelFrame& f, ShardReducer* group,
                 long fileColumn) {
  const std::vector<double>& y = data.columns[c];
  checkTogether(group, [&] { checkNumericResponse(data, y, s, f, fileColumn); });
  f.response = y;
}

// The levels of a numeric column used as a factor: its distinct values in numeric order (R's as.factor), over every
// process's rows with a group.
std::vector<double> numericLevels(const std::vector<double>& x, ShardReducer* group) {
  std::vector<double> v = x;
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  if (!group) return v;
  std::vector<double> all;
  for (const std::vector<double>& part : group->allGather(v)) all.insert(all.end(), part.begin(), part.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

}  // namespace

void codeResponse(const Dataset& data, const Dataset& file, const ModelSettings& s, ModelFrame& f,
                  ShardReducer* group) {
  const auto c = static_cast<std::size_t>(data.columnIndex(s.response));
  if (isBinary(s.family)) return codeBinomial(data, file, c, s, f, group);
  const auto inFile = static_cast<std::size_t>(file.columnIndex(s.response));
  if (data.isText(c))
    throw InputError(textColumnMessage(file, inFile, "--response",
                                       "; --family " + toString(s.family) + " needs numbers", "", group));
  codeNumeric(data, c, s, f, group, responseColumn(file, s));
}

std::shared_ptr<const Dataset> codeFactors(std::shared_ptr<const Dataset> data, const ModelFrame& f, bool named,
                                           ShardReducer* group) {
  std::shared_ptr<Dataset> copy;
  for (const std::string& name : f.factors) {
    const auto c = static_cast<std::size_t>(data->columnIndex(name));
    const std::vector<double>& x = data->columns[c];
    std::vector<std::string> levels;
    std::vector<double> codes;
    if (data->isText(c)) {
      const std::vector<int> present = presentCodes(x, data->levelsOf(c).size(), group);
      for (int l : present) levels.push_back(data->levelsOf(c)[static_cast<std::size_t>(l)]);
      if (present.size() != data->levelsOf(c).size()) {
        std::vector<double> index(data->levelsOf(c).size(), -1.0);
        for (std::size_t l = 0; l < present.size(); ++l)
          index[static_cast<std::size_t>(present[l])] = static_cast<double>(l);
        codes.reserve(x.size());
        for (double v : x) codes.push_back(index[static_cast<std::size_t>(v)]);
      }
    } else {
      const std::vector<double> values = numericLevels(x, group);
      std::map<double, double> index;
      for (std::size_t l = 0; l < values.size(); ++l) {
        index.emplace(values[l], static_cast<double>(l));
        levels.push_back(levelName(values[l]));
      }
      codes.reserve(x.size());
      for (double v : x) codes.push_back(index.at(v));
    }
    if (levels.size() < 2) {
      const std::string what = "column " + quotedForMessage(name) + " has one level (" +
                               quotedForMessage(levels.empty() ? "" : levels[0]) +
                               ") in the used rows: a factor needs at least two";
      // Without learner lists every text column is a factor learner (y ~ .): no option to name.
      throw InputError(named ? optionMessage("--factor", what)
                             : data->sourceName() + ": " + what +
                                   " (every text column is a factor learner unless the learners are named: "
                                   "--spline, --linear, --factor)");
    }
    if (codes.empty()) continue;  // a text column whose every level occurs: used as it is
    if (!copy) copy = std::make_shared<Dataset>(*data);
    copy->kinds.resize(copy->cols(), ColumnKind::Numeric);
    copy->levels.resize(copy->cols());
    copy->kinds[c] = ColumnKind::Text;
    copy->levels[c] = levels;
    copy->columns[c] = std::move(codes);
  }
  if (copy) return copy;
  return data;
}

}  // namespace gb

#include "learner/ModelFrame.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/Text.hpp"
#include "data/CsvText.hpp"

namespace gb {

namespace {

// Line of a data row in its CSV file (header on line 1, no line breaks inside cells); row counts from data's first.
long lineOf(const Dataset& data, std::size_t row) { return static_cast<long>(data.firstRow + row) + 2; }

// "file:line:column" of the cell of `row` in column c (the column as the file counts it).
std::string at(const Dataset& data, std::size_t row, std::size_t c) {
  return data.sourceName() + ":" + std::to_string(lineOf(data, row)) + ":" + std::to_string(data.fileColumn(c));
}

}  // namespace

std::string textColumnMessage(const Dataset& data, std::size_t c, const std::string& option, const std::string& reason,
                              const std::string& alternative, ShardReducer* group) {
  const std::string what = "column " + quotedForMessage(data.names[c]) + " holds text";
  const TextCells cells = textCells(data, c);
  const std::optional<TextCell>& cell = cells.first;
  // The column's cells that are numbers, and all its present cells, over every process's rows.
  std::vector<double> counts{static_cast<double>(cells.numberCells), static_cast<double>(cells.presentCells)};
  if (group) group->sum(counts);
  const auto numbers = static_cast<std::size_t>(counts[0]), present = static_cast<std::size_t>(counts[1]);
  // Nearly all numbers: most often a missing value written otherwise than NA ("#N/A"), so that advice comes first.
  const bool mostlyNumbers = cell && nearlyAllNumbers(numbers, present);
  const std::string hint =
      mostlyNumbers ? ", " + std::to_string(present - numbers) + " of its " + std::to_string(present) +
                          " cells (the others are numbers): write a missing value as NA, as R's read.csv needs too"
                    : std::string();
  const std::string advice = alternative.empty() ? "" : (mostlyNumbers ? "; or " : ": ") + alternative;
  const std::string here =
      cell
          ? atTextCell(data, c, *cell,
                       optionMessage(option, what + " (" + quotedForMessage(cell->text) + ")" + hint + reason + advice))
          : optionMessage(option, what + reason + advice);
  if (!group) return here;
  // Every process holds a part of the rows: the one holding the column's first text cell over all of them says it.
  std::vector<double> first{cell ? static_cast<double>(data.firstRow + cell->row) : HUGE_VAL};
  reduceMin(group, first);
  const bool mine = cell && static_cast<double>(data.firstRow + cell->row) == first[0];
  for (const std::string& message : group->allGatherText(mine ? here : std::string()))
    if (!message.empty()) return message;
  return here;  // no process holds a text cell (the reader never makes such a column)
}

namespace {

// The learner lists as the user gave them, or gamboost's y ~ . (numeric: spline, text: factor).
// group: the processes of a distributed fit; each reaches the same checks in the same order, so that a text column's
// message, agreed on by all of them (textColumnMessage), is the one a single process gives.
void resolveColumns(const Dataset& data, const ModelSettings& s, ModelFrame& f, ShardReducer* group) {
  if (data.columnIndex(s.response) < 0)
    throw InputError(optionMessage(
        "--response",
        "no column named " + quotedForMessage(s.response) + " in " + data.sourceName() +
            (csv::headerIsNumbers(data.names) ? csv::missingHeaderHint(data.names) : data.nameHint(s.response))));
  if (!s.weights.empty() && data.columnIndex(s.weights) < 0)
    throw InputError(optionMessage("--weights", "no column named " + quotedForMessage(s.weights) + " in " +
                                                    data.sourceName() + data.nameHint(s.weights)));
  if (!s.weights.empty() && s.weights == s.response)
    throw InputError(optionMessage("--weights", quotedForMessage(s.weights) + " is the response"));
  if (s.learners.empty() && s.linears.empty() && s.factors.empty()) {
    for (std::size_t c = 0; c < data.cols(); ++c) {
      const std::string& name = data.names[c];
      if (name == s.response || name == s.weights) continue;
      (data.isText(c) ? f.factors : f.splines).push_back(name);
    }
    if (f.splines.empty() && f.factors.empty())
      throw InputError(optionMessage(
          "--spline", data.sourceName() + " has no column besides the response " + quotedForMessage(s.response)));
    return;
  }
  std::map<std::string, const char*> seen;  // each column's option
  auto take = [&](const std::vector<std::string>& names, const char* option, bool numeric,
                  std::vector<std::string>& out) {
    for (const std::string& name : names) {
      const int c = data.columnIndex(name);
      if (c < 0)
        throw InputError(optionMessage(
            option, "no column named " + quotedForMessage(name) + " in " + data.sourceName() + data.nameHint(name)));
      if (name == s.response)
        throw InputError(optionMessage(option, quotedForMessage(name) + " is the response, not a covariate"));
      if (const auto [at, added] = seen.emplace(name, option); !added)
        throw InputError(optionMessage(
            option, quotedForMessage(name) +
                        (at->second == std::string(option) ? " is named twice"
                                                           : " is already a learner of " + std::string(at->second)) +
                        " (each column is one learner; mboost's bols(x) + bbs(x) on one column has no equal here)"));
      const auto column = static_cast<std::size_t>(c);
      if (numeric && data.isText(column))
        throw InputError(textColumnMessage(data, column, option, "",
                                           "name it with --factor (a factor learner) if it is categorical", group));
      out.push_back(name);
    }
  };
  take(s.learners, "--spline", true, f.splines);
  take(s.linears, "--linear", true, f.linears);
  take(s.factors, "--factor", false, f.factors);
}

// Every column a row must have (R's na.omit on the model frame): the response, the weights, the learners. The weights
// column may also be a learner's, named, as mboost's gamboost(y ~ bbs(x), weights = d$x) allows (y ~ . leaves it out).
std::vector<std::string> usedColumns(const ModelSettings& s, const ModelFrame& f) {
  std::vector<std::string> used{s.response};
  if (!s.weights.empty()) used.push_back(s.weights);
  for (const auto* list : {&f.splines, &f.linears, &f.factors})
    for (const std::string& name : *list)
      if (name != s.weights) used.push_back(name);
  return used;
}

void checkWeights(const Dataset& data, const ModelSettings& s, ShardReducer* group) {
  if (s.weights.empty()) return;
  const auto c = static_cast<std::size_t>(data.columnIndex(s.weights));
  if (data.isText(c)) throw InputError(textColumnMessage(data, c, "--weights", "", "", group));
  const std::vector<double>& w = data.columns[c];
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string where = at(data, i, c) + ": --weights " + quotedForMessage(s.weights) + ": ";
    if (std::isnan(w[i])) continue;  // a missing weight: the row is omitted (or named by --missing fail)
    if (!(w[i] >= 0.0) || !std::isfinite(w[i]))
      throw InputError(where + "weight " + formatNumber(w[i], 10) + " is not a finite number >= 0");
    if (s.family == Family::Quantile && w[i] != std::floor(w[i]))
      throw InputError(where + "weight " + formatNumber(w[i], 10) +
                       " is not an integer (the quantile family takes case weights only, as mboost's QuantReg)");
  }
}

// keptRows (as input rows) of this process's rows; per used column, its rows missing there. --missing fail throws for
// the first missing value.
std::vector<std::size_t> keepComplete(const Dataset& data, const ModelSettings& s, const std::vector<std::string>& used,
                                      ModelFrame& f) {
  const std::size_t n = data.rows();
  std::vector<const std::vector<double>*> cols;
  for (const auto& name : used) cols.push_back(&data.column(name));
  std::vector<std::size_t> perColumn(used.size(), 0);
  f.keptRows.clear();
  // One vectorised pass per column, the columns across the cores (8 GB at n = 1e7, p = 100: one core alone took
  // most of a second). It also finds each column's range and first non-finite row, which the learners reuse.
  int missing = 0;
  const auto columnCount = static_cast<std::ptrdiff_t>(cols.size());
  std::vector<CovariateScan> scans(cols.size(), CovariateScan{0.0, 0.0, 0});
#pragma omp parallel for schedule(dynamic, 1) reduction(| : missing)
  for (std::ptrdiff_t u = 0; u < columnCount; ++u) {
    const std::vector<double>& x = *cols[static_cast<std::size_t>(u)];
    if (x.empty()) continue;
    scans[static_cast<std::size_t>(u)] = scanCovariate(x.data(), x.size());
    missing |= scans[static_cast<std::size_t>(u)].hasNaN ? 1 : 0;
  }
  if (missing == 0) {
    f.keptRows.resize(n);  // the common case, found by one vectorised pass per column
    std::iota(f.keptRows.begin(), f.keptRows.end(), data.firstRow);
    for (std::size_t u = 0; u < cols.size(); ++u)
      if (!cols[u]->empty()) f.columnScans.emplace(used[u], scans[u]);
    return perColumn;
  }
  for (std::size_t i = 0; i < n; ++i) {
    bool complete = true;
    for (std::size_t u = 0; u < cols.size(); ++u)
      if (std::isnan((*cols[u])[i])) {
        if (s.missing == MissingPolicy::Fail) {
          const auto c = static_cast<std::size_t>(data.columnIndex(used[u]));
          throw InputError(at(data, i, c) + ": column " + quotedForMessage(used[u]) + ": missing value (" +
                           (data.isText(c) ? "NA" : "NA or empty") + "; --missing omit drops such rows)");
        }
        ++perColumn[u];
        complete = false;
      }
    if (complete) f.keptRows.push_back(data.firstRow + i);
  }
  return perColumn;
}

// Drops rows with a missing value in a used column (--missing omit) or names the first (--missing fail). With a
// group, the counts are over every process's rows.
void omitMissing(const std::shared_ptr<const Dataset>& data, const ModelSettings& s, ModelFrame& f,
                 ShardReducer* group) {
  const std::vector<std::string> used = usedColumns(s, f);
  std::vector<std::size_t> perColumn;
  checkTogether(group, [&] { perColumn = keepComplete(*data, s, used, f); });
  f.inputRows = data->rows();
  f.usedRows = f.keptRows.size();
  if (group) {
    std::vector<double> counts{static_cast<double>(f.inputRows), static_cast<double>(f.usedRows)};
    for (std::size_t c : perColumn) counts.push_back(static_cast<double>(c));
    group->sum(counts);
    f.inputRows = static_cast<std::size_t>(counts[0]);
    f.usedRows = static_cast<std::size_t>(counts[1]);
    for (std::size_t u = 0; u < perColumn.size(); ++u) perColumn[u] = static_cast<std::size_t>(counts[2 + u]);
  }
  for (std::size_t u = 0; u < used.size(); ++u)
    if (perColumn[u] > 0) f.omittedByColumn.emplace_back(used[u], perColumn[u]);
  if (f.usedRows == 0)
    throw InputError(data->sourceName() + ": every one of the " + std::to_string(f.inputRows) +
                     " rows has a missing value in a used column (" + f.omissionNote() + ")");
}

// A copy of the used rows of the used columns (and the weights), or the input itself when every row is used.
std::shared_ptr<const Dataset> usedRows(const std::shared_ptr<const Dataset>& data, const ModelSettings& s,
                                        const ModelFrame& f) {
  if (f.keptRows.size() == data->rows()) return data;
  auto out = std::make_shared<Dataset>();
  out->source = data->source;
  out->rowLabelsNote = data->rowLabelsNote;
  out->firstRow = data->firstRow;
  out->decimalComma = data->decimalComma;
  const std::vector<std::string> names = usedColumns(s, f);
  for (const std::string& name : names) {
    const auto c = static_cast<std::size_t>(data->columnIndex(name));
    out->names.push_back(name);
    out->kinds.push_back(data->kind(c));
    out->levels.push_back(data->levelsOf(c));
    std::vector<double> column;
    column.reserve(f.keptRows.size());
    for (std::size_t i : f.keptRows) column.push_back(data->columns[c][i - data->firstRow]);  // keptRows: input rows
    out->columns.push_back(std::move(column));
  }
  return out;
}

}  // namespace

std::string ModelFrame::omissionNote() const {
  if (omittedRows() == 0 && usedRows > 0) return "";
  std::string by;
  for (const auto& [name, count] : omittedByColumn)
    by += (by.empty() ? "" : ", ") + quotedForMessage(name) + " " + std::to_string(count);
  return std::to_string(omittedRows()) + " of " + std::to_string(inputRows) + " rows omitted for missing values (" +
         by + ")";
}

// Defined in ModelFrameResponse.cpp: the response coded for the family, and the factor columns as level codes.
void codeResponse(const Dataset& data, const Dataset& file, const ModelSettings& s, ModelFrame& f, ShardReducer* group);
std::shared_ptr<const Dataset> codeFactors(std::shared_ptr<const Dataset> data, const ModelFrame& f, bool named,
                                           ShardReducer* group);

void rescaleWeights(std::vector<double>& w, ShardReducer* group) {
  double fractional = 0.0, positive = 0.0;
  long double sum = 0.0L;  // R's sum(w): a long double accumulator in row order, rounded once
  for (double v : w) {
    fractional = std::max(fractional, std::abs(v - std::floor(v)));
    positive += v > 0.0 ? 1.0 : 0.0;
    sum += v;
  }
  double total = static_cast<double>(sum);
  if (group) {  // each process's part summed as above, then in double across them: not R's to the last bit
    std::vector<double> most{fractional}, sums{positive, total};
    reduceMax(group, most);
    group->sum(sums);
    fractional = most[0];
    positive = sums[0];
    total = sums[1];
  }
  if (fractional >= std::sqrt(std::numeric_limits<double>::epsilon()) && total > 0.0)
    for (double& v : w) v = v / total * positive;
}

std::vector<double> onInputRows(const ModelFrame& frame, const std::vector<double>& perUsedRow) {
  std::vector<double> byInputRow(frame.inputRows, 0.0);
  for (std::size_t i = 0; i < perUsedRow.size(); ++i) byInputRow[frame.keptRows[i]] = perUsedRow[i];
  return byInputRow;
}

void applyFold(ModelFrame& f, const std::vector<double>& foldByInputRow, const std::string& what, OutOfBag outOfBag) {
  if (foldByInputRow.size() != f.inputRows)
    throw InputError(what + ": " + std::to_string(foldByInputRow.size()) + " weights for " +
                     std::to_string(f.inputRows) + " data rows");
  const std::vector<double> caseWeights = f.weights;
  std::vector<double> inBag(f.keptRows.size()), oob(f.keptRows.size());
  double bag = 0.0, out = 0.0;
  std::size_t leftOut = 0;
  for (std::size_t i = 0; i < f.keptRows.size(); ++i) {
    const double w = foldByInputRow[f.keptRows[i]];
    if (!(w >= 0.0) || !std::isfinite(w))
      throw InputError(what + ": weight " + formatNumber(w, 10) + " of data row " + std::to_string(f.keptRows[i] + 1) +
                       " is not a finite number >= 0");
    inBag[i] = w;
    oob[i] = w == 0.0 ? (caseWeights.empty() ? 1.0 : caseWeights[i]) : 0.0;
    leftOut += w == 0.0 ? 1 : 0;
    bag += w;
    out += oob[i];
  }
  if (!(bag > 0.0)) throw InputError(what + ": no used row has a positive weight (nothing to fit)");
  if (!(out > 0.0) && outOfBag == OutOfBag::Required)
    throw InputError(what + (leftOut == 0
                                 ? std::string(": leaves no row out (no out-of-bag risk)")
                                 : ": its " + std::to_string(leftOut) +
                                       " used rows of weight 0 all have case weight 0 too (no out-of-bag risk)"));
  if (!(out > 0.0))
    for (std::size_t i = 0; i < oob.size(); ++i) oob[i] = caseWeights.empty() ? 1.0 : caseWeights[i];
  rescaleWeights(inBag);
  f.weights = std::move(inBag);
  f.oobWeights = std::move(oob);
}

ModelFrame buildModelFrame(std::shared_ptr<const Dataset> data, const ModelSettings& settings, ShardReducer* group) {
  if (!data) throw InputError("no data");
  const double rows = group ? countBefore(group, static_cast<double>(data->rows())).second : data->rows();
  if (rows == 0) throw InputError(data->sourceName() + ": no rows");
  ModelFrame f;
  resolveColumns(*data, settings, f, group);
  checkTogether(group, [&] { checkWeights(*data, settings, group); });
  omitMissing(data, settings, f, group);
  const bool named = !settings.learners.empty() || !settings.linears.empty() || !settings.factors.empty();
  f.data = codeFactors(usedRows(data, settings, f), f, named, group);
  for (const std::string& name : f.factors) f.columnScans.erase(name);  // recoded: their scans no longer hold
  codeResponse(*f.data, *data, settings, f, group);
  if (!settings.weights.empty()) {
    f.weights = f.data->column(settings.weights);
    std::vector<double> total{0.0};
    for (double w : f.weights) total[0] += w;
    if (group) group->sum(total);
    if (!(total[0] > 0.0)) throw InputError(optionMessage("--weights", "every used row has weight 0: nothing to fit"));
    if (!std::isfinite(total[0]))
      throw InputError(optionMessage("--weights",
                                     "the weights add up beyond the double range; rescale them (only "
                                     "their ratios matter to the fit)"));
    // The fit and the risk do not change; the lambdas come out on mboost's scale.
    rescaleWeights(f.weights, group);
  }
  return f;
}

}  // namespace gb

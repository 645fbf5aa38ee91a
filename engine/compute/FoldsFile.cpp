// The folds of a --folds-file (CrossValidation.hpp foldsFromTable): one column of weights per fold, checked cell by
// cell and named by file, line and column.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "common/Error.hpp"
#include "common/Text.hpp"
#include "compute/CrossValidation.hpp"
#include "data/CsvText.hpp"

namespace gb {

namespace {

// Whether a fold file's cell w is a valid fold weight: a non-negative integer, or (caseWeight, the row's rescaled case
// weight, not NaN) that case weight as written to 15 digits: R's cv(model.weights(model), "kfold" or "subsampling")
// multiplies its 0/1 folds by the model's weights, rescaled as mboost_fit rescales non-integer ones.
bool validFoldWeight(double w, double caseWeight) {
  if (!(w >= 0.0) || !std::isfinite(w)) return false;
  return w == std::floor(w) || std::abs(w - caseWeight) <= 1e-13 * caseWeight;
}

}  // namespace

ResamplingFolds foldsFromTable(const Dataset& table, std::size_t dataRows, const std::vector<std::size_t>* rowsUsed,
                               const std::vector<double>* caseWeights) {
  const std::string& file = table.source;
  if (rowsUsed && std::any_of(rowsUsed->begin(), rowsUsed->end(), [&](std::size_t r) { return r >= dataRows; }))
    throw ComputeError("foldsFromTable: a used row beyond the data's " + std::to_string(dataRows));
  const std::size_t used = rowsUsed ? rowsUsed->size() : dataRows;
  const bool perUsedRow = rowsUsed && used != dataRows && table.rows() == used;
  // One row short, with a header of numbers: the first row of weights was most likely taken for the fold names.
  const std::string hint =
      table.rows() + 1 == dataRows || table.rows() + 1 == used ? csv::missingHeaderHint(table.names) : "";
  if (!hint.empty())
    throw InputError(locate(file, 1, 1,
                            "--folds-file has " + std::to_string(table.rows()) + " rows, the data " +
                                std::to_string(dataRows) + "," + hint));
  // Located at the file's last row when it is short, at its first row past the data when it is long.
  if (table.rows() != dataRows && !perUsedRow)
    throw InputError(
        locate(file, static_cast<long>(table.rows() < dataRows ? table.rows() + 1 : dataRows + 2), 1,
               "--folds-file has " + std::to_string(table.rows()) + " rows, the data " + std::to_string(dataRows) +
                   (used == dataRows ? " (one row of fold weights per data row)"
                                     : " of which the model uses " + std::to_string(used) +
                                           " (one row of fold weights per data row, or per used row as R's "
                                           "cv(model.weights(model)) writes them)")));
  std::vector<char> omitted;  // per data row: na.omit drops it, so its cell may be NA
  if (rowsUsed && !perUsedRow) {
    omitted.assign(dataRows, 1);
    for (std::size_t r : *rowsUsed) omitted[r] = 0;
  }
  // Per row of the file: its rescaled case weight (NaN without --weights or for an omitted row).
  std::vector<double> caseWeight(table.rows(), std::numeric_limits<double>::quiet_NaN());
  if (caseWeights && caseWeights->size() == used)
    for (std::size_t u = 0; u < used; ++u) caseWeight[perUsedRow || !rowsUsed ? u : (*rowsUsed)[u]] = (*caseWeights)[u];
  const std::string integers = caseWeights ? "non-negative integers, or the row's case weight as R's "
                                             "cv(model.weights(model)) writes it"
                                           : "non-negative integers";
  ResamplingFolds f{"folds-file", {}};
  for (std::size_t c = 0; c < table.cols(); ++c) {
    const std::vector<double>& w = table.columns[c];
    if (table.isText(c)) {  // at the cell that is not a number (the column's others are numbers read as text)
      const std::optional<TextCell> cell = firstTextCell(table, c);
      throw InputError(locate(file, static_cast<long>(cell ? cell->row : 0) + 2, table.fileColumn(c),
                              "fold " + quotedForMessage(table.names[c]) + ": fold weights must be " + integers +
                                  (cell ? " (" + quotedForMessage(cell->text) + ")" : std::string())));
    }
    double sum = 0.0;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (!omitted.empty() && omitted[i] && std::isnan(w[i]) && !table.isText(c)) continue;
      if (!validFoldWeight(w[i], caseWeight[i]))
        throw InputError(
            locate(file, static_cast<long>(i) + 2, table.fileColumn(c),
                   "fold " + quotedForMessage(table.names[c]) + ": " +
                       (std::isnan(w[i]) ? "the cell is missing (NA or blank) on a row the model uses; " : "") +
                       "fold weights must be " + integers));
      // Else the fold's offset became inf and the message blamed the response.
      if (!std::isfinite(sum += w[i]))
        throw InputError(
            locate(file, static_cast<long>(i) + 2, table.fileColumn(c),
                   "fold " + quotedForMessage(table.names[c]) + ": the fold weights add up beyond the double range"));
    }
    std::vector<double> byDataRow(dataRows, 0.0);  // omitted rows: 0 (the frame drops them)
    bool leavesOut = false, keeps = false;         // over the rows the model uses
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (!std::isnan(w[i])) byDataRow[perUsedRow ? (*rowsUsed)[i] : i] = w[i];
      if (omitted.empty() || !omitted[i]) (w[i] == 0.0 ? leavesOut : keeps) = true;
    }
    // Named here, at the fold's column; the fit would name only the fold's number.
    if (!leavesOut || !keeps)
      throw InputError(
          locate(file, 1, table.fileColumn(c),
                 "fold " + quotedForMessage(table.names[c]) +
                     (keeps ? ": no used row has weight 0, so the fold leaves no row out (no out-of-bag risk)"
                            : ": every used row has weight 0 (nothing to fit)")));
    f.weights.push_back(std::move(byDataRow));
  }
  if (f.weights.empty()) throw InputError(locate(file, 1, 1, "--folds-file has no fold column"));
  return f;
}

}  // namespace gb

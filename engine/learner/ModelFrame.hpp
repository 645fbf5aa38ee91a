#pragma once
// The model frame of a fit (R's model.frame + na.omit): which columns are the response, the weights and each kind
// of learner; the rows a fit uses; the response coded for the family. Everything after it (knots, lambdas, the
// offset) sees only the used rows.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/ShardReducer.hpp"
#include "data/Dataset.hpp"
#include "learner/GramMatrix.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

struct ModelFrame {
  std::shared_ptr<const Dataset> data;                 // the used rows (the input itself when no row is omitted)
  std::vector<double> response;                        // coded: binomial -1 / +1, else the values
  std::vector<std::string> responseLevels;             // binomial: the two levels (the second is the event, +1)
  std::vector<double> weights;                         // one per used row; empty when no --weights
  std::vector<std::string> splines, linears, factors;  // the resolved learner columns
  std::vector<double> oobWeights;     // a resampling fold's out-of-bag weights (applyFold); empty otherwise
  std::vector<std::size_t> keptRows;  // input row of each used row (0-based, counted from the file's first row)
  // Rows of the input and rows used, over all processes of a distributed fit (this process holds keptRows of them).
  std::size_t inputRows = 0, usedRows = 0;
  std::vector<std::pair<std::string, std::size_t>> omittedByColumn;  // rows missing per used column (> 0 only)
  // Range and finiteness of each used column over the used rows, from the missing-value pass, so that the learners
  // do not read x again for them; filled only where no row was omitted (the scans are of the input's rows).
  std::map<std::string, CovariateScan> columnScans;
  // Spline learners' Gram matrices B'WB under this frame's weights, where they were computed beforehand (the folds of
  // a batch, in one pass over each covariate: compute/FoldGrams.hpp); the learners use them instead of a pass.
  std::map<std::string, Eigen::MatrixXd> grams;
  std::size_t omittedRows() const { return inputRows - usedRows; }
  // "airquality.csv: 42 of 153 rows omitted for missing values (Ozone 37, Solar.R 7)", or "" when none.
  std::string omissionNote() const;
};

// Throws InputError naming the option, the column and the row (file:line) for: unknown or repeated columns, a text
// column as a spline or linear learner or as a numeric response, a missing value with --missing fail, a negative,
// missing or non-finite weight (or non-integer with quantile), every row omitted, a binomial response that is not
// 0/1 or two levels, a poisson response with negative or non-integer counts, a factor with one level.
// `group` (common/ShardReducer.hpp): the processes of a distributed fit, each holding a contiguous part of the input
// rows (data->firstRow says where it starts); the frame is then this process's rows of the frame one process would
// build from all of them (levels, omitted counts and checks over all rows; the first error in row order reported on
// every process). Null: one process holds every row.
ModelFrame buildModelFrame(std::shared_ptr<const Dataset> data, const ModelSettings& settings,
                           ShardReducer* group = nullptr);

// "file:line:column: option: column 'x' holds text ('1.2.3')" + reason + ": " + alternative, at the column's first
// cell that is not a number (without the place where the reader left no such cell). Where the column's cells are
// nearly all numbers, the advice to write a missing value as NA comes first and the alternative follows as "; or ...".
// reason: "" or "; ..."; alternative: "" or what else the user can do. group: every process of a distributed fit calls
// it for the same column, and all get the message of the first text cell over all of their rows.
std::string textColumnMessage(const Dataset& data, std::size_t c, const std::string& option, const std::string& reason,
                              const std::string& alternative, ShardReducer* group = nullptr);

// Makes the frame a resampling fold's (mboost's cvrisk: the fit's weights are the fold's, rescaled as mboost_fit
// rescales them; the out-of-bag weights are the case weights, 1 without --weights, on the rows the fold leaves out
// and 0 elsewhere). foldByInputRow has one non-negative weight per input row (omitted rows' entries are dropped).
// Throws InputError naming `what` (e.g. "--folds-file fold 3") when the fold has no row in the bag, or none out where
// the out-of-bag risk is `Required`. A bootstrap refit for bands needs no out-of-bag risk (`Optional`): where its
// sample draws every row (likely on a few rows: 10 rows draw all with probability 10!/10^10), the path's risk is
// then the in-bag risk, weighted by the case weights.
enum class OutOfBag { Required, Optional };
void applyFold(ModelFrame& frame, const std::vector<double>& foldByInputRow, const std::string& what,
               OutOfBag outOfBag = OutOfBag::Required);

// A value per used row of `frame` as a value per input row (frame.inputRows), 0 on the rows the frame omits: how a
// fold drawn over the used rows becomes the fold weights that applyFold takes.
std::vector<double> onInputRows(const ModelFrame& frame, const std::vector<double>& perUsedRow);

// mboost's rescale_weights: weights that are not all integers are scaled to sum to the number of positive ones.
void rescaleWeights(std::vector<double>& w, ShardReducer* group = nullptr);

}  // namespace gb

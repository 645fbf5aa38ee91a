#pragma once
// A saved model (model.json or result.json) shown as a finished fit, without fitting: the coefficients, the path
// (risk and selections) come from the file; what the file does not carry (each covariate's rows for the rug, the
// centring means, the fitted values) comes from the training data, read once. No Booster is built and no iteration
// runs.
#include <memory>
#include <string>
#include <vector>

#include "data/Dataset.hpp"
#include "fit/FitSnapshot.hpp"
#include "model/Model.hpp"

namespace gbui {

// The model's settings with its learners named by type (a model fitted as `y ~ .` names none), so that the data's
// other columns are not taken as learners.
gb::ModelSettings settingsOfModel(const gb::Model& model);

// The snapshot the views draw for `model` over its training data `data` (iteration = the path's length). Throws
// gb::InputError naming the column when the data lacks one the model uses, and naming the covariate when the data is
// not the model's training data (another range, other levels, another number of coefficients). `source` names the
// model file in the set-up's description.
FitSnapshot snapshotOfModel(const gb::Model& model, std::shared_ptr<const gb::Dataset> data, const std::string& source);

// Rows of one covariate outside the model's training range (factors: levels the model has not seen are an error
// of Model::predict, not counted here).
struct ColumnExtrapolation {
  std::string name;
  double lo = 0.0, hi = 0.0;         // the training range
  double min = 0.0, max = 0.0;       // the new data's range (non-missing cells)
  std::size_t below = 0, above = 0;  // rows under lo, over hi
};

// Per spline or linear learner of the model, over the data's column of that name; only covariates with a row
// outside are listed.
// Counted over the rows that have a prediction (`predicted`, from Model::predict: NaN where a row's covariate is
// missing), as the prediction's own count of extrapolated rows is.
std::vector<ColumnExtrapolation> extrapolationByColumn(const gb::Model& model, const gb::Dataset& data,
                                                       const std::vector<double>& predicted);

}  // namespace gbui

#pragma once
// A fitted model: offset, per-learner basis and coefficients, the path and the settings. Saved and loaded as
// JSON (design.md section 4); predicts on new data, extrapolating linearly outside each learner's range.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "boost/ModelSettings.hpp"
#include "spline/SplineBasis.hpp"

namespace gb {

// f(x) = B(x) gamma with linear extension outside [lo, hi] (*outside set then); gamma has basis.numColumns() values.
double splineEffect(const SplineBasis& basis, const double* gamma, double x, bool* outside = nullptr);

struct LearnerModel {
  std::string name;
  double lo = 0.0, hi = 1.0;  // training range of the covariate (the basis is rebuilt from it)
  double lambda = 0.0;
  double edf = 0.0;
  std::vector<double> coefficients;  // gamma (k)
  int selected = 0;                  // times selected
  SplineBasis basis(const SplineSpec& spec) const { return SplineBasis(lo, hi, spec); }
};

struct Prediction {
  std::vector<double> values;
  std::size_t extrapolatedRows = 0;  // rows with at least one covariate outside its training range
};

struct Model {
  double offset = 0.0;
  ModelSettings settings;
  std::vector<LearnerModel> learners;
  std::vector<std::string> pathLearner;  // names, one per iteration
  std::vector<double> pathRisk;          // mstop + 1 entries

  // f_j(x), uncentred; *outside set when x is outside the training range.
  double partialEffect(std::size_t learner, double x, bool* outside = nullptr) const;
  // offset + sum_j f_j(x_j). Throws InputError naming a learner column the data lacks.
  Prediction predict(const Dataset& data) const;

  // The result.json schema of design.md section 4 without "fitted" and "timing".
  nlohmann::json toJson() const;
  // Accepts a model.json or a result.json; throws InputError "<source>: ..." for a malformed file.
  static Model fromJson(const nlohmann::json& j, const std::string& source);
  static Model load(const std::string& path);
  void save(const std::string& path) const;  // atomic (temporary file + rename)
};

}  // namespace gb

#pragma once
// A fitted model: offset, per-learner basis and coefficients, the path and the settings. Saved and loaded as
// JSON (design.md section 4); predicts on new data, extrapolating linearly outside each learner's range.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/Dataset.hpp"
#include "learner/Learner.hpp"
#include "settings/ModelSettings.hpp"
#include "spline/SplineBasis.hpp"

namespace gb {

// f(x) = B(x) gamma with linear extension outside [lo, hi] (*outside set then); gamma has basis.numColumns() values.
double splineEffect(const SplineBasis& basis, const double* gamma, double x, bool* outside = nullptr);
// The effect of any learner type at x: a spline's B(x) gamma, a linear term's gamma0 + gamma1 x, a factor's
// gamma0 + gamma_l at level code l (gamma0 alone at the first level). k = the number of coefficients.
double learnerEffect(LearnerType type, const SplineBasis& basis, const double* gamma, long k, double x,
                     bool* outside = nullptr);

struct LearnerModel {
  std::string name;
  LearnerType type = LearnerType::Spline;
  std::vector<std::string> levels;  // a factor's levels, in code order (the first is the reference)
  double lo = 0.0, hi = 1.0;        // training range of the covariate (the basis is rebuilt from it)
  double lambda = 0.0;
  double edf = 0.0;
  std::vector<double> coefficients;  // gamma (k)
  int selected = 0;                  // times selected
  // A spline's basis (rebuilt from range and settings); for the other types a placeholder over [lo, hi].
  SplineBasis basis(const SplineSpec& spec) const;
  // Whether it adds anything to a prediction: one the fit never selected has all-zero coefficients, and mboost's
  // predict evaluates only the selected learners, so its column may be absent, missing or hold new levels.
  bool contributes() const;
};

// A fitted learner as the model stores it: name, type, levels, training range, lambda, edf, its coefficients gamma
// and how often it was selected.
LearnerModel learnerModelOf(const Learner& learner, const Eigen::VectorXd& gamma, int selected);

struct Prediction {
  std::vector<double> values;        // NaN for a row with a missing covariate (MissingPolicy::Omit)
  std::size_t extrapolatedRows = 0;  // rows with at least one covariate outside its training range
  std::size_t missingRows = 0;       // rows with a missing value (NA; NaN, empty if numeric) in a learner's column
  // Per learner column with missing cells: its name and how many rows of it are missing, in learner order.
  std::vector<std::pair<std::string, std::size_t>> missingByColumn;
};

// "2 of 8 rows have a missing value (NA; also NaN or empty in a numeric column) in a learner's column ('Solar.R' 2):
// their prediction is NA, as in mboost's predict"; for p.missingRows > 0.
std::string missingRowsNote(const Prediction& p, std::size_t rows);

struct Model {
  // Version 2 stores path.learner as indices into "learners" (version 1 repeated each learner's name at every
  // iteration); the reader accepts both.
  static constexpr int kFormatVersion = 2;

  double offset = 0.0;
  ModelSettings settings;
  std::vector<std::string> responseLevels;  // binomial: the two response levels (the second is +1)
  std::vector<LearnerModel> learners;
  std::vector<int> pathLearner;  // the learner (index into learners) chosen at each iteration
  std::vector<double> pathRisk;  // mstop + 1 entries

  // f_j(x), uncentred; *outside set when x is outside the training range.
  double partialEffect(std::size_t learner, double x, bool* outside = nullptr) const;
  // offset + sum_j f_j(x_j). Throws InputError naming a learner column the data lacks, and the file:line:column
  // of the first cell that makes a prediction non-finite (e.g. extrapolated far out): never returns inf.
  // A factor's column may hold text (matched by level name) or numbers (matched as written); an unseen level is
  // an InputError naming the level, the column and the file:line. A row with a missing cell in a learner's column
  // predicts NaN and is counted (Omit, as mboost's predict gives NA), or is an InputError naming the cell (Fail).
  Prediction predict(const Dataset& data, MissingPolicy missing = MissingPolicy::Omit) const;
  // f on the response scale: the mean, the probability (binomial), the rate (poisson). Throws InputError naming
  // `source`'s line of the first value that is not finite there (poisson's exp(f) overflows past f = 709.78); a
  // NaN (a row predicted NA for a missing covariate) stays NaN.
  void toResponseScale(std::vector<double>& values, const std::string& source) const;

  // The result.json schema of design.md section 4 without "fitted" and "timing".
  nlohmann::json toJson() const;
  // Accepts a model.json or a result.json of format version 1 or 2; throws InputError "<source>: <field>: ..."
  // for a malformed file (engine/model/ModelReader.cpp has the rules).
  static Model fromJson(const nlohmann::json& j, const std::string& source);
  // Also InputError for a path that is no regular file, text that is not JSON, or nesting deeper than 16.
  static Model load(const std::string& path);
  void save(const std::string& path) const;  // atomic (temporary file + rename)
};

}  // namespace gb

#pragma once
// Every option of a fit, with mboost's defaults (bbs: 20 knots, cubic, 2nd-order P-spline, df 4; nu 0.1, mstop 100).
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "settings/ModelEnums.hpp"

namespace gb {

struct ModelSettings {
  // Upper bounds that keep later arithmetic inside int (see ModelSettings.cpp for why these values).
  static constexpr int kMaxKnots = SplineSpec::kMaxKnots;
  static constexpr int kMaxMstop = 10'000'000;

  std::string response = "y";
  // The spline learners (bbs), linear learners (bols(x)) and factor learners (bols(f)). All three empty: every
  // numeric column but the response and the weights is a spline and every text column a factor (gamboost y ~ .).
  std::vector<std::string> learners;
  std::vector<std::string> linears;
  std::vector<std::string> factors;
  std::string weights;  // case-weight column, "" for none
  MissingPolicy missing = MissingPolicy::Omit;
  SplineSpec spline;  // knots 20, degree 3, extended
  PenaltyKind penalty = PenaltyKind::PSpline;
  int differences = 2;  // 0..3 (P-spline order)
  double edf = 4.0;
  // edf of the linear and factor learners; 0 = unpenalised (lambda 0, bols' default in gamboost).
  double linearEdf = 0.0;
  double factorEdf = 0.0;
  Family family = Family::Gaussian;
  BinomialLink link = BinomialLink::Logit;  // the binomial's link; any other family takes only logit (the default)
  double huberDelta = 0.0;                  // Huber's fixed d (> 0); 0: mboost's adaptive d (Huber()'s d = NULL)
  double tau = 0.5;                         // the quantile of the quantile family, in (0, 1)
  bool hasOffset = false;                   // --offset given: it replaces the family's offset
  double offset = 0.0;
  EdfDefinition edfDefinition = EdfDefinition::Mboost;
  double nu = 0.1;
  int mstop = 100;

  // Throws InputError naming the option: knots outside 1..kMaxKnots, degree outside 1..5, differences outside
  // 0..3, edf not finite or <= 0, nu outside (0, 1], mstop outside 1..kMaxMstop, an empty response, a negative or
  // non-finite linear/factor edf, tau outside (0, 1), a negative or non-finite huber delta (0: the adaptive d), a
  // non-finite offset, a link other than logit with a family other than binomial.
  void validate() const;
  // Throws InputError naming `option` for a model whose resampled fits (cv, holdout, bands) mboost does not define:
  // huber with its adaptive d (Huber()), whose d keeps the state of the fit before, so that cvrisk's folds depend on
  // the order they run in.
  void requireResamplable(const std::string& option) const;
  bool resamplable() const;  // what requireResamplable checks
  // The settings' file keys (to_json) whose values differ from `other`'s, mstop left out: what makes a fit or a
  // cross-validation made with `other` one of another model (mstop only says how far a fit ran).
  std::vector<std::string> differencesBesideMstop(const ModelSettings& other) const;

  // The paper's simulation (ridge, edf 1, clamped knots, trace) and mboost's defaults.
  static ModelSettings paperPreset();
  static ModelSettings mboostPreset();
};

void to_json(nlohmann::json& j, const ModelSettings& s);
// Missing keys keep their defaults; present keys must have the right type and range, else InputError naming the
// field path ("settings.knots: must be an integer in 1..1000000, got 2.5"). Unknown keys are left to the caller
// (the model reader rejects them, knowing the extra keys of a result.json).
void from_json(const nlohmann::json& j, ModelSettings& s);

}  // namespace gb

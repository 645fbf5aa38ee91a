#pragma once
// What a fitted model says about itself, for `gamboost fit --summary` and the window's Model summary: the family
// and learner settings, the risk, and mboost's variable importance (varimp). Built from a Model, so a model opened
// from a file is summarised the same way as a fit just made.
#include <string>
#include <vector>

#include "model/Model.hpp"

namespace gb {

// One learner's part in the fit. riskReduction is mboost's varimp: the sum, over the iterations that selected the
// learner, of the fall of the in-bag risk path (risk[m] - risk[m + 1]; path.risk is sum(w loss) / sum(w), which
// is mboost's risk / n for unit weights). share = riskReduction / (risk[0] - risk[mstop]); selectionShare =
// selected / mstop (mboost's selection frequency).
struct LearnerImportance {
  std::size_t learner = 0;  // index into Model::learners
  std::string name;
  int selected = 0;
  double selectionShare = 0.0;
  double riskReduction = 0.0;
  double share = 0.0;
};

// Every learner (selected or not), the largest risk reduction first; equal reductions keep the learner order.
std::vector<LearnerImportance> variableImportance(const Model& model);

// What path.risk is for the family ("mean squared residual", "negative log-likelihood per row", ...).
std::string riskName(const ModelSettings& settings);
// "20 knots, degree 3, ..., edf 4 (trace), nu 0.1".
std::string modelLine(const ModelSettings& settings);

// Selected against informative covariates (generate's truth file).
struct TruthCheck {
  std::size_t informative = 0, found = 0, falsePositives = 0;
  std::vector<std::string> missed;
  std::string line() const;  // "18 of 20 informative covariates selected, missed: x3 x7; 2 uninformative selected"
};
TruthCheck checkTruth(const std::vector<std::string>& selected, const std::vector<std::string>& informative);
// The informative covariates of "<dataPath>.truth.json"; empty when there is none, or when it is unreadable (then
// *note says why: a stray file must not fail a finished fit).
std::vector<std::string> readTruth(const std::string& dataPath, std::string* note);

struct SummaryLine {
  std::string label, value;
};
// family, learners, lambda range, risk (with the share explained for gaussian, and the offset), selected.
std::vector<SummaryLine> modelSummaryLines(const Model& model);

}  // namespace gb

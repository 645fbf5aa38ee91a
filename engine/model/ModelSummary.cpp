#include "model/ModelSummary.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "common/Format.hpp"

namespace gb {

std::vector<LearnerImportance> variableImportance(const Model& model) {
  std::vector<LearnerImportance> out(model.learners.size());
  for (std::size_t j = 0; j < out.size(); ++j) {
    out[j].learner = j;
    out[j].name = model.learners[j].name;
  }
  const std::vector<double>& risk = model.pathRisk;
  const std::size_t steps = model.pathLearner.size();
  for (std::size_t m = 0; m < steps; ++m) {
    const auto j = static_cast<std::size_t>(model.pathLearner[m]);
    if (j >= out.size()) continue;
    ++out[j].selected;
    if (m + 1 < risk.size()) out[j].riskReduction += risk[m] - risk[m + 1];
  }
  const double total = risk.size() > steps && steps > 0 ? risk.front() - risk[steps] : 0.0;
  for (LearnerImportance& l : out) {
    l.selectionShare = steps > 0 ? static_cast<double>(l.selected) / static_cast<double>(steps) : 0.0;
    l.share = total > 0.0 ? l.riskReduction / total : 0.0;
  }
  std::stable_sort(out.begin(), out.end(), [](const LearnerImportance& a, const LearnerImportance& b) {
    return a.riskReduction > b.riskReduction;
  });
  return out;
}

std::string riskName(const ModelSettings& s) {
  const std::string weighted = s.weights.empty() ? "" : "weighted ";
  switch (s.family) {
    case Family::Binomial:
    case Family::Poisson:
    case Family::Gamma:
    case Family::NegBin:
      return weighted + "negative log-likelihood per row";
    case Family::Laplace:
      return weighted + "mean absolute error";
    case Family::Huber:
      return weighted + "mean Huber loss";
    case Family::Quantile:
      return weighted + "mean check loss";
    case Family::Expectile:
      return weighted + "mean asymmetric squared residual";
    case Family::AdaExp:
      return weighted + "mean exponential loss";
    default:
      return weighted + "mean squared residual";
  }
}

std::string modelLine(const ModelSettings& s) {
  std::string line = std::to_string(s.spline.knots) + " knots, degree " + std::to_string(s.spline.degree) + ", " +
                     toString(s.spline.boundary) + ", " + toString(s.penalty);
  if (s.penalty == PenaltyKind::PSpline) line += " d=" + std::to_string(s.differences);
  return line + ", edf " + formatNumber(s.edf, 4) + " (" + toString(s.edfDefinition) + "), nu " + formatNumber(s.nu, 4);
}

std::string TruthCheck::line() const {
  std::string text = std::to_string(found) + " of " + std::to_string(informative) + " informative covariates selected";
  if (!missed.empty()) {
    text += ", missed:";
    for (const std::string& name : missed) text += " " + name;
  }
  return text + "; " + std::to_string(falsePositives) + " uninformative selected";
}

TruthCheck checkTruth(const std::vector<std::string>& selected, const std::vector<std::string>& informative) {
  const std::set<std::string> chosen(selected.begin(), selected.end());
  const std::set<std::string> truth(informative.begin(), informative.end());
  TruthCheck check;
  check.informative = informative.size();
  for (const std::string& name : informative)
    if (!chosen.count(name)) check.missed.push_back(name);
  check.found = informative.size() - check.missed.size();
  for (const std::string& name : chosen) check.falsePositives += truth.count(name) ? 0 : 1;
  return check;
}

std::vector<std::string> readTruth(const std::string& dataPath, std::string* note) {
  const std::string path = dataPath + ".truth.json";
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) return {};
  if (!std::filesystem::is_regular_file(status)) {  // a pipe would block the summary (and the command) for ever
    if (note) *note = path + " not read: not a regular file";
    return {};
  }
  try {
    std::ifstream in(path);
    const nlohmann::json truth = nlohmann::json::parse(in);
    return truth.at("informative").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    if (note) *note = path + " not understood: " + e.what();
    return {};
  }
}

std::vector<SummaryLine> modelSummaryLines(const Model& model) {
  const ModelSettings& s = model.settings;
  std::vector<SummaryLine> lines;
  const std::string link = s.link == BinomialLink::Logit ? "" : ", link " + toString(s.link);
  lines.push_back({"family", toString(s.family) + link + (s.weights.empty() ? "" : ", weights " + s.weights)});
  lines.push_back({"learners", std::to_string(model.learners.size()) + " (" + modelLine(s) + ")"});
  if (!model.learners.empty()) {
    auto [lo, hi] =
        std::minmax_element(model.learners.begin(), model.learners.end(),
                            [](const LearnerModel& a, const LearnerModel& b) { return a.lambda < b.lambda; });
    lines.push_back({"lambda", formatNumber(lo->lambda, 4) + " .. " + formatNumber(hi->lambda, 4)});
  }
  const std::vector<double>& risk = model.pathRisk;
  if (!risk.empty()) {
    std::string value =
        formatNumber(risk.front(), 6) + " -> " + formatNumber(risk.back(), 6) + " (" + riskName(s) + "; ";
    if (risk.front() > 0.0 && s.family == Family::Gaussian)
      value += formatNumber(100.0 * (1.0 - risk.back() / risk.front()), 3) + "% explained; ";
    lines.push_back({"risk", value + "offset " + formatNumber(model.offset, 6) + ")"});
  }
  std::size_t selected = 0;
  for (const LearnerModel& l : model.learners) selected += l.selected > 0 ? 1 : 0;
  lines.push_back(
      {"selected", std::to_string(selected) + " of " + std::to_string(model.learners.size()) + " learners"});
  return lines;
}

}  // namespace gb

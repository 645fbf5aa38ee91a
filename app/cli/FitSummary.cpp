#include "FitSummary.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>

#include "CliSupport.hpp"
#include "compute/Booster.hpp"

namespace gb::cli {
namespace {

constexpr std::size_t kMaxTableRows = 30;  // a summary, not the whole model: result.json has every count

// Notes from solving for lambda (e.g. an edf at or above the basis rank leaves a learner unpenalised).
void printLearnerNotes(std::ostream& out, const std::vector<Learner>& learners) {
  std::size_t count = 0;
  const Learner* first = nullptr;
  for (const Learner& learner : learners)
    if (!learner.note.empty()) {
      ++count;
      if (!first) first = &learner;
    }
  if (!first) return;
  out << "  note          " << first->note;
  if (count > 1) out << " (and " << count - 1 << " more learners)";
  out << "\n";
}

struct Selected {
  std::string name;
  int count = 0;
  double riskReduction = 0.0;
};

std::vector<Selected> selectedByCount(const Booster& booster) {
  const std::vector<int> counts = booster.selectionCounts();
  const std::vector<double> reductions = booster.riskReductions();
  std::vector<Selected> selected;
  for (std::size_t j = 0; j < counts.size(); ++j)
    if (counts[j] > 0)
      selected.push_back({booster.learners()[j].name, counts[j], j < reductions.size() ? reductions[j] : 0.0});
  std::stable_sort(selected.begin(), selected.end(), [](const Selected& a, const Selected& b) {
    return a.count != b.count ? a.count > b.count : a.riskReduction > b.riskReduction;
  });
  return selected;
}

// What path.risk is for the family (sum(w loss) / sum(w)).
std::string riskName(const ModelSettings& s) {
  const std::string weighted = s.weights.empty() ? "" : "weighted ";
  switch (s.family) {
    case Family::Binomial:
    case Family::Poisson:
      return weighted + "negative log-likelihood per row";
    case Family::Laplace:
      return weighted + "mean absolute error";
    case Family::Huber:
      return weighted + "mean Huber loss";
    case Family::Quantile:
      return weighted + "mean check loss";
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

// Informative covariates named by generate's truth file; empty when there is none or it is unreadable
// (the summary is a convenience: a stray file must not fail a finished fit).
std::vector<std::string> readTruth(const std::string& dataPath, std::string* note) {
  const std::string path = dataPath + ".truth.json";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  try {
    std::ifstream in(path);
    const nlohmann::json truth = nlohmann::json::parse(in);
    return truth.at("informative").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    *note = path + " not understood: " + e.what();
    return {};
  }
}

void printTruth(std::ostream& out, const std::vector<Selected>& selected, const std::vector<std::string>& truth) {
  std::set<std::string> chosen;
  for (const Selected& s : selected) chosen.insert(s.name);
  const std::set<std::string> informative(truth.begin(), truth.end());
  std::vector<std::string> missed;
  for (const std::string& name : truth)
    if (!chosen.count(name)) missed.push_back(name);
  std::size_t falsePositives = 0;
  for (const Selected& s : selected) falsePositives += informative.count(s.name) ? 0 : 1;
  out << "  truth         " << truth.size() - missed.size() << " of " << truth.size()
      << " informative covariates selected";
  if (!missed.empty()) {
    out << ", missed:";
    for (const std::string& name : missed) out << ' ' << name;
  }
  out << "; " << falsePositives << " uninformative selected\n";
}

}  // namespace

void printFitSummary(std::ostream& out, const Booster& booster, const std::string& dataPath, double readSeconds,
                     const std::string& extra) {
  const ModelSettings& s = booster.settings();
  const auto& learners = booster.learners();
  const BoostPath& path = booster.path();
  const BackendInfo info = booster.backendInfo();

  double lambdaMin = 0.0, lambdaMax = 0.0;
  if (!learners.empty()) {
    auto [lo, hi] = std::minmax_element(learners.begin(), learners.end(),
                                        [](const Learner& a, const Learner& b) { return a.lambda < b.lambda; });
    lambdaMin = lo->lambda;
    lambdaMax = hi->lambda;
  }
  const int iterations = booster.iteration();
  const double perIteration = iterations > 0 ? booster.fitSeconds() / iterations : 0.0;

  out << "gamboost fit of " << dataPath << "\n";
  const ModelFrame& frame = booster.frame();
  out << "  rows          " << booster.rows();
  if (frame.omittedRows() > 0) out << " (" << frame.omissionNote() << ")";
  out << "\n";
  out << "  family        " << toString(s.family) << (s.weights.empty() ? "" : ", weights " + s.weights) << "\n";
  out << "  learners      " << learners.size() << " (" << modelLine(s) << ")\n";
  out << "  lambda        " << formatNumber(lambdaMin, 4) << " .. " << formatNumber(lambdaMax, 4) << "\n";
  out << "  compute       " << info.backend << " / " << info.device << " / kernel " << info.kernel << " / "
      << info.precision << "\n";
  out << "  read          " << formatSeconds(readSeconds) << "\n";
  out << "  set-up        " << formatSeconds(booster.setupSeconds()) << "\n";
  out << "  fit           " << formatSeconds(booster.fitSeconds()) << " (" << iterations << " iterations, "
      << formatSeconds(perIteration) << " each)\n";
  if (!path.risk.empty()) {
    out << "  risk          " << formatNumber(path.risk.front(), 6) << " -> " << formatNumber(path.risk.back(), 6)
        << " (" << riskName(s) << "; ";
    if (path.risk.front() > 0.0 && s.family == Family::Gaussian)
      out << formatNumber(100.0 * (1.0 - path.risk.back() / path.risk.front()), 3) << "% explained; ";
    out << "offset " << formatNumber(booster.offset(), 6) << ")\n";
  }
  out << extra;
  printLearnerNotes(out, learners);

  const std::vector<Selected> selected = selectedByCount(booster);
  out << "  selected      " << selected.size() << " of " << learners.size() << " learners\n";
  std::string note;
  const std::vector<std::string> truth = readTruth(dataPath, &note);
  if (!truth.empty()) printTruth(out, selected, truth);
  if (!note.empty()) out << "  note          " << note << "\n";

  const double totalReduction = path.risk.empty() ? 0.0 : path.risk.front() - path.risk.back();
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < selected.size() && i < kMaxTableRows; ++i) {
    const Selected& sel = selected[i];
    const double share = totalReduction > 0.0 ? 100.0 * sel.riskReduction / totalReduction : 0.0;
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", share);
    rows.push_back({sel.name, std::to_string(sel.count), percent});
  }
  out << "\n";
  printTable(out, {"learner", "selected", "share of risk reduction"}, rows);
  if (selected.size() > kMaxTableRows)
    out << "(" << selected.size() - kMaxTableRows << " more learners selected less often: see result.json)\n";
}

}  // namespace gb::cli

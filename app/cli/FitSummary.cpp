#include "FitSummary.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "CliSupport.hpp"
#include "compute/Booster.hpp"
#include "model/ModelSummary.hpp"

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

// The selected learners by count (then by risk reduction): the summary's table.
std::vector<Selected> selectedByCount(const std::vector<LearnerImportance>& importance) {
  std::vector<Selected> selected;
  for (const LearnerImportance& l : importance)
    if (l.selected > 0) selected.push_back({l.name, l.selected, l.riskReduction});
  std::stable_sort(selected.begin(), selected.end(), [](const Selected& a, const Selected& b) {
    return a.count != b.count ? a.count > b.count : a.riskReduction > b.riskReduction;
  });
  return selected;
}

void printLine(std::ostream& out, const std::string& label, const std::string& value) {
  std::string padded = label;
  padded.resize(std::max<std::size_t>(14, label.size() + 1), ' ');
  out << "  " << padded << value << "\n";
}

}  // namespace

void printFitSummary(std::ostream& out, const Booster& booster, const std::string& dataPath, double readSeconds,
                     const std::string& extra) {
  const Model model = booster.model();
  const BackendInfo info = booster.backendInfo();
  const int iterations = booster.iteration();
  const double perIteration = iterations > 0 ? booster.fitSeconds() / iterations : 0.0;

  out << "gamboost fit of " << dataPath << "\n";
  const ModelFrame& frame = booster.frame();
  std::string rows = std::to_string(frame.usedRows);  // over every rank of a distributed fit
  if (frame.omittedRows() > 0) rows += " (" + frame.omissionNote() + ")";
  printLine(out, "rows", rows);
  const std::vector<SummaryLine> lines = modelSummaryLines(model);
  auto print = [&](const std::string& label) {
    for (const SummaryLine& l : lines)
      if (l.label == label) printLine(out, l.label, l.value);
  };
  print("family");
  print("learners");
  print("lambda");
  printLine(out, "compute", info.backend + " / " + info.device + " / kernel " + info.kernel + " / " + info.precision);
  printLine(out, "read", formatSeconds(readSeconds));
  printLine(out, "set-up", formatSeconds(booster.setupSeconds()));
  printLine(out, "fit",
            formatSeconds(booster.fitSeconds()) + " (" + std::to_string(iterations) + " iterations, " +
                formatSeconds(perIteration) + " each)");
  print("risk");
  out << extra;
  printLearnerNotes(out, booster.learners());
  print("selected");

  const std::vector<LearnerImportance> importance = variableImportance(model);
  const std::vector<Selected> selected = selectedByCount(importance);
  std::string note;
  const std::vector<std::string> truth = readTruth(dataPath, &note);
  if (!truth.empty()) {
    std::vector<std::string> names;
    for (const Selected& sel : selected) names.push_back(sel.name);
    printLine(out, "truth", checkTruth(names, truth).line());
  }
  if (!note.empty()) printLine(out, "note", note);

  const std::vector<double>& risk = model.pathRisk;
  const double totalReduction = risk.empty() ? 0.0 : risk.front() - risk.back();
  std::vector<std::vector<std::string>> table;
  for (std::size_t i = 0; i < selected.size() && i < kMaxTableRows; ++i) {
    const Selected& sel = selected[i];
    const double share = totalReduction > 0.0 ? 100.0 * sel.riskReduction / totalReduction : 0.0;
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", share);
    table.push_back({sel.name, std::to_string(sel.count), percent});
  }
  out << "\n";
  printTable(out, {"learner", "selected", "share of risk reduction"}, table);
  if (selected.size() > kMaxTableRows)
    out << "(" << selected.size() - kMaxTableRows << " more learners selected less often: see result.json)\n";
}

}  // namespace gb::cli

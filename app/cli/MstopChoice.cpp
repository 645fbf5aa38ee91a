#include "MstopChoice.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/Error.hpp"
#include "compute/Holdout.hpp"

namespace gb::cli {
namespace {

int firstMinimum(const std::vector<double>& risk) {
  return static_cast<int>(std::min_element(risk.begin(), risk.end()) - risk.begin());
}

}  // namespace

void addHoldoutOption(CLI::App* sub, FitOptions& o) {
  const CLI::Validator openUnit(
      [](std::string& text) -> std::string {
        const double f =
            std::strtod(text.c_str(), nullptr);  // finiteRealValidator has accepted it (stod throws on 1e-320)
        return f > 0.0 && f < 1.0 ? std::string() : "must be in (0, 1), the share of rows held out, got " + text;
      },
      "", "");
  addRealOption(sub, "--holdout", o.holdout,
                "Hold out this share F (0 < F < 1; default: none) of the used rows, drawn by --seed, and record their "
                "risk curve (result.json's \"holdout\")")
      ->check(openUnit)
      ->default_str("")
      ->group("Folds");
}

void checkHoldoutOptions(const FitOptions& o) {
  if (o.holdout > 0.0 && o.mstopWord == "cv")
    throw InputError(optionMessage("--holdout", "cannot be combined with --mstop cv (give one way to judge mstop)"));
}

nlohmann::json holdoutJson(const Booster& booster, const FitOptions& o) {
  const HeldOutRisk* held = booster.heldOut();
  if (!held) return nullptr;
  return {{"fraction", o.holdout},
          {"seed", o.folds.seed},
          {"rows", held->inputRows().size()},
          {"risk", held->risk()},
          {"mstop", firstMinimum(held->risk())},
          {"held_out", held->inputRows()}};
}

std::string holdoutSummaryLine(const Booster& booster) {
  const HeldOutRisk* held = booster.heldOut();
  if (!held) return {};
  const std::vector<double>& risk = held->risk();
  const int best = firstMinimum(risk);
  return "  held out      " + std::to_string(held->inputRows().size()) + " rows: risk " +
         formatNumber(risk.front(), 6) + " -> " + formatNumber(risk.back(), 6) + ", minimum " +
         formatNumber(risk[static_cast<std::size_t>(best)], 6) + " at mstop " + std::to_string(best) +
         (best == booster.iteration() ? " (the last: the held-out risk may still fall)" : "") + "\n";
}

std::string mstopSummaryLine(const nlohmann::json& cv) {
  if (cv.is_null()) return {};
  const int chosen = cv.at("mstop").get<int>(), grid = cv.at("grid").get<int>();
  return "  mstop         " + std::to_string(std::max(1, chosen)) + ", chosen by " +
         std::to_string(cv.at("folds").get<std::size_t>()) + " " + cv.at("type").get<std::string>() +
         " folds (first minimum of their mean out-of-bag risk, " +
         formatNumber(cv.at("mean")[chosen].get<double>(), 6) + ", over 0.." + std::to_string(grid) +
         (chosen == grid ? "; the last: raise --cv-grid" : "") + ")\n";
}

}  // namespace gb::cli

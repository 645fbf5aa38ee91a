#pragma once
// How gamboost fit judges mstop, besides the fit itself. --holdout F: a random share F of the used rows stays out
// of the fit; result.json's "holdout" records their risk curve beside the fit's own ("path.risk") and --summary its
// minimum (engine: compute/Holdout.hpp). --mstop cv (FitCommand.cpp): the summary names the folds' choice.
#include <nlohmann/json.hpp>
#include <string>

#include "FitOptions.hpp"

namespace gb::cli {

// --holdout, checked at parse time to lie in (0, 1).
void addHoldoutOption(CLI::App* sub, FitOptions& o);
// Before any work: --holdout with --mstop cv is refused (two ways of choosing mstop).
void checkHoldoutOptions(const FitOptions& o);
// result.json's "holdout": fraction, seed, rows, risk, mstop (the first minimum), held_out (input rows, 0-based).
nlohmann::json holdoutJson(const Booster& booster, const FitOptions& o);
// The summary's line on the held-out risk, or "" without a holdout.
std::string holdoutSummaryLine(const Booster& booster);
// The summary's line on the mstop that --mstop cv chose (cv: result.json's "cv"), or "" without one.
std::string mstopSummaryLine(const nlohmann::json& cv);

}  // namespace gb::cli

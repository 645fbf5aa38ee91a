#pragma once
// The human summary of `gamboost fit --summary` (stdout).
#include <iosfwd>
#include <string>

namespace gb {
class Booster;
}

namespace gb::cli {

// Rows, learners, lambda range, compute, timings, risk, the selected learners by count, and, when
// "<dataPath>.truth.json" (written by `gamboost generate`) exists, selected vs missed informative covariates.
// `extra` (whole lines) follows the risk line: how mstop was chosen, the held-out risk.
void printFitSummary(std::ostream& out, const Booster& booster, const std::string& dataPath, double readSeconds,
                     const std::string& extra = {});

}  // namespace gb::cli

#pragma once
// What a fit will need, checked before any basis is built: enough rows for the basis columns, and memory for
// the learners' k x k matrices, the cross-product cache, the row vectors and the path. A request the machine
// cannot serve ends with a message naming the option, not with an out-of-memory kill half an hour later.
#include <cstddef>
#include <cstdint>

#include "learner/ModelFrame.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

struct FitFootprint {
  std::uint64_t learnerBytes = 0;  // k x k matrices of every learner, with the set-up's temporaries
  std::uint64_t rowBytes = 0;      // n-length vectors (mu, g, fitted, ...)
  std::uint64_t cacheBytes = 0;    // the cross-product cache (capped)
  std::uint64_t pathBytes = 0;     // the recorded path and risk, the step log and result.json's path
  std::uint64_t columns = 0;       // k, each spline's basis columns
  std::uint64_t total() const { return learnerBytes + rowBytes + cacheBytes + pathBytes; }
};

// Estimate for n rows and `learners` spline learners (saturating: never overflows).
FitFootprint estimateFitFootprint(std::size_t rows, std::size_t learners, const ModelSettings& settings);

// Throws InputError naming the option that dominates the footprint (--knots, --mstop, or the data itself) when the
// estimate exceeds the memory available (common/SystemResources.hpp). More basis columns than rows is no error:
// the penalty identifies the columns the data leave free, as in mboost (a spline needs d distinct values for d-th
// differences).
void checkFitFootprint(std::size_t rows, std::size_t learners, const ModelSettings& settings);

// How many such fits may run at once (resampling folds, bootstrap refits) within the memory available now: at most
// `wanted`, at least 1 (each fit's own check then refuses one that does not fit even alone). Each fit checks only
// its own footprint, so folds started together on the strength of that check would starve each other.
// Each fit has frame's rows and learners; withCache false: fits without a cross-product cache of their own (the
// folds of one batch on a device).
int fitsAtOnce(int wanted, const ModelFrame& frame, const ModelSettings& settings, bool withCache = true);

}  // namespace gb

#include "compute/FitFootprint.hpp"

#include <algorithm>
#include <limits>

#include "common/Error.hpp"
#include "common/SystemResources.hpp"

namespace gb {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::uint64_t mul(std::uint64_t a, std::uint64_t b) { return (a != 0 && b > kMax / a) ? kMax : a * b; }

// Per learner: G, S, P, Q (Learner.hpp) plus the eigen-solver's matrices during set-up: about 10 k x k doubles.
constexpr std::uint64_t kLearnerMatrices = 10;
// mu, g, y's copy, fitted, the partial sums and the backend's scratch: about 8 doubles per row.
constexpr std::uint64_t kRowDoubles = 8;
// The CPU and OpenCL backends cap their cross-product caches at 256 MiB (CpuBackend.cpp, OpenClBackend.cpp).
constexpr std::uint64_t kCacheCap = std::uint64_t{256} << 20;
// Per iteration: a learner index and a risk, kept in the path and in the snapshots of the window (24 bytes with the
// vectors' growth); the step log's index, offset and delta (12 + 8 k bytes, StepLog.hpp); result.json's path entries
// as a document and as text (about 100 bytes; 150 for the copies while a vector grows). heaptrack: 66.7 MB of heap
// at the peak of a 10-row fit of mstop 2e5 and k = 24, 333 bytes an iteration, against 24 + 204 + 150 = 378 here.
constexpr std::uint64_t kPathBytesPerIteration = 24;
constexpr std::uint64_t kStepLogBytesPerIteration = 12;
constexpr std::uint64_t kResultBytesPerIteration = 150;

}  // namespace

FitFootprint estimateFitFootprint(std::size_t rows, std::size_t learners, const ModelSettings& settings) {
  const std::uint64_t k = static_cast<std::uint64_t>(std::max(settings.spline.knots, 0)) +
                          static_cast<std::uint64_t>(std::max(settings.spline.degree, 0)) + 1;
  FitFootprint f;
  f.columns = k;
  f.learnerBytes = mul(mul(mul(k, k), kLearnerMatrices * sizeof(double)), learners);
  f.rowBytes = mul(rows, kRowDoubles * sizeof(double));
  f.cacheBytes = std::min(kCacheCap, mul(mul(mul(learners, k), mul(learners, k)), sizeof(double)));
  f.pathBytes = mul(static_cast<std::uint64_t>(std::max(settings.mstop, 0)) + 1,
                    kPathBytesPerIteration + kStepLogBytesPerIteration + kResultBytesPerIteration + 8 * k);
  return f;
}

void checkFitFootprint(std::size_t rows, std::size_t learners, const ModelSettings& settings) {
  const FitFootprint f = estimateFitFootprint(rows, learners, settings);
  const std::uint64_t available = availableMemoryBytes();
  if (f.total() <= available) return;
  const char* option = "--data";
  std::string what = "the rows";
  if (f.learnerBytes >= f.rowBytes && f.learnerBytes >= f.pathBytes) {
    option = "--knots";
    what = std::to_string(learners) + " learners' " + std::to_string(f.columns) + " x " + std::to_string(f.columns) +
           " matrices";
  } else if (f.pathBytes >= f.rowBytes) {
    option = "--mstop";
    what = "the path of " + std::to_string(settings.mstop) + " iterations";
  }
  throw InputError(optionMessage(option, "the fit needs about " + describeBytes(f.total()) + " of memory (" + what +
                                             " alone " +
                                             describeBytes(std::max({f.learnerBytes, f.rowBytes, f.pathBytes})) +
                                             "), but only " + describeBytes(available) + " is available"));
}

int fitsAtOnce(int wanted, const ModelFrame& frame, const ModelSettings& settings, bool withCache) {
  if (wanted <= 1) return std::max(wanted, 1);
  FitFootprint f = estimateFitFootprint(frame.keptRows.size(),
                                        frame.splines.size() + frame.linears.size() + frame.factors.size(), settings);
  if (!withCache) f.cacheBytes = 0;
  const std::uint64_t each = std::max<std::uint64_t>(f.total(), 1);
  const std::uint64_t fit = availableMemoryBytes() / each;
  return static_cast<int>(std::clamp<std::uint64_t>(fit, 1, static_cast<std::uint64_t>(wanted)));
}

}  // namespace gb

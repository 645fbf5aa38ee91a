#include "compute/FoldGrams.hpp"

#include <string>

#include "learner/GramMatrix.hpp"
#include "spline/SplineBasis.hpp"

namespace gb {

void addFoldGrams(std::vector<ModelFrame>& frames, const ModelSettings& settings) {
  if (frames.empty()) return;
  const ModelFrame& first = frames.front();
  const Dataset& data = *first.data;
  std::vector<const double*> weights;
  for (const ModelFrame& f : frames) weights.push_back(f.weights.empty() ? nullptr : f.weights.data());
  std::vector<std::vector<Eigen::MatrixXd>> grams(first.splines.size());
  const auto count = static_cast<std::ptrdiff_t>(first.splines.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t j = 0; j < count; ++j) {
    const std::vector<double>& x = data.column(first.splines[static_cast<std::size_t>(j)]);
    if (x.empty()) continue;
    // The range the learners take (buildSpline): the frame's scan, else a scan of x.
    const auto known = first.columnScans.find(first.splines[static_cast<std::size_t>(j)]);
    const CovariateScan scan = known != first.columnScans.end() ? known->second : scanCovariate(x.data(), x.size());
    if (scan.firstNonFinite < x.size() || !(scan.lo < scan.hi) ||
        !SplineBasis::rangeProblem(scan.lo, scan.hi, settings.spline).empty())
      continue;
    const SplineBasis basis(scan.lo, scan.hi, settings.spline);
    if (x.size() < static_cast<std::size_t>(basis.numColumns())) continue;
    grams[static_cast<std::size_t>(j)] = gramMatrices(basis, x.data(), x.size(), weights);
  }
  for (std::size_t j = 0; j < grams.size(); ++j)
    for (std::size_t f = 0; f < grams[j].size(); ++f) frames[f].grams[first.splines[j]] = std::move(grams[j][f]);
}

}  // namespace gb

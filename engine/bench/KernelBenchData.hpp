#pragma once
// Inputs and CPU references of one (rows, k, covariates) case of the kernel benchmark. Covariates are U(0,1)
// (the paper's section 4.1 design), each with its own B-spline basis of k columns (degree 3, extended
// boundary); every reference is computed in double straight from x, so no dense B is ever needed on the host
// except for the Eigen timings and the dense uploads (built in row blocks).
#include <cstdint>
#include <vector>

#include "spline/SplineBasis.hpp"

namespace gb::kbench {

struct Reference {
  std::vector<double> value;  // the exact product (double)
  std::vector<double> scale;  // sum of |terms| per entry: the yardstick of floating-point summation error
};

struct CaseData {
  std::size_t rows = 0;
  int k = 0, learners = 0;
  int selected = 0;                    // the learner of the batched forward product and the update
  std::vector<std::vector<double>> x;  // learners x rows
  std::vector<SplineBasis> bases;
  std::vector<double> g;      // rows, rounded to the run's precision
  std::vector<double> delta;  // learners x k, rounded
  std::vector<double> y, mu;  // rows, rounded (update inputs)
  Reference btg;              // B_j'g for every learner (learners x k)
  Reference forwardFirst;     // B_0 delta_0 (rows): the per-learner forward product
  Reference forwardSelected;  // B_sel delta_sel (rows): the batched one
};

// Throws InputError("--k: ...") when k < degree + 2 (a basis needs one interior knot).
CaseData makeCase(std::size_t rows, int k, int learners, std::uint64_t seed, bool doublePrecision);

// The dense rows [rowBegin, rowEnd) of the learners [firstLearner, firstLearner + count): row-major, count * k
// columns, into out (rowEnd - rowBegin rows). Real is float or double.
template <typename Real>
void fillDenseRows(const CaseData& data, int firstLearner, int count, std::size_t rowBegin, std::size_t rowEnd,
                   Real* out);

// max over entries of |got - value| / scale (scale 0 counts as 1); NaN (an entry nobody wrote) gives +inf.
double maxScaledError(const std::vector<double>& got, const Reference& ref);

}  // namespace gb::kbench

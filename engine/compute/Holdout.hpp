#pragma once
// fit --holdout: a random share of the used rows is kept out of the fit and its risk is followed beside the fit's
// own. The held-out rows are one resampling fold (CrossValidation.hpp's subsample machinery, learner/ModelFrame.hpp
// applyFold): weight 0 on them, the case weights elsewhere. The backend reports the fit's own risk (the in-bag
// rows'); the held-out risk is computed here, on the host, from each iteration's step: the held-out rows are a
// fraction of n, their learner effects cost degree + 1 products a row, and no backend needs a second risk.
#include <cstdint>
#include <vector>

#include "family/FamilyFunctions.hpp"
#include "learner/Learner.hpp"
#include "learner/ModelFrame.hpp"

namespace gb {

struct HoldoutSpec {
  double fraction = 0.0;  // in (0, 1): round(fraction x used rows) rows are held out
  std::uint64_t seed = 1;
};

struct HoldoutFold {
  std::vector<double> weights;       // per input row: 0 on held-out and omitted rows, else the case weight (or 1)
  std::vector<std::size_t> heldOut;  // the held-out rows as used-row indices, ascending
};

// The held-out rows are drawn as one subsample fold of the used rows (our seeded generator, as gamboost cv's).
// Throws InputError naming --holdout for a fraction outside (0, 1) or one that holds out no row or every row.
HoldoutFold holdoutFold(const ModelFrame& frame, const HoldoutSpec& spec);

// The risk sum(w loss) / sum(w) over the rows a fold leaves out (w: the frame's out-of-bag weights), after the
// offset and after each iteration's step, with the fitted values of those rows kept on the host.
class HeldOutRisk {
 public:
  // heldOut: used-row indices; foldFrame: the frame after applyFold (its out-of-bag weights).
  HeldOutRisk(const ModelFrame& foldFrame, const std::vector<std::size_t>& heldOut, const FamilyFunctions& family,
              double offset);
  // One iteration: `delta` (nu delta_j, as the backend reports it) of learner `l` whose column is x; sigma: the
  // family's nuisance parameter the fit reached (gamma's shape, from the training rows), else unused.
  void step(const Learner& l, const std::vector<double>& x, const std::vector<double>& delta, double sigma);

  const std::vector<double>& risk() const { return risk_; }  // mstop + 1 values
  // The input rows (0-based) held out: every used row with fold weight 0, also those of case weight 0.
  const std::vector<std::size_t>& inputRows() const { return inputRows_; }

 private:
  double currentRisk() const;

  FamilyFunctions family_;
  std::vector<std::size_t> usedRows_;   // the held-out rows with a positive weight, as used-row indices
  std::vector<std::size_t> inputRows_;  // every held-out row, as input-row indices
  std::vector<double> y_, w_, f_;       // of usedRows_: coded response, out-of-bag weight, fitted value
  std::vector<double> risk_;
};

}  // namespace gb

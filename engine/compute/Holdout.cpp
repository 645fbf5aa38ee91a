#include "compute/Holdout.hpp"

#include <cmath>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "compute/CrossValidation.hpp"
#include "model/Model.hpp"

namespace gb {

HoldoutFold holdoutFold(const ModelFrame& frame, const HoldoutSpec& spec) {
  if (!(spec.fraction > 0.0 && spec.fraction < 1.0))
    throw InputError(optionMessage("--holdout", "must be in (0, 1), got " + formatNumber(spec.fraction, 10)));
  const std::size_t used = frame.keptRows.size();
  const auto held = static_cast<std::size_t>(std::llround(spec.fraction * static_cast<double>(used)));
  if (held == 0 || held == used)
    throw InputError(optionMessage("--holdout", formatNumber(spec.fraction, 10) + " of the " + std::to_string(used) +
                                                    " used rows holds out " + std::to_string(held) +
                                                    " rows: leaves no row " + (held == 0 ? "out" : "in")));
  // One subsample fold of the used rows with `used - held` rows in the bag: prob is placed half a row above that
  // count so that subsampleFolds' floor(used prob) is exactly it.
  const double prob = (static_cast<double>(used - held) + 0.5) / static_cast<double>(used);
  // Drawn without the case weights, so that a kept row of case weight 0 is told apart from a held-out one.
  const std::vector<double> inBag = subsampleFolds(used, 1, prob, spec.seed, {}).weights.front();
  HoldoutFold fold{std::vector<double>(frame.inputRows, 0.0), {}};
  for (std::size_t i = 0; i < used; ++i) {
    if (inBag[i] == 0.0)
      fold.heldOut.push_back(i);
    else
      fold.weights[frame.keptRows[i]] = frame.weights.empty() ? 1.0 : frame.weights[i];
  }
  return fold;
}

HeldOutRisk::HeldOutRisk(const ModelFrame& foldFrame, const std::vector<std::size_t>& heldOut,
                         const FamilyFunctions& family, double offset)
    : family_(family) {
  const std::vector<double>& oob = foldFrame.oobWeights;
  for (std::size_t i : heldOut) {
    inputRows_.push_back(foldFrame.keptRows[i]);
    if (!(oob[i] > 0.0)) continue;
    usedRows_.push_back(i);
    y_.push_back(foldFrame.response[i]);
    w_.push_back(oob[i]);
  }
  f_.assign(usedRows_.size(), offset);
  risk_.push_back(currentRisk());
}

void HeldOutRisk::step(const Learner& l, const std::vector<double>& x, const std::vector<double>& delta, double sigma) {
  family_.sigma = sigma;
  const long k = static_cast<long>(delta.size());
  for (std::size_t r = 0; r < usedRows_.size(); ++r)
    f_[r] += learnerEffect(l.type, l.basis, delta.data(), k, x[usedRows_[r]], nullptr);
  risk_.push_back(currentRisk());
}

double HeldOutRisk::currentRisk() const { return family_.risk(y_, f_, w_); }

}  // namespace gb

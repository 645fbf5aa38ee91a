#pragma once
// Internal to the learner layer: the steps that build one learner of each type.
#include <array>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "learner/Learner.hpp"

namespace gb {

// The learner's pencil in better-conditioned columns B_c = B T (T invertible): gram B_c'W B_c, penalty T'S T and
// back = T, so that P = T P_c T' and Q = T Q_c T'. lambda and the edf are the same in exact arithmetic (the pencil's
// eigenvalues do not change under the congruence); a linear learner's 1 and x - centre keep digits that 1 and x lose
// where x's range is small next to its size (a coordinate of 5.4e6 over 100 m).
struct CongruentPencil {
  Eigen::MatrixXd gram, penalty, back;
};

// lambda from the target edf (0: unpenalised), then P = (G + lambda S)^-1 and Q = 2P - PGP. Needs gram, penalty;
// with `pencil`, lambda, P and Q come from it.
// unweightedGram (weighted learners; may be empty): B'B without the weights, asked for only where the target edf
// reaches the rank of the weighted G (mboost decides "unpenalised" by the rank of the unweighted basis).
void finishLearner(Learner& learner, double targetEdf, EdfDefinition definition,
                   const CongruentPencil* pencil = nullptr,
                   const std::function<Eigen::MatrixXd()>& unweightedGram = {});

// Whether finishLearner would ask for the unweighted Gram of this learner (gram and penalty set): the mboost
// definition, and a target edf that reaches the rank of the weighted G below its k columns.
bool rankNeedsUnweightedGram(const Learner& learner, double targetEdf, EdfDefinition definition);

// bols(x): columns 1 and x, ridge penalty on both, edf settings.linearEdf. w null: unweighted.
Learner buildLinear(const std::string& name, int column, const std::vector<double>& x, const double* w,
                    const ModelSettings& settings);
// bols(f): codes 0..L-1 of `levels`; columns 1 and one indicator per level after the first; ridge on all L.
Learner buildFactor(const std::string& name, int column, const std::vector<double>& codes,
                    const std::vector<std::string>& levels, const double* w, const ModelSettings& settings);

// The checks of a covariate's values, and the learners from their sums (over every process's rows in a distributed
// fit): a linear term from sum w, sum w d, sum w d^2 with d = x minus the range's centre; a factor from each level's
// total weight.
std::string nonFiniteMessage(const std::string& name, LearnerType type, std::size_t row);
void checkSplineRange(const std::string& name, double lo, double hi, const SplineSpec& spec);
void checkLinearRange(const std::string& name, double lo, double hi);
// The centre c of a linear learner's sums: the middle of [lo, hi].
double linearCentre(double lo, double hi);
// sum w, sum w (x - c) and sum w (x - c)^2 over x (w null: unweighted).
std::array<double, 3> linearSums(const std::vector<double>& x, const double* w, double c);
// From sums = {sum w, sum w (x - c), sum w (x - c)^2}, c = linearCentre(lo, hi). unweightedSums (a weighted
// learner; empty without weights): the same sums with every used row's weight 1, for mboost's rank decision, asked
// for only where it needs them.
Learner finishLinear(const std::string& name, int column, double lo, double hi, const std::array<double, 3>& sums,
                     const ModelSettings& settings, const std::function<std::array<double, 3>()>& unweightedSums = {});
// From each level's total weight; rowsPerLevel (a weighted learner; null without weights): each level's used rows.
Learner finishFactor(const std::string& name, int column, const std::vector<std::string>& levels,
                     const std::vector<double>& weightPerLevel, const ModelSettings& settings,
                     const std::vector<double>* rowsPerLevel = nullptr);

// A linear or factor learner without its matrices: the spline basis is unused by these learners and is built over
// [lo, hi] (a valid range) so that the member exists.
Learner olsLearner(const std::string& name, int column, LearnerType type, double lo, double hi,
                   const ModelSettings& settings);

// buildLearners with the rows spread over processes (learner/LearnerTogether.cpp).
std::vector<Learner> buildLearnersTogether(const ModelFrame& frame, const ModelSettings& settings, ShardReducer& group);

// build(j) for j = 0..count-1 across the cores; the first failing learner in learner order is reported, whichever
// thread met it first.
template <typename Build>
std::vector<Learner> buildEach(std::size_t count, Build build) {
  std::vector<std::optional<Learner>> built(count);
  std::vector<std::exception_ptr> errors(count);
#pragma omp parallel for schedule(dynamic, 1)
  for (int j = 0; j < static_cast<int>(count); ++j) {
    try {
      built[static_cast<std::size_t>(j)].emplace(build(static_cast<std::size_t>(j)));
    } catch (...) {
      errors[static_cast<std::size_t>(j)] = std::current_exception();
    }
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  std::vector<Learner> learners;
  learners.reserve(count);
  for (auto& l : built) learners.push_back(std::move(*l));
  return learners;
}

}  // namespace gb

// buildLearners for a distributed fit (issue 15): each process holds a part of the frame's rows; the learners come out
// the same on every process, and the same as one process would build from all rows up to the order of the sums:
//   1. each process scans its part of every covariate (range, first non-finite value);
//   2. the ranges are combined exactly (minimum, maximum); the checks run in learner order on every process;
//   3. each process forms its part of every learner's sums (G = B'WB over its rows for a spline, sum w, w x, w x^2 for
//      a linear term, each level's weight for a factor), all in one vector, added in process order (ShardReducer::sum);
//   4. lambda, P and Q from the summed G, as for one process (finishLearner); with case weights, the unweighted sums
//      that mboost's rank decision needs (a linear term's and a factor's in step 3, a spline's B'B in a second round
//      for the learners whose edf reaches the rank of their B'WB).
#include <cmath>
#include <functional>
#include <limits>

#include "common/ShardReducer.hpp"
#include "learner/GramMatrix.hpp"
#include "learner/LearnerSetup.hpp"
#include "spline/Penalty.hpp"

namespace gb {

namespace {

struct Spec {
  std::string name;
  LearnerType type;
  int column;
};

std::vector<Spec> specsOf(const ModelFrame& frame) {
  std::vector<Spec> specs;
  const Dataset& data = *frame.data;
  for (const auto& n : frame.splines) specs.push_back({n, LearnerType::Spline, data.columnIndex(n)});
  for (const auto& n : frame.linears) specs.push_back({n, LearnerType::Linear, data.columnIndex(n)});
  for (const auto& n : frame.factors) specs.push_back({n, LearnerType::Factor, data.columnIndex(n)});
  return specs;
}

// Every covariate's range over all processes; throws the first learner's problem (in learner order): a non-finite
// value (the lowest process's), a constant covariate, a range the basis cannot take, fewer rows than basis columns.
void checkRanges(const ModelFrame& frame, const ModelSettings& settings, const std::vector<Spec>& specs,
                 ShardReducer& group, std::vector<double>& lo, std::vector<double>& hi) {
  const std::size_t m = specs.size();
  lo.assign(m, std::numeric_limits<double>::infinity());
  hi.assign(m, -std::numeric_limits<double>::infinity());
  std::vector<double> firstBad(m, -1.0);  // this part's first non-finite row, -1 for none
#pragma omp parallel for schedule(dynamic, 1)
  for (int j = 0; j < static_cast<int>(m); ++j) {
    const Spec& spec = specs[static_cast<std::size_t>(j)];
    const std::vector<double>& x = frame.data->columns[static_cast<std::size_t>(spec.column)];
    if (spec.type == LearnerType::Factor || x.empty()) continue;
    const CovariateScan scan = scanCovariate(x.data(), x.size());
    lo[static_cast<std::size_t>(j)] = scan.lo;
    hi[static_cast<std::size_t>(j)] = scan.hi;
    if (scan.firstNonFinite < x.size())
      firstBad[static_cast<std::size_t>(j)] = static_cast<double>(scan.firstNonFinite);
  }
  const std::vector<std::vector<double>> bad = group.allGather(firstBad);
  reduceMin(&group, lo);
  reduceMax(&group, hi);
  for (std::size_t j = 0; j < m; ++j) {
    const Spec& spec = specs[j];
    if (spec.type == LearnerType::Factor) continue;
    for (const std::vector<double>& part : bad)
      if (part.at(j) >= 0.0)
        throw InputError(nonFiniteMessage(spec.name, spec.type, static_cast<std::size_t>(part[j])));
    if (spec.type == LearnerType::Linear) {
      checkLinearRange(spec.name, lo[j], hi[j]);
      continue;
    }
    checkSplineRange(spec.name, lo[j], hi[j], settings.spline);
  }
}

// Whether the rows have weights. The vectors summed must have one length on every process, and a process whose rows
// are all omitted holds no weights: a weights column in the settings decides it on every process alike (fold and
// holdout weights, the frame's other weights, are not spread over processes).
bool weightedFit(const ModelFrame& frame, const ModelSettings& settings) {
  return !settings.weights.empty() || !frame.weights.empty();
}

// How many sums learner j contributes: k^2 (a spline's G), 3 (a linear term), L (a factor's level weights); with
// case weights, a linear term and a factor add the same sums unweighted (3 and L: mboost's rank decision).
std::size_t sumCount(const Spec& spec, const ModelFrame& frame, const ModelSettings& settings, double lo, double hi) {
  const std::size_t both = weightedFit(frame, settings) ? 2 : 1;
  if (spec.type == LearnerType::Linear) return 3 * both;
  if (spec.type == LearnerType::Factor)
    return frame.data->levelsOf(static_cast<std::size_t>(spec.column)).size() * both;
  const auto k = static_cast<std::size_t>(SplineBasis(lo, hi, settings.spline).numColumns());
  return k * k;
}

// This process's sums of learner j, written at `out`; unweighted: a spline's G with every weight 1.
void partSums(const Spec& spec, const ModelFrame& frame, const ModelSettings& settings, double lo, double hi,
              double* out, bool unweighted = false) {
  const std::vector<double>& x = frame.data->columns[static_cast<std::size_t>(spec.column)];
  const double* w = frame.weights.empty() || unweighted ? nullptr : frame.weights.data();
  const bool weighted = weightedFit(frame, settings);  // decided once, not per row
  if (spec.type == LearnerType::Spline) {
    const Eigen::MatrixXd g = gramMatrix(SplineBasis(lo, hi, settings.spline), x.data(), x.size(), w);
    std::copy(g.data(), g.data() + g.size(), out);
  } else if (spec.type == LearnerType::Linear) {
    const std::array<double, 3> s = linearSums(x, w, linearCentre(lo, hi));
    std::copy(s.begin(), s.end(), out);
    if (weighted) {
      const std::array<double, 3> u = linearSums(x, nullptr, linearCentre(lo, hi));
      std::copy(u.begin(), u.end(), out + 3);
    }
  } else {
    const std::size_t levels = frame.data->levelsOf(static_cast<std::size_t>(spec.column)).size();
    for (std::size_t i = 0; i < x.size(); ++i) {
      const auto a = static_cast<std::size_t>(x[i]);
      out[a] += w ? w[i] : 1.0;
      if (weighted) out[levels + a] += 1.0;
    }
  }
}

Learner splineFromSums(const Spec& spec, double lo, double hi, const double* sums, const ModelSettings& settings) {
  Learner learner{
      spec.name, spec.column, SplineBasis(lo, hi, settings.spline), LearnerType::Spline, {}, {}, {}, 0.0, 0.0, {},
      {},        {}};
  const int k = learner.basis.numColumns();
  learner.gram = Eigen::Map<const Eigen::MatrixXd>(sums, k, k);
  learner.penalty = penaltyMatrix(k, settings.penalty, settings.differences);
  learner.penaltyNullity = std::min(penaltyNullSpaceDimension(settings.penalty, settings.differences), k);
  return learner;
}

}  // namespace

std::vector<Learner> buildLearnersTogether(const ModelFrame& frame, const ModelSettings& settings,
                                           ShardReducer& group) {
  settings.validate();
  const std::vector<Spec> specs = specsOf(frame);
  std::vector<double> lo, hi;
  checkRanges(frame, settings, specs, group, lo, hi);
  std::vector<std::size_t> offset(specs.size() + 1, 0);
  for (std::size_t j = 0; j < specs.size(); ++j)
    offset[j + 1] = offset[j] + sumCount(specs[j], frame, settings, lo[j], hi[j]);
  std::vector<double> sums(offset.back(), 0.0);
#pragma omp parallel for schedule(dynamic, 1)
  for (int j = 0; j < static_cast<int>(specs.size()); ++j) {
    const auto u = static_cast<std::size_t>(j);
    partSums(specs[u], frame, settings, lo[u], hi[u], sums.data() + offset[u]);
  }
  group.sum(sums);  // in process order: the same bits on every process
  // A weighted spline learner whose edf reaches the rank of its summed B'WB needs B'B over every used row (mboost's
  // rank decision, finishLearner): every process decides the same from the same bits, and sums those Grams too.
  std::vector<std::size_t> unweightedAt(specs.size(), 0);
  std::size_t unweightedCount = 0;
  if (weightedFit(frame, settings))
    for (std::size_t j = 0; j < specs.size(); ++j) {
      if (specs[j].type != LearnerType::Spline) continue;
      const Learner l = splineFromSums(specs[j], lo[j], hi[j], sums.data() + offset[j], settings);
      if (!rankNeedsUnweightedGram(l, settings.edf, settings.edfDefinition)) continue;
      unweightedAt[j] = unweightedCount + 1;  // 1-based: 0 marks "not needed"
      unweightedCount += offset[j + 1] - offset[j];
    }
  std::vector<double> unweightedSums(unweightedCount, 0.0);
  if (unweightedCount > 0) {
    std::size_t at = 0;
    for (std::size_t j = 0; j < specs.size(); ++j)
      if (unweightedAt[j]) {
        partSums(specs[j], frame, settings, lo[j], hi[j], unweightedSums.data() + at, true);
        at += offset[j + 1] - offset[j];
      }
    group.sum(unweightedSums);
  }
  return buildEach(specs.size(), [&](std::size_t j) {
    const Spec& spec = specs[j];
    const double* s = sums.data() + offset[j];
    const bool weighted = weightedFit(frame, settings);
    if (spec.type == LearnerType::Linear) {
      std::function<std::array<double, 3>()> unweighted;
      if (weighted) unweighted = [s] { return std::array<double, 3>{s[3], s[4], s[5]}; };
      return finishLinear(spec.name, spec.column, lo[j], hi[j], {s[0], s[1], s[2]}, settings, unweighted);
    }
    if (spec.type == LearnerType::Factor) {
      const std::vector<std::string>& levels = frame.data->levelsOf(static_cast<std::size_t>(spec.column));
      const std::vector<double> rows =
          weighted ? std::vector<double>(s + levels.size(), s + 2 * levels.size()) : std::vector<double>();
      return finishFactor(spec.name, spec.column, levels, std::vector<double>(s, s + levels.size()), settings,
                          weighted ? &rows : nullptr);
    }
    Learner learner = splineFromSums(spec, lo[j], hi[j], s, settings);
    std::function<Eigen::MatrixXd()> unweighted;
    if (unweightedAt[j]) {
      const int k = learner.basis.numColumns();
      unweighted = [&, k] {
        return Eigen::MatrixXd(Eigen::Map<const Eigen::MatrixXd>(unweightedSums.data() + unweightedAt[j] - 1, k, k));
      };
    }
    finishLearner(learner, settings.edf, settings.edfDefinition, nullptr, unweighted);
    return learner;
  });
}

}  // namespace gb

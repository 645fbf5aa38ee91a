// mboost's bols() learners: a linear term and a factor (treatment contrasts), each with a ridge penalty S = I on
// every column, the intercept included (mboost's X_ols: K = diag(ncol(X))).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/SystemResources.hpp"
#include "common/Text.hpp"
#include "learner/LearnerSetup.hpp"

namespace gb {

Learner olsLearner(const std::string& name, int column, LearnerType type, double lo, double hi,
                   const ModelSettings& settings) {
  SplineSpec spec = settings.spline;
  spec.knots = 1;
  return Learner{name, column, SplineBasis(lo, hi, spec), type, {}, {}, {}, 0.0, 0.0, {}, {}, {}};
}

namespace {

// A learner's notes, joined by "; " in the order they arise.
void addNote(Learner& l, const std::string& note) {
  if (!note.empty()) l.note = l.note.empty() ? note : l.note + "; " + note;
}

}  // namespace

Learner buildLinear(const std::string& name, int column, const std::vector<double>& x, const double* w,
                    const ModelSettings& settings) {
  double lo = x.empty() ? 0.0 : x[0], hi = lo;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) throw InputError(nonFiniteMessage(name, LearnerType::Linear, i));
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
  }
  checkLinearRange(name, lo, hi);
  const std::array<double, 3> s = linearSums(x, w, linearCentre(lo, hi));
  std::function<std::array<double, 3>()> unweighted;  // a second pass, only where the rank decision needs it
  if (w) unweighted = [&] { return linearSums(x, nullptr, linearCentre(lo, hi)); };
  return finishLinear(name, column, lo, hi, s, settings, unweighted);
}

double linearCentre(double lo, double hi) { return lo + 0.5 * (hi - lo); }

std::array<double, 3> linearSums(const std::vector<double>& x, const double* w, double c) {
  double sw = 0.0, swd = 0.0, swdd = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double wi = w ? w[i] : 1.0, d = x[i] - c;
    sw += wi;
    swd += wi * d;
    swdd += wi * d * d;
  }
  return {sw, swd, swdd};
}

void checkLinearRange(const std::string& name, double lo, double hi) {
  if (!(lo < hi))
    throw InputError("learner " + quotedForMessage(name) + ": covariate is constant (all values " +
                     formatNumber(lo, 10) + ")");
}

namespace {

// A linear learner's X'WX in the columns 1 and x - c, from sum w, sum w d and sum w d^2.
Eigen::MatrixXd centredGram(const std::array<double, 3>& s) {
  Eigen::MatrixXd g(2, 2);
  g << s[0], s[1], s[1], s[2];
  return g;
}

}  // namespace

Learner finishLinear(const std::string& name, int column, double lo, double hi, const std::array<double, 3>& sums,
                     const ModelSettings& settings, const std::function<std::array<double, 3>()>& unweightedSums) {
  const double c = linearCentre(lo, hi);
  const double sw = sums[0], swd = sums[1], swdd = sums[2];
  // X'WX in the columns 1 and x, as mboost's bols(x) has them: sum w x = sum w d + c sum w, and so on.
  const double swx = swd + c * sw, swxx = swdd + 2.0 * c * swd + c * c * sw;
  // X'WX holds sum w x^2: beyond the double range the lambda's eigen-solver fails with nothing a user can act on.
  if (!std::isfinite(swxx))
    throw InputError("learner " + quotedForMessage(name) + ": values too large for a linear learner (sum w x^2 " +
                     "overflows a double; |x| reaches " + formatNumber(std::max(std::abs(lo), std::abs(hi)), 6) +
                     "): rescale the covariate, e.g. divide it by a power of ten");
  // The squares of x - c must stay normal doubles, or the slope's column vanishes from the sums.
  if (hi - lo < 1e-150)
    throw InputError("learner " + quotedForMessage(name) + ": values too close together for a linear learner (they " +
                     "span " + formatNumber(hi - lo, 6) + ", and the squares of their spread underflow a double): " +
                     "rescale the covariate, e.g. multiply it by a power of ten");
  Learner l = olsLearner(name, column, LearnerType::Linear, lo, hi, settings);
  l.gram.resize(2, 2);
  l.gram << sw, swx, swx, swxx;
  l.penalty = Eigen::MatrixXd::Identity(2, 2);
  // A ridge penalty has no null space. Counted from the centred pencil's T^-T T^-1 instead, its smaller eigenvalue
  // (about 1 / c^2 of the larger) fell under the relative 1e-10 for x near 2015, and --linear-edf 1 was refused.
  l.penaltyNullity = 0;
  // The same pencil in the columns 1 and x - c: B = B_c T with T = [1 c; 0 1], so T^-1 maps P_c back.
  CongruentPencil centred;
  centred.gram = centredGram(sums);
  centred.back.resize(2, 2);
  centred.back << 1.0, -c, 0.0, 1.0;                          // T^-1
  centred.penalty = centred.back.transpose() * centred.back;  // T^-T S T^-1 with S = I
  std::function<Eigen::MatrixXd()> unweighted;
  if (unweightedSums) unweighted = [&] { return centredGram(unweightedSums()); };
  finishLearner(l, settings.linearEdf, settings.edfDefinition, &centred, unweighted);
  // Every row of positive weight at one value: unpenalised, X'WX is singular (mboost's bols() stops); the slope is
  // the minimum-norm solution's, 0.
  l.undecidedSlope = unweightedSums && l.lambda == 0.0 && l.edf < 1.5;
  if (l.undecidedSlope)
    addNote(l, "learner " + quotedForMessage(name) +
                   ": every row of positive weight has the same value, so the data do not decide its slope (mboost's "
                   "bols() stops here: 'system is exactly singular'); it is taken as 0. Give rows of other values "
                   "weight, or leave the learner out");
  return l;
}

namespace {

// Levels from which a factor with more levels than half its rows, most of them on a single row, gets a note.
constexpr std::size_t kManyLevels = 10;

}  // namespace

Learner buildFactor(const std::string& name, int column, const std::vector<double>& codes,
                    const std::vector<std::string>& levels, const double* w, const ModelSettings& settings) {
  std::vector<double> perLevel(levels.size(), 0.0);
  std::vector<std::size_t> rowsOf(levels.size(), 0);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    perLevel[static_cast<std::size_t>(codes[i])] += w ? w[i] : 1.0;
    ++rowsOf[static_cast<std::size_t>(codes[i])];
  }
  std::vector<double> rowCounts;
  if (w) rowCounts.assign(rowsOf.begin(), rowsOf.end());
  Learner l = finishFactor(name, column, levels, perLevel, settings, w ? &rowCounts : nullptr);
  // A text column with a level for every row (R's row names kept as a column, an id), or for nearly every row (dates
  // written as text, such as R's Date columns by write.csv): as a factor it can fit each row by itself, and it is
  // often chosen first, with a large share of the risk reduction that is only fitted noise. mboost would fit it
  // too; the user should know.
  const auto single = static_cast<std::size_t>(std::count(rowsOf.begin(), rowsOf.end(), std::size_t{1}));
  std::string note;
  if (levels.size() > 1 && single == levels.size())
    note = "learner " + quotedForMessage(name) + ": each of its " + std::to_string(levels.size()) +
           " levels holds a single row: an identifier? As a factor it can fit every row by itself; leave it out of "
           "the learners unless that is meant";
  else if (levels.size() >= kManyLevels && 2 * levels.size() > codes.size() && 2 * single > levels.size())
    note = "learner " + quotedForMessage(name) + ": " + std::to_string(levels.size()) + " levels for " +
           std::to_string(codes.size()) + " rows, " + std::to_string(single) +
           " of them a single row's: an identifier, or dates written as text? As a factor it can fit nearly every "
           "row by itself; leave it out of the learners unless that is meant (dates as numbers, such as days, give "
           "a smooth effect)";
  addNote(l, note);
  return l;
}

namespace {

// A factor learner keeps G, S, P and Q as dense L x L matrices (Learner.hpp): 800 MB at 5000 levels, and each
// iteration multiplies by P and Q. With --factor-edf, lambda's search takes the eigenvalues of an L x L pencil, which
// is O(L^3): about 6 s at 2000 levels on 2 cores, 50 s at 4000.
constexpr std::size_t kMaxFactorLevels = 5000;
constexpr std::size_t kMaxPenalisedFactorLevels = 2000;

// Where nearly every level reads as a number ("#N/A" in a column of 10000 numbers, as Excel writes a missing
// value), what to do about it; empty otherwise.
std::string numbersWithTextHint(const std::vector<std::string>& levels) {
  std::size_t numbers = 0;
  const std::string* other = nullptr;
  for (const std::string& level : levels) {
    double value = 0.0;  // from_chars: the C locale whatever the process's (the window sets the user's)
    const auto [end, error] = std::from_chars(level.data(), level.data() + level.size(), value);
    if (!level.empty() && error == std::errc() && end == level.data() + level.size() && std::isfinite(value))
      ++numbers;
    else if (!other)
      other = &level;
  }
  if (!other || numbers * 10 < levels.size() * 9) return {};
  return "; all but " + std::to_string(levels.size() - numbers) + " of its levels are numbers (the first other " +
         quotedForMessage(*other) + "): a numeric column with text cells? Leave those cells empty or NA and it is " +
         "read as numbers";
}

void checkLevelCount(const std::string& name, const std::vector<std::string>& levelNames,
                     const ModelSettings& settings) {
  const std::size_t levels = levelNames.size();
  const bool penalised = settings.factorEdf > 0.0;
  const std::size_t most = penalised ? kMaxPenalisedFactorLevels : kMaxFactorLevels;
  if (levels <= most) return;
  std::string why = "a factor learner keeps four dense " + std::to_string(levels) + " x " + std::to_string(levels) +
                    " matrices (" + describeBytes(4 * static_cast<std::uint64_t>(levels) * levels * sizeof(double)) +
                    ")";
  if (penalised)
    why = "with --factor-edf its lambda needs the eigenvalues of a " + std::to_string(levels) + " x " +
          std::to_string(levels) + " matrix (minutes)";
  throw InputError("learner " + quotedForMessage(name) + ": " + std::to_string(levels) + " levels, more than the " +
                   std::to_string(most) + " a factor learner takes" + (penalised ? " with --factor-edf" : "") + ": " +
                   why + "; leave the column out (name the learners with --spline, --linear and --factor) or merge " +
                   "its rare levels" + numbersWithTextHint(levelNames));
}

// Unpenalised (bols' default) with the first level weighted: G's (pseudo-)inverse in closed form, O(L^2) where the
// eigen-solver's path is O(L^3) (50 s at 4000 levels). With w_a the weight of level a, G = [[W, w'], [w, diag(w)]]
// (W the total, w the levels after the first). Its inverse: P00 = 1 / w_0, P0a = -1 / w_0, Pab = 1 / w_0 + [a = b]
// / w_a. A level without weight has a zero row and column in G, and so in its Moore-Penrose inverse. Q = 2P - PGP
// = P, and the edf (either definition) is the rank, the levels with weight. Returns false (the general path) where
// a level's weight is not 0 and below 1e-8 of the largest, so that the closed form never inverts a rounding.
bool unpenalisedInClosedForm(Learner& l, const Eigen::Ref<const Eigen::VectorXd>& perLevel) {
  const Eigen::Index L = perLevel.size();
  const double largest = perLevel.maxCoeff();
  if (!(perLevel[0] > 1e-8 * largest)) return false;
  for (Eigen::Index a = 1; a < L; ++a)
    if (perLevel[a] != 0.0 && !(perLevel[a] > 1e-8 * largest)) return false;
  const double base = 1.0 / perLevel[0];
  Eigen::MatrixXd p = Eigen::MatrixXd::Zero(L, L);
  p(0, 0) = base;
  int rank = 1;
  for (Eigen::Index a = 1; a < L; ++a) {
    if (perLevel[a] == 0.0) continue;
    ++rank;
    p(0, a) = p(a, 0) = -base;
    for (Eigen::Index b = 1; b < L; ++b)
      if (perLevel[b] != 0.0) p(a, b) = base;
    p(a, a) += 1.0 / perLevel[a];
  }
  l.lambda = 0.0;
  l.edf = rank;
  l.solveMatrix = p;
  l.rssMatrix = std::move(p);
  return true;
}

}  // namespace

namespace {

// A factor's X'WX (X = [1, 1{f = level 2}, ..., 1{f = level L}]): the total weight in (0, 0) and each level's weight
// on its diagonal entry and in the intercept's row and column.
Eigen::MatrixXd factorGram(const Eigen::Ref<const Eigen::VectorXd>& perLevel) {
  const Eigen::Index L = perLevel.size();
  Eigen::MatrixXd g = Eigen::MatrixXd::Zero(L, L);
  g(0, 0) = perLevel.sum();
  for (Eigen::Index a = 1; a < L; ++a) g(0, a) = g(a, 0) = g(a, a) = perLevel[a];
  return g;
}

}  // namespace

Learner finishFactor(const std::string& name, int column, const std::vector<std::string>& levels,
                     const std::vector<double>& weightPerLevel, const ModelSettings& settings,
                     const std::vector<double>* rowsPerLevel) {
  checkLevelCount(name, levels, settings);
  const auto L = static_cast<Eigen::Index>(levels.size());
  const Eigen::Map<const Eigen::VectorXd> perLevel(weightPerLevel.data(), L);
  Learner l = olsLearner(name, column, LearnerType::Factor, 0.0, 1.0, settings);
  l.levels = levels;
  l.gram = factorGram(perLevel);
  l.penalty = Eigen::MatrixXd::Identity(L, L);
  std::function<Eigen::MatrixXd()> unweighted;
  if (rowsPerLevel) unweighted = [&] { return factorGram(Eigen::Map<const Eigen::VectorXd>(rowsPerLevel->data(), L)); };
  if (settings.factorEdf > 0.0 || !unpenalisedInClosedForm(l, perLevel))
    finishLearner(l, settings.factorEdf, settings.edfDefinition, nullptr, unweighted);
  // Levels whose every row has weight 0: unpenalised, X'WX is singular and mboost's bols() stops; here they take the
  // minimum-norm solution, which the data do not decide. Said, not silent (their predictions are no estimates).
  if (rowsPerLevel && !(settings.factorEdf > 0.0))
    for (Eigen::Index a = 0; a < L; ++a)
      if (perLevel[a] == 0.0 && (*rowsPerLevel)[static_cast<std::size_t>(a)] > 0.0)
        l.undecidedLevels.push_back(static_cast<std::size_t>(a));
  const std::size_t undecided = l.undecidedLevels.size();
  if (undecided > 0) {
    std::string listed;  // the first five
    for (std::size_t i = 0; i < std::min<std::size_t>(undecided, 5); ++i)
      listed += (i ? ", " : "") + quotedForMessage(levels[l.undecidedLevels[i]]);
    if (undecided > 5) listed += ", ...";
    const bool one = undecided == 1;
    addNote(l, "learner " + quotedForMessage(name) + ": " +
                   (one ? "level " + listed + " has" : std::to_string(undecided) + " levels (" + listed + ") have") +
                   " only rows of weight 0, so the data do not decide " + (one ? "its" : "their") +
                   " effect (mboost's bols() stops here: 'system is exactly singular'); it is the minimum-norm "
                   "solution's, and predictions for " +
                   (one ? "it" : "them") +
                   " are no estimates. Give those rows weight, leave them out, or penalise the factor (--factor-edf)");
  }
  return l;
}

}  // namespace gb

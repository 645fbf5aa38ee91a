#include "fit/Replay.hpp"

#include <algorithm>

#include "compute/LearnerStep.hpp"
#include "model/Model.hpp"

namespace gbui {
namespace {

// f = offset + sum_j B_j(x_j) gamma_j over the used rows (only learners with a non-zero gamma add anything).
std::vector<double> fittedAt(const FitSetup& setup, const std::vector<Eigen::VectorXd>& gamma) {
  std::vector<double> f(setup.rows, setup.offset);
  for (std::size_t j = 0; j < setup.learners.size() && j < gamma.size(); ++j) {
    if (gamma[j].isZero(0.0)) continue;
    const gb::Learner& l = setup.learners[j];
    const std::vector<double>& x = setup.covariate(j);
    for (std::size_t i = 0; i < f.size() && i < x.size(); ++i)
      f[i] += gb::learnerEffect(l.type, l.basis, gamma[j].data(), gamma[j].size(), x[i]);
  }
  return f;
}

// The race for iteration m + 1 at the fitted values f: every learner's RSS reduction on the negative gradient.
RaceSnapshot raceAt(const FitSnapshot& s, const std::vector<double>& f, int m) {
  const FitSetup& setup = *s.setup;
  const bool binomial = gb::isBinary(setup.settings.family);
  const gb::FamilyFunctions family = familyAt(s, f);
  std::vector<double> u(f.size());
  double uu = 0.0;
  for (std::size_t i = 0; i < f.size() && i < setup.observed.size(); ++i) {
    const double y = binomial ? 2.0 * setup.observed[i] - 1.0 : setup.observed[i];
    u[i] = family.ngradient(y, f[i]);
    uu += u[i] * u[i];
  }
  RaceSnapshot race;
  race.iteration = m + 1;
  race.residualSumOfSquares = uu;
  for (std::size_t j = 0; j < setup.learners.size(); ++j)
    race.reduction.push_back(gb::learnerStep(setup.learners[j], setup.covariate(j), u, nullptr, 1.0).reduction);
  race.winner =
      static_cast<int>(std::max_element(race.reduction.begin(), race.reduction.end()) - race.reduction.begin());
  return race;
}

}  // namespace

gb::FamilyFunctions familyAt(const FitSnapshot& s, const std::vector<double>& f) {
  gb::FamilyFunctions family = s.setup->family;
  if (!family.reestimated()) return family;
  family.setNuisance(s.setup->observed, f, {});
  if (!family.adaptiveDelta) return family;
  std::vector<double> before(f.size(), 0.0);  // mboost's closure starts from fit = 0
  if (s.iteration > 0 && s.steps) {
    std::vector<int> columns;
    for (const gb::Learner& l : s.setup->learners) columns.push_back(l.numColumns());
    before = fittedAt(*s.setup, s.steps->coefficientsAt(static_cast<std::size_t>(s.iteration - 1), columns));
  }
  family.delta = gb::FamilyFunctions::medianAbsResidual(s.setup->observed, before);
  return family;
}

bool canReplay(const FitSnapshot& latest) {
  return latest.setup && latest.steps && latest.steps->size() >= static_cast<std::size_t>(latest.iteration) &&
         latest.iteration > 0;
}

FitSnapshot replayAt(const FitSnapshot& latest, int m) {
  if (!canReplay(latest)) return latest;
  m = std::clamp(m, 0, latest.iteration);
  if (m == latest.iteration) return latest;
  const FitSetup& setup = *latest.setup;
  FitSnapshot s;
  s.setup = latest.setup;
  s.steps = latest.steps;
  s.iteration = m;
  s.target = latest.target;
  s.serial = latest.serial;
  s.pathLearner.assign(latest.pathLearner.begin(), latest.pathLearner.begin() + m);
  s.pathRisk.assign(latest.pathRisk.begin(), latest.pathRisk.begin() + m + 1);
  std::vector<int> columns;
  for (const gb::Learner& l : setup.learners) columns.push_back(l.numColumns());
  s.coefficients = latest.steps->coefficientsAt(static_cast<std::size_t>(m), columns);
  s.counts.assign(setup.learners.size(), 0);
  s.riskReductions.assign(setup.learners.size(), 0.0);
  for (int t = 0; t < m; ++t) {
    const auto j = static_cast<std::size_t>(s.pathLearner[static_cast<std::size_t>(t)]);
    ++s.counts[j];
    s.riskReductions[j] += s.pathRisk[static_cast<std::size_t>(t)] - s.pathRisk[static_cast<std::size_t>(t) + 1];
  }
  const double work = static_cast<double>(setup.rows) * static_cast<double>(setup.learners.size());
  if (setup.settings.weights.empty() && work <= kReplayHostWork) {
    auto f = std::make_shared<std::vector<double>>(fittedAt(setup, s.coefficients));
    s.race = raceAt(s, *f, m);
    s.fitted = std::move(f);
  }
  return s;
}

}  // namespace gbui

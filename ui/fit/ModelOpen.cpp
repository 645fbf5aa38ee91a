#include "fit/ModelOpen.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "common/Error.hpp"
#include "common/Format.hpp"
#include "common/Text.hpp"
#include "learner/Learner.hpp"
#include "learner/ModelFrame.hpp"
#include "model/PartialEffect.hpp"

namespace gbui {

namespace {

void requireColumn(const gb::Dataset& data, const std::string& name, const std::string& what) {
  if (name.empty() || data.columnIndex(name) >= 0) return;
  throw gb::InputError("the model's " + what + " " + gb::quotedForMessage(name) +
                       " is not a column of the loaded data (" + data.source +
                       "): open the data the model was fitted to");
}

bool sameNumber(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max({std::abs(a), std::abs(b), 1e-300}); }

// The data's learner for model learner `lm`, checked to be the one the model was fitted with.
void checkMatches(const gb::LearnerModel& lm, const gb::Learner& l) {
  const std::string notTraining = "the loaded data is not the model's training data: ";
  if (l.type != lm.type)
    throw gb::InputError(notTraining + gb::quotedForMessage(lm.name) + " is a learner of another type");
  if (l.type == gb::LearnerType::Factor && l.levels != lm.levels)
    throw gb::InputError(notTraining + "factor " + gb::quotedForMessage(lm.name) + " has other levels");
  if (l.type != gb::LearnerType::Factor && !(sameNumber(l.basis.lo(), lm.lo) && sameNumber(l.basis.hi(), lm.hi)))
    throw gb::InputError(notTraining + gb::quotedForMessage(lm.name) + " ranges over [" +
                         gb::formatNumber(l.basis.lo(), 6) + ", " + gb::formatNumber(l.basis.hi(), 6) +
                         "] here and over [" + gb::formatNumber(lm.lo, 6) + ", " + gb::formatNumber(lm.hi, 6) +
                         "] in the model");
  if (static_cast<std::size_t>(l.numColumns()) != lm.coefficients.size())
    throw gb::InputError(notTraining + gb::quotedForMessage(lm.name) + " has another number of coefficients");
}

// The data's learners in the model's order (the path's indices refer to it).
std::vector<gb::Learner> learnersInModelOrder(const gb::Model& model, std::vector<gb::Learner> built) {
  std::vector<gb::Learner> out;
  for (const gb::LearnerModel& lm : model.learners) {
    auto it = std::find_if(built.begin(), built.end(), [&](const gb::Learner& l) { return l.name == lm.name; });
    if (it == built.end())
      throw gb::InputError("the model's covariate " + gb::quotedForMessage(lm.name) + " has no learner in the data");
    checkMatches(lm, *it);
    out.push_back(std::move(*it));
  }
  return out;
}

std::shared_ptr<FitSetup> setupOf(const gb::Model& model, std::shared_ptr<const gb::Dataset> data,
                                  const std::string& source) {
  const auto start = std::chrono::steady_clock::now();
  const gb::ModelSettings settings = settingsOfModel(model);
  const gb::Dataset& d = *data;
  requireColumn(d, settings.response, "response");
  requireColumn(d, settings.weights, "weights column");
  for (const gb::LearnerModel& lm : model.learners) requireColumn(d, lm.name, "covariate");
  const gb::ModelFrame frame = gb::buildModelFrame(std::move(data), settings);
  auto setup = std::make_shared<FitSetup>();
  setup->learners = learnersInModelOrder(model, gb::buildLearners(frame, settings));
  setup->data = frame.data;
  setup->settings = settings;
  setup->backend.backend = "file";
  setup->backend.device = "model file " + source;
  setup->backend.kernel = "opened, not fitted";
  setup->backend.precision = "double";
  setup->family = gb::FamilyFunctions::from(model.settings);
  setup->responseName = settings.response;
  setup->responseLevels = frame.responseLevels;
  setup->omissionNote = frame.omissionNote();
  setup->observed = frame.response;
  if (gb::isBinary(setup->family.family))
    for (double& y : setup->observed) y = y > 0 ? 1.0 : 0.0;
  for (const gb::Learner& l : setup->learners) setup->basisMeans.push_back(gb::designMeans(l));
  setup->offset = model.offset;
  setup->rows = frame.keptRows.size();
  setup->setupSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return setup;
}

// f per used row on the link scale: the offset plus every learner's effect (what the fit's last snapshot carries).
std::vector<double> fittedValues(const gb::Model& model, const FitSetup& setup) {
  std::vector<double> f(setup.rows, model.offset);
  for (std::size_t j = 0; j < setup.learners.size(); ++j) {
    const gb::Learner& l = setup.learners[j];
    const std::vector<double>& gamma = model.learners[j].coefficients;
    const std::vector<double>& x = setup.covariate(j);
    for (std::size_t i = 0; i < f.size(); ++i)
      f[i] += gb::learnerEffect(l.type, l.basis, gamma.data(), static_cast<long>(gamma.size()), x[i]);
  }
  return f;
}

}  // namespace

gb::ModelSettings settingsOfModel(const gb::Model& model) {
  gb::ModelSettings s = model.settings;
  s.learners.clear();
  s.linears.clear();
  s.factors.clear();
  for (const gb::LearnerModel& lm : model.learners) {
    auto& list = lm.type == gb::LearnerType::Spline   ? s.learners
                 : lm.type == gb::LearnerType::Linear ? s.linears
                                                      : s.factors;
    list.push_back(lm.name);
  }
  return s;
}

FitSnapshot snapshotOfModel(const gb::Model& model, std::shared_ptr<const gb::Dataset> data,
                            const std::string& source) {
  if (!data) throw gb::InputError("no data loaded");
  std::shared_ptr<FitSetup> setup = setupOf(model, std::move(data), source);
  FitSnapshot s;
  s.iteration = static_cast<int>(model.pathLearner.size());
  s.target = s.iteration;
  s.pathLearner = model.pathLearner;
  s.pathRisk = model.pathRisk;
  const std::size_t p = model.learners.size();
  s.counts.assign(p, 0);
  s.riskReductions.assign(p, 0.0);
  for (std::size_t m = 0; m < model.pathLearner.size(); ++m) {
    const auto j = static_cast<std::size_t>(model.pathLearner[m]);
    ++s.counts[j];
    if (m + 1 < model.pathRisk.size()) s.riskReductions[j] += model.pathRisk[m] - model.pathRisk[m + 1];
  }
  for (const gb::LearnerModel& lm : model.learners)
    s.coefficients.push_back(
        Eigen::Map<const Eigen::VectorXd>(lm.coefficients.data(), static_cast<Eigen::Index>(lm.coefficients.size())));
  s.fitted = std::make_shared<const std::vector<double>>(fittedValues(model, *setup));
  s.setup = std::move(setup);
  s.serial = 1;
  return s;
}

std::vector<ColumnExtrapolation> extrapolationByColumn(const gb::Model& model, const gb::Dataset& data,
                                                       const std::vector<double>& predicted) {
  std::vector<ColumnExtrapolation> out;
  for (const gb::LearnerModel& lm : model.learners) {
    const int c = data.columnIndex(lm.name);
    if (lm.type == gb::LearnerType::Factor || c < 0 || !lm.contributes()) continue;  // as predict reads them
    ColumnExtrapolation e{lm.name, lm.lo, lm.hi, INFINITY, -INFINITY, 0, 0};
    const std::vector<double>& column = data.columns[static_cast<std::size_t>(c)];
    for (std::size_t i = 0; i < column.size(); ++i) {
      const double v = column[i];
      if (std::isnan(v) || (i < predicted.size() && std::isnan(predicted[i]))) continue;  // NA: no prediction
      e.min = std::min(e.min, v);
      e.max = std::max(e.max, v);
      e.below += v < lm.lo ? 1 : 0;
      e.above += v > lm.hi ? 1 : 0;
    }
    if (e.below + e.above > 0) out.push_back(e);
  }
  return out;
}

}  // namespace gbui

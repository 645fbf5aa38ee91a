#include "plots/LearnerFitView.hpp"

#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "common/QtConvert.hpp"
#include "fit/Replay.hpp"
#include "model/PartialEffect.hpp"
#include "plots/LevelTicker.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

namespace {

// The range widened by `share` of its size on each side (of its magnitude, or 1, where it is a single value).
QCPRange padded(const QCPRange& r, double share) {
  const double pad = share * (r.size() > 0 ? r.size() : std::max(1.0, std::abs(r.lower)));
  return {r.lower - pad, r.upper + pad};
}

constexpr std::size_t kMaxPoints = 3000;  // drawn rows (every k-th): enough to see the cloud
constexpr std::size_t kNoLearner = static_cast<std::size_t>(-1);

// The negative gradient at the snapshot's fitted values (binomial's observed 0/1 coded back to -1/+1), with the
// family's parameter as the fit had it there (fit/Replay.hpp, familyAt).
std::vector<double> negativeGradient(const FitSnapshot& s, const std::vector<double>& f) {
  const FitSetup& setup = *s.setup;
  std::vector<double> u(f.size());
  const bool binomial = gb::isBinary(setup.settings.family);
  const gb::FamilyFunctions family = familyAt(s, f);
  for (std::size_t i = 0; i < f.size() && i < setup.observed.size(); ++i) {
    const double y = binomial ? 2.0 * setup.observed[i] - 1.0 : setup.observed[i];
    u[i] = family.ngradient(y, f[i]);
  }
  return u;
}

// The next iteration's winner: the race's when it is for that iteration, else the best of every learner's step.
std::size_t winner(const FitSnapshot& s, const std::vector<double>& u) {
  if (s.race && s.race->iteration == s.iteration + 1 && !s.race->reduction.empty())
    return static_cast<std::size_t>(std::max_element(s.race->reduction.begin(), s.race->reduction.end()) -
                                    s.race->reduction.begin());
  const FitSetup& setup = *s.setup;
  if (static_cast<double>(u.size()) * static_cast<double>(setup.learners.size()) > kReplayHostWork) return kNoLearner;
  std::size_t best = kNoLearner;
  double bestReduction = -1.0;
  for (std::size_t j = 0; j < setup.learners.size(); ++j) {
    const double r = gb::learnerStep(setup.learners[j], setup.covariate(j), u, nullptr, 1.0).reduction;
    if (r > bestReduction) {
      bestReduction = r;
      best = j;
    }
  }
  return best;
}

}  // namespace

LearnerFitView::LearnerFitView(MessageSink* sink, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  caption_ = new QLabel;
  caption_->setWordWrap(true);
  caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(caption_);
  plot_ = new PlotWidget;
  plot_->setMessageSink(sink);
  plot_->setExportName("learner-fit");
  points_ = plot_->addGraph();
  points_->setName(tr("negative gradient u of each row"));
  points_->setLineStyle(QCPGraph::lsNone);
  points_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(90, 90, 90, 70), 3));
  fit_ = plot_->addGraph();
  fit_->setName(tr("the learner's fit to u"));
  fit_->setPen(QPen(QColor(214, 39, 40), 2));
  added_ = plot_->addGraph();
  added_->setName(tr("the step added (nu x fit)"));
  added_->setPen(QPen(QColor(31, 119, 180), 2, Qt::DashLine));
  plot_->legend->setVisible(true);
  plot_->legend->setFont(QFont(plot_->font().family(), 8));
  plot_->legend->setBrush(QColor(255, 255, 255, 170));  // the points under it stay visible
  plot_->yAxis->setLabel(tr("negative gradient u"));
  layout->addWidget(plot_, 1);
  clear();
}

std::size_t LearnerFitView::pointsShown() const { return static_cast<std::size_t>(points_->dataCount()); }

void LearnerFitView::explain(const QString& why) {
  step_.reset();
  fitX_.clear();
  fitY_.clear();
  points_->data()->clear();
  fit_->data()->clear();
  added_->data()->clear();
  caption_->setText(why);
  setXAxisFor(nullptr);  // no learner: a number axis and lines (a factor's levels and points stood after one)
  plot_->requestReplot();
}

void LearnerFitView::clear() {
  plot_->resetRanges();  // the last data's ranges (y -40..40 stood beside new data); explain resets the x axis
  explain(
      tr("Press Step (or finish a fit) to see what the next learner fits: the negative gradient of every row "
         "against the winning covariate, with that learner's fit to it."));
}

void LearnerFitView::showSnapshot(const FitSnapshot& s) {
  if (!s.setup || !s.fitted) return;  // between a job's batches: the view keeps the last finished state
  const FitSetup& setup = *s.setup;
  if (!setup.settings.weights.empty())
    return explain(
        tr("This view shows unweighted fits; the model has case weights (%1).").arg(qs(setup.settings.weights)));
  const std::vector<double> u = negativeGradient(s, *s.fitted);
  const std::size_t j = winner(s, u);
  if (j == kNoLearner)
    return explain(tr("Too many rows and learners to work the race out here: turn on the learner race and Step."));
  const gb::Learner& l = setup.learners[j];
  const std::vector<double>& x = setup.covariate(j);
  gb::LearnerStep step = gb::learnerStep(l, x, u, nullptr, setup.settings.nu);
  step.learner = static_cast<int>(j);
  step_ = step;
  const std::size_t stride = std::max<std::size_t>(1, x.size() / kMaxPoints);
  QVector<double> px, py;
  for (std::size_t i = 0; i < x.size(); i += stride) {
    px.append(x[i]);
    py.append(u[i]);
  }
  points_->setData(px, py);
  fitX_ = gb::effectGrid(l);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(step.delta.size());
  const Eigen::VectorXd unshrunk = step.delta / setup.settings.nu;
  fitY_ = gb::centredEffect(l, zero, unshrunk, fitX_);
  const std::vector<double> addedY = gb::centredEffect(l, zero, step.delta, fitX_);
  fit_->setData(qvec(fitX_), qvec(fitY_), true);
  added_->setData(qvec(fitX_), qvec(addedY), true);
  // Always the iteration after the one on show, which has not run (after a finished fit it lies beyond mstop): a
  // preview, named as the learner race names it.
  const bool gaussian = setup.settings.family == gb::Family::Gaussian;
  const QString gradient = gaussian
                               ? tr("for gaussian the residuals y - f")
                               : tr("-d loss / d f of %1 at each row's f").arg(qs(gb::toString(setup.settings.family)));
  // One arg() of all four: a column name holding "%3" is not read as a marker.
  caption_->setText(
      tr("Next iteration %1 (preview): %2 would win. Its learner fits the negative gradient u (%3) "
         "and the iteration would add nu = %4 times that fit to f.")
          .arg(QString::number(s.iteration + 1), qs(l.name), gradient, QString::number(setup.settings.nu)));
  plot_->rescaleAxes();
  setXAxisFor(&l);  // after the rescale, which would fit a factor's range to its points
  // A margin, so that points at the range's ends stay off the frame (laplace's gradient is only -1 and +1: every
  // point sat on it), and a constant gradient still gets a visible axis.
  plot_->yAxis->setRange(padded(plot_->yAxis->range(), 0.06));
  // and the points at the covariate's ends off the frame, as R pads 4%
  if (l.type != gb::LearnerType::Factor) plot_->xAxis->setRange(padded(plot_->xAxis->range(), 0.04));
  plot_->requestReplot();
}

void LearnerFitView::setXAxisFor(const gb::Learner* l) {
  const bool factor = l && l->type == gb::LearnerType::Factor;
  for (QCPGraph* g : {fit_, added_}) g->setLineStyle(factor ? QCPGraph::lsNone : QCPGraph::lsLine);
  fit_->setScatterStyle(factor ? QCPScatterStyle(QCPScatterStyle::ssDisc, 9)
                               : QCPScatterStyle(QCPScatterStyle::ssNone));
  added_->setScatterStyle(factor ? QCPScatterStyle(QCPScatterStyle::ssCircle, 13)
                                 : QCPScatterStyle(QCPScatterStyle::ssNone));
  QCPAxis* x = plot_->xAxis;
  if (factor) {
    setLevelAxis(x, l->levels);
  } else {
    x->setTicker(QSharedPointer<QCPAxisTicker>::create());
    x->grid()->setZeroLinePen(plot_->yAxis->grid()->zeroLinePen());
  }
  x->setLabel(l ? qs(l->name) : QString());
}

}  // namespace gbui

#include "plots/EdfExplorer.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

#include "common/MessageSink.hpp"
#include "common/QtConvert.hpp"
#include "learner/EdfSolver.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/StaleNote.hpp"

namespace gbui {

namespace {

// The curve needs the learner's k x k generalised eigen-decomposition, O(k^3) on the UI thread: about 0.1 s at 400
// columns, seconds at 1000 knots and minutes for a factor of thousands of levels, each time a fit is set up.
constexpr int kMaxSpectrumColumns = 400;

// Lambda range that shows the whole transition: edf changes where lambda * d_i ~ 1 for the Demmler-Reinsch
// eigenvalues d_i = (1 - theta_i) / theta_i of the penalised directions.
QCPRange lambdaRange(const gb::EdfFunction& f, double lambdaInUse) {
  double dMin = HUGE_VAL, dMax = 0.0;
  for (double t : f.thetas()) {
    if (t <= 1e-12 || t >= 1.0 - 1e-12) continue;
    const double d = (1.0 - t) / t;
    dMin = std::min(dMin, d);
    dMax = std::max(dMax, d);
  }
  if (dMax == 0.0) return QCPRange(1e-6, 1e6);
  double lo = 1e-2 / dMax, hi = 1e2 / dMin;
  if (lambdaInUse > 0) lo = std::min(lo, lambdaInUse / 10), hi = std::max(hi, lambdaInUse * 10);
  return QCPRange(lo, hi);
}

}  // namespace

EdfExplorer::EdfExplorer(MessageSink* sink, QWidget* parent) : QWidget(parent), sink_(sink) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Learner")));
  learners_ = new QComboBox;
  learners_->setToolTip(tr("The base learner whose edf(lambda) curve is shown"));
  learners_->setMinimumContentsLength(8);
  row->addWidget(learners_);
  info_ = new QLabel;
  info_->setWordWrap(true);
  row->addWidget(info_, 1);
  layout->addLayout(row);
  stale_ = new StaleNote;
  layout->addWidget(stale_);
  plot_ = new PlotWidget;
  plot_->setMessageSink(sink);
  plot_->setExportName("edf-lambda");
  plot_->setTitle(tr("Effective degrees of freedom against the smoothing parameter"));
  plot_->xAxis->setLabel(tr("lambda (penalty weight against raw B'B; log scale)"));
  plot_->yAxis->setLabel(tr("effective degrees of freedom"));
  setLogAxis(plot_->xAxis, true);
  trace_ = plot_->addGraph();
  trace_->setName(tr("trace: tr(H)"));
  trace_->setPen(QPen(QColor(31, 119, 180), 2));
  mboost_ = plot_->addGraph();
  mboost_->setName(tr("mboost: tr(2H - H'H)"));
  mboost_->setPen(QPen(QColor(255, 127, 14), 2));
  lambdaLine_ = new QCPItemStraightLine(plot_);
  lambdaLine_->setPen(QPen(QColor(214, 39, 40), 1.2, Qt::DashLine));
  targetLine_ = new QCPItemStraightLine(plot_);
  targetLine_->setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));
  plot_->legend->setVisible(true);
  plot_->legend->setFont(QFont(font().family(), 8));
  layout->addWidget(plot_, 1);
  connect(learners_, &QComboBox::currentIndexChanged, this, &EdfExplorer::showLearner);
  clear();
}

void EdfExplorer::setChangedSinceFit(bool changed) {
  changed_ = changed;
  stale_->setChanged(changed_ && setup_);
}
QLabel* EdfExplorer::staleNote() const { return stale_; }

void EdfExplorer::clear() {
  setup_.reset();
  stale_->setChanged(false);
  info_->setText(tr("Fit or Step once to build the learners."));  // not the last learner's lambda
  learners_->blockSignals(true);
  learners_->clear();
  learners_->blockSignals(false);
  trace_->data()->clear();
  mboost_->data()->clear();
  lambdaLine_->setVisible(false);
  targetLine_->setVisible(false);
  plot_->requestReplot();
}

void EdfExplorer::setSetup(std::shared_ptr<const FitSetup> setup) {
  if (setup == setup_) return;
  const int keep = learners_->currentIndex();
  clear();
  setup_ = std::move(setup);
  if (!setup_) return;
  learners_->blockSignals(true);
  for (const gb::Learner& l : setup_->learners) learners_->addItem(qs(l.name));
  learners_->setCurrentIndex(keep >= 0 && keep < learners_->count() ? keep : 0);
  learners_->blockSignals(false);
  showLearner(learners_->currentIndex());
  stale_->setChanged(changed_);
}

void EdfExplorer::showLearner(int learner) {
  if (!setup_ || learner < 0 || learner >= static_cast<int>(setup_->learners.size())) return;
  const gb::Learner& l = setup_->learners[learner];
  if (l.numColumns() > kMaxSpectrumColumns) {
    trace_->data()->clear();
    mboost_->data()->clear();
    lambdaLine_->setVisible(false);
    targetLine_->setVisible(false);
    info_->setText(tr("%1: %2 columns, lambda in use %3, edf %4. The edf curve is drawn for learners of up to %5 "
                      "columns: it needs an eigen-decomposition of that size, which would hold the window.")
                       .arg(qs(l.name))
                       .arg(l.numColumns())
                       .arg(l.lambda, 0, 'g', 6)
                       .arg(l.edf, 0, 'g', 6)
                       .arg(kMaxSpectrumColumns));
    plot_->requestReplot();
    return;
  }
  try {
    const gb::EdfFunction f(l.gram, l.penalty, l.name, l.penaltyNullity, l.type == gb::LearnerType::Linear);
    const QCPRange range = lambdaRange(f, l.lambda);
    const int points = 240;
    QVector<double> x(points), traceEdf(points), mboostEdf(points);
    for (int i = 0; i < points; ++i) {
      x[i] = range.lower * std::pow(range.upper / range.lower, double(i) / (points - 1));
      traceEdf[i] = f(x[i], gb::EdfDefinition::Trace);
      mboostEdf[i] = f(x[i], gb::EdfDefinition::Mboost);
    }
    trace_->setData(x, traceEdf, true);
    mboost_->setData(x, mboostEdf, true);
    // Each kind of learner has its own target; 0 for a linear or factor learner means unpenalised (no target).
    const gb::ModelSettings& st = setup_->settings;
    const double target = l.type == gb::LearnerType::Linear   ? st.linearEdf
                          : l.type == gb::LearnerType::Factor ? st.factorEdf
                                                              : st.edf;
    plot_->xAxis->setRange(range);
    // A target above the rank (the learner then runs unpenalised) is still drawn: the caption names its line.
    plot_->yAxis->setRange(0, std::max<double>(f.rank(), target) * 1.05 + 0.5);
    targetLine_->point1->setCoords(range.lower, target);
    targetLine_->point2->setCoords(range.upper, target);
    targetLine_->setVisible(target > 0);
    lambdaLine_->setVisible(l.lambda > 0);
    if (l.lambda > 0) {
      lambdaLine_->point1->setCoords(l.lambda, 0);
      lambdaLine_->point2->setCoords(l.lambda, 1);
    }
    const QString def = qs(gb::toString(setup_->settings.edfDefinition));
    // lambda 0 (unpenalised) has no place on the log axis: the caption says so instead of naming a line not drawn.
    const QString lambdaText =
        l.lambda > 0 ? tr("%1 (red dashed)").arg(l.lambda, 0, 'g', 6) : tr("0 (unpenalised; not on the log axis)");
    const QString targetText = target > 0 ? tr("target %1, dotted").arg(target) : tr("no target: unpenalised");
    QString text = tr("%1: lambda in use %2 gives edf %3 by the %4 definition (%5); "
                      "trace %6, mboost %7; rank of B %8, penalty null space %9.")
                       .arg(qs(l.name))
                       .arg(lambdaText)
                       .arg(l.edf, 0, 'g', 6)
                       .arg(def)
                       .arg(targetText)
                       .arg(f(l.lambda, gb::EdfDefinition::Trace), 0, 'g', 5)
                       .arg(f(l.lambda, gb::EdfDefinition::Mboost), 0, 'g', 5)
                       .arg(f.rank())
                       .arg(f.nullSpaceDimension());
    if (!l.note.empty()) text += " " + qs(l.note);
    info_->setText(text);
    plot_->requestReplot();
  } catch (const std::exception& e) {
    sink_->exception(tr("edf explorer"), e);
  }
}

}  // namespace gbui

#include "plots/LearnerRaceView.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <numeric>

#include "common/QtConvert.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

LearnerRaceView::LearnerRaceView(MessageSink* sink, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* row = new QHBoxLayout;
  summary_ = new QLabel(idleText());
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row->addWidget(summary_, 1);
  row->addWidget(new QLabel(tr("Show best")));
  shown_ = new QSpinBox;
  shown_->setRange(2, 500);
  shown_->setValue(25);
  shown_->setToolTip(tr("How many candidates to draw, best first"));
  row->addWidget(shown_);
  layout->addLayout(row);
  plot_ = new PlotWidget;
  plot_->setMessageSink(sink);
  plot_->setExportName("learner-race");
  plot_->setTitle(tr("Learner race"));
  plot_->yAxis->setLabel(tr("RSS reduction g'g - RSS_j (squared response units)"));
  plot_->xAxis->setLabel(tr("candidate learner (best first)"));
  plot_->xAxis->grid()->setZeroLinePen(Qt::NoPen);  // else a solid line stands above the first bar
  others_ = new QCPBars(plot_->xAxis, plot_->yAxis);
  others_->setName(tr("candidates"));
  others_->setBrush(QColor(158, 188, 218));
  others_->setPen(QPen(QColor(100, 130, 170)));
  others_->setWidth(0.7);
  winner_ = new QCPBars(plot_->xAxis, plot_->yAxis);
  winner_->setName(tr("winner"));
  winner_->setBrush(QColor(214, 39, 40));
  winner_->setPen(QPen(QColor(150, 20, 20)));
  winner_->setWidth(0.7);
  layout->addWidget(plot_, 1);
  connect(shown_, &QSpinBox::valueChanged, this, &LearnerRaceView::redraw);
}

QString LearnerRaceView::idleText() {
  return tr(
      "Press Step to run one iteration: every covariate's learner competes for it, and the one that lowers "
      "the residual sum of squares most wins.");
}

void LearnerRaceView::clear(const QString& why) {
  race_.reset();
  setup_.reset();
  order_.clear();
  others_->data()->clear();
  winner_->data()->clear();
  // The last race's words and candidate names go with its bars (they named another data set's columns).
  summary_->setText(why.isEmpty() ? idleText() : why);
  plot_->setTitle(tr("Learner race"));
  plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  plot_->resetRanges();  // nor its bars' axis range (0..7 stayed on the empty plot)
  plot_->requestReplot();
}

void LearnerRaceView::showSnapshot(const FitSnapshot& s) {
  if (!s.race || !s.setup) return;
  setup_ = s.setup;
  race_ = s.race;
  redraw();
}

QString LearnerRaceView::summary() const { return summary_->text(); }

void LearnerRaceView::redraw() {
  if (!race_ || !setup_) return;
  const RaceSnapshot& r = *race_;
  order_.resize(r.reduction.size());
  std::iota(order_.begin(), order_.end(), 0);
  std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) { return r.reduction[a] > r.reduction[b]; });
  const int n = std::min<int>(shown_->value(), static_cast<int>(order_.size()));
  QVector<double> keys, values, winKey, winValue;
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (int i = 0; i < n; ++i) {
    const int j = order_[i];
    ticker->addTick(i, qs(setup_->learners[j].name));
    if (j == r.winner) {
      winKey.append(i);
      winValue.append(r.reduction[j]);
    } else {
      keys.append(i);
      values.append(r.reduction[j]);
    }
  }
  others_->setData(keys, values, true);
  winner_->setData(winKey, winValue, true);
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->setTickLabelRotation(n > 12 ? 60 : 0);
  plot_->xAxis->setRange(-0.7, n - 0.3);
  plot_->yAxis->rescale();
  plot_->yAxis->setRangeLower(0);
  plot_->yAxis->setRangeUpper(plot_->yAxis->range().upper * 1.08 + 1e-300);

  const QString what =
      r.decided ? tr("Iteration %1").arg(r.iteration) : tr("Next iteration %1 (preview)").arg(r.iteration);
  plot_->setTitle(
      tr("%1: RSS reduction of each of the %2 candidates (best %3 shown)").arg(what).arg(r.reduction.size()).arg(n));
  // Each learner fits the negative gradient u: the residuals y - f only for gaussian (laplace's u is +-1, and its
  // "residual sum of squares" was the row count).
  const bool residuals = setup_->settings.family == gb::Family::Gaussian;
  plot_->yAxis->setLabel(residuals ? tr("RSS reduction g'g - RSS_j (squared response units)")
                                   : tr("reduction of u's sum of squares, g'g - RSS_j"));
  const QString before = QString::number(r.residualSumOfSquares, 'g', 6);
  QString text = what + ": " +
                 (residuals ? tr("residual sum of squares before the step %1.").arg(before)
                            : tr("sum of squares of the negative gradient u before the step %1 (%2's u, not the "
                                 "residuals y - f).")
                                  .arg(before, qs(gb::toString(setup_->settings.family))));
  if (r.winner >= 0) {
    const double best = r.reduction[r.winner];
    text += " " + tr("Winner %1 reduces it by %2").arg(qs(setup_->learners[r.winner].name)).arg(best, 0, 'g', 6);
    const int runnerUp = order_.size() > 1 ? (order_[0] == r.winner ? order_[1] : order_[0]) : -1;
    if (runnerUp >= 0) {
      const double margin = best - r.reduction[runnerUp];
      text += "; " + tr("runner-up %1 by %2: margin %3 (%4% of the winner's).")
                         .arg(qs(setup_->learners[runnerUp].name))
                         .arg(r.reduction[runnerUp], 0, 'g', 6)
                         .arg(margin, 0, 'g', 4)
                         .arg(best != 0 ? 100.0 * margin / best : 0.0, 0, 'f', 2);
    }
  }
  summary_->setText(text);
  plot_->requestReplot();
}

}  // namespace gbui

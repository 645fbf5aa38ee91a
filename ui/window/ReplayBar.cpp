#include "window/ReplayBar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>

namespace gbui {

ReplayBar::ReplayBar(QWidget* parent) : QWidget(parent) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(4, 2, 4, 2);
  row->addWidget(new QLabel(tr("Replay")));
  slider_ = new QSlider(Qt::Horizontal);

  slider_->setFocusPolicy(Qt::StrongFocus);
  row->addWidget(slider_, 1);
  label_ = new QLabel;
  label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance(QStringLiteral("iteration 000000 of 000000 ")));
  row->addWidget(label_);
  latest_ = new QPushButton(tr("Latest"));
  latest_->setToolTip(tr("Back to the latest iteration"));
  row->addWidget(latest_);
  reset_ = new QPushButton(tr("Reset"));
  reset_->setToolTip(tr("Drop the fit: back to iteration 0 with the same data and settings"));
  row->addWidget(reset_);
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    describe();
    emit iterationChosen(v == latestIteration_ ? -1 : v);
  });
  connect(latest_, &QPushButton::clicked, this, [this] { slider_->setValue(latestIteration_); });
  connect(reset_, &QPushButton::clicked, this, &ReplayBar::resetRequested);
  follow(0, false, false);
}

void ReplayBar::follow(int latest, bool replayable, bool canReset, const QString& whyNot) {
  const QString how =
      tr("Drag to show the fit as it was after any past iteration: effects, risk, selection, the "
         "learner race and what the learner fits, from the recorded steps (no refit). Fit and Step "
         "continue from the latest iteration.");
  slider_->setToolTip(replayable || whyNot.isEmpty() ? how : whyNot + QStringLiteral("\n\n") + how);
  latestIteration_ = latest;
  const QSignalBlocker block(slider_);
  slider_->setRange(0, latest);
  slider_->setValue(latest);
  slider_->setPageStep(std::max(1, latest / 20));
  slider_->setEnabled(replayable);
  reset_->setEnabled(canReset);
  describe();
}

QString ReplayBar::sliderToolTip() const { return slider_->toolTip(); }

int ReplayBar::shown() const { return slider_->value(); }

bool ReplayBar::replaying() const { return slider_->value() != latestIteration_; }

void ReplayBar::describe() {
  label_->setText(tr("iteration %1 of %2").arg(slider_->value()).arg(latestIteration_));
  latest_->setEnabled(replaying());
}

}  // namespace gbui

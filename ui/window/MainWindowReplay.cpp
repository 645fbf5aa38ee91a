// MainWindow's iteration scrubber: replays a past iteration of the fit on show from its recorded steps, and Reset.
#include <QVBoxLayout>

#include "fit/Replay.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/LearnerRaceView.hpp"
#include "window/MainWindow.hpp"
#include "window/ReplayBar.hpp"

namespace gbui {

QWidget* MainWindow::withReplayBar(QWidget* tabs) {
  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  replayBar_ = new ReplayBar;
  layout->addWidget(replayBar_);
  layout->addWidget(tabs, 1);
  connect(replayBar_, &ReplayBar::iterationChosen, this, &MainWindow::replayIteration);
  connect(replayBar_, &ReplayBar::resetRequested, this, &MainWindow::resetFit);
  return central;
}

const FitSnapshot& MainWindow::shownSnapshot() const {
  return replayAt_ >= 0 ? replayed_ : controller_->lastSnapshot();
}

void MainWindow::updateReplayBar() {
  if (!replayBar_) return;
  const FitSnapshot& last = controller_->lastSnapshot();
  const bool idle = !controller_->isRunning();
  if (replayAt_ >= 0 && idle) return;  // the user is replaying: keep the slider where it is
  replayAt_ = -1;
  const QString whyNot = !idle                 ? tr("Replay waits until the fit is paused or finished.")
                         : last.iteration == 0 ? tr("Nothing to replay yet: Fit or Step first.")
                         : !canReplay(last)
                             ? tr("This model was opened from a file, which holds its coefficients but not the steps "
                                  "that led to them: nothing to replay. Fit to record the steps.")
                             : QString();
  replayBar_->follow(last.iteration, idle && canReplay(last), idle && last.setup != nullptr, whyNot);
}

void MainWindow::replayIteration(int m) {
  const FitSnapshot& last = controller_->lastSnapshot();
  if (controller_->isRunning() || !canReplay(last)) return;
  if (m < 0 || m >= last.iteration) {
    replayAt_ = -1;
    replayed_ = FitSnapshot();
  } else {
    replayed_ = replayAt(last, m);
    replayAt_ = m;
  }
  // The race view shows the race of the iteration on show. Above kReplayHostWork neither it nor What the learner
  // fits is worked out again (it kept the latest iteration's winner, the race said "Press Step"): both say so.
  if (replayAt_ >= 0 && !replayed_.fitted) {
    const QString why = tr("Iteration %1 of this fit is not worked out again for the learner race and What the "
                           "learner fits: %2 rows x %3 learners is more than the replay redoes on the CPU (%4). The "
                           "other tabs show iteration %5. Reset and Step to watch the race.")
                            .arg(m + 1)
                            .arg(last.setup->rows)
                            .arg(last.setup->learners.size())
                            .arg(kReplayHostWork, 0, 'g', 3)
                            .arg(m);
    race_->clear(why);
    learnerFit_->explain(why);
  } else if (!shownSnapshot().race) {
    race_->clear();
  }
  refreshView(tabs_->currentWidget());
  refreshSession();  // the status bar's iteration label names the replayed iteration (it kept the latest's)
}

void MainWindow::resetFit() {
  if (controller_->isRunning()) return;
  controller_->reset();
  clearFitViews();
  refreshSession();
  sink_.info(tr("Reset: the fit is dropped; Fit or Step starts again at iteration 0."));
}

}  // namespace gbui

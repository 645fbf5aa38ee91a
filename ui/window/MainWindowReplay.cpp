// MainWindow's iteration scrubber: replays a past iteration of the fit on show from its recorded steps, and Reset.
#include <QMessageBox>
#include <QVBoxLayout>

#include "fit/Replay.hpp"
#include "plots/CrossValidationView.hpp"
#include "plots/EdfExplorer.hpp"
#include "plots/KernelChart.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/ModelSummaryView.hpp"
#include "plots/StaleNote.hpp"
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
  fitStale_ = new StaleNote;  // for the views of the fit without a note of their own (updateFitStale)
  fitStale_->setContentsMargins(6, 2, 6, 2);
  layout->addWidget(fitStale_);
  layout->addWidget(tabs, 1);
  connect(replayBar_, &ReplayBar::iterationChosen, this, &MainWindow::replayIteration);
  connect(replayBar_, &ReplayBar::resetRequested, this, &MainWindow::resetFit);
  return central;
}

// The Model summary, edf / lambda and Cross-validation tabs carry their own line; the kernel timings do not show a fit.
void MainWindow::updateFitStale(bool changedSinceFit) {
  if (!fitStale_ || !tabs_) return;
  const QWidget* page = tabs_->currentWidget();
  const bool ownsLine = page == summary_ || page == edf_ || page == cv_ || page == kernels_;
  fitStale_->setChanged(changedSinceFit && !ownsLine);
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

// Asks first where a fit of some iterations is on show (Reset sits beside the replay slider: one slip lost a lesson's
// fit); no dialog where the sink shows none (tests, screenshots).
void MainWindow::resetFit() {
  if (controller_->isRunning()) return;
  const int iterations = controller_->lastSnapshot().iteration;
  if (iterations > 0 && sink_.interactive() &&
      QMessageBox::question(this, tr("Reset"),
                            tr("Drop the fit on show (%1 iterations)? Fit or Step then starts again at iteration 0; "
                               "Save model keeps a fit first.")
                                .arg(iterations),
                            QMessageBox::Reset | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Reset)
    return;
  controller_->reset();
  clearFitViews();
  refreshSession();
  sink_.info(tr("Reset: the fit is dropped; Fit or Step starts again at iteration 0."));
}

}  // namespace gbui

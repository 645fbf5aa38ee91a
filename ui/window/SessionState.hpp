#pragma once
// What the window says about the session, worked out in one place from the one source of truth: the data on
// show (DataPanel), the fit (FitController: its state, settings and last snapshot). The Fit group (status line,
// progress bar, Fit/Resume label), the status bar and the iteration label all read describeSession(); nothing
// else composes status text, so no view can lag behind another.
#include <QString>

#include "fit/FitController.hpp"

namespace gb {
struct Dataset;
}

namespace gbui {

struct SessionFacts {
  const gb::Dataset* data = nullptr;  // null: no data yet
  bool dataLoading = false;           // a CSV read is under way
  FitState state = FitState::Idle;
  bool canResume = false;
  int mstop = 0;                          // the model panel's mstop (the next Fit's target)
  const FitSnapshot* snapshot = nullptr;  // the fit on show (empty after new data or a fresh start)
  QString failure;                        // the last job's error, when it failed
  bool failureOutdated = false;           // failed, and the data or settings changed since
  bool changedSinceFit = false;           // the data or model settings differ from the fit on show's
};

struct SessionView {
  QString status;     // one line under the buttons (elided), the whole of it in the status bar and tooltip
  QString fitLabel;   // "Fit", or "Resume" only when Fit really continues
  QString iteration;  // the status bar's permanent label ("" when nothing is fitted)
  int progressValue = 0;
  int progressMaximum = 1;
};

SessionView describeSession(const SessionFacts& facts);
// The Fit button's label: "Resume" when Fit continues the paused fit, else "Fit" (the tool bar sizes its button for
// the wider of the two).
QString fitButtonLabel(bool canResume);

}  // namespace gbui

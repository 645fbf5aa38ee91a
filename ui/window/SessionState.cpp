#include "window/SessionState.hpp"

#include <QObject>
#include <algorithm>

#include "common/QtConvert.hpp"
#include "common/WindowWords.hpp"
#include "data/Dataset.hpp"

namespace gbui {

namespace {

QString tr(const char* text) { return QObject::tr(text); }

// "Response y (gaussian; f: mean); 480 rows used, 20 of 500 rows omitted ...".
QString describeResponse(const FitSetup& setup) {
  QString text = tr("Response %1 (%2; f: %3); %4 rows used")
                     .arg(qs(setup.responseName), qs(gb::toString(setup.family.family)), qs(setup.family.scaleName()))
                     .arg(setup.rows);
  if (!setup.omissionNote.empty()) text += ", " + qs(setup.omissionNote);
  return text + ".";
}

QString describeData(const gb::Dataset& data) {
  return tr("Data: %1 rows, %2 columns").arg(data.rows()).arg(data.cols());
}

// The finished part of a fit: what ran where (only this fit's set-up: a failed set-up has none).
QString describeRun(const FitSnapshot& s) {
  const FitSetup& setup = *s.setup;
  if (setup.backend.backend == "file")  // an opened model or session: nothing ran here
    return tr("%1 iterations, as loaded from the %2 (not refitted here).")
        .arg(s.iteration)
        .arg(qs(setup.backend.device));
  return (s.iteration == 1 ? tr("1 iteration in %2 s on %3 (%4, %5); set-up %6 s.")
                           : tr("%1 iterations in %2 s on %3 (%4, %5); set-up %6 s.").arg(s.iteration))
      .arg(s.jobSeconds, 0, 'f', 2)
      .arg(qs(setup.backend.device))
      .arg(qs(setup.backend.kernel), qs(setup.backend.precision))
      .arg(setup.setupSeconds, 0, 'f', 2);
}

QString describeFit(const SessionFacts& f, int mstop) {
  const FitSnapshot* s = f.snapshot && f.snapshot->setup ? f.snapshot : nullptr;
  switch (f.state) {
    case FitState::Idle:
      return tr("Not fitted yet: press Fit (all %1 iterations) or Step (one).").arg(mstop);
    case FitState::Running:
      if (!s) return tr("Running: setting up the learners (bases, lambda from edf) ...");
      return tr("Running: iteration %1 of %2. %3").arg(s->iteration).arg(mstop).arg(describeResponse(*s->setup));
    case FitState::Paused:
      return tr("Paused at iteration %1 of %2 (%3). %4")
          .arg(s ? s->iteration : 0)
          .arg(mstop)
          .arg(f.canResume ? tr("Resume continues") : tr("the data or settings changed: Fit and Step start afresh"))
          .arg(s ? describeRun(*s) : QString());
    case FitState::Finished:
      return tr("Finished%1. %2 %3")
          .arg(f.changedSinceFit ? tr(" (the data or settings changed since: the views show the fit before; Fit "
                                      "and Step start afresh)")
                                 : QString(),
               s ? describeRun(*s) : QString(), s ? describeResponse(*s->setup) : QString());
    case FitState::Cancelled:
      return tr("Cancelled at iteration %1 (the next Fit or Step starts afresh). %2")
          .arg(s ? s->iteration : 0)
          .arg(s ? describeRun(*s) : QString());
    case FitState::Failed:
      return (f.failureOutdated ? tr("Failed with the data or settings before (changed since: press Fit): %1")
                                : tr("Failed: %1"))
          .arg(f.failure.isEmpty() ? tr("see the log") : inWindowWords(f.failure.section('\n', 0, 0)));
  }
  return {};
}

}  // namespace

QString fitButtonLabel(bool canResume) { return canResume ? tr("Resume") : tr("Fit"); }

SessionView describeSession(const SessionFacts& f) {
  SessionView v;
  const FitSnapshot* s = f.snapshot && f.snapshot->setup ? f.snapshot : nullptr;
  const int iteration = s ? s->iteration : 0;
  // A session's own mstop while it is on show (a Step past it, or a changed spin box, cannot shrink the bar).
  const int mstop = std::max({1, s ? s->setup->settings.mstop : f.mstop, iteration});
  v.progressMaximum = mstop;
  v.progressValue = iteration;
  v.fitLabel = fitButtonLabel(f.canResume);
  if (!f.data) {
    v.status = f.dataLoading ? tr("Loading the data ...")
                             : tr("No data yet: generate the paper's data or open a CSV file (Data tab).");
    return v;
  }
  v.status = (describeData(*f.data) + ". " + describeFit(f, mstop)).trimmed();
  if (s)
    v.iteration =
        tr("iteration %1, risk %2").arg(iteration).arg(s->pathRisk.empty() ? 0.0 : s->pathRisk.back(), 0, 'g', 5);
  return v;
}

}  // namespace gbui

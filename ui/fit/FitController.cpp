#include "fit/FitController.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/MessageSink.hpp"
#include "common/QtConvert.hpp"
#include "compute/Divergence.hpp"

namespace gbui {

QString stateName(FitState s) {
  switch (s) {
    case FitState::Idle:
      return QObject::tr("idle");
    case FitState::Running:
      return QObject::tr("running");
    case FitState::Paused:
      return QObject::tr("paused");
    case FitState::Finished:
      return QObject::tr("finished");
    case FitState::Cancelled:
      return QObject::tr("cancelled");
    case FitState::Failed:
      return QObject::tr("failed");
  }
  return {};
}

FitController::FitController(MessageSink* messages, QObject* parent) : QObject(parent), messages_(messages) {
  // 70 ms: at most ~14 refreshes a second (the target is >= 10): every refresh costs the UI thread ~10 ms of CPU,
  // which on a 2-core machine comes out of the fit; if drawing takes longer, timeouts coalesce and snapshots drop.
  timer_.setInterval(70);
  connect(&timer_, &QTimer::timeout, this, &FitController::takeLatest);
  connect(&worker_, &WorkerThread::finished, this, &FitController::onJobFinished);
}

FitController::~FitController() { shutdown(); }

void FitController::setData(std::shared_ptr<const gb::Dataset> data) { data_ = std::move(data); }

void FitController::setSettings(const gb::ModelSettings& model, const gb::ComputeSettings& compute) {
  model_ = model;
  compute_ = compute;
}

std::string FitController::signatureNow() const {
  nlohmann::json j{{"model", model_}, {"compute", compute_}, {"data", reinterpret_cast<std::uintptr_t>(data_.get())}};
  return j.dump();
}

bool FitController::changedSinceFit() const {
  if (isRunning()) return false;
  if (session_ && session_->booster)
    return session_->data != data_ || !session_->settings.differencesBesideMstop(model_).empty();
  if (!session_ && installedSettings_ && state_ == FitState::Finished)  // an opened model or session on show
    return installedData_ != data_ || !installedSettings_->differencesBesideMstop(model_).empty();
  return false;
}

bool FitController::canResume() const {
  return state_ == FitState::Paused && session_ && session_->booster && session_->signature == signatureNow() &&
         session_->booster->iteration() < model_.mstop;
}

std::shared_ptr<gb::Booster> FitController::booster() const {
  return (isRunning() || !session_) ? nullptr : session_->booster;
}

bool FitController::fit() {
  if (canResume()) return startJob(JobKind::Run, false, model_.mstop);
  return startJob(JobKind::Run, true, model_.mstop);
}

bool FitController::step() {
  // Step continues a paused or finished fit of the same data and settings; after Cancel (or a failure) it starts
  // afresh, as Fit does: Cancel drops the fit, Pause keeps it.
  const bool continuing = session_ && session_->booster && session_->signature == signatureNow() &&
                          (state_ == FitState::Paused || state_ == FitState::Finished);
  const int target = continuing ? session_->booster->iteration() + 1 : 1;
  if (continuing && target > model_.mstop) {
    // A step past mstop makes it the fit's mstop (as mboost's model[m]): the session, and through the window's
    // panel (which follows modelSettings()) the settings, so that Fit, Resume and the saved model agree with it.
    model_.mstop = target;
    session_->settings.mstop = target;
    session_->signature = signatureNow();
  }
  return startJob(JobKind::Step, !continuing, target);
}

bool FitController::startJob(JobKind kind, bool fresh, int target) {
  if (isRunning()) return false;
  if (!data_) {
    messages_->error(tr("Fit"), tr("No data: generate the paper's data or open a CSV file first."));
    return false;
  }
  try {
    model_.validate();
  } catch (const std::exception& e) {
    messages_->exception(tr("Model settings"), e);
    return false;
  }
  if (fresh) {
    session_ = std::make_shared<FitSession>();
    session_->signature = signatureNow();
    session_->data = data_;
    session_->settings = model_;
    session_->compute = compute_;
    if (timeBudget_) session_->profile = std::make_shared<gb::RunProfile>();
    // Nothing of the previous fit (its plots, kernel, iteration) may stand beside the new one while it sets up.
    last_ = FitSnapshot();
    failure_.clear();
  }
  job_ = std::make_shared<FitJob>();
  job_->session = session_;
  job_->slot = slot_;
  job_->pause = pause_;
  job_->kind = kind;
  job_->target = target;
  pause_->store(false);
  cancelRequested_ = false;
  taken_ = 0;
  slot_->take();  // a leftover from an earlier job must not be drawn over this one
  auto job = job_;
  worker_.start([job](TaskWorker& w) { (*job)(w); });
  timer_.start();
  setState(FitState::Running);
  return true;
}

void FitController::pause() {
  if (isRunning()) pause_->store(true);
}

void FitController::cancel() {
  if (!isRunning()) return;
  cancelRequested_ = true;
  worker_.cancel();
}

void FitController::shutdown() {
  if (!isRunning()) return;
  cancel();
  worker_.wait();
}

void FitController::reset() {
  if (isRunning()) return;
  session_.reset();
  last_ = FitSnapshot();
  failure_.clear();
  setState(FitState::Idle);
}

bool FitController::installSnapshot(FitSnapshot snapshot) {
  if (isRunning()) return false;
  session_.reset();
  installedData_ = data_;
  installedSettings_ = model_;
  last_ = std::move(snapshot);
  emit snapshotReady(last_);
  setState(FitState::Finished);
  return true;
}

void FitController::takeLatest() {
  std::optional<FitSnapshot> snap = slot_->take();
  if (!snap) return;
  last_ = std::move(*snap);
  ++taken_;
  announceSetup();
  emit snapshotReady(last_);
}

void FitController::announceSetup() {
  if (!last_.setup || last_.setup == announced_) return;
  announced_ = last_.setup;
  const FitSetup& setup = *last_.setup;
  if (!setup.omissionNote.empty()) messages_->info(tr("Fit: %1").arg(qs(setup.omissionNote)));
  for (const gb::Learner& l : setup.learners)
    if (!l.note.empty()) messages_->info(tr("Fit: %1").arg(qs(l.note)));
}

void FitController::announceFinish() {
  const gb::BoostPath& path = session_->booster->path();
  std::vector<int> times(session_->booster->learners().size(), 0);
  for (int j : path.learner) ++times[static_cast<std::size_t>(j)];
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < times.size(); ++j)
    if (times[j] > 0) order.push_back(j);
  std::stable_sort(order.begin(), order.end(), [&times](std::size_t a, std::size_t b) { return times[a] > times[b]; });
  constexpr std::size_t kNamed = 12;  // the most chosen; the Selection tab shows them all
  QStringList chosen;
  for (std::size_t i = 0; i < std::min(order.size(), kNamed); ++i)
    chosen << tr("%1 %2").arg(qs(session_->booster->learners()[order[i]].name)).arg(times[order[i]]);
  if (order.size() > kNamed) chosen << tr("%1 more").arg(order.size() - kNamed);
  messages_->info(tr("Fit finished: %1 iterations; training risk %2 at the offset, %3 at the end; %4 of %5 learners "
                     "chosen (times): %6")
                      .arg(path.learner.size())
                      .arg(path.risk.front(), 0, 'g', 6)
                      .arg(path.risk.back(), 0, 'g', 6)
                      .arg(order.size())
                      .arg(times.size())
                      .arg(chosen.join(", ")));
  if (session_->booster->family().reestimated())
    messages_->info(tr("%1 at the last iteration: %2 (%3)")
                        .arg(qs(gb::FamilyFunctions::nuisanceName(session_->booster->settings().family)))
                        .arg(session_->booster->family().nuisance(), 0, 'g', 10)
                        .arg(qs(gb::FamilyFunctions::nuisanceSource(session_->booster->settings().family))));
  const gb::BackendInfo compute = session_->booster->backendInfo();
  if (compute.backend == "opencl" && compute.kernel == "host")
    messages_->info(
        tr("The model has no spline learner: its linear and factor learners ran on the CPU, in double "
           "(the OpenCL device's B'g has nothing to do for them)"));
}

void FitController::onJobFinished(bool ok, const QString& error, const QString& details) {
  timer_.stop();
  takeLatest();  // the job's final state, if the timer has not drawn it yet
  if (!ok) {
    failure_ = error;
    failedSignature_ = session_ ? session_->signature : signatureNow();  // what the job ran with
    // The failed run's model is not shown (a diverged one would be curves of inf); the next Fit starts afresh.
    last_ = FitSnapshot();
    messages_->error(tr("Fit failed"), error, details);
    setState(FitState::Failed);
  } else if (cancelRequested_ || job_->end == JobEnd::Cancelled) {
    const int reached = session_ && session_->booster ? session_->booster->iteration() : 0;
    messages_->info(tr("Fit cancelled at iteration %1 of %2 (the next Fit or Step starts afresh)")
                        .arg(reached)
                        .arg(session_ ? session_->settings.mstop : model_.mstop));
    setState(FitState::Cancelled);
  } else if (job_->end == JobEnd::Paused || session_->booster->iteration() < session_->settings.mstop) {
    setState(FitState::Paused);
  } else {
    if (!session_->profileReport.empty())
      messages_->info(tr("Time budget of the fit:\n") + QString::fromStdString(session_->profileReport).trimmed());
    session_->profileReport.clear();  // posted once, also when Step goes past mstop later
    // As `fit` notes it: a training risk that ends above the offset's (the steps overshoot; poisson on large counts),
    // or one that keeps rising and falling (gamma at nu 0.1 on some data).
    const gb::FamilyFunctions& family = session_->booster->family();
    const std::string overshoot =
        gb::overshootNote(session_->booster->path().risk, family.family, family.adaptiveDelta,
                          session_->booster->settings().nu, session_->booster->frame().response);
    if (!overshoot.empty() && !session_->overshootWarned) {
      messages_->warning(tr("Fit: ") + QString::fromStdString(overshoot));
      session_->overshootWarned = true;
    }
    if (job_->kind == JobKind::Run) announceFinish();  // not again at every Step past mstop
    setState(FitState::Finished);
  }
  emit jobFinished(ok);
}

void FitController::setState(FitState s) {
  state_ = s;
  emit stateChanged(s);
}

}  // namespace gbui

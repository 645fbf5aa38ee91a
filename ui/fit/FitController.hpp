#pragma once
// Runs fits on a worker thread and hands the UI the latest snapshot on a timer (design.md section 6).
// Fit resumes a paused session or starts a fresh one; Step advances a paused or finished one by one iteration
// (else it starts afresh); Pause keeps the fit to resume, Cancel drops it (the next Fit or Step starts at 0); both
// act at the next batch boundary (~40 ms); shutdown() cancels and joins. A fresh start forgets the last snapshot.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

#include "common/WorkerThread.hpp"
#include "fit/FitJob.hpp"

namespace gbui {

class MessageSink;

enum class FitState { Idle, Running, Paused, Finished, Cancelled, Failed };
QString stateName(FitState s);

class FitController : public QObject {
  Q_OBJECT
 public:
  explicit FitController(MessageSink* messages, QObject* parent = nullptr);
  ~FitController() override;

  void setData(std::shared_ptr<const gb::Dataset> data);
  void setSettings(const gb::ModelSettings& model, const gb::ComputeSettings& compute);
  std::shared_ptr<const gb::Dataset> data() const { return data_; }
  // The settings the next Fit uses (as last set by setSettings).
  const gb::ModelSettings& modelSettings() const { return model_; }
  const gb::ComputeSettings& computeSettings() const { return compute_; }

  bool fit();
  bool step();
  void pause();
  void cancel();
  // Cancels a running job and waits for its thread to end (closing the window).
  void shutdown();
  // Forgets the session (idle only): the next Fit or Step builds a new Booster.
  void reset();
  // Shows a snapshot made without a job (Open model) as a finished fit: no Booster, the next Fit or Step starts a
  // new session. Idle only (false while a job runs).
  bool installSnapshot(FitSnapshot snapshot);

  FitState state() const { return state_; }
  bool isRunning() const { return worker_.isRunning(); }
  bool workerJoined() const { return worker_.isJoined(); }
  // Whether the fit on show was made with other data or model settings than the window's now (mstop and the
  // compute settings aside: those do not change what the fit on show is a fit of).
  bool changedSinceFit() const;
  bool canResume() const;
  // The Booster of the current session: only while no job runs (null otherwise or before the first fit).
  std::shared_ptr<gb::Booster> booster() const;
  std::shared_ptr<const FitSetup> setup() const { return session_ ? session_->setup : nullptr; }
  // What the views last drew (empty before the first snapshot).
  const FitSnapshot& lastSnapshot() const { return last_; }
  int iteration() const { return last_.iteration; }
  // The error of the last job when it failed ("" otherwise).
  const QString& failure() const { return failure_; }
  // Failed, and the data, model or compute settings changed since: the failure belongs to the ones before.
  bool failureOutdated() const { return state_ == FitState::Failed && failedSignature_ != signatureNow(); }

  // Fit > Time budget in the log: fits started from now on record their time budget (engine/common/RunProfile) and
  // post it to the log when they reach mstop.
  void setTimeBudget(bool on) { timeBudget_ = on; }
  bool timeBudget() const { return timeBudget_; }

  void setRefreshIntervalMs(int ms) { timer_.setInterval(ms); }
  int refreshIntervalMs() const { return timer_.interval(); }
  // Snapshots the UI took and the worker published during the current or last job.
  unsigned long snapshotsTaken() const { return taken_; }
  unsigned long snapshotsPublished() const { return slot_->published(); }

 signals:
  void stateChanged(gbui::FitState state);
  void snapshotReady(const gbui::FitSnapshot& snapshot);
  // After the job's last snapshot was delivered; ok false after an error (already reported to the sink).
  void jobFinished(bool ok);

 private:
  std::string signatureNow() const;
  bool startJob(JobKind kind, bool fresh, int target);
  void takeLatest();
  // Posts a fit's notes once, when its set-up first arrives: omitted rows and each learner's note (unpenalised,
  // too few distinct values), as `gamboost fit` prints them.
  void announceSetup();
  // Posts what a finished fit came to: iterations, training risk from the offset's to the last, learners chosen.
  void announceFinish();
  void onJobFinished(bool ok, const QString& error, const QString& details);
  void setState(FitState s);

  MessageSink* messages_;
  std::shared_ptr<const gb::Dataset> data_;
  gb::ModelSettings model_;
  gb::ComputeSettings compute_;
  std::shared_ptr<FitSession> session_;
  std::shared_ptr<FitJob> job_;
  std::shared_ptr<SnapshotSlot> slot_ = std::make_shared<SnapshotSlot>();
  std::shared_ptr<std::atomic<bool>> pause_ = std::make_shared<std::atomic<bool>>(false);
  bool cancelRequested_ = false;
  bool timeBudget_ = false;
  WorkerThread worker_;
  QTimer timer_;
  FitSnapshot last_;
  // What an installed snapshot (an opened model or session, no booster) was shown with, for changedSinceFit().
  std::shared_ptr<const gb::Dataset> installedData_;
  std::optional<gb::ModelSettings> installedSettings_;
  std::shared_ptr<const FitSetup> announced_;  // the set-up whose notes were posted
  QString failure_;
  std::string failedSignature_;  // signatureNow() when the last job failed
  unsigned long taken_ = 0;
  FitState state_ = FitState::Idle;
};

}  // namespace gbui

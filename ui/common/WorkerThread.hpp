#pragma once
// One background job on its own QThread, with the documented lifetime chain
//   thread started -> worker run -> worker done -> thread quit -> thread finished -> deleteLater (both).
// Cancellation is a std::atomic<bool> the work function polls; wait() joins. Exceptions from the work function
// arrive in finished() as text (what() and ComputeError::details()), never as a crash.
#include <QObject>
#include <QPointer>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

class QThread;

namespace gbui {

class WorkerThread;

// Lives on the worker thread; only run() executes there.
class TaskWorker : public QObject {
  Q_OBJECT
 public:
  using Work = std::function<void(TaskWorker&)>;
  TaskWorker(Work work, std::shared_ptr<std::atomic<bool>> cancel)
      : work_(std::move(work)), cancel_(std::move(cancel)) {}
  bool cancelRequested() const { return cancel_->load(std::memory_order_relaxed); }
  // Thread-safe: delivered to the UI thread through a queued connection.
  void reportProgress(double fraction, const QString& what) { emit progress(fraction, what); }

 public slots:
  void run();

 signals:
  void progress(double fraction, const QString& what);
  void done(bool ok, const QString& error, const QString& details);

 private:
  Work work_;
  std::shared_ptr<std::atomic<bool>> cancel_;
};

class WorkerThread : public QObject {
  Q_OBJECT
 public:
  explicit WorkerThread(QObject* parent = nullptr);
  ~WorkerThread() override;  // cancels and joins

  // Starts `work` on a new thread. Only one job at a time: returns false while one is running.
  bool start(TaskWorker::Work work);
  bool isRunning() const { return running_; }
  // True when no thread exists or it has ended (finished() may still be queued).
  bool isJoined() const;
  void cancel() { cancel_->store(true); }
  // Whether cancel() was called for the job started last (until the next start()).
  bool cancelRequested() const { return cancel_->load(); }
  // Joins the thread (returns true when it is gone).
  bool wait(unsigned long ms = ULONG_MAX);

 signals:
  void progress(double fraction, const QString& what);
  // Emitted on the owner's thread when the job ended (also after cancel; ok is then whatever the job said).
  void finished(bool ok, const QString& error, const QString& details);

 private:
  QPointer<QThread> thread_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  bool running_ = false;
};

}  // namespace gbui

#include "common/WorkerThread.hpp"

#include <QThread>
#include <climits>

#include "common/Error.hpp"

namespace gbui {

void TaskWorker::run() {
  bool ok = true;
  QString error, details;
  try {
    work_(*this);
  } catch (const gb::ComputeError& e) {
    ok = false;
    error = QString::fromStdString(e.what());
    details = QString::fromStdString(e.details());
  } catch (const std::exception& e) {
    ok = false;
    error = QString::fromStdString(e.what());
  } catch (...) {
    ok = false;
    error = QStringLiteral("unknown error in a background task");
  }
  emit done(ok, error, details);
}

WorkerThread::WorkerThread(QObject* parent) : QObject(parent), cancel_(std::make_shared<std::atomic<bool>>(false)) {}

WorkerThread::~WorkerThread() {
  cancel();
  wait();
}

bool WorkerThread::start(TaskWorker::Work work) {
  if (running_) return false;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  auto* thread = new QThread;
  auto* worker = new TaskWorker(std::move(work), cancel_);
  worker->moveToThread(thread);
  connect(thread, &QThread::started, worker, &TaskWorker::run);
  connect(worker, &TaskWorker::progress, this, &WorkerThread::progress);
  // The job's result reaches us after the thread has fully stopped, so "finished" means "joined-able now".
  auto result = std::make_shared<std::tuple<bool, QString, QString>>(false, QString(), QString());
  connect(
      worker, &TaskWorker::done, thread,
      [result, thread](bool ok, const QString& e, const QString& d) {
        *result = {ok, e, d};
        thread->quit();
      },
      Qt::DirectConnection);
  connect(thread, &QThread::finished, worker, &QObject::deleteLater);
  connect(thread, &QThread::finished, this, [this, result, thread] {
    thread->wait();  // finished is emitted just before the thread returns; make the join explicit
    running_ = false;
    emit finished(std::get<0>(*result), std::get<1>(*result), std::get<2>(*result));
  });
  connect(thread, &QThread::finished, thread, &QObject::deleteLater);
  thread_ = thread;
  running_ = true;
  thread->start();
  return true;
}

bool WorkerThread::isJoined() const { return !thread_ || thread_->isFinished(); }

bool WorkerThread::wait(unsigned long ms) {
  if (!thread_) return true;
  return thread_->wait(ms == ULONG_MAX ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(ms));
}

}  // namespace gbui

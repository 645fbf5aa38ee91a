#include "fit/BandsController.hpp"

#include <cmath>

#include "common/MessageSink.hpp"
#include "common/WorkerThread.hpp"

namespace gbui {

BandsController::BandsController(MessageSink* sink, QObject* parent)
    : QObject(parent), sink_(sink), worker_(new WorkerThread(this)) {
  connect(worker_, &WorkerThread::progress, this, [this](double fraction, const QString&) {
    if (job_)
      emit progress(static_cast<int>(std::lround(fraction * job_->request.replicates)), job_->request.replicates);
  });
  connect(worker_, &WorkerThread::finished, this, &BandsController::onFinished);
}

BandsController::~BandsController() { shutdown(); }

bool BandsController::start(BandsRequest request) {
  if (isRunning() || !request.data) return false;
  bands_.reset();
  job_ = std::make_shared<BandsJob>();
  job_->request = std::move(request);
  auto job = job_;
  worker_->start([job](TaskWorker& w) { (*job)(w); });
  emit progress(0, job_->request.replicates);
  return true;
}

void BandsController::cancel() {
  if (isRunning()) worker_->cancel();
}

void BandsController::shutdown() {
  if (!isRunning()) return;
  worker_->cancel();
  worker_->wait();
}

bool BandsController::isRunning() const { return worker_->isRunning(); }

void BandsController::onFinished(bool ok, const QString& error, const QString& details) {
  if (!ok) {
    sink_->error(tr("Bootstrap bands failed"), error, details);
  } else if (!job_->cancelled) {
    bands_ = job_->bands;
    sink_->info(
        tr("Bootstrap bands: %1 refits at mstop %2").arg(bands_->replicates - bands_->unfitted).arg(bands_->mstop));
    if (bands_->unfitted > 0)
      sink_->warning(tr("Bootstrap bands: %1 of %2 samples could not be fitted and are left out of every band, e.g. %3")
                         .arg(bands_->unfitted)
                         .arg(bands_->replicates)
                         .arg(QString::fromStdString(bands_->unfittedReason)));
  }
  emit finished(ok);
}

}  // namespace gbui

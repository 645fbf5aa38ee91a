#include "fit/BandsJob.hpp"

#include <QObject>

#include "common/WorkerThread.hpp"
#include "compute/Booster.hpp"

namespace gbui {

void BandsJob::operator()(TaskWorker& worker) {
  const BandsRequest& r = request;
  gb::Booster fitted(r.data, r.settings, gb::makeBackend(r.compute));
  fitted.run(r.settings.mstop, [&worker](const gb::Booster&) { return !worker.cancelRequested(); });
  if (fitted.iteration() < r.settings.mstop) {
    cancelled = true;
    return;
  }
  gb::BandsMonitor monitor;
  monitor.cancelled = [&worker] { return worker.cancelRequested(); };
  monitor.replicateDone = [&worker, &r](int done) {
    worker.reportProgress(static_cast<double>(done) / r.replicates,
                          QObject::tr("bootstrap refit %1 of %2").arg(done).arg(r.replicates));
  };
  const gb::FoldBackends backends = gb::foldBackends(r.compute);
  std::optional<gb::EffectBands> result =
      gb::effectBands(r.data, fitted, r.replicates, r.seed, backends.make, backends.parallel, monitor);
  cancelled = !result.has_value();
  if (result) bands = std::make_shared<const gb::EffectBands>(std::move(*result));
}

}  // namespace gbui

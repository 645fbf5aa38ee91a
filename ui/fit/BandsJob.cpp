#include "fit/BandsJob.hpp"

#include <QObject>

#include "common/SystemResources.hpp"
#include "common/WorkerThread.hpp"
#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"

namespace gbui {

void BandsJob::operator()(TaskWorker& worker) {
  const BandsRequest& r = request;
  gb::Booster fitted(r.data, r.settings, gb::makeBackend(r.compute));
  fitted.run(r.settings.mstop, [&worker](const gb::Booster&) { return !worker.cancelRequested(); });
  if (fitted.iteration() < r.settings.mstop) {
    cancelled = true;
    return;
  }
  const bool cpu = r.compute.backend == gb::BackendKind::Cpu;
  gb::BandsMonitor monitor;
  monitor.cancelled = [&worker] { return worker.cancelRequested(); };
  monitor.replicateDone = [&worker, &r](int done) {
    worker.reportProgress(static_cast<double>(done) / r.replicates,
                          QObject::tr("bootstrap refit %1 of %2").arg(done).arg(r.replicates));
  };
  auto maker = [cpu, &r]() -> std::unique_ptr<gb::Backend> {
    if (cpu) return std::make_unique<gb::CpuBackend>(1);
    return gb::makeBackend(r.compute);
  };
  const int parallel = cpu ? (r.compute.threads > 0 ? r.compute.threads : gb::availableCores()) : 1;
  std::optional<gb::EffectBands> result =
      gb::effectBands(r.data, fitted, r.replicates, r.seed, maker, parallel, monitor);
  cancelled = !result.has_value();
  if (result) bands = std::make_shared<const gb::EffectBands>(std::move(*result));
}

}  // namespace gbui

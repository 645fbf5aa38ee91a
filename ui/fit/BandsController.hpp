#pragma once
// Runs the bootstrap bands of a finished fit on their own worker thread (BandsJob), off the window's thread and
// cancellable; reports progress and hands over the bands when all refits are done.
#include <QObject>
#include <memory>

#include "fit/BandsJob.hpp"

namespace gbui {

class MessageSink;
class WorkerThread;

class BandsController : public QObject {
  Q_OBJECT
 public:
  explicit BandsController(MessageSink* sink, QObject* parent = nullptr);
  ~BandsController() override;

  // False while a run is going (or with no data).
  bool start(BandsRequest request);
  void cancel();
  // Cancels a run and waits for its thread (closing the window).
  void shutdown();
  bool isRunning() const;
  // The bands of the last completed run (null before one, or after a cancelled or failed one).
  std::shared_ptr<const gb::EffectBands> bands() const { return bands_; }

 signals:
  void progress(int done, int total);
  // ok false: failed (already reported to the sink); bands() is null unless ok and not cancelled.
  void finished(bool ok);

 private:
  void onFinished(bool ok, const QString& error, const QString& details);

  MessageSink* sink_;
  WorkerThread* worker_;
  std::shared_ptr<BandsJob> job_;
  std::shared_ptr<const gb::EffectBands> bands_;
};

}  // namespace gbui

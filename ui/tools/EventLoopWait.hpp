#pragma once
// Waiting for a signal while the event loop runs (benchmarks and screenshots drive the window like a user).
#include <QEventLoop>
#include <QTimer>

namespace gbui {

// Returns false on timeout.
template <class Sender, class Signal>
bool waitForSignal(Sender* sender, Signal signal, int timeoutMs) {
  QEventLoop loop;
  QTimer timer;
  timer.setSingleShot(true);
  bool fired = false;
  QObject::connect(sender, signal, &loop, [&] {
    fired = true;
    loop.quit();
  });
  QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
  timer.start(timeoutMs);
  loop.exec();
  return fired;
}

inline void processEventsFor(int ms) {
  QEventLoop loop;
  QTimer::singleShot(ms, &loop, &QEventLoop::quit);
  loop.exec();
}

}  // namespace gbui

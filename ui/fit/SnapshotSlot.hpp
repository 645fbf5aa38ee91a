#pragma once
// The mutex-protected "latest snapshot" slot: the worker overwrites, the UI takes when it is ready to draw.
// Snapshots nobody took are dropped, so neither side ever waits for the other (back-pressure by replacement).
#include <mutex>
#include <optional>

#include "fit/FitSnapshot.hpp"

namespace gbui {

class SnapshotSlot {
 public:
  void publish(FitSnapshot snapshot) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (latest_) ++dropped_;
    latest_ = std::move(snapshot);
    ++published_;
  }
  std::optional<FitSnapshot> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<FitSnapshot> out;
    out.swap(latest_);
    return out;
  }
  unsigned long published() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return published_;
  }
  unsigned long dropped() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return dropped_;
  }

 private:
  mutable std::mutex mutex_;
  std::optional<FitSnapshot> latest_;
  unsigned long published_ = 0, dropped_ = 0;
};

}  // namespace gbui

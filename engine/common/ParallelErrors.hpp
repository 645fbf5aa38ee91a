#pragma once
// An exception must not leave an OpenMP parallel region: the runtime would call std::terminate (a bad_alloc in a
// worker thread aborted `gamboost cv` under a memory limit). The work of a region runs through run(), which keeps
// the first exception thrown there and skips the work after it; rethrow(), after the region, throws it on the
// calling thread, where the command reports it (out of memory: exit 1 with one line).
#include <atomic>
#include <exception>
#include <mutex>

namespace gb {

class ParallelErrors {
 public:
  // Runs work() unless an earlier call failed; an exception it throws is kept (the first one only).
  template <typename Work>
  void run(Work&& work) noexcept {
    if (failed_.load(std::memory_order_relaxed)) return;
    try {
      work();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!first_) first_ = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
    }
  }

  // After the region: throws the first exception kept, if any.
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::exception_ptr first_;
};

}  // namespace gb

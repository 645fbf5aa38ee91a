#pragma once
// One long-lived host thread per shard of the row-sharded backend (compute/ShardedBackend.hpp): run(task) calls
// task(s) for every shard s on shard s's own thread and returns when all have finished, rethrowing the first failure
// in shard order. An iteration asks the shards two or three times; starting threads each time cost tens of
// microseconds an iteration on four GPUs, and a shard's device calls now always come from the same thread.
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gb {

class ShardWorkers {
 public:
  ShardWorkers() = default;
  ~ShardWorkers();
  ShardWorkers(const ShardWorkers&) = delete;
  ShardWorkers& operator=(const ShardWorkers&) = delete;

  // task(s) for s = 0 .. shards - 1; one shard runs on the calling thread, with no thread at all.
  void run(std::size_t shards, const std::function<void(std::size_t)>& task);

 private:
  void resize(std::size_t threads);
  void stop();
  void work(std::size_t s, std::size_t seen);

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::vector<std::exception_ptr> errors_;
  std::size_t generation_ = 0, pending_ = 0;
  bool stopping_ = false;
};

}  // namespace gb

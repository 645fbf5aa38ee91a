#include "compute/ShardWorkers.hpp"

namespace gb {

ShardWorkers::~ShardWorkers() { stop(); }

void ShardWorkers::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  stopping_ = false;
}

void ShardWorkers::resize(std::size_t threads) {
  if (threads_.size() == threads) return;
  stop();
  errors_.assign(threads, nullptr);
  // Each thread starts from the present generation, so it takes part in the next run whenever it gets going.
  for (std::size_t s = 0; s < threads; ++s) threads_.emplace_back([this, s, g = generation_] { work(s, g); });
}

void ShardWorkers::work(std::size_t s, std::size_t seen) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    const std::function<void(std::size_t)>* task = task_;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*task)(s);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    errors_[s] = error;
    if (--pending_ == 0) done_.notify_one();
  }
}

void ShardWorkers::run(std::size_t shards, const std::function<void(std::size_t)>& task) {
  if (shards == 1) return task(0);
  resize(shards);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    task_ = &task;
    pending_ = shards;
    ++generation_;
    wake_.notify_all();
    done_.wait(lock, [&] { return pending_ == 0; });
    task_ = nullptr;
  }
  for (std::exception_ptr& e : errors_)
    if (e) {
      std::exception_ptr first = e;
      for (std::exception_ptr& other : errors_) other = nullptr;
      std::rethrow_exception(first);
    }
}

}  // namespace gb

#include "common/RunProfile.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>

namespace gb {

std::atomic<RunProfile*> RunProfile::active_{nullptr};

namespace {

std::int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <typename Item>
Item& findOrAdd(std::vector<Item>& items, const std::string& name) {
  auto it = std::find_if(items.begin(), items.end(), [&name](const Item& i) { return i.name == name; });
  if (it != items.end()) return *it;
  items.push_back(Item{});
  items.back().name = name;
  return items.back();
}

}  // namespace

RunProfile::~RunProfile() {
  try {
    drain();
  } catch (...) {  // a destructor never throws: the events are released by drain_ before it can throw
  }
}

RunProfile::Activation::Activation(RunProfile& profile) : previous_(active_.exchange(&profile)) {}

RunProfile::Activation::~Activation() {
  RunProfile* current = active_.exchange(previous_);
  if (current) {
    try {
      current->drain();
    } catch (...) {
    }
  }
}

void RunProfile::addStage(const std::string& name, double seconds, std::uint64_t bytes, double flops) {
  std::lock_guard<std::mutex> lock(mutex_);
  ProfileStage& s = findOrAdd(stages_, name);
  s.seconds += seconds;
  s.calls += 1;
  s.bytes += bytes;
  s.flops += flops;
  std::set<std::thread::id>& threads = stageThreads_[name];
  threads.insert(std::this_thread::get_id());
  s.threads = static_cast<int>(threads.size());
}

void RunProfile::addKernel(const std::string& name, double seconds, std::uint64_t count, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  ProfileKernel& k = findOrAdd(kernels_, name);
  k.seconds += seconds;
  k.count += count;
  k.bytes += bytes;
}

void RunProfile::addPendingEvent(const std::string& kernel, void* event, const EventDrain& drain, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!drain_) drain_ = drain;
  pending_.push_back(PendingEvent{kernel, event, bytes});
}

void RunProfile::drain() {
  std::vector<PendingEvent> pending;
  EventDrain drainOne;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending.swap(pending_);
    drainOne = drain_;
  }
  if (pending.empty()) return;
  // Every event is released even when one fails; the first failure is rethrown after.
  std::exception_ptr failure;
  for (const PendingEvent& e : pending) {
    try {
      addKernel(e.kernel, drainOne(e.event), 1, e.bytes);
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

std::size_t RunProfile::pendingEvents() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_.size();
}

std::vector<ProfileStage> RunProfile::stages() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ProfileStage> out;
  for (const ProfileStage& s : stages_)
    if (s.calls > 0) out.push_back(s);  // opened but never finished (dropped): nothing to report
  return out;
}

std::vector<ProfileKernel> RunProfile::kernels() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kernels_;
}

ProfileStage RunProfile::stage(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const ProfileStage& s : stages_)
    if (s.name == name) return s;
  ProfileStage none;
  none.name = name;
  return none;
}

double RunProfile::kernelSeconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  double total = 0.0;
  for (const ProfileKernel& k : kernels_) total += k.seconds;
  return total;
}

void RunProfile::openStage(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::thread::id self = std::this_thread::get_id();
  const bool known = std::any_of(stages_.begin(), stages_.end(), [&](const ProfileStage& s) { return s.name == name; });
  if (!known) {
    const auto mine = std::find_if(open_.rbegin(), open_.rend(), [&](const auto& o) { return o.second == self; });
    const std::string* parent = mine != open_.rend() ? &mine->first : open_.empty() ? nullptr : &open_.front().first;
    const int depth = parent ? findOrAdd(stages_, *parent).depth + 1 : 0;
    findOrAdd(stages_, name).depth = depth;
  }
  open_.emplace_back(name, self);
}

void RunProfile::closeStage(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::thread::id self = std::this_thread::get_id();
  const auto it =
      std::find_if(open_.rbegin(), open_.rend(), [&](const auto& o) { return o.first == name && o.second == self; });
  if (it != open_.rend()) open_.erase(std::next(it).base());
}

ScopedStage::ScopedStage(const char* name, std::uint64_t bytes, double flops)
    : profile_(RunProfile::active()), name_(name), bytes_(bytes), flops_(flops) {
  if (!profile_) return;
  try {
    profile_->openStage(name_);  // listed in the order stages start, so a stage comes before the ones inside it
  } catch (...) {
  }
  startNs_ = nowNs();
}

ScopedStage::~ScopedStage() {
  // A stage that outlives its profile's activation (another thread's, when the fit ended first) is dropped: the
  // profile may be gone by now.
  if (!profile_ || RunProfile::active() != profile_) return;
  try {
    profile_->addStage(name_, static_cast<double>(nowNs() - startNs_) * 1e-9, bytes_, flops_);
    profile_->closeStage(name_);
  } catch (...) {  // out of memory while profiling: the run goes on without this stage
  }
}

}  // namespace gb

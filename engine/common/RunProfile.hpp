#pragma once
// The time budget of one run (`gamboost fit --profile`): named host stages with seconds, bytes and flops, and device
// kernels by name with their event times. Off by default: nothing records unless a RunProfile is active
// (RunProfile::Activation), and when none is, every hook costs one relaxed atomic load.
// Stages run on several threads (the learners are built in parallel) add up: their seconds are then thread-seconds.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace gb {

struct ProfileStage {
  std::string name;
  double seconds = 0.0;     // summed over calls (and threads)
  std::uint64_t calls = 0;  // how many times it ran
  std::uint64_t bytes = 0;  // the fewest bytes it must move (0: unknown)
  double flops = 0.0;       // where bytes make no sense (0: unknown)
  int threads = 0;          // distinct threads that ran it: seconds / threads is the time it took them together
  int depth = 0;            // stages it first ran inside (0: none), for an indented report
};

struct ProfileKernel {
  std::string name;
  std::uint64_t count = 0;
  double seconds = 0.0;     // device time, from event timestamps (START to END), summed
  std::uint64_t bytes = 0;  // the fewest bytes its launches must move, where the launcher declared them (0: unknown)
  double mean() const { return count ? seconds / static_cast<double>(count) : 0.0; }
};

// Device events waiting to be read: an opaque handle with a function that waits for it, returns its device seconds
// and releases it (the engine's common layer knows nothing of OpenCL).
struct PendingEvent {
  std::string kernel;
  void* event = nullptr;
  std::uint64_t bytes = 0;
};
using EventDrain = std::function<double(void* event)>;

class RunProfile {
 public:
  RunProfile() = default;
  ~RunProfile();  // drains what is pending
  RunProfile(const RunProfile&) = delete;
  RunProfile& operator=(const RunProfile&) = delete;

  // The profile hooks record into; null when profiling is off.
  static RunProfile* active() { return active_.load(std::memory_order_relaxed); }

  // Makes `profile` the active one for its lifetime (one at a time; the previous one comes back after).
  class Activation {
   public:
    explicit Activation(RunProfile& profile);
    ~Activation();
    Activation(const Activation&) = delete;
    Activation& operator=(const Activation&) = delete;

   private:
    RunProfile* previous_;
  };

  void addStage(const std::string& name, double seconds, std::uint64_t bytes = 0, double flops = 0.0);
  // Lists a stage (0 calls) if it is not there yet: ScopedStage opens its stage when it starts, and closes it when
  // it ends. A new stage's depth is one more than the innermost stage open on its thread, or, on a thread with none
  // open (a worker of a parallel region), than the outermost stage open on any.
  void openStage(const std::string& name);
  void closeStage(const std::string& name);
  void addKernel(const std::string& name, double seconds, std::uint64_t count = 1, std::uint64_t bytes = 0);
  // Keeps a device event until drain(); drain waits for each, adds it (and its bytes) to its kernel, releases it.
  void addPendingEvent(const std::string& kernel, void* event, const EventDrain& drain, std::uint64_t bytes = 0);
  void drain();
  std::size_t pendingEvents() const;

  // Stages in the order first seen (a ScopedStage's when it started); kernels in the order first seen.
  std::vector<ProfileStage> stages() const;
  std::vector<ProfileKernel> kernels() const;
  // One stage by name (a default one with calls 0 when absent).
  ProfileStage stage(const std::string& name) const;
  double kernelSeconds() const;

 private:
  static std::atomic<RunProfile*> active_;
  mutable std::mutex mutex_;
  std::vector<ProfileStage> stages_;
  std::map<std::string, std::set<std::thread::id>> stageThreads_;
  std::vector<std::pair<std::string, std::thread::id>> open_;  // stages open now, in the order they opened
  std::vector<ProfileKernel> kernels_;
  std::vector<PendingEvent> pending_;
  EventDrain drain_;
};

// Times its scope into the active profile's stage `name` (nothing at all when profiling is off; nothing either when
// the profile it started under is no longer the active one when it ends).
class ScopedStage {
 public:
  explicit ScopedStage(const char* name, std::uint64_t bytes = 0, double flops = 0.0);
  ~ScopedStage();
  ScopedStage(const ScopedStage&) = delete;
  ScopedStage& operator=(const ScopedStage&) = delete;
  void setBytes(std::uint64_t bytes) { bytes_ = bytes; }

 private:
  RunProfile* profile_;
  const char* name_;
  std::uint64_t bytes_;
  double flops_;
  std::int64_t startNs_ = 0;
};

}  // namespace gb

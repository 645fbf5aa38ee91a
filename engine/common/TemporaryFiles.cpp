#include "common/TemporaryFiles.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

#include "common/Error.hpp"

namespace gb {

namespace {

// A fixed table: the handler may not allocate or lock. A slot is claimed (kWriting), filled, then published
// (kActive); the handler only reads published slots. A command writes at most a few files at once.
constexpr int kSlots = 64;
constexpr std::size_t kMaxPath = 4096;
enum SlotState : int { kFree = 0, kWriting = 1, kActive = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[kMaxPath];
};

Slot slots[kSlots];
std::atomic<bool> installed{false};

extern "C" void removeRegisteredAndDie(int signal) {
  for (Slot& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == kActive) ::unlink(slot.path);
  // SA_RESETHAND restored the default action; re-raising ends the process as the signal would have.
  ::raise(signal);
}

}  // namespace

void removeTemporaryFilesOnSignals() {
  if (installed.exchange(true)) return;
  struct sigaction action {};
  action.sa_handler = removeRegisteredAndDie;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_NODEFER;
  for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    struct sigaction previous {};
    // A signal the caller chose to ignore (nohup, a shell's background job) stays ignored.
    if (::sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    ::sigaction(signal, &action, nullptr);
  }
  std::signal(SIGXFSZ, SIG_IGN);
}

TemporaryFileRegistration::TemporaryFileRegistration(const std::string& path) : slot_(-1) {
  if (path.size() >= kMaxPath) throw InputError(path.substr(0, 80) + "...: path too long");
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (slots[i].state.compare_exchange_strong(expected, kWriting, std::memory_order_acquire)) {
      std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
      slots[i].state.store(kActive, std::memory_order_release);
      slot_ = i;
      return;
    }
  }
  throw Error("more than " + std::to_string(kSlots) + " temporary files at once");
}

TemporaryFileRegistration::~TemporaryFileRegistration() {
  if (slot_ >= 0) slots[slot_].state.store(kFree, std::memory_order_release);
}

}  // namespace gb

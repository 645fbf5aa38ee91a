#include "common/TemporaryFiles.hpp"

#include <pthread.h>
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

// Every signal whose default action ends the process and that a user or the system sends to a running command:
// the terminal's and kill's (INT, TERM, HUP, QUIT), a closed pipe on stdout (PIPE), ulimit -t (XCPU), timers
// (ALRM, VTALRM) and the user signals. SIGXFSZ is ignored instead (below).
constexpr int kRemovingSignals[] = {SIGINT,  SIGTERM, SIGHUP,    SIGQUIT, SIGPIPE,
                                    SIGXCPU, SIGALRM, SIGVTALRM, SIGUSR1, SIGUSR2};
std::atomic<bool> installed{false};
// While a SignalsHeldBack lives, a signal delivered to another thread (the mask holds back only its own) waits too.
std::atomic<int> holders{0};
std::atomic<int> deferred{0};

extern "C" void removeRegisteredAndDie(int signal);

struct sigaction removingAction() {
  struct sigaction action {};
  action.sa_handler = removeRegisteredAndDie;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_NODEFER;
  return action;
}

extern "C" void removeRegisteredAndDie(int signal) {
  if (holders.load() > 0) {
    deferred.store(signal);
    const struct sigaction again = removingAction();  // SA_RESETHAND took the handler away
    ::sigaction(signal, &again, nullptr);
    return;
  }
  for (Slot& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == kActive) ::unlink(slot.path);
  // SA_RESETHAND restored the default action; re-raising ends the process as the signal would have.
  ::raise(signal);
}

}  // namespace

void removeTemporaryFilesOnSignals() {
  if (installed.exchange(true)) return;
  const struct sigaction action = removingAction();
  for (const int signal : kRemovingSignals) {
    struct sigaction previous {};
    // A signal the caller chose to ignore (nohup, a shell's background job) stays ignored, and one that the caller
    // (or a library) handles keeps its handler.
    if (::sigaction(signal, nullptr, &previous) != 0 || (previous.sa_flags & SA_SIGINFO) != 0 ||
        previous.sa_handler != SIG_DFL)
      continue;
    ::sigaction(signal, &action, nullptr);
  }
  std::signal(SIGXFSZ, SIG_IGN);
}

SignalsHeldBack::SignalsHeldBack() {
  sigset_t held;
  sigemptyset(&held);
  for (const int signal : kRemovingSignals) sigaddset(&held, signal);
  ++holders;
  ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
}

SignalsHeldBack::~SignalsHeldBack() {
  ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);  // one held back on this thread arrives now
  if (--holders == 0)
    if (const int signal = deferred.exchange(0); signal != 0) removeRegisteredAndDie(signal);
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

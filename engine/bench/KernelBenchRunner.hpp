#pragma once
// The kernel benchmark's runner (engine/bench/KernelBenchmark.cpp: device kernels; KernelBenchEigen.cpp: Eigen
// rows). Private to engine/bench.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "bench/CopyBandwidth.hpp"
#include "bench/KernelBenchData.hpp"
#include "bench/KernelBenchmark.hpp"
#include "opencl/ClRuntime.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/DenseGemv.hpp"

namespace gb::kbench {

using namespace gb::ocl;

// Checks before timing, relative to the sum of |terms| of each entry. float: sums run over up to n = 1e7 terms;
// pairwise / blocked orders err by about log2(n) u, a plain loop by up to sqrt(n) u (random rounding, 1.9e-4 at
// 1e7) and x itself is rounded to float before the basis is evaluated (a few u): 1e-3 leaves a 5x margin while a
// wrong index or a lost term errs by O(1). double: the same reasoning with u = 1.1e-16 gives 1e-9 with margin.
constexpr double kFloatTolerance = 1e-3;
constexpr double kDoubleTolerance = 1e-9;
constexpr int kDegree = 3;

struct Cancelled {};

struct Stats {
  double median = 0, mean = 0, min = 0;
};

inline Stats statistics(std::vector<double> s) {
  Stats st;
  if (s.empty()) return st;
  std::sort(s.begin(), s.end());
  const std::size_t m = s.size() / 2;
  st.median = s.size() % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
  st.mean = std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
  st.min = s.front();
  return st;
}

inline std::string gigabytes(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  return buf;
}

class Runner {
 public:
  Runner(const KernelBenchOptions& o, Context& ctx, KernelBenchReport& report)
      : o_(o), ctx_(ctx), report_(report), dbl_(o.precision == "double"), s_(dbl_ ? 8.0 : 4.0) {}

  void run() {
    report_.copyGigabytesPerSecond = copyBandwidth();
    report_.hostCopyGigabytesPerSecond = hostCopyBandwidth();
    report_.deviceCacheBytes = deviceCacheBytes();
    report_.hostCacheBytes = static_cast<double>(largestHostCacheBytes());
    const std::size_t cases = o_.rows.size() * o_.columns.size();
    for (std::size_t ni = 0; ni < o_.rows.size(); ++ni)
      for (std::size_t ki = 0; ki < o_.columns.size(); ++ki) {
        caseIndex_ = ni * o_.columns.size() + ki;
        caseCount_ = cases;
        tick(0.0, "n=" + std::to_string(o_.rows[ni]) + " k=" + std::to_string(o_.columns[ki]) + ": references");
        const CaseData d = kbench::makeCase(o_.rows[ni], o_.columns[ki], o_.covariates, o_.seed, dbl_);
        if (dbl_)
          eigenSection<double>(d);
        else
          eigenSection<float>(d);
        tick(0.25, "compact kernels");
        compactSection(d);
        tick(0.5, "dense kernels, one learner");
        denseSection(d, false);
        tick(0.75, "dense kernels, all learners");
        denseSection(d, true);
      }
    caseIndex_ = cases;
    tick(0.0, "done", false);  // every row ran: a Cancel that comes now cuts nothing
  }

 private:
  const KernelBenchOptions& o_;
  Context& ctx_;
  KernelBenchReport& report_;
  bool dbl_;
  double s_;
  std::size_t caseIndex_ = 0, caseCount_ = 1;

  bool wanted(const std::string& kernel) const {
    return o_.kernels.empty() || std::find(o_.kernels.begin(), o_.kernels.end(), kernel) != o_.kernels.end();
  }
  double tolerance() const { return dbl_ ? kDoubleTolerance : kFloatTolerance; }

  // Reports progress (and the rows so far, where a row was added since they were last passed on) at a section's
  // start; cancellable: a false from the callback stops the run here. poll() asks again before each row is timed, so
  // a Cancel waits for one row, not for a whole section.
  void tick(double within, const std::string& what, bool cancellable = true) {
    within_ = within;
    what_ = what;
    if (o_.partial && report_.timings.size() != partialRows_) {
      partialRows_ = report_.timings.size();
      o_.partial(report_);
    }
    if (!o_.progress) return;
    const double f = std::min(1.0, (static_cast<double>(caseIndex_) + within) / static_cast<double>(caseCount_));
    if (!o_.progress(f, what) && cancellable) throw Cancelled{};
  }
  void poll() { tick(within_, what_); }
  std::size_t partialRows_ = std::numeric_limits<std::size_t>::max();
  double within_ = 0.0;
  std::string what_;

  KernelTiming row(const std::string& kernel, const std::string& op, const std::string& granularity, const CaseData& d,
                   int covariates, double bytes) const {
    KernelTiming t;
    t.kernel = kernel;
    t.operation = op;
    t.granularity = granularity;
    t.rows = d.rows;
    t.k = d.k;
    t.covariates = covariates;
    t.bytes = bytes;
    return t;
  }

  void skip(KernelTiming t, const std::string& why) {
    t.skipped = why;
    report_.timings.push_back(std::move(t));
  }

  // Fails loudly: recorded in the row, in report.failures and on stderr; the kernel is not timed.
  bool passes(KernelTiming& t, double error) {
    t.maxRelativeError = error;
    if (error <= tolerance()) return true;
    char msg[256];
    std::snprintf(msg, sizeof msg, "failed check: max relative error %.3g > tolerance %.1g", error, tolerance());
    const std::string what = t.kernel + " " + t.operation + " " + t.granularity + " n=" + std::to_string(t.rows) +
                             " k=" + std::to_string(t.k) + ": " + msg;
    std::cerr << "gamboost bench kernels: FAILED " << what << std::endl;
    report_.failures.push_back(what);
    skip(t, msg);
    return false;
  }

  // A row within its cache gets no fraction (KernelTiming::inCache); Eigen rows are set against the host.
  void finish(KernelTiming t, const std::vector<double>& samples, bool onHost = false) {
    const Stats st = statistics(samples);
    t.medianSeconds = st.median;
    t.meanSeconds = st.mean;
    t.minSeconds = st.min;
    t.repetitions = static_cast<int>(samples.size());
    t.gigabytesPerSecond = st.median > 0 ? t.bytes / st.median / 1e9 : 0.0;
    const double copy = onHost ? report_.hostCopyGigabytesPerSecond : report_.copyGigabytesPerSecond;
    const double cache = onHost ? report_.hostCacheBytes : report_.deviceCacheBytes;
    t.onHost = onHost;
    t.inCache = t.bytes <= cache;
    t.fractionOfCopy = copy > 0 && !t.inCache ? t.gigabytesPerSecond / copy : 0.0;
    report_.timings.push_back(std::move(t));
  }

  int repetitionsFor(double oneRunSeconds) const {
    if (oneRunSeconds <= 0) return o_.repetitions;
    const double fit = std::floor(o_.secondsPerKernel / oneRunSeconds);
    return static_cast<int>(std::clamp<double>(fit, std::min(3, o_.repetitions), o_.repetitions));
  }
  // The timed runs after the checked first one. The first can hold a program's compile (PoCL compiles a kernel at its
  // first launch, inside its event) and is no measure of a run: where it would cut the repetitions, a second run
  // decides (and is the first sample), so a cold kernel cache does not leave a median of 3 compile-bound samples.
  std::vector<double> timedRuns(double first, const std::function<double()>& run) const {
    std::vector<double> samples;
    int reps = repetitionsFor(first);
    if (reps < o_.repetitions) {
      samples.push_back(run());
      reps = repetitionsFor(samples.back()) - 1;
    }
    for (; reps > 0; --reps) samples.push_back(run());
    return samples;
  }

  // Device kernel: poison + one checked run (also the warm-up: builds and first-launch costs), then timed runs.
  void measure(KernelTiming t, const std::function<void(std::vector<cl_event>&)>& launch,
               const std::function<void()>& poison, const std::function<double()>& error) {
    poll();
    poison();
    std::vector<cl_event> events;
    launch(events);
    const double first = eventsSeconds(events);
    if (!passes(t, error())) return;
    finish(std::move(t), timedRuns(first, [&] {
             launch(events);
             return eventsSeconds(events);
           }));
  }

  Buffer upload(const std::vector<double>& v) { return uploadReals(ctx_, v, dbl_); }
  std::vector<double> download(const Buffer& b, std::size_t count) { return downloadReals(ctx_, b, count, dbl_); }
  void poison(Buffer& b) {
    if (dbl_) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      b.fill(ctx_, &nan, sizeof nan);
    } else {
      const float nan = std::numeric_limits<float>::quiet_NaN();
      b.fill(ctx_, &nan, sizeof nan);
    }
  }
  Buffer indexBuffer(int value) {
    Buffer b(ctx_, sizeof(int));
    b.write(ctx_, &value, sizeof value);
    return b;
  }

  // Device memory: one allocation must fit the device's limit, and everything live must leave 20% headroom.
  std::string fitsDevice(double largest, double total) const {
    const ComputeDeviceInfo& info = ctx_.device().info;
    if (largest > static_cast<double>(info.maxAllocationBytes))
      return "does not fit: one buffer of " + gigabytes(largest) + " > the device's largest allocation " +
             gigabytes(static_cast<double>(info.maxAllocationBytes));
    if (total > 0.8 * static_cast<double>(info.globalMemoryBytes))
      return "does not fit: " + gigabytes(total) + " > 80% of the device's " +
             gigabytes(static_cast<double>(info.globalMemoryBytes));
    return "";
  }

  double copyBandwidth();
  double deviceCacheBytes() const;
  template <typename Real>
  void eigenSection(const CaseData& d);
  template <typename Real>
  void eigenSolveRows(const CaseData& d);

  // Host timing (steady_clock): one checked run (also the warm-up), then the timed ones.
  template <typename Product, typename ErrorFn>
  void timeHost(KernelTiming t, Product&& product, ErrorFn&& error) {
    poll();
    auto once = [&] {
      const auto t0 = std::chrono::steady_clock::now();
      product();
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const double first = once();
    if (!passes(t, error())) return;
    finish(std::move(t), timedRuns(first, once), true);
  }
  void compactSection(const CaseData& d);
  void denseSection(const CaseData& d, bool batched);
};

}  // namespace gb::kbench

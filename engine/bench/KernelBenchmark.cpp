// `gamboost bench kernels` (design.md section 5): every kernel of one boosting iteration, checked against a
// double CPU reference, then timed with OpenCL event timestamps (Eigen rows: steady_clock on the host).
//
// Bytes counted are the fewest that must move (s = bytes per REAL, d = degree = 3, p learners, k columns each):
//   dense B'g              s (n cols + n + cols)           cols = k (per-learner) or p k (batched)
//   dense B*delta          s (n k + k + n)                 one learner's columns of B, delta_j, the output
//   compact B'g            n (4 + (d+1) s) per learner + s n (g) + s k per learner (output)
//   compact_x B'g          s n per learner (x) + s n (g) + s k per learner (output)
//   compact_sorted B'g     (2 + s) n per learner (row in chunk + u) + s n (g) + s k per learner
//   compact B*delta        n (4 + (d+1) s) + s k + s n;     compact_x and compact_sorted: s n + s k + s n
//   update (compact_x)     s (n x_j + n y + 2 n mu + n g + k) = s (5 n + k);  compact: basis instead of x_j
// The copy bandwidth is that of clEnqueueCopyBuffer on a large buffer, counting bytes read + written.
#include "bench/KernelBenchmark.hpp"

#include <unistd.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <numeric>

#include "bench/KernelBenchData.hpp"
#include "common/Error.hpp"
#include "opencl/ClRuntime.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/DenseGemv.hpp"

namespace gb {
namespace {

using namespace ocl;
using kbench::CaseData;
using kbench::Reference;

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

Stats statistics(std::vector<double> s) {
  Stats st;
  if (s.empty()) return st;
  std::sort(s.begin(), s.end());
  const std::size_t m = s.size() / 2;
  st.median = s.size() % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
  st.mean = std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
  st.min = s.front();
  return st;
}

double hostMemoryBytes() {
  return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}

std::string gigabytes(double bytes) {
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
    tick(0.0, "done");
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

  void tick(double within, const std::string& what) {
    if (!o_.progress) return;
    const double f = std::min(1.0, (static_cast<double>(caseIndex_) + within) / static_cast<double>(caseCount_));
    if (!o_.progress(f, what)) throw Cancelled{};
  }

  KernelTiming row(const std::string& kernel, const std::string& op, const std::string& granularity,
                   const CaseData& d, int covariates, double bytes) const {
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

  void finish(KernelTiming t, const std::vector<double>& samples) {
    const Stats st = statistics(samples);
    t.medianSeconds = st.median;
    t.meanSeconds = st.mean;
    t.minSeconds = st.min;
    t.repetitions = static_cast<int>(samples.size());
    t.gigabytesPerSecond = st.median > 0 ? t.bytes / st.median / 1e9 : 0.0;
    t.fractionOfCopy =
        report_.copyGigabytesPerSecond > 0 ? t.gigabytesPerSecond / report_.copyGigabytesPerSecond : 0.0;
    report_.timings.push_back(std::move(t));
  }

  int repetitionsFor(double oneRunSeconds) const {
    if (oneRunSeconds <= 0) return o_.repetitions;
    const double fit = std::floor(o_.secondsPerKernel / oneRunSeconds);
    return static_cast<int>(std::clamp<double>(fit, std::min(3, o_.repetitions), o_.repetitions));
  }

  // Device kernel: poison + one checked run (also the warm-up: builds and first-launch costs), then timed runs.
  void measure(KernelTiming t, const std::function<void(std::vector<cl_event>&)>& launch,
               const std::function<void()>& poison, const std::function<double()>& error) {
    poison();
    std::vector<cl_event> events;
    launch(events);
    const double first = eventsSeconds(events);
    if (!passes(t, error())) return;
    std::vector<double> samples;
    const int reps = repetitionsFor(first);
    for (int r = 0; r < reps; ++r) {
      launch(events);
      samples.push_back(eventsSeconds(events));
    }
    finish(std::move(t), samples);
  }

  Buffer upload(const std::vector<double>& v) {
    Buffer b(ctx_, v.size() * static_cast<std::size_t>(s_));
    if (dbl_) {
      b.write(ctx_, v.data(), v.size() * 8);
    } else {
      const std::vector<float> f(v.begin(), v.end());
      b.write(ctx_, f.data(), f.size() * 4);
    }
    return b;
  }
  std::vector<double> download(const Buffer& b, std::size_t count) {
    std::vector<double> out(count);
    if (dbl_) {
      b.read(ctx_, out.data(), count * 8);
    } else {
      std::vector<float> f(count);
      b.read(ctx_, f.data(), count * 4);
      out.assign(f.begin(), f.end());
    }
    return out;
  }
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
  template <typename Real>
  void eigenSection(const CaseData& d);
  void compactSection(const CaseData& d);
  void denseSection(const CaseData& d, bool batched);
};

double Runner::copyBandwidth() {
  const ComputeDeviceInfo& info = ctx_.device().info;
  const bool gpu = info.type == "GPU";
  std::size_t bytes = gpu ? (std::size_t{1} << 30) : (std::size_t{256} << 20);
  bytes = std::min<std::size_t>({bytes, info.maxAllocationBytes / 2, info.globalMemoryBytes / 8});
  Buffer a(ctx_, bytes), b(ctx_, bytes);
  const unsigned char zero = 1;
  a.fill(ctx_, &zero, 1);
  std::vector<double> samples;
  for (int r = 0; r < 11; ++r) {
    cl_event ev = nullptr;
    check(clEnqueueCopyBuffer(ctx_.queue(), a.get(), b.get(), 0, 0, bytes, 0, nullptr, &ev), "clEnqueueCopyBuffer");
    const double seconds = eventSeconds(ev);
    if (r > 0) samples.push_back(seconds);  // the first copy also pays for first-touch of b's pages
  }
  const double median = statistics(samples).median;
  return median > 0 ? 2.0 * static_cast<double>(bytes) / median / 1e9 : 0.0;
}

// Eigen on the CPU (the paper's numpy.dot counterpart), same precision as the device run.
template <typename Real>
void Runner::eigenSection(const CaseData& d) {
  if (!wanted("eigen")) return;
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
  const Vector g = Eigen::Map<const Eigen::VectorXd>(d.g.data(), d.rows).cast<Real>();
  const Vector delta = Eigen::Map<const Eigen::VectorXd>(d.delta.data(), d.delta.size()).cast<Real>();
  const double hostCap = std::min(4e9, hostMemoryBytes() / 4);
  for (bool batched : {false, true}) {
    const int learners = batched ? d.learners : 1;
    const std::size_t cols = static_cast<std::size_t>(learners) * d.k;
    const std::string granularity = batched ? "batched" : "per-learner";
    const double matrixBytes = static_cast<double>(d.rows) * cols * s_;
    KernelTiming btg = row("eigen", "Btg", granularity, d, learners, s_ * (d.rows * cols + d.rows + cols));
    KernelTiming fwd = row("eigen", "Bdelta", granularity, d, learners, s_ * (d.rows * d.k + d.k + d.rows));
    if (matrixBytes > hostCap) {
      const std::string why = "host matrix of " + gigabytes(matrixBytes) + " > cap " + gigabytes(hostCap);
      skip(btg, why);
      skip(fwd, why);
      continue;
    }
    Matrix B(d.rows, cols);
    kbench::fillDenseRows<Real>(d, 0, learners, 0, d.rows, B.data());
    const int j = batched ? d.selected : 0;
    const Reference& fref = batched ? d.forwardSelected : d.forwardFirst;
    Vector c(cols), f(d.rows);
    auto time = [&](KernelTiming t, auto&& product, auto&& err) {
      auto once = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        product();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      };
      const double first = once();
      if (!passes(t, err())) return;
      std::vector<double> samples;
      for (int r = repetitionsFor(first); r > 0; --r) samples.push_back(once());
      finish(std::move(t), samples);
    };
    auto toDouble = [](const Vector& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
    Reference btgRef{std::vector<double>(d.btg.value.begin(), d.btg.value.begin() + cols),
                     std::vector<double>(d.btg.scale.begin(), d.btg.scale.begin() + cols)};
    time(btg, [&] { c.noalias() = B.transpose() * g; }, [&] { return kbench::maxScaledError(toDouble(c), btgRef); });
    const Eigen::Index first = static_cast<Eigen::Index>(j) * d.k;
    time(fwd, [&] { f.noalias() = B.middleCols(first, d.k) * delta.segment(first, d.k); },
         [&] { return kbench::maxScaledError(toDouble(f), fref); });
  }
}

void Runner::compactSection(const CaseData& d) {
  struct Variant {
    CompactKernel kind;
    std::string name;
  };
  std::vector<Variant> variants;
  for (const std::string& name : compactKernelNames()) {
    CompactKernel kind{};
    if (wanted(name) && compactKernelFromName(name, &kind)) variants.push_back({kind, name});
  }
  if (variants.empty()) return;
  const std::size_t n = d.rows, p = static_cast<std::size_t>(d.learners), k = static_cast<std::size_t>(d.k);
  const double basisRow = 4.0 + (kDegree + 1) * s_;  // first column (int) + degree+1 weights
  const double sortedRow = 2.0 + s_;                  // row within its chunk (ushort) + u
  const double nd = static_cast<double>(n), kd = static_cast<double>(k), pd = static_cast<double>(p);
  auto bytesOf = [&](CompactKernel kind, const std::string& op, bool batched) {
    const double xRow = kind == CompactKernel::Compact ? basisRow : s_;
    const double btgRow = kind == CompactKernel::Sorted ? sortedRow : xRow;
    const double learners = batched ? pd : 1.0;
    if (op == "Btg") return learners * (nd * btgRow + kd * s_) + nd * s_;
    if (op == "Bdelta") return nd * xRow + kd * s_ + nd * s_;
    return nd * xRow + 4.0 * nd * s_ + kd * s_;  // update: y, mu (read + write), g
  };
  const struct {
    const char* op;
    bool batched;
  } rows[] = {{"Btg", false}, {"Btg", true}, {"Bdelta", false}, {"update", true}};
  auto rowFor = [&](const Variant& v, const char* op, bool batched) {
    return row(v.name, op, batched ? "batched" : "per-learner", d, batched ? d.learners : 1,
               bytesOf(v.kind, op, batched));
  };

  // x always; the stored basis and the sorted layout only when their kernels are asked for and fit.
  const SplineSpec spec = d.bases.front().spec();
  auto deviceBytes = [&](bool basis, bool sorted) {
    return static_cast<double>(CompactData::deviceBytes(n, d.learners, spec, dbl_, basis, sorted));
  };
  const std::string xFit = fitsDevice(nd * pd * s_, deviceBytes(false, false));
  const std::string basisFit = fitsDevice(nd * pd * (kDegree + 1) * s_, deviceBytes(true, false));
  const bool storeBasis = wanted("compact") && basisFit.empty();
  const std::string sortedFit = fitsDevice(nd * pd * s_, deviceBytes(storeBasis, true));
  const bool storeSorted = wanted("compact_sorted") && sortedFit.empty();
  std::vector<const SplineBasis*> bases;
  std::vector<const double*> xs;
  for (int j = 0; j < d.learners; ++j) {
    bases.push_back(&d.bases[j]);
    xs.push_back(d.x[j].data());
  }
  std::unique_ptr<CompactData> data;
  if (xFit.empty()) data = std::make_unique<CompactData>(ctx_, bases, xs, n, dbl_, storeBasis, storeSorted);

  Buffer g = upload(d.g), delta = upload(d.delta), y = upload(d.y), mu(ctx_, n * static_cast<std::size_t>(s_));
  Buffer deltaFirst = upload(std::vector<double>(d.delta.begin(), d.delta.begin() + d.k));
  Buffer out(ctx_, p * k * static_cast<std::size_t>(s_)), outOne(ctx_, k * static_cast<std::size_t>(s_));
  Buffer fout(ctx_, n * static_cast<std::size_t>(s_)), gout(ctx_, n * static_cast<std::size_t>(s_));
  Buffer selected = indexBuffer(d.selected);
  const Reference firstBtg{std::vector<double>(d.btg.value.begin(), d.btg.value.begin() + d.k),
                           std::vector<double>(d.btg.scale.begin(), d.btg.scale.begin() + d.k)};
  // The update's reference: mu + nu B_sel delta_sel, g = y - that; scale |y| + |mu| + nu sum|B delta|.
  constexpr double nu = 0.1;
  Reference gRef{std::vector<double>(n), std::vector<double>(n)};
  double gSquares = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    gRef.value[i] = d.y[i] - (d.mu[i] + nu * d.forwardSelected.value[i]);
    gRef.scale[i] = std::abs(d.y[i]) + std::abs(d.mu[i]) + nu * d.forwardSelected.scale[i];
    gSquares += gRef.value[i] * gRef.value[i];
  }

  for (const Variant& v : variants) {
    std::string why = xFit;
    if (why.empty() && v.kind == CompactKernel::Compact && !storeBasis) why = basisFit;
    if (why.empty() && v.kind == CompactKernel::Sorted && !storeSorted) why = sortedFit;
    if (!why.empty()) {
      for (const auto& r : rows) skip(rowFor(v, r.op, r.batched), why);
      continue;
    }
    CompactPlan plan(ctx_, *data, v.kind);
    Buffer partials(ctx_, std::max<std::size_t>(1, plan.updatePartials()) * static_cast<std::size_t>(s_));
    measure(
        rowFor(v, "Btg", false), [&](std::vector<cl_event>& ev) { plan.transposedOne(0, g, outOne, &ev); },
        [&] { poison(outOne); }, [&] { return kbench::maxScaledError(download(outOne, k), firstBtg); });
    measure(
        rowFor(v, "Btg", true), [&](std::vector<cl_event>& ev) { plan.transposed(g, out, &ev); },
        [&] { poison(out); }, [&] { return kbench::maxScaledError(download(out, p * k), d.btg); });
    measure(
        rowFor(v, "Bdelta", false), [&](std::vector<cl_event>& ev) { plan.forwardOne(0, deltaFirst, fout, &ev); },
        [&] { poison(fout); }, [&] { return kbench::maxScaledError(download(fout, n), d.forwardFirst); });
    measure(
        rowFor(v, "update", true),
        [&](std::vector<cl_event>& ev) { plan.update(selected, delta, nu, y, mu, gout, partials, &ev); },
        [&] {
          Buffer fresh = upload(d.mu);
          check(clEnqueueCopyBuffer(ctx_.queue(), fresh.get(), mu.get(), 0, 0, fresh.bytes(), 0, nullptr, nullptr),
                "clEnqueueCopyBuffer");
          poison(gout);
          ctx_.finish();
        },
        [&] {
          double err = kbench::maxScaledError(download(gout, n), gRef);
          const std::vector<double> parts = download(partials, plan.updatePartials());
          const double sum = std::accumulate(parts.begin(), parts.end(), 0.0);
          return std::max(err, std::abs(sum - gSquares) / gSquares);  // the partials add up to g'g
        });
  }
}

void Runner::denseSection(const CaseData& d, bool batched) {
  std::vector<DenseKernel> kernels;
  for (const std::string& name : denseKernelNames()) {
    DenseKernel kind{};
    if (wanted(name) && denseKernelFromName(name, &kind)) kernels.push_back(kind);
  }
  if (kernels.empty()) return;
  const int learners = batched ? d.learners : 1;
  const std::size_t n = d.rows, k = static_cast<std::size_t>(d.k), cols = static_cast<std::size_t>(learners) * k;
  const std::string granularity = batched ? "batched" : "per-learner";
  const double nd = static_cast<double>(n), colsd = static_cast<double>(cols), kd = static_cast<double>(k);
  auto btgRow = [&](DenseKernel kind) {
    return row(toString(kind), "Btg", granularity, d, learners, s_ * (nd * colsd + nd + colsd));
  };
  auto fwdRow = [&](DenseKernel kind) {
    return row(toString(kind), "Bdelta", granularity, d, learners, s_ * (nd * kd + kd + nd));
  };
  const double matrixBytes = nd * colsd * s_;
  // B, partials (at most a few percent of B) and the small vectors.
  const std::string why = fitsDevice(matrixBytes, matrixBytes * 1.1 + 4 * nd * s_);
  if (!why.empty()) {
    for (DenseKernel kind : kernels) {
      skip(btgRow(kind), why);
      skip(fwdRow(kind), why);
    }
    return;
  }
  // B uploaded in blocks of rows so the host never holds it whole.
  Buffer B(ctx_, n * cols * static_cast<std::size_t>(s_));
  const std::size_t blockRows = std::max<std::size_t>(1, (std::size_t{64} << 20) / (cols * 8));
  std::vector<double> hostD;
  std::vector<float> hostF;
  for (std::size_t r0 = 0; r0 < n; r0 += blockRows) {
    const std::size_t r1 = std::min(n, r0 + blockRows), bytes = (r1 - r0) * cols * static_cast<std::size_t>(s_);
    const std::size_t offset = r0 * cols * static_cast<std::size_t>(s_);
    if (dbl_) {
      hostD.resize((r1 - r0) * cols);
      kbench::fillDenseRows<double>(d, 0, learners, r0, r1, hostD.data());
      B.write(ctx_, hostD.data(), bytes, offset);
    } else {
      hostF.resize((r1 - r0) * cols);
      kbench::fillDenseRows<float>(d, 0, learners, r0, r1, hostF.data());
      B.write(ctx_, hostF.data(), bytes, offset);
    }
  }
  Buffer g = upload(d.g), delta = upload(std::vector<double>(d.delta.begin(), d.delta.begin() + cols));
  Buffer out(ctx_, cols * static_cast<std::size_t>(s_)), fout(ctx_, n * static_cast<std::size_t>(s_));
  Buffer learner = indexBuffer(batched ? d.selected : 0);
  const Reference btgRef{std::vector<double>(d.btg.value.begin(), d.btg.value.begin() + cols),
                         std::vector<double>(d.btg.scale.begin(), d.btg.scale.begin() + cols)};
  const Reference& fwdRef = batched ? d.forwardSelected : d.forwardFirst;
  for (DenseKernel kind : kernels) {
    DenseGemvPlan plan(ctx_, kind, n, cols, dbl_);
    measure(
        btgRow(kind), [&](std::vector<cl_event>& ev) { plan.transposedEvents(B, g, out, ev); },
        [&] { poison(out); }, [&] { return kbench::maxScaledError(download(out, cols), btgRef); });
    measure(
        fwdRow(kind), [&](std::vector<cl_event>& ev) { plan.forwardEvents(B, learner, k, delta, fout, ev); },
        [&] { poison(fout); }, [&] { return kbench::maxScaledError(download(fout, n), fwdRef); });
  }
}

void validate(const KernelBenchOptions& o) {
  if (o.rows.empty()) throw InputError(optionMessage("--rows", "give at least one row count"));
  for (std::size_t n : o.rows)
    if (n < 16) throw InputError(optionMessage("--rows", std::to_string(n) + " rows are too few (at least 16)"));
  if (o.columns.empty()) throw InputError(optionMessage("--k", "give at least one column count"));
  for (int k : o.columns)
    if (k < kDegree + 2 || k > 1024)
      throw InputError(optionMessage("--k", std::to_string(k) + " is outside " + std::to_string(kDegree + 2) +
                                                "..1024 (a cubic basis needs one interior knot)"));
  if (o.covariates < 1) throw InputError(optionMessage("--covariates", "must be >= 1"));
  if (o.repetitions < 1) throw InputError(optionMessage("--reps", "must be >= 1"));
  if (o.precision != "float" && o.precision != "double")
    throw InputError(optionMessage("--precision", "'" + o.precision + "' is not float or double"));
  std::vector<std::string> known = denseKernelNames();
  for (const std::string& name : compactKernelNames()) known.push_back(name);
  known.push_back("eigen");
  for (const std::string& name : o.kernels)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError(optionMessage("--kernels", "unknown kernel '" + name + "' (known: " + list + ")"));
    }
}

}  // namespace

KernelBenchReport runKernelBenchmark(const KernelBenchOptions& options) {
  validate(options);
  ensureWritablePoclCache();
  Context ctx(chooseDevice(options.device));
  if (options.precision == "double" && !ctx.hasFp64())
    throw InputError(optionMessage("--precision", "double needs cl_khr_fp64, which " + ctx.device().info.name +
                                                      " does not have"));
  KernelBenchReport report;
  report.platform = ctx.device().info.platform;
  report.device = ctx.device().info.name;
  report.precision = options.precision;
  Runner runner(options, ctx, report);
  try {
    runner.run();
  } catch (const Cancelled&) {
    report.cancelled = true;
  }
  return report;
}

}  // namespace gb

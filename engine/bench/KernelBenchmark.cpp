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

#include "common/Error.hpp"
#include "common/SystemResources.hpp"
#include "common/Text.hpp"

#ifndef GB_HAVE_OPENCL
namespace gb {
// Built with GB_WITH_OPENCL=OFF: nothing to time. (Saved reports still load: KernelBenchReport.cpp has no OpenCL.)
KernelBenchReport runKernelBenchmark(const KernelBenchOptions&) {
  throw InputError("bench kernels: this build has no OpenCL support (built with GB_WITH_OPENCL=OFF)");
}
}  // namespace gb
#else

#include <cmath>
#include <optional>

#include "bench/CopyBandwidth.hpp"
#include "bench/KernelBenchRunner.hpp"
#include "opencl/ClRuntime.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/DenseGemv.hpp"
#include "opencl/TuningTable.hpp"

namespace gb::kbench {

namespace {

struct CompactVariant {
  CompactKernel kind;
  std::string name;
  std::optional<TuningEntry> shape;  // bench tune: compact_x with this lane shape, batched B'g only
};

// The fewest bytes a compact operation moves (the table at the top of this file); s = bytes per REAL. gpu: the device
// runs the sorted layout's own kernel (elsewhere compact_sorted runs compact_x's kernel, and moves its bytes).
double compactBytes(CompactKernel kind, const std::string& op, bool batched, const CaseData& d, double s, bool gpu) {
  const double nd = static_cast<double>(d.rows), kd = d.k, pd = d.learners;
  const double basisRow = 4.0 + (kDegree + 1) * s;  // first column (int) + degree+1 weights
  const double sortedRow = 2.0 + s;                 // row within its chunk (ushort) + u
  const double xRow = kind == CompactKernel::Compact ? basisRow : s;
  const double btgRow = kind == CompactKernel::Sorted && gpu ? sortedRow : xRow;
  const double learners = batched ? pd : 1.0;
  if (op == "Btg") return learners * (nd * btgRow + kd * s) + nd * s;
  if (op == "Bdelta") return nd * xRow + kd * s + nd * s;
  return nd * xRow + 4.0 * nd * s + kd * s;  // update: y, mu (read + write), g
}

// The update's reference: mu + nu B_sel delta_sel, g = y - that; scale |y| + |mu| + nu sum|B delta|. Also g'g.
Reference updateReference(const CaseData& d, double nu, double& gSquares) {
  Reference gRef{std::vector<double>(d.rows), std::vector<double>(d.rows)};
  gSquares = 0.0;
  for (std::size_t i = 0; i < d.rows; ++i) {
    gRef.value[i] = d.y[i] - (d.mu[i] + nu * d.forwardSelected.value[i]);
    gRef.scale[i] = std::abs(d.y[i]) + std::abs(d.mu[i]) + nu * d.forwardSelected.scale[i];
    gSquares += gRef.value[i] * gRef.value[i];
  }
  return gRef;
}

// The case's learners on the device in the compact layouts asked for.
std::unique_ptr<CompactData> makeCompactData(Context& ctx, const CaseData& d, bool dbl, bool basis, bool sorted) {
  std::vector<const SplineBasis*> bases;
  std::vector<const double*> xs;
  for (int j = 0; j < d.learners; ++j) {
    bases.push_back(&d.bases[j]);
    xs.push_back(d.x[j].data());
  }
  return std::make_unique<CompactData>(ctx, bases, xs, d.rows, dbl, basis, sorted);
}

// How a plan's batched B'g ran when it read the packed copy (the kernel's name does not say).
std::string packedNote(const std::string& name, const CompactPlan& plan) {
  return name + ": the batched B'g read the packed sorted copy of x (" + plan.packedShape() +
         "; GAMBOOST_PACKED_BTG=0 for the columns kernel)";
}

}  // namespace

double Runner::copyBandwidth() { return deviceCopyBandwidth(ctx_); }

// The device's global memory cache; a CPU device that reports none (PoCL: "None") runs in the host's caches.
double Runner::deviceCacheBytes() const {
  cl_ulong bytes = 0;
  check(clGetDeviceInfo(ctx_.device().id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof bytes, &bytes, nullptr),
        "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE)");
  cl_device_type type = 0;
  check(clGetDeviceInfo(ctx_.device().id, CL_DEVICE_TYPE, sizeof type, &type, nullptr),
        "clGetDeviceInfo(CL_DEVICE_TYPE)");
  if (bytes == 0 && (type & CL_DEVICE_TYPE_CPU)) return static_cast<double>(largestHostCacheBytes());
  return static_cast<double>(bytes);
}

// The compact kernels asked for; compact_x once per lane shape when `bench tune` gives shapes.
std::vector<CompactVariant> compactVariants(const KernelBenchOptions& o, const std::string& device) {
  std::vector<CompactVariant> variants;
  for (const std::string& name : compactKernelNames()) {
    CompactKernel kind{};
    const bool wanted = o.kernels.empty() || std::find(o.kernels.begin(), o.kernels.end(), name) != o.kernels.end();
    if (!wanted || !compactKernelFromName(name, &kind)) continue;
    if (kind != CompactKernel::CompactX || o.laneShapes.empty()) variants.push_back({kind, name, std::nullopt});
    for (const LaneTuning& shape : kind == CompactKernel::CompactX ? o.laneShapes : std::vector<LaneTuning>{})
      variants.push_back(
          {kind, name + "/" + laneShapeLabel(shape), TuningEntry{device, 0, 0, shape, "bench tune candidate"}});
  }
  return variants;
}

void Runner::compactSection(const CaseData& d) {
  const std::vector<CompactVariant> variants = compactVariants(o_, ctx_.device().info.name);
  if (variants.empty()) return;
  const std::size_t n = d.rows, p = static_cast<std::size_t>(d.learners), k = static_cast<std::size_t>(d.k);
  const double nd = static_cast<double>(n), pd = static_cast<double>(p);
  const struct {
    const char* op;
    bool batched;
  } rows[] = {{"Btg", false}, {"Btg", true}, {"Bdelta", false}, {"update", true}};
  auto rowFor = [&](const CompactVariant& v, const char* op, bool batched) {
    return row(v.name, op, batched ? "batched" : "per-learner", d, batched ? d.learners : 1,
               compactBytes(v.kind, op, batched, d, s_, ctx_.device().info.type == "GPU"));
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
  std::unique_ptr<CompactData> data;
  if (xFit.empty()) data = makeCompactData(ctx_, d, dbl_, storeBasis, storeSorted);
  Buffer g = upload(d.g), delta = upload(d.delta), y = upload(d.y), mu(ctx_, n * static_cast<std::size_t>(s_));
  Buffer deltaFirst = upload(std::vector<double>(d.delta.begin(), d.delta.begin() + d.k));
  Buffer out(ctx_, p * k * static_cast<std::size_t>(s_)), outOne(ctx_, k * static_cast<std::size_t>(s_));
  Buffer fout(ctx_, n * static_cast<std::size_t>(s_)), gout(ctx_, n * static_cast<std::size_t>(s_));
  Buffer selected = indexBuffer(d.selected);
  const Reference firstBtg{std::vector<double>(d.btg.value.begin(), d.btg.value.begin() + d.k),
                           std::vector<double>(d.btg.scale.begin(), d.btg.scale.begin() + d.k)};
  constexpr double nu = 0.1;
  double gSquares = 0.0;
  const Reference gRef = updateReference(d, nu, gSquares);

  for (const CompactVariant& v : variants) {
    std::string why = xFit;
    if (why.empty() && v.kind == CompactKernel::Compact && !storeBasis) why = basisFit;
    if (why.empty() && v.kind == CompactKernel::Sorted && !storeSorted) why = sortedFit;
    if (!why.empty()) {
      for (const auto& r : rows) skip(rowFor(v, r.op, r.batched), why);
      continue;
    }
    std::optional<ScopedTuningOverride> tuned;
    if (v.shape) tuned.emplace(*v.shape);
    CompactPlan plan(ctx_, *data, v.kind);
    if (v.shape) {  // a tuning candidate: the batched B'g is all that is compared
      measure(
          rowFor(v, "Btg", true), [&](std::vector<cl_event>& ev) { plan.transposed(g, out, &ev); },
          [&] { poison(out); }, [&] { return kbench::maxScaledError(download(out, p * k), d.btg); });
      continue;
    }
    if (plan.packed()) report_.notes.push_back(packedNote(v.name, plan));
    Buffer partials(ctx_, std::max<std::size_t>(1, plan.updatePartials()) * static_cast<std::size_t>(s_));
    measure(
        rowFor(v, "Btg", false), [&](std::vector<cl_event>& ev) { plan.transposedOne(0, g, outOne, &ev); },
        [&] { poison(outOne); }, [&] { return kbench::maxScaledError(download(outOne, k), firstBtg); });
    measure(
        rowFor(v, "Btg", true), [&](std::vector<cl_event>& ev) { plan.transposed(g, out, &ev); }, [&] { poison(out); },
        [&] { return kbench::maxScaledError(download(out, p * k), d.btg); });
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
        btgRow(kind), [&](std::vector<cl_event>& ev) { plan.transposedEvents(B, g, out, ev); }, [&] { poison(out); },
        [&] { return kbench::maxScaledError(download(out, cols), btgRef); });
    measure(
        fwdRow(kind), [&](std::vector<cl_event>& ev) { plan.forwardEvents(B, learner, k, delta, fout, ev); },
        [&] { poison(fout); }, [&] { return kbench::maxScaledError(download(fout, n), fwdRef); });
  }
}

}  // namespace gb::kbench

namespace gb {
namespace {

using kbench::kDegree;

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
  // The host keeps each case's covariates and a few n-vectors in double: refused before allocating what cannot fit.
  for (std::size_t n : o.rows)
    requireAvailableMemory(static_cast<double>(n) * (static_cast<double>(o.covariates) + 4.0) * sizeof(double),
                           "--rows", std::to_string(n) + " rows of " + std::to_string(o.covariates) + " covariates",
                           "host memory");
  if (o.repetitions < 1) throw InputError(optionMessage("--reps", "must be >= 1"));
  if (o.precision != "float" && o.precision != "double")
    throw InputError(optionMessage("--precision", quotedForMessage(o.precision) + " is not float or double"));
  std::vector<std::string> known = ocl::denseKernelNames();
  for (const std::string& name : ocl::compactKernelNames()) known.push_back(name);
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
  ocl::ensureWritablePoclCache();
  ocl::Context ctx(ocl::chooseDevice(options.device));
  if (options.precision == "double" && !ctx.hasFp64())
    throw InputError(
        optionMessage("--precision", "double needs cl_khr_fp64, which " + ctx.device().info.name + " does not have"));
  KernelBenchReport report;
  report.platform = ctx.device().info.platform;
  report.device = ctx.device().info.name;
  report.precision = options.precision;
  kbench::Runner runner(options, ctx, report);
  try {
    runner.run();
  } catch (const kbench::Cancelled&) {
    report.cancelled = true;
  }
  return report;
}

}  // namespace gb

#endif  // GB_HAVE_OPENCL

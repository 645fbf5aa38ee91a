#include "opencl/DenseGemv.hpp"

#include <map>

#include "common/Error.hpp"
#include "opencl/ClBlastGemv.hpp"
#include "opencl/DenseKernelParameters.hpp"
#include "opencl/KernelArgs.hpp"

namespace gb::ocl {

std::string toString(DenseKernel k) {
  switch (k) {
    case DenseKernel::Naive:
      return "naive";
    case DenseKernel::V1:
      return "v1";
    case DenseKernel::V2:
      return "v2";
    case DenseKernel::SplitK:
      return "splitk";
    case DenseKernel::ClBlast:
      return "clblast";
  }
  return "?";
}

std::vector<std::string> denseKernelNames() {
  std::vector<std::string> names{"naive", "v1", "v2", "splitk"};
#ifdef GB_HAVE_CLBLAST
  names.push_back("clblast");
#endif
  return names;
}

bool denseKernelFromName(const std::string& name, DenseKernel* out) {
  for (DenseKernel k :
       {DenseKernel::Naive, DenseKernel::V1, DenseKernel::V2, DenseKernel::SplitK, DenseKernel::ClBlast}) {
    if (toString(k) != name) continue;
#ifndef GB_HAVE_CLBLAST
    if (k == DenseKernel::ClBlast) return false;
#endif
    if (out) *out = k;
    return true;
  }
  return false;
}

namespace {

DenseDeviceLimits deviceLimits(const Context& ctx) {
  DenseDeviceLimits d;
  size_t wg = 0;
  cl_ulong local = 0;
  check(clGetDeviceInfo(ctx.device().id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(wg), &wg, nullptr),
        "clGetDeviceInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE)");
  check(clGetDeviceInfo(ctx.device().id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local), &local, nullptr),
        "clGetDeviceInfo(CL_DEVICE_LOCAL_MEM_SIZE)");
  d.maxWorkGroup = wg;
  d.localMemoryBytes = static_cast<std::size_t>(local);
  d.computeUnits = ctx.device().info.computeUnits;
  d.gpu = ctx.device().info.type == "GPU";
  return d;
}

// One product's kernels and scratch, built once.
struct Prepared {
  DenseLaunch launch;
  Kernel main, reduce;
  Buffer partial;  // (outputs x slices) partials of v2 / split-K; empty when the first pass writes `out`
};

void collect(cl_event ev, std::vector<cl_event>* events) {
  if (events) events->push_back(ev);
}

// Hands the last event to `event` (or releases it) and releases the earlier ones.
void lastEventOnly(std::vector<cl_event>& events, cl_event* event) {
  for (std::size_t i = 0; i + 1 < events.size(); ++i) clReleaseEvent(events[i]);
  if (events.empty()) return;
  if (event)
    *event = events.back();
  else
    clReleaseEvent(events.back());
}

}  // namespace

struct DenseGemvPlan::Impl {
  Context& ctx;
  DenseKernel kind;
  std::size_t rows, cols;
  bool dbl;
  std::size_t realBytes;
  DenseDeviceLimits limits;
  Buffer zeroIndex;  // learner 0 for B'g: the paper's kernels shift by block[0] * blockStride (0 here)
  Prepared trans;
  std::map<std::size_t, Prepared> forward;  // by k

  Impl(Context& c, DenseKernel k, std::size_t r, std::size_t cl, bool d)
      : ctx(c), kind(k), rows(r), cols(cl), dbl(d), realBytes(d ? 8 : 4), limits(deviceLimits(c)) {}

  Prepared prepare(bool fwd, std::size_t k) {
    Prepared p;
    const std::size_t outputs = fwd ? rows : cols;
    const std::size_t sumLength = fwd ? k : rows;
    p.launch = denseLaunch(kind, fwd, outputs, sumLength, cols, dbl, limits);
    p.main = Kernel(ctx.kernel(p.launch.file, p.launch.kernel, p.launch.options));
    if (!p.launch.reduceKernel.empty()) {
      p.reduce = Kernel(ctx.kernel(p.launch.file, p.launch.reduceKernel, p.launch.options));
      if (p.launch.slices > 1 || kind == DenseKernel::V2)
        p.partial = Buffer(ctx, outputs * p.launch.slices * realBytes);
    }
    return p;
  }

  void requireBytes(const Buffer& b, std::size_t elements, const char* what) const {
    if (b.bytes() < elements * realBytes)
      throw ComputeError(std::string("dense gemv: buffer ") + what + " holds " + std::to_string(b.bytes()) +
                         " bytes, needs " + std::to_string(elements * realBytes));
  }

  // The paper's kernels (naive, v1, v2): y[r] = sum_c A[r, c] x[c] over a strided view of B.
  void paperProduct(Prepared& p, cl_ulong m, cl_ulong n, cl_ulong rowStride, cl_ulong colStride, const Buffer& block,
                    cl_ulong blockStride, const Buffer& B, const Buffer& x, const Buffer& y,
                    std::vector<cl_event>* events) {
    const bool twoPass = kind == DenseKernel::V2;
    Kernel& k = p.main;
    PaperGemvArgs{
        m, n, rowStride, colStride, &block, blockStride, &B, &x, twoPass ? &p.partial : &y, p.launch.localBytes}
        .bind(k);
    cl_event ev = nullptr;
    k.launch(ctx, p.launch.global, p.launch.local, events ? &ev : nullptr);
    collect(ev, events);
    if (!twoPass) return;
    const cl_ulong slices = p.launch.slices;
    GemvReduceArgs{m, slices, &p.partial, &y}.bind(p.reduce);
    p.reduce.launch(ctx, p.launch.reduceGlobal, p.launch.reduceLocal, events ? &ev : nullptr);
    collect(ev, events);
  }

  void transposed(const Buffer& B, const Buffer& g, const Buffer& out, std::vector<cl_event>* events) {
    requireBytes(B, rows * cols, "B");
    requireBytes(g, rows, "g");
    requireBytes(out, cols, "out");
#ifdef GB_HAVE_CLBLAST
    if (kind == DenseKernel::ClBlast) {
      clblastTransposed(ctx, rows, cols, dbl, B, g, out, events);
      return;
    }
#endif
    if (kind == DenseKernel::SplitK) {
      splitKTransposed(B, g, out, events);
      return;
    }
    paperProduct(trans, cols, rows, 1, cols, zeroIndex, 0, B, g, out, events);
  }

  void splitKTransposed(const Buffer& B, const Buffer& g, const Buffer& out, std::vector<cl_event>* events) {
    const DenseLaunch& l = trans.launch;
    const bool twoPass = l.slices > 1;
    Kernel& k = trans.main;
    // One row block: its "partials" are the answer.
    SplitKPartialArgs{rows, cols, l.rowsPerBlock, &B, &g, twoPass ? &trans.partial : &out}.bind(k);
    cl_event ev = nullptr;
    k.launch(ctx, l.global, l.local, events ? &ev : nullptr);
    collect(ev, events);
    if (!twoPass) return;
    GemvReduceArgs{cols, l.slices, &trans.partial, &out}.bind(trans.reduce);
    trans.reduce.launch(ctx, l.reduceGlobal, l.reduceLocal, events ? &ev : nullptr);
    collect(ev, events);
  }

  void forwardProduct(const Buffer& B, const Buffer& learnerIndex, std::size_t k, const Buffer& delta,
                      const Buffer& out, std::vector<cl_event>* events) {
    if (k == 0 || k > cols || cols % k != 0)
      throw ComputeError("dense gemv: k = " + std::to_string(k) + " does not divide the " + std::to_string(cols) +
                         " columns into learners");
    requireBytes(B, rows * cols, "B");
    requireBytes(delta, cols, "delta");
    requireBytes(out, rows, "out");
#ifdef GB_HAVE_CLBLAST
    if (kind == DenseKernel::ClBlast) {
      int learner = 0;
      learnerIndex.read(ctx, &learner, sizeof(learner));
      clblastForward(ctx, rows, cols, k, static_cast<std::size_t>(learner), dbl, B, delta, out, events);
      return;
    }
#endif
    auto it = forward.find(k);
    if (it == forward.end()) it = forward.emplace(k, prepare(true, k)).first;
    Prepared& p = it->second;
    if (kind != DenseKernel::SplitK) {
      paperProduct(p, rows, k, cols, 1, learnerIndex, k, B, delta, out, events);
      return;
    }
    Kernel& kern = p.main;
    const cl_ulong perItem = p.launch.kernel == "gemv_rows_forward_cpu" ? p.launch.rowsPerBlock : 0;
    RowsForwardArgs{rows, cols, k, &learnerIndex, &B, &delta, &out, perItem}.bind(kern);
    cl_event ev = nullptr;
    kern.launch(ctx, p.launch.global, p.launch.local, events ? &ev : nullptr);
    collect(ev, events);
  }
};

DenseGemvPlan::DenseGemvPlan(Context& ctx, DenseKernel kernel, std::size_t rows, std::size_t cols, bool doublePrecision)
    : DenseGemvPlan(ctx, kernel, rows, cols, doublePrecision, ctx.device().info.type == "GPU") {}

DenseGemvPlan::DenseGemvPlan(Context& ctx, DenseKernel kernel, std::size_t rows, std::size_t cols, bool doublePrecision,
                             bool gpuLayout) {
  if (doublePrecision && !ctx.hasFp64())
    throw ComputeError("dense gemv: double precision needs cl_khr_fp64, which " + ctx.device().info.name +
                       " does not have");
  if (rows == 0 || cols == 0) throw ComputeError("dense gemv: empty matrix");
#ifndef GB_HAVE_CLBLAST
  if (kernel == DenseKernel::ClBlast) throw ComputeError("dense gemv: this build has no CLBlast");
#endif
  impl_ = std::make_unique<Impl>(ctx, kernel, rows, cols, doublePrecision);
  impl_->limits.gpu = gpuLayout;
  const int zero = 0;
  impl_->zeroIndex = Buffer(ctx, sizeof(int));
  impl_->zeroIndex.write(ctx, &zero, sizeof(zero));
  if (kernel != DenseKernel::ClBlast) impl_->trans = impl_->prepare(false, rows);
}

DenseGemvPlan::~DenseGemvPlan() = default;

DenseKernel DenseGemvPlan::kernel() const { return impl_->kind; }

void DenseGemvPlan::transposed(const Buffer& B, const Buffer& g, const Buffer& out, cl_event* event) {
  std::vector<cl_event> events;
  impl_->transposed(B, g, out, event ? &events : nullptr);
  lastEventOnly(events, event);
}

void DenseGemvPlan::forward(const Buffer& B, const Buffer& learnerIndex, std::size_t k, const Buffer& delta,
                            const Buffer& out, cl_event* event) {
  std::vector<cl_event> events;
  impl_->forwardProduct(B, learnerIndex, k, delta, out, event ? &events : nullptr);
  lastEventOnly(events, event);
}

void DenseGemvPlan::transposedEvents(const Buffer& B, const Buffer& g, const Buffer& out,
                                     std::vector<cl_event>& events) {
  impl_->transposed(B, g, out, &events);
}

void DenseGemvPlan::forwardEvents(const Buffer& B, const Buffer& learnerIndex, std::size_t k, const Buffer& delta,
                                  const Buffer& out, std::vector<cl_event>& events) {
  impl_->forwardProduct(B, learnerIndex, k, delta, out, &events);
}

std::size_t DenseGemvPlan::scratchBytes() const {
  std::size_t bytes = impl_->trans.partial.bytes() + impl_->zeroIndex.bytes();
  for (const auto& [k, p] : impl_->forward) bytes += p.partial.bytes();
  return bytes;
}

}  // namespace gb::ocl

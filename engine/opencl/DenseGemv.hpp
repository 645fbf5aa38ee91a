#pragma once
// Dense matrix-vector kernels over the full design matrix B: row-major, rows x cols, all learners side by side
// (learner j owns columns [j*k, (j+1)*k)). These are the paper's kernels (Appendix B) and a split-K kernel; the
// compact B-spline kernels (CompactKernels.hpp) avoid B altogether. Sources: kernels/gemv_*.cl.
#include <string>
#include <vector>

#include "opencl/ClRuntime.hpp"

namespace gb::ocl {

enum class DenseKernel { Naive, V1, V2, SplitK, ClBlast };

std::string toString(DenseKernel k);  // "naive" | "v1" | "v2" | "splitk" | "clblast"
// True and sets *out if `name` is a dense kernel name; "clblast" only when built with CLBlast.
bool denseKernelFromName(const std::string& name, DenseKernel* out);
std::vector<std::string> denseKernelNames();

class DenseGemvPlan {
 public:
  // Builds the kernels (program cache). doublePrecision needs cl_khr_fp64 (else ComputeError).
  DenseGemvPlan(Context& ctx, DenseKernel kernel, std::size_t rows, std::size_t cols, bool doublePrecision);
  // Added: the same with the launch layout of a GPU (gpuLayout = true) or of a CPU device whatever the device is,
  // so that the tests run the GPU variant of split-K on PoCL.
  DenseGemvPlan(Context& ctx, DenseKernel kernel, std::size_t rows, std::size_t cols, bool doublePrecision,
                bool gpuLayout);
  ~DenseGemvPlan();

  // out[c] = sum_i B[i, c] g[i] for every c < cols  (B'g for every learner at once).
  void transposed(const Buffer& B, const Buffer& g, const Buffer& out, cl_event* event = nullptr);
  // out[i] = sum_{c < k} B[i, j*k + c] delta[j*k + c], with j read on the device from learnerIndex (one int):
  // the selected learner never has to visit the host.
  void forward(const Buffer& B, const Buffer& learnerIndex, std::size_t k, const Buffer& delta, const Buffer& out,
               cl_event* event = nullptr);
  // Bytes of device scratch this plan allocated (partials of v2 / split-K).
  std::size_t scratchBytes() const;

  // Added for timing: v2 and split-K are two launches, so `event` above is only the last one (it completes when
  // `out` is ready). These variants append the event of every launch to `events` (the caller releases them).
  void transposedEvents(const Buffer& B, const Buffer& g, const Buffer& out, std::vector<cl_event>& events);
  void forwardEvents(const Buffer& B, const Buffer& learnerIndex, std::size_t k, const Buffer& delta, const Buffer& out,
                     std::vector<cl_event>& events);
  DenseKernel kernel() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gb::ocl

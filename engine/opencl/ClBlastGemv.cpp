#include "opencl/ClBlastGemv.hpp"

#ifdef GB_HAVE_CLBLAST
#include <clblast.h>

#include <string>

#include "common/Error.hpp"

namespace gb::ocl {
namespace {

void checkClBlast(clblast::StatusCode status, const char* what) {
  if (status != clblast::StatusCode::kSuccess)
    throw ComputeError(std::string("CLBlast ") + what + " failed with status " +
                       std::to_string(static_cast<int>(status)));
}

// One row-major gemv y = op(A) x with A = B offset by `aOffset`, leading dimension cols; y zeroed first.
template <typename T>
void gemv(Context& ctx, clblast::Transpose op, std::size_t m, std::size_t n, std::size_t cols, const Buffer& B,
          std::size_t aOffset, const Buffer& x, std::size_t xOffset, const Buffer& y, std::size_t yCount,
          std::vector<cl_event>* events) {
  cl_command_queue queue = ctx.queue();
  const T zero{0};
  cl_event fill = nullptr, run = nullptr;
  check(clEnqueueFillBuffer(queue, y.get(), &zero, sizeof zero, 0, yCount * sizeof(T), 0, nullptr,
                            events ? &fill : nullptr),
        "clEnqueueFillBuffer");
  if (events) events->push_back(fill);
  checkClBlast(clblast::Gemv<T>(clblast::Layout::kRowMajor, op, m, n, T{1}, B.get(), aOffset, cols, x.get(), xOffset, 1,
                                T{0}, y.get(), 0, 1, &queue, events ? &run : nullptr),
               op == clblast::Transpose::kYes ? "Gemv (B'g)" : "Gemv (B delta)");
  if (events) events->push_back(run);
}

}  // namespace

void clblastTransposed(Context& ctx, std::size_t rows, std::size_t cols, bool doublePrecision, const Buffer& B,
                       const Buffer& g, const Buffer& out, std::vector<cl_event>* events) {
  const auto op = clblast::Transpose::kYes;
  if (doublePrecision)
    gemv<double>(ctx, op, rows, cols, cols, B, 0, g, 0, out, cols, events);
  else
    gemv<float>(ctx, op, rows, cols, cols, B, 0, g, 0, out, cols, events);
}

void clblastForward(Context& ctx, std::size_t rows, std::size_t cols, std::size_t k, std::size_t learner,
                    bool doublePrecision, const Buffer& B, const Buffer& delta, const Buffer& out,
                    std::vector<cl_event>* events) {
  const auto op = clblast::Transpose::kNo;
  const std::size_t first = learner * k;
  if (doublePrecision)
    gemv<double>(ctx, op, rows, k, cols, B, first, delta, first, out, rows, events);
  else
    gemv<float>(ctx, op, rows, k, cols, B, first, delta, first, out, rows, events);
}

}  // namespace gb::ocl
#endif

#include "opencl/StagedUpload.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "common/Error.hpp"
#include "common/RunProfile.hpp"

namespace gb::ocl {

namespace {

// One pinned staging buffer: a host-allocated cl_mem mapped once for the whole transfer.
class Staging {
 public:
  Staging(Context& ctx, std::size_t bytes) : ctx_(ctx) {
    cl_int status = CL_SUCCESS;
    mem_ = clCreateBuffer(ctx.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY, bytes, nullptr, &status);
    check(status, "clCreateBuffer(staging)");
    host_ = clEnqueueMapBuffer(ctx.queue(), mem_, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes, 0, nullptr,
                               nullptr, &status);
    if (status != CL_SUCCESS) {
      clReleaseMemObject(mem_);
      check(status, "clEnqueueMapBuffer(staging)");
    }
  }
  ~Staging() {
    wait();
    clEnqueueUnmapMemObject(ctx_.queue(), mem_, host_, 0, nullptr, nullptr);
    clFinish(ctx_.queue());
    clReleaseMemObject(mem_);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  // Waits until the previous write from this buffer has read it.
  void wait() {
    if (!pending_) return;
    const cl_int status = clWaitForEvents(1, &pending_);
    clReleaseEvent(pending_);
    pending_ = nullptr;
    check(status, "clWaitForEvents(staging write)");
  }
  void* host() const { return host_; }
  void send(Buffer& target, std::size_t bytes, std::size_t offsetBytes) {
    check(clEnqueueWriteBuffer(ctx_.queue(), target.get(), CL_FALSE, offsetBytes, bytes, host_, 0, nullptr, &pending_),
          "clEnqueueWriteBuffer(staged)");
    check(clFlush(ctx_.queue()), "clFlush");
  }

 private:
  Context& ctx_;
  cl_mem mem_ = nullptr;
  void* host_ = nullptr;
  cl_event pending_ = nullptr;
};

// Converts elements [first, first + count) of the columns' concatenation into out, on all cores.
template <typename Real>
void convert(const std::vector<const double*>& columns, const std::vector<double>* shifts, std::size_t rows,
             std::size_t first, std::size_t count, Real* out) {
  const auto total = static_cast<std::ptrdiff_t>(count);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t block = 0; block < (total + 65535) / 65536; ++block) {
    std::size_t e = first + static_cast<std::size_t>(block) * 65536;
    const std::size_t end = std::min(first + count, e + 65536);
    while (e < end) {  // a block may span two columns
      const std::size_t column = e / rows, row = e % rows, take = std::min(end - e, rows - row);
      const double* from = columns[column] + row;
      Real* to = out + (e - first);
      const double shift = shifts ? (*shifts)[column] : 0.0;
      if (shift == 0.0)
        for (std::size_t i = 0; i < take; ++i) to[i] = static_cast<Real>(from[i]);
      else
        for (std::size_t i = 0; i < take; ++i) to[i] = static_cast<Real>(from[i] - shift);
      e += take;
    }
  }
}

}  // namespace

void uploadColumns(Context& ctx, Buffer& buffer, const std::vector<const double*>& columns, std::size_t rows,
                   bool isDouble, std::size_t offset, const std::vector<double>* shifts) {
  if (shifts && shifts->size() != columns.size()) throw ComputeError("uploadColumns: one shift a column");
  const std::size_t real = isDouble ? sizeof(double) : sizeof(float), total = columns.size() * rows;
  if (total == 0) return;
  if ((offset + total) * real > buffer.bytes())
    throw ComputeError("uploadColumns: " + std::to_string(total) + " values at " + std::to_string(offset) +
                       " exceed the buffer");
  const ScopedStage timed("upload", total * real);
  // Pinning host memory costs about 0.7 ms per MiB on the H100 host (2 x 16 MiB: 15 ms; a 40 MB transfer took 24 ms
  // through 2 x 40 MB, 8 ms through 2 x 1 MiB): chunks of a 64th of the transfer, within 1 and 16 MiB, and the second
  // buffer only where there is a second chunk.
  const std::size_t chunkBytes = std::clamp(total * real / 64, kStagingMinBytes, kStagingBytes);
  const std::size_t perChunk = std::max<std::size_t>(1, std::min(total, chunkBytes / real));
  Staging a(ctx, perChunk * real);
  std::unique_ptr<Staging> b;
  if (total > perChunk) b = std::make_unique<Staging>(ctx, perChunk * real);
  Staging* stage[2] = {&a, b.get()};
  for (std::size_t first = 0, turn = 0; first < total; first += perChunk, turn ^= 1) {
    Staging& s = *stage[turn];
    s.wait();
    const std::size_t count = std::min(perChunk, total - first);
    if (isDouble)
      convert(columns, shifts, rows, first, count, static_cast<double*>(s.host()));
    else
      convert(columns, shifts, rows, first, count, static_cast<float*>(s.host()));
    s.send(buffer, count * real, (offset + first) * real);
  }
  a.wait();
  if (b) b->wait();
}

}  // namespace gb::ocl

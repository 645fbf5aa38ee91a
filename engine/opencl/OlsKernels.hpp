#pragma once
// Linear and factor learners on the device (kernels/ols.cl): the sums their B'v needs, summed per chunk of rows on
// the device and across chunks on the host in chunk order (deterministic), and their updates of f.
#include <cstddef>
#include <vector>

#include "opencl/ClRuntime.hpp"

namespace gb::ocl {

struct LevelSumsArgs {  // level_sums(n, chunkRows, levels, codes, v, partials)
  cl_ulong n = 0, chunkRows = 0;
  cl_uint levels = 0;
  cl_mem codes = nullptr, v = nullptr, partials = nullptr;
  cl_uint bind(Kernel& kernel) const;
};

struct LinearSumsArgs {  // linear_sums(n, chunkRows, x, v, partials)
  cl_ulong n = 0, chunkRows = 0;
  cl_mem x = nullptr, v = nullptr, partials = nullptr;
  cl_uint bind(Kernel& kernel) const;
};

struct LevelUpdateArgs {  // level_update(n, codes, effect, f)
  cl_ulong n = 0;
  cl_mem codes = nullptr, effect = nullptr, f = nullptr;
  cl_uint bind(Kernel& kernel) const;
};

struct LinearUpdateArgs {  // linear_update(n, x, a, b, f): a and b in the program's REAL
  cl_ulong n = 0;
  cl_mem x = nullptr;
  double a = 0.0, b = 0.0;
  cl_mem f = nullptr;
  cl_uint bind(Kernel& kernel, bool doublePrecision) const;
};

class OlsKernels {
 public:
  OlsKernels(Context& ctx, bool doublePrecision, std::size_t rows);

  std::size_t chunks() const { return chunks_; }
  // Per-level sums of v (codes 0..levels-1): enqueues level_sums into `partials` (chunks() * levels REALs), reads
  // them back and adds them in chunk order.
  std::vector<double> levelSums(const Buffer& codes, int levels, const Buffer& v, Buffer& partials);
  // {sum v, sum x v}; `partials` holds chunks() * 2 REALs.
  std::vector<double> linearSums(const Buffer& x, const Buffer& v, Buffer& partials);
  void levelUpdate(const Buffer& codes, const Buffer& effect, Buffer& f);
  void linearUpdate(const Buffer& x, double a, double b, Buffer& f);

 private:
  std::vector<double> readSums(Buffer& partials, std::size_t width);

  Context* ctx_;
  bool double_;
  std::size_t rows_, chunkRows_, chunks_;
  Kernel levelSums_, linearSums_, levelUpdate_, linearUpdate_;
};

}  // namespace gb::ocl

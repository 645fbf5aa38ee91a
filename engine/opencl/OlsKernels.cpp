#include "opencl/OlsKernels.hpp"

#include <algorithm>
#include <string>

#include "opencl/KernelArgs.hpp"

namespace gb::ocl {

namespace {

std::string options(bool doublePrecision) { return doublePrecision ? "-DREAL=double -DGB_DOUBLE=1" : "-DREAL=float"; }

std::size_t roundUp(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

cl_uint LevelSumsArgs::bind(Kernel& kernel) const { return bindArgs(kernel, n, chunkRows, levels, codes, v, partials); }

cl_uint LinearSumsArgs::bind(Kernel& kernel) const { return bindArgs(kernel, n, chunkRows, x, v, partials); }

cl_uint LevelUpdateArgs::bind(Kernel& kernel) const { return bindArgs(kernel, n, codes, effect, f); }

cl_uint LinearUpdateArgs::bind(Kernel& kernel, bool doublePrecision) const {
  return bindArgs(kernel, n, x, RealArg{a, doublePrecision}, RealArg{b, doublePrecision}, f);
}

// Chunks of 1024 rows: few enough partials to read back cheaply, enough chunks to fill a device from 1e5 rows on.
OlsKernels::OlsKernels(Context& ctx, bool doublePrecision, std::size_t rows)
    : ctx_(&ctx),
      double_(doublePrecision),
      rows_(rows),
      chunkRows_(1024),
      chunks_(std::max<std::size_t>(1, (rows + 1023) / 1024)),
      levelSums_(ctx.kernel("ols", "level_sums", options(doublePrecision))),
      linearSums_(ctx.kernel("ols", "linear_sums", options(doublePrecision))),
      levelUpdate_(ctx.kernel("ols", "level_update", options(doublePrecision))),
      linearUpdate_(ctx.kernel("ols", "linear_update", options(doublePrecision))) {}

std::vector<double> OlsKernels::readSums(Buffer& partials, std::size_t width) {
  const std::vector<double> values = downloadReals(*ctx_, partials, chunks_ * width, double_);
  std::vector<double> sums(width, 0.0);
  for (std::size_t c = 0; c < chunks_; ++c)
    for (std::size_t l = 0; l < width; ++l) sums[l] += values[c * width + l];
  return sums;
}

std::vector<double> OlsKernels::levelSums(const Buffer& codes, int levels, const Buffer& v, Buffer& partials) {
  const auto width = static_cast<std::size_t>(levels);
  LevelSumsArgs{rows_, chunkRows_, static_cast<cl_uint>(levels), codes.get(), v.get(), partials.get()}.bind(levelSums_);
  levelSums_.launch(*ctx_, {roundUp(chunks_, 64), width}, {64, 1});
  return readSums(partials, width);
}

std::vector<double> OlsKernels::linearSums(const Buffer& x, const Buffer& v, Buffer& partials) {
  LinearSumsArgs{rows_, chunkRows_, x.get(), v.get(), partials.get()}.bind(linearSums_);
  linearSums_.launch(*ctx_, {roundUp(chunks_, 64)}, {64});
  return readSums(partials, 2);
}

void OlsKernels::levelUpdate(const Buffer& codes, const Buffer& effect, Buffer& f) {
  LevelUpdateArgs{rows_, codes.get(), effect.get(), f.get()}.bind(levelUpdate_);
  levelUpdate_.launch(*ctx_, {roundUp(rows_, 256)}, {256});
}

void OlsKernels::linearUpdate(const Buffer& x, double a, double b, Buffer& f) {
  LinearUpdateArgs{rows_, x.get(), a, b, f.get()}.bind(linearUpdate_, double_);
  linearUpdate_.launch(*ctx_, {roundUp(rows_, 256)}, {256});
}

}  // namespace gb::ocl

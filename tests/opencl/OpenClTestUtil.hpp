#pragma once
// Helpers shared by the OpenCL tests of the runtime, compact kernels and backend (header-only so that no symbol
// clashes with other tests of the area).
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "opencl/ClRuntime.hpp"

namespace gbocltest {

// The device the tests run on: GAMBOOST_DEVICE or the default (PoCL's CPU device in CI). Printed once.
inline gb::ocl::Device testDevice() {
  static const gb::ocl::Device device = [] {
    gb::ocl::Device d = gb::ocl::chooseDevice("");
    qInfo("OpenCL device: %s / %s (%s, fp64 %s)", d.info.platform.c_str(), d.info.name.c_str(), d.info.type.c_str(),
          d.info.fp64 ? "yes" : "no");
    return d;
  }();
  return device;
}

// A value in [lo, hi) from a seeded generator; tests print their seeds.
inline std::vector<double> uniform(std::size_t n, double lo, double hi, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> out(n);
  for (double& v : out) v = dist(rng);
  return out;
}

// Rounds to the device's REAL, so host references see exactly the inputs the device holds.
inline std::vector<double> asReal(const std::vector<double>& v, bool isDouble) {
  if (isDouble) return v;
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<float>(v[i]);
  return out;
}

inline gb::ocl::Buffer upload(gb::ocl::Context& ctx, const std::vector<double>& v, bool isDouble) {
  return gb::ocl::uploadReals(ctx, v, isDouble);
}

inline std::vector<double> download(gb::ocl::Context& ctx, const gb::ocl::Buffer& b, std::size_t count, bool isDouble) {
  return gb::ocl::downloadReals(ctx, b, count, isDouble);
}

// Fills a REAL buffer with NaN so that an entry the kernel forgot to write fails the comparison.
inline void poison(gb::ocl::Context& ctx, gb::ocl::Buffer& b, bool isDouble) {
  if (isDouble) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    b.fill(ctx, &nan, sizeof nan);
  } else {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    b.fill(ctx, &nan, sizeof nan);
  }
  ctx.finish();
}

// max_i |got_i - want_i| / scale_i; NaN anywhere gives +inf.
inline double maxScaledError(const std::vector<double>& got, const std::vector<double>& want,
                             const std::vector<double>& scale) {
  double worst = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double e = std::abs(got[i] - want[i]) / (scale[i] > 0 ? scale[i] : 1.0);
    if (!(e <= worst)) worst = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
  }
  return worst;
}

// max_i |got_i - want_i| as a fraction of want's range (max - min): a fit's effect checked on its own scale when
// its values sit far from 0. NaN anywhere gives +inf.
inline double maxErrorOverRange(const std::vector<double>& got, const std::vector<double>& want) {
  if (want.empty()) return 0.0;
  const auto [lo, hi] = std::minmax_element(want.begin(), want.end());
  const double range = *hi - *lo;
  const std::vector<double> scale(want.size(), range > 0 ? range : 1.0);
  return maxScaledError(got, want, scale);
}

}  // namespace gbocltest

#include "bench/CopyBandwidth.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#ifdef GB_HAVE_OPENCL
#include "opencl/ClRuntime.hpp"
#endif

namespace gb {

std::size_t largestHostCacheBytes() {
  std::size_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string text;
    if (!(in >> text) || text.empty()) continue;
    const char unit = text.back();
    const std::size_t scale = unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : unit == 'G' ? 1024 * 1024 * 1024 : 1;
    try {
      largest = std::max(largest, static_cast<std::size_t>(std::stoull(text)) * scale);
    } catch (const std::exception&) {
    }
  }
  return largest > 0 ? largest : std::size_t{32} << 20;
}

double hostCopyBandwidth(std::size_t bytes) {
  std::vector<unsigned char> a(bytes, 1), b(bytes, 0);  // both touched before timing
  const int threads = std::max(1, omp_get_max_threads());
  const std::size_t chunk = (bytes + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
  double best = 0.0;
  for (int r = 0; r < 4; ++r) {
    const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static, 1)
    for (int t = 0; t < threads; ++t) {
      const std::size_t begin = std::min(bytes, static_cast<std::size_t>(t) * chunk);
      const std::size_t end = std::min(bytes, begin + chunk);
      if (end > begin) std::memcpy(b.data() + begin, a.data() + begin, end - begin);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r > 0 && seconds > 0) best = std::max(best, 2.0 * static_cast<double>(bytes) / seconds / 1e9);
  }
  return best;
}

#ifndef GB_HAVE_OPENCL
double deviceCopyBandwidth(ocl::Context&) { return 0.0; }  // built without OpenCL: no device to measure
double hostToDeviceBandwidth(ocl::Context&) { return 0.0; }
#else
double hostToDeviceBandwidth(ocl::Context& ctx) {
  const ComputeDeviceInfo& info = ctx.device().info;
  const std::size_t bytes =
      std::min<std::size_t>({std::size_t{256} << 20, info.maxAllocationBytes / 2, info.globalMemoryBytes / 8});
  // The source is pinned (allocated by the driver and mapped), as the staged uploads' buffers are.
  ocl::Buffer staging(ctx, bytes, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR), target(ctx, bytes);
  cl_int status = CL_SUCCESS;
  void* host =
      clEnqueueMapBuffer(ctx.queue(), staging.get(), CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &status);
  ocl::check(status, "clEnqueueMapBuffer");
  std::memset(host, 1, bytes);
  double best = 0.0;
  for (int r = 0; r < 5; ++r) {
    cl_event ev = nullptr;
    ocl::check(clEnqueueWriteBuffer(ctx.queue(), target.get(), CL_FALSE, 0, bytes, host, 0, nullptr, &ev),
               "clEnqueueWriteBuffer");
    const double seconds = ocl::eventSeconds(ev);
    if (r > 0 && seconds > 0) best = std::max(best, static_cast<double>(bytes) / seconds / 1e9);
  }
  ocl::check(clEnqueueUnmapMemObject(ctx.queue(), staging.get(), host, 0, nullptr, nullptr), "clEnqueueUnmapMemObject");
  ocl::check(clFinish(ctx.queue()), "clFinish");
  return best;
}

double deviceCopyBandwidth(ocl::Context& ctx) {
  const ComputeDeviceInfo& info = ctx.device().info;
  const bool gpu = info.type == "GPU";
  std::size_t bytes = gpu ? (std::size_t{1} << 30) : (std::size_t{256} << 20);
  bytes = std::min<std::size_t>({bytes, info.maxAllocationBytes / 2, info.globalMemoryBytes / 8});
  ocl::Buffer a(ctx, bytes), b(ctx, bytes);
  const unsigned char one = 1;
  a.fill(ctx, &one, 1);
  std::vector<double> samples;
  for (int r = 0; r < 11; ++r) {
    cl_event ev = nullptr;
    ocl::check(clEnqueueCopyBuffer(ctx.queue(), a.get(), b.get(), 0, 0, bytes, 0, nullptr, &ev), "clEnqueueCopyBuffer");
    const double seconds = ocl::eventSeconds(ev);
    if (r > 0) samples.push_back(seconds);  // the first copy also pays for first-touch of b's pages
  }
  std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
  const double median = samples[samples.size() / 2];
  return median > 0 ? 2.0 * static_cast<double>(bytes) / median / 1e9 : 0.0;
}
#endif

}  // namespace gb

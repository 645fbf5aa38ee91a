#pragma once
// The CUDA driver API side of the PTX probes (scripts/perf/ptx_probe.cpp, fold_probe.cpp): they launch the PTX that
// NVIDIA's OpenCL driver built (the program cache) so that Nsight Compute, which sees no OpenCL launches, can profile
// it. Measuring tools for docs/performance.md, built on the GPU machine only.
#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace probe {

inline void check(CUresult status, const char* what) {
  if (status == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(status, &name);
  std::fprintf(stderr, "probe: %s failed: %s\n", what, name ? name : "?");
  std::exit(1);
}

inline CUdeviceptr upload(const void* data, std::size_t bytes) {
  CUdeviceptr p = 0;
  check(cuMemAlloc(&p, bytes), "cuMemAlloc");
  if (data) check(cuMemcpyHtoD(p, data, bytes), "cuMemcpyHtoD");
  return p;
}

// The PTX of a program-cache entry (its text from the first comment), ready for a CUDA launch: NVIDIA's OpenCL PTX
// reads the launch's group offsets (%envreg0-2, zero here), global offsets (%envreg3-5, zero) and group counts
// (%envreg6-8) from environment registers that a CUDA launch does not set, so they become constants and %nctaid.
// PROBE_MAXREG caps the registers of the kernel `entry` (.maxnreg after its .reqntid), to see what occupancy buys.
// Exits 2 on a bad file.
inline std::string launchablePtx(const char* path, const std::string& entry) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  std::string ptx = text.str();
  const std::size_t first = ptx.find("//");
  if (!file || first == std::string::npos) std::fprintf(stderr, "probe: no PTX in %s\n", path), std::exit(2);
  ptx = ptx.substr(first);
  const char* stand[][2] = {{"%envreg0;", "0;"},         {"%envreg1;", "0;"},         {"%envreg2;", "0;"},
                            {"%envreg6;", "%nctaid.x;"}, {"%envreg7;", "%nctaid.y;"}, {"%envreg8;", "%nctaid.z;"}};
  for (const auto& [from, to] : stand)
    for (std::size_t p = ptx.find(from); p != std::string::npos; p = ptx.find(from, p))
      ptx.replace(p, std::strlen(from), to);
  // %envreg3-5: the global work offsets (get_global_offset, zero: FoldPath launches without one). Shown where used.
  for (const char* offset : {"%envreg3;", "%envreg4;", "%envreg5;"})
    for (std::size_t p = ptx.find(offset); p != std::string::npos; p = ptx.find(offset, p)) {
      const std::size_t line = ptx.rfind('\n', p) + 1;
      std::fprintf(stderr, "probe: %.*s -> 0\n", static_cast<int>(ptx.find('\n', p) - line), ptx.c_str() + line);
      ptx.replace(p, std::strlen(offset), "0;");
    }
  if (const std::size_t p = ptx.find("%envreg"); p != std::string::npos)
    std::fprintf(stderr, "probe: an unknown %.12s\n", ptx.c_str() + p), std::exit(2);
  if (const char* cap = std::getenv("PROBE_MAXREG"); cap && std::atoi(cap) > 0) {
    const std::size_t at = ptx.find(".entry " + entry + "("), req = ptx.find(".reqntid", at);
    const std::size_t end = req == std::string::npos ? req : ptx.find('\n', req);
    if (at == std::string::npos || end == std::string::npos) std::fprintf(stderr, "probe: no .reqntid\n"), std::exit(2);
    ptx.insert(end + 1, std::string(".maxnreg ") + cap + "\n");
  }
  return ptx;
}

inline CUmodule loadModule(const std::string& ptx) {
  CUdevice device;
  CUcontext context;
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(sizeof log)};
  CUmodule module;
  if (cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values) != CUDA_SUCCESS)
    std::fprintf(stderr, "probe: the PTX does not load: %s\n", log), std::exit(1);
  return module;
}

inline void describe(CUfunction kernel, const char* name, int threads) {
  int registers = 0, shared = 0, spills = 0, perSm = 0;
  cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel);
  cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel);
  cuFuncGetAttribute(&spills, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, kernel);
  cuOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, threads, 0);
  std::printf("%s: %d registers, %d bytes shared, %d bytes local (spills), %d groups of %d per SM\n", name, registers,
              shared, spills, perSm, threads);
}

// The best of `reps` event times of `work`, in ms.
template <class Work>
float bestMs(int reps, Work work) {
  CUevent start, stop;
  check(cuEventCreate(&start, 0), "cuEventCreate");
  check(cuEventCreate(&stop, 0), "cuEventCreate");
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    cuEventRecord(start, nullptr);
    work();
    cuEventRecord(stop, nullptr);
    check(cuEventSynchronize(stop), "cuEventSynchronize");
    float ms = 0;
    cuEventElapsedTime(&ms, start, stop);
    best = std::min(best, ms);
  }
  return best;
}

}  // namespace probe

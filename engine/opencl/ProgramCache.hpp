#pragma once
// Compiled OpenCL programs that outlive any one fit. In memory: one cl_context per device for the whole process
// (every Context on that device shares it), with its programs keyed by (kernel file, options). On disk: the
// device's binary of each program under the user's cache directory, keyed by the platform, device, driver
// version, source text and options, so that a second start does not compile again. An entry that fails its
// checksum or does not load is rebuilt from source and replaced, never trusted.
#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <string>

namespace gb::ocl {

struct Device;

// Counts since the process started (tests and the profile report read them).
struct ProgramCacheStats {
  std::uint64_t sourceBuilds = 0;     // clBuildProgram from source
  std::uint64_t binaryLoads = 0;      // programs loaded from the disk cache
  std::uint64_t memoryHits = 0;       // programs found already built in this process
  std::uint64_t rejectedEntries = 0;  // disk entries that were corrupt or did not load (then rebuilt)
};
ProgramCacheStats programCacheStats();

// The disk cache's directory: $GAMBOOST_CACHE_DIR, else $XDG_CACHE_HOME/gamboost/kernels, else
// $HOME/.cache/gamboost/kernels; empty when none is writable (then programs are cached in memory only).
// GAMBOOST_CACHE_DIR=off disables the disk cache.
std::string programCacheDirectory();

// Whether programs built on a platform of this name skip the disk cache: PoCL's, unless GAMBOOST_CACHE_DIR names a
// directory or PoCL's own kernel cache is off (POCL_KERNEL_CACHE=0). PoCL keeps its own cache of compiled kernels
// ($POCL_CACHE_DIR), and the binary it returns for a program holds every kernel of the program compiled, so asking
// for it compiles the kernels a run never launches: a first `gamboost fit` on PoCL took 6.7 s with the disk cache
// and 3.4 s without (docs/performance.md, "Program builds on PoCL").
bool skipsDiskCache(const std::string& platformName);
// CL_PLATFORM_NAME of PoCL.
inline constexpr char kPoclPlatformName[] = "Portable Computing Language";

// One device's context and built programs, shared by every Context of the process on that device.
class DeviceContext {
 public:
  explicit DeviceContext(const Device& device);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  cl_context context() const { return context_; }
  // Builds (or returns the cached) program for kernels/<file>.cl with `options`; a failed build throws
  // ComputeError with the build log in its details, and is not cached.
  cl_program program(const std::string& file, const std::string& options);

  // Drops the in-memory programs of every device (tests use it to see the disk cache at work).
  static void forgetBuiltPrograms();

 private:
  struct State;
  std::unique_ptr<State> s_;
  cl_context context_ = nullptr;
};

// The process's DeviceContext for a device (created on first use, kept until the process ends).
std::shared_ptr<DeviceContext> sharedDeviceContext(const Device& device);

// The source a program is built from: kernels/common.cl (the precision preamble and the shared helpers), a
// "#line 1", then kernels/<file>.cl; `file` may name several files joined by '+' ("compact_update+compact_cross"),
// each put in that order after its own "#line 1". The disk cache's key hashes this whole text. Throws ComputeError
// for a file that is not embedded.
std::string programSource(const std::string& file);

}  // namespace gb::ocl

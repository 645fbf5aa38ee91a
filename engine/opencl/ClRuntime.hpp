#pragma once
// Thin RAII layer over the OpenCL C API (the C++ header is not on every machine we target).
// Every status is checked in one place (check()); destructors never throw. Program builds are cached for the
// whole process and on disk (opencl/ProgramCache.hpp); a failed build throws ComputeError carrying the build log.
#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/ComputeDevices.hpp"

namespace gb::ocl {

// "CL_OUT_OF_RESOURCES" for -5, etc.
const char* statusName(cl_int status);
// Throws ComputeError("OpenCL call <call> failed: <NAME> (<code>)") unless status == CL_SUCCESS.
void check(cl_int status, const char* call);

// Makes POCL_CACHE_DIR point at a writable directory before the first OpenCL call (PoCL otherwise reports
// zero devices). Idempotent; respects a writable POCL_CACHE_DIR already set.
void ensureWritablePoclCache();

struct Device {
  cl_platform_id platform = nullptr;
  cl_device_id id = nullptr;
  ComputeDeviceInfo info;  // backend = "opencl"
};

// All devices of all platforms (never throws; *whyNone gets one line when the list is empty).
std::vector<Device> listDevices(std::string* whyNone = nullptr);
// The device `substring` names (case-insensitive substring of "platform / device"), else $GAMBOOST_DEVICE,
// else the first GPU, else the first CPU device. Throws InputError("--device: ...") listing what exists,
// or InputError("--backend opencl: no OpenCL platform ...") when there is none.
Device chooseDevice(const std::string& substring);

class DeviceContext;

// One in-order profiling queue on one device, in the process's shared context of that device (so programs
// built for one fit serve the next).
class Context {
 public:
  explicit Context(const Device& device);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Device& device() const { return device_; }
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  bool hasFp64() const { return device_.info.fp64; }
  void finish() const;

  // Builds (or returns the cached) program for kernels/<file>.cl with `options` (e.g. "-DK=16 -DREAL=float").
  cl_program program(const std::string& file, const std::string& options);
  // A new kernel object (caller owns: wrap in Kernel).
  cl_kernel kernel(const std::string& file, const std::string& name, const std::string& options);

 private:
  Device device_;
  std::shared_ptr<DeviceContext> shared_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

// Bytes held by all live Buffers of this process (tests assert that a refused request allocated nothing).
std::uint64_t liveBufferBytes();

// Device buffer of `bytes`; throws ComputeError naming the bytes and the device's limits if it cannot be made.
class Buffer {
 public:
  Buffer() = default;
  Buffer(Context& ctx, std::size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  cl_mem get() const { return mem_; }
  std::size_t bytes() const { return bytes_; }
  void write(Context& ctx, const void* host, std::size_t bytes, std::size_t offset = 0);
  // The write queued without waiting: `host` must stay unchanged until a later blocking call on ctx's queue (a
  // read, finish()) has returned.
  void enqueueWrite(Context& ctx, const void* host, std::size_t bytes, std::size_t offset = 0);
  void read(Context& ctx, void* host, std::size_t bytes, std::size_t offset = 0) const;
  // The read queued without waiting: `host` holds the values once a later blocking call on ctx's queue returned.
  void enqueueRead(Context& ctx, void* host, std::size_t bytes, std::size_t offset = 0) const;
  void fill(Context& ctx, const void* pattern, std::size_t patternBytes);

 private:
  cl_mem mem_ = nullptr;
  std::size_t bytes_ = 0;
};

// The one float/double conversion between host doubles and a device buffer of REALs (float or double as isDouble).
Buffer uploadReals(Context& ctx, const std::vector<double>& values, bool isDouble);
std::vector<double> downloadReals(Context& ctx, const Buffer& buffer, std::size_t count, bool isDouble);

// Kernel handle with checked argument setting and launch.
class Kernel {
 public:
  Kernel() = default;
  explicit Kernel(cl_kernel k) : k_(k) {}
  ~Kernel();
  Kernel(Kernel&& other) noexcept;
  Kernel& operator=(Kernel&& other) noexcept;
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  cl_kernel get() const { return k_; }
  template <typename T>
  void arg(cl_uint index, const T& value) {
    check(clSetKernelArg(k_, index, sizeof(T), &value), "clSetKernelArg");
  }
  void arg(cl_uint index, const Buffer& buffer) { arg(index, buffer.get()); }
  void localArg(cl_uint index, std::size_t bytes) {
    check(clSetKernelArg(k_, index, bytes, nullptr), "clSetKernelArg(local)");
  }
  // Enqueues an NDRange (1-3 dims; local may be empty). Returns the event if `event` is non-null (caller releases).
  // While a RunProfile is active (common/RunProfile.hpp) every launch also gives it an event under the kernel's name.
  void launch(Context& ctx, const std::vector<std::size_t>& global, const std::vector<std::size_t>& local = {},
              cl_event* event = nullptr);
  // The fewest bytes the next launches move (for the profile's floor; 0: unknown). Kept until set again.
  void setProfileBytes(std::uint64_t bytes) { profileBytes_ = bytes; }

 private:
  const std::string& name() const;  // the kernel function's name, asked once

  cl_kernel k_ = nullptr;
  mutable std::string name_;
  std::uint64_t profileBytes_ = 0;
};

// Events the profiling hook has requested in this process (stays unchanged while no RunProfile is active).
std::uint64_t profiledLaunches();

// Seconds between an event's CL_PROFILING_COMMAND_START and _END; releases the event (also when a call fails).
double eventSeconds(cl_event event);
// Seconds from the first event's START to the last event's END (a launcher's several kernels, in order);
// releases every event and clears the vector. 0 for an empty vector.
double eventsSeconds(std::vector<cl_event>& events);

}  // namespace gb::ocl

#include "opencl/ClRuntime.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

#include "common/Error.hpp"
#include "common/RunProfile.hpp"
#include "opencl/DeviceAddress.hpp"
#include "opencl/ProgramCache.hpp"

namespace gb::ocl {

namespace {

bool writableDirectory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return std::filesystem::is_directory(dir, ec) && ::access(dir.c_str(), W_OK | X_OK) == 0;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// A string property through clGetPlatformInfo / clGetDeviceInfo (size query, then the text); "" on failure.
template <typename Object, typename Info>
std::string infoString(cl_int (*get)(Object, Info, std::size_t, void*, std::size_t*), Object object, Info what) {
  std::size_t size = 0;
  if (get(object, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  if (get(object, what, size, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

std::string platformString(cl_platform_id p, cl_platform_info what) { return infoString(&clGetPlatformInfo, p, what); }

std::string deviceString(cl_device_id d, cl_device_info what) { return infoString(&clGetDeviceInfo, d, what); }

template <typename T>
T deviceValue(cl_device_id d, cl_device_info what) {
  T value{};
  if (clGetDeviceInfo(d, what, sizeof(T), &value, nullptr) != CL_SUCCESS) return T{};
  return value;
}

std::string typeName(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

ComputeDeviceInfo describe(cl_platform_id platform, cl_device_id id) {
  ComputeDeviceInfo info;
  info.backend = "opencl";
  info.platform = platformString(platform, CL_PLATFORM_NAME);
  info.name = deviceString(id, CL_DEVICE_NAME);
  info.type = typeName(deviceValue<cl_device_type>(id, CL_DEVICE_TYPE));
  info.computeUnits = static_cast<int>(deviceValue<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS));
  info.globalMemoryBytes = deviceValue<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.maxAllocationBytes = deviceValue<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.localMemoryBytes = deviceValue<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE);
  const std::string extensions = deviceString(id, CL_DEVICE_EXTENSIONS);
  info.fp64 = extensions.find("cl_khr_fp64") != std::string::npos ||
              deviceValue<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  info.version = deviceString(id, CL_DEVICE_VERSION);
  return info;
}

std::string describeList(const std::vector<Device>& devices) {
  std::string out;
  for (const Device& d : devices)
    out += (out.empty() ? "" : "; ") + d.info.address + " " + d.info.platform + " / " + d.info.name;
  return out;
}

}  // namespace

void ensureWritablePoclCache() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (const char* set = std::getenv("POCL_CACHE_DIR"); set && *set && writableDirectory(set)) return;
    // PoCL's own default is $XDG_CACHE_HOME/pocl, else $HOME/.cache/pocl: keep it when it works.
    std::filesystem::path fallback;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
      fallback = std::filesystem::path(xdg) / "pocl";
    else if (const char* home = std::getenv("HOME"); home && *home)
      fallback = std::filesystem::path(home) / ".cache" / "pocl";
    if (!fallback.empty() && writableDirectory(fallback)) {
      // An unwritable POCL_CACHE_DIR would win over PoCL's default: point it at the default instead.
      if (std::getenv("POCL_CACHE_DIR")) ::setenv("POCL_CACHE_DIR", fallback.c_str(), 1);
      return;
    }
    const std::filesystem::path tmp =
        std::filesystem::temp_directory_path() / ("gamboost-pocl-cache-" + std::to_string(::getuid()));
    if (writableDirectory(tmp)) ::setenv("POCL_CACHE_DIR", tmp.c_str(), 1);
  });
}

std::vector<Device> listDevices(std::string* whyNone) {
  std::vector<Device> out;
  try {
    ensureWritablePoclCache();
    cl_uint platformCount = 0;
    const cl_int status = clGetPlatformIDs(0, nullptr, &platformCount);
    if (status != CL_SUCCESS || platformCount == 0) {
      if (whyNone)
        *whyNone = "no OpenCL platform found (clGetPlatformIDs: " + std::string(statusName(status)) +
                   "; is an ICD such as pocl-opencl-icd installed?)";
      return out;
    }
    std::vector<cl_platform_id> platforms(platformCount);
    check(clGetPlatformIDs(platformCount, platforms.data(), nullptr), "clGetPlatformIDs");
    for (std::size_t pi = 0; pi < platforms.size(); ++pi) {
      cl_platform_id p = platforms[pi];
      cl_uint count = 0;
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0) continue;
      std::vector<cl_device_id> ids(count);
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr) != CL_SUCCESS) continue;
      for (std::size_t di = 0; di < ids.size(); ++di) {
        out.push_back(Device{p, ids[di], describe(p, ids[di])});
        out.back().info.address = std::to_string(pi) + ":" + std::to_string(di);  // opencl/DeviceAddress.hpp
      }
    }
    if (out.empty() && whyNone)
      *whyNone = std::to_string(platformCount) +
                 " OpenCL platform(s) but no device (PoCL reports none when its "
                 "cache directory is not writable: set POCL_CACHE_DIR)";
    // The default: the first GPU, else the first CPU device, else the first device.
    auto pick = std::find_if(out.begin(), out.end(), [](const Device& d) { return d.info.type == "GPU"; });
    if (pick == out.end())
      pick = std::find_if(out.begin(), out.end(), [](const Device& d) { return d.info.type == "CPU"; });
    if (pick == out.end() && !out.empty()) pick = out.begin();
    if (pick != out.end()) pick->info.isDefault = true;
  } catch (const std::exception& e) {
    out.clear();
    if (whyNone) *whyNone = e.what();
  }
  return out;
}

Device chooseDevice(const std::string& substring) {
  std::string why;
  const std::vector<Device> devices = listDevices(&why);
  if (devices.empty()) throw InputError("--backend opencl: " + why + "; the CPU backend (--backend cpu) works");
  std::string wanted = substring;
  std::string option = "--device";
  if (wanted.empty()) {
    if (const char* env = std::getenv("GAMBOOST_DEVICE"); env && *env) {
      wanted = env;
      option = "GAMBOOST_DEVICE";
    }
  }
  if (wanted.empty()) {
    for (const Device& d : devices)
      if (d.info.isDefault) return d;
    return devices.front();
  }
  if (looksLikeAddress(wanted)) {
    const DeviceAddress address = parseDeviceAddress(wanted, option);
    if (address.parts) throw InputError(option + ": " + wanted + " names sub-devices; give them to --devices");
    return deviceAt(devices, address, option);
  }
  const std::string needle = lower(wanted);
  for (const Device& d : devices)
    if (lower(d.info.platform + " / " + d.info.name).find(needle) != std::string::npos) return d;
  throw InputError(option + ": no OpenCL device matches '" + wanted + "' (available: " + describeList(devices) + ")");
}

// ---------------------------------------------------------------------------------------------------------------

Context::Context(const Device& device) : device_(device), shared_(sharedDeviceContext(device)) {
  context_ = shared_->context();
  cl_int status = CL_SUCCESS;
  const cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  queue_ = clCreateCommandQueueWithProperties(context_, device_.id, qprops, &status);
  if (status != CL_SUCCESS) {
    // OpenCL 1.x devices: the older entry point.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    queue_ = clCreateCommandQueue(context_, device_.id, CL_QUEUE_PROFILING_ENABLE, &status);
#pragma GCC diagnostic pop
  }
  check(status, "clCreateCommandQueue");
}

Context::~Context() {
  if (queue_) {
    clFinish(queue_);
    clReleaseCommandQueue(queue_);
  }
}

void Context::finish() const {
  check(clFinish(queue_), "clFinish");
  if (RunProfile* profile = RunProfile::active()) profile->drain();
}

cl_program Context::program(const std::string& file, const std::string& options) {
  return shared_->program(file, options);
}

cl_kernel Context::kernel(const std::string& file, const std::string& name, const std::string& options) {
  cl_program p = program(file, options);
  cl_int status = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name.c_str(), &status);
  if (status != CL_SUCCESS)
    throw ComputeError("OpenCL call clCreateKernel(" + name + " in kernels/" + file +
                       ".cl) failed: " + statusName(status) + " (" + std::to_string(status) + ")");
  return k;
}

// ---------------------------------------------------------------------------------------------------------------

namespace {
std::atomic<std::uint64_t> liveBytes{0};
std::atomic<std::uint64_t> profiledLaunchCount{0};
}  // namespace

std::uint64_t liveBufferBytes() { return liveBytes.load(); }

Buffer uploadReals(Context& ctx, const std::vector<double>& values, bool isDouble) {
  Buffer b(ctx, values.size() * (isDouble ? 8 : 4));
  if (isDouble) {
    b.write(ctx, values.data(), values.size() * 8);
  } else {
    const std::vector<float> f(values.begin(), values.end());
    b.write(ctx, f.data(), f.size() * 4);
  }
  return b;
}

std::vector<double> downloadReals(Context& ctx, const Buffer& buffer, std::size_t count, bool isDouble) {
  std::vector<double> out(count);
  if (isDouble) {
    buffer.read(ctx, out.data(), count * 8);
  } else {
    std::vector<float> f(count);
    buffer.read(ctx, f.data(), count * 4);
    out.assign(f.begin(), f.end());
  }
  return out;
}

Buffer::Buffer(Context& ctx, std::size_t bytes, cl_mem_flags flags) : bytes_(bytes) {
  const ComputeDeviceInfo& info = ctx.device().info;
  auto limits = [&] {
    std::ostringstream s;
    s << bytes << " bytes on " << info.name << " (max allocation " << info.maxAllocationBytes << ", global memory "
      << info.globalMemoryBytes << ")";
    return s.str();
  };
  if (bytes == 0) throw ComputeError("cannot allocate an empty OpenCL buffer");
  if (info.maxAllocationBytes && bytes > info.maxAllocationBytes)
    throw ComputeError("OpenCL buffer too large: " + limits());
  cl_int status = CL_SUCCESS;
  mem_ = clCreateBuffer(ctx.context(), flags, bytes, nullptr, &status);
  if (status != CL_SUCCESS)
    throw ComputeError("OpenCL call clCreateBuffer failed: " + std::string(statusName(status)) + " for " + limits());
  liveBytes += bytes_;
}

Buffer::~Buffer() {
  if (mem_) {
    clReleaseMemObject(mem_);
    liveBytes -= bytes_;
  }
}

Buffer::Buffer(Buffer&& other) noexcept : mem_(other.mem_), bytes_(other.bytes_) {
  other.mem_ = nullptr;
  other.bytes_ = 0;
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    if (mem_) {
      clReleaseMemObject(mem_);
      liveBytes -= bytes_;
    }
    mem_ = other.mem_;
    bytes_ = other.bytes_;
    other.mem_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

namespace {
// Profiled launches kept before a blocking read drains them (bounds the events alive at once).
constexpr std::size_t kDrainAfterEvents = 4096;

// While profiling, a blocking transfer first waits for the commands queued before it, so that its time is the
// transfer's own and not the kernels' it would otherwise wait for (no effect when profiling is off).
void finishBeforeTransfer(const Context& ctx) {
  if (RunProfile::active()) ctx.finish();
}

void checkRange(std::size_t offset, std::size_t bytes, std::size_t size, const char* what) {
  if (offset > size || bytes > size - offset)
    throw ComputeError(std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                       " exceed the buffer's " + std::to_string(size));
}
}  // namespace

void Buffer::write(Context& ctx, const void* host, std::size_t bytes, std::size_t offset) {
  checkRange(offset, bytes, bytes_, "Buffer::write");
  finishBeforeTransfer(ctx);
  const ScopedStage timed("upload", bytes);
  check(clEnqueueWriteBuffer(ctx.queue(), mem_, CL_TRUE, offset, bytes, host, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void Buffer::enqueueWrite(Context& ctx, const void* host, std::size_t bytes, std::size_t offset) {
  checkRange(offset, bytes, bytes_, "Buffer::enqueueWrite");
  check(clEnqueueWriteBuffer(ctx.queue(), mem_, CL_FALSE, offset, bytes, host, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void Buffer::enqueueRead(Context& ctx, void* host, std::size_t bytes, std::size_t offset) const {
  checkRange(offset, bytes, bytes_, "Buffer::enqueueRead");
  check(clEnqueueReadBuffer(ctx.queue(), mem_, CL_FALSE, offset, bytes, host, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

void Buffer::read(Context& ctx, void* host, std::size_t bytes, std::size_t offset) const {
  checkRange(offset, bytes, bytes_, "Buffer::read");
  finishBeforeTransfer(ctx);
  {
    const ScopedStage timed("download", bytes);
    check(clEnqueueReadBuffer(ctx.queue(), mem_, CL_TRUE, offset, bytes, host, 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
  }
  // A blocking read on the in-order queue: every event before it has completed, so draining waits for nothing.
  if (RunProfile* profile = RunProfile::active(); profile && profile->pendingEvents() >= kDrainAfterEvents)
    profile->drain();
}

void Buffer::fill(Context& ctx, const void* pattern, std::size_t patternBytes) {
  if (patternBytes == 0 || bytes_ % patternBytes != 0)
    throw ComputeError("Buffer::fill: pattern of " + std::to_string(patternBytes) + " bytes does not divide " +
                       std::to_string(bytes_));
  check(clEnqueueFillBuffer(ctx.queue(), mem_, pattern, patternBytes, 0, bytes_, 0, nullptr, nullptr),
        "clEnqueueFillBuffer");
}

// ---------------------------------------------------------------------------------------------------------------

Kernel::~Kernel() {
  if (k_) clReleaseKernel(k_);
}

Kernel::Kernel(Kernel&& other) noexcept
    : k_(other.k_), name_(std::move(other.name_)), profileBytes_(other.profileBytes_) {
  other.k_ = nullptr;
}

Kernel& Kernel::operator=(Kernel&& other) noexcept {
  if (this != &other) {
    if (k_) clReleaseKernel(k_);
    k_ = other.k_;
    name_ = std::move(other.name_);
    profileBytes_ = other.profileBytes_;
    other.k_ = nullptr;
  }
  return *this;
}

const std::string& Kernel::name() const {
  if (name_.empty()) {
    std::size_t size = 0;
    check(clGetKernelInfo(k_, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size), "clGetKernelInfo(FUNCTION_NAME)");
    std::string text(size, '\0');
    check(clGetKernelInfo(k_, CL_KERNEL_FUNCTION_NAME, size, text.data(), nullptr), "clGetKernelInfo(FUNCTION_NAME)");
    text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
    name_ = text.empty() ? std::string("(unnamed kernel)") : text;
  }
  return name_;
}

void Kernel::launch(Context& ctx, const std::vector<std::size_t>& global, const std::vector<std::size_t>& local,
                    cl_event* event) {
  if (global.empty() || global.size() > 3 || (!local.empty() && local.size() != global.size()))
    throw ComputeError("Kernel::launch: bad NDRange dimensions");
  RunProfile* profile = RunProfile::active();
  if (profile) ++profiledLaunchCount;
  cl_event own = nullptr;
  cl_event* wanted = event ? event : (profile ? &own : nullptr);
  check(clEnqueueNDRangeKernel(ctx.queue(), k_, static_cast<cl_uint>(global.size()), nullptr, global.data(),
                               local.empty() ? nullptr : local.data(), 0, nullptr, wanted),
        "clEnqueueNDRangeKernel");
  if (!profile) return;
  if (event) check(clRetainEvent(*event), "clRetainEvent");  // the caller releases its reference, the profile ours
  try {
    profile->addPendingEvent(
        name(), *wanted, [](void* e) { return eventSeconds(static_cast<cl_event>(e)); }, profileBytes_);
  } catch (...) {
    clReleaseEvent(*wanted);
    throw;
  }
}

std::uint64_t profiledLaunches() { return profiledLaunchCount.load(); }

double eventSeconds(cl_event event) {
  cl_ulong start = 0, end = 0;
  cl_int s1 = clWaitForEvents(1, &event);
  cl_int s2 = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr);
  cl_int s3 = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr);
  clReleaseEvent(event);
  check(s1, "clWaitForEvents");
  check(s2, "clGetEventProfilingInfo(START)");
  check(s3, "clGetEventProfilingInfo(END)");
  return static_cast<double>(end - start) * 1e-9;
}

double eventsSeconds(std::vector<cl_event>& events) {
  if (events.empty()) return 0.0;
  cl_ulong start = 0, end = 0;
  cl_int status = clWaitForEvents(static_cast<cl_uint>(events.size()), events.data());
  if (status == CL_SUCCESS)
    status = clGetEventProfilingInfo(events.front(), CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr);
  if (status == CL_SUCCESS)
    status = clGetEventProfilingInfo(events.back(), CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr);
  for (cl_event e : events) clReleaseEvent(e);
  events.clear();
  check(status, "clGetEventProfilingInfo");
  return static_cast<double>(end - start) * 1e-9;
}

}  // namespace gb::ocl

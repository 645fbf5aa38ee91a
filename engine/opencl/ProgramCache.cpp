#include "opencl/ProgramCache.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <vector>

#include "common/Error.hpp"
#include "common/KernelSources.hpp"
#include "common/RunProfile.hpp"
#include "opencl/ClRuntime.hpp"

namespace gb::ocl {

namespace fs = std::filesystem;

namespace {

std::atomic<std::uint64_t> sourceBuilds{0}, binaryLoads{0}, memoryHits{0}, rejectedEntries{0};

// FNV-1a, 64 bits: a cache key and a checksum, not a defence against an adversary (the cache directory is the
// user's own).
std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash = 14695981039346656037ULL) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ULL;
  return hash;
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t hash) { return fnv1a(text.data(), text.size(), hash); }

constexpr char kMagic[8] = {'G', 'B', 'P', 'R', 'O', 'G', '1', '\n'};
// A program binary larger than this is not cached (none of ours comes near; a bad size must not allocate).
constexpr std::uint64_t kMaxBinaryBytes = std::uint64_t{256} << 20;

std::string deviceInfoString(cl_device_id id, cl_device_info what) {
  std::size_t size = 0;
  if (clGetDeviceInfo(id, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  if (clGetDeviceInfo(id, what, size, s.data(), nullptr) != CL_SUCCESS) return {};
  return s.substr(0, s.find('\0'));
}

std::string platformVersion(cl_platform_id platform) {
  std::size_t size = 0;
  if (clGetPlatformInfo(platform, CL_PLATFORM_VERSION, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  if (clGetPlatformInfo(platform, CL_PLATFORM_VERSION, size, s.data(), nullptr) != CL_SUCCESS) return {};
  return s.substr(0, s.find('\0'));
}

bool writableDirectory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  return fs::is_directory(dir, ec) && ::access(dir.c_str(), W_OK | X_OK) == 0;
}

std::string buildLog(cl_program program, cl_device_id device) {
  std::string log;
  std::size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) == CL_SUCCESS && size > 0) {
    log.resize(size);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  }
  return log;
}

// The device binary of a built program (empty if the driver gives none).
std::vector<unsigned char> programBinary(cl_program program) {
  std::size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS || size == 0 ||
      size > kMaxBinaryBytes)
    return {};
  std::vector<unsigned char> binary(size);
  unsigned char* pointer = binary.data();
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr) != CL_SUCCESS) return {};
  return binary;
}

// Best effort: a cache that cannot be written only costs the next start a compile.
void storeEntry(const fs::path& file, const std::vector<unsigned char>& binary) {
  if (binary.empty()) return;
  const fs::path temporary = file.string() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    const std::uint64_t size = binary.size(), sum = fnv1a(binary.data(), binary.size());
    out.write(kMagic, sizeof kMagic);
    out.write(reinterpret_cast<const char*>(&size), sizeof size);
    out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
    out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    if (!out.flush()) {
      std::error_code ec;
      fs::remove(temporary, ec);
      return;
    }
  }
  std::error_code ec;
  fs::rename(temporary, file, ec);
  if (ec) fs::remove(temporary, ec);
}

// The binary stored in `file`, or empty when the file is absent, truncated or fails its checksum.
std::vector<unsigned char> loadEntry(const fs::path& file, bool* corrupt) {
  *corrupt = false;
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  char magic[sizeof kMagic];
  std::uint64_t size = 0, sum = 0;
  in.read(magic, sizeof magic);
  in.read(reinterpret_cast<char*>(&size), sizeof size);
  in.read(reinterpret_cast<char*>(&sum), sizeof sum);
  *corrupt = true;
  if (!in || std::memcmp(magic, kMagic, sizeof kMagic) != 0 || size == 0 || size > kMaxBinaryBytes) return {};
  std::vector<unsigned char> binary(size);
  in.read(reinterpret_cast<char*>(binary.data()), static_cast<std::streamsize>(size));
  if (!in || in.peek() != std::char_traits<char>::eof() || fnv1a(binary.data(), binary.size()) != sum) return {};
  *corrupt = false;
  return binary;
}

// $GAMBOOST_CACHE_DIR as the user set it; empty when unset.
std::string cacheDirSetting() {
  const char* set = std::getenv("GAMBOOST_CACHE_DIR");
  return set ? set : "";
}

}  // namespace

bool skipsDiskCache(const std::string& platformName) {
  if (platformName != kPoclPlatformName) return false;
  const char* own = std::getenv("POCL_KERNEL_CACHE");  // PoCL's switch for its own cache
  if (own && std::string(own) == "0") return false;
  const std::string set = cacheDirSetting();
  return set.empty() || set == "off";  // not a directory the user named
}

ProgramCacheStats programCacheStats() {
  return {sourceBuilds.load(), binaryLoads.load(), memoryHits.load(), rejectedEntries.load()};
}

std::string programCacheDirectory() {
  fs::path dir;
  if (const std::string set = cacheDirSetting(); !set.empty()) {
    if (set == "off") return {};
    dir = set;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    dir = fs::path(xdg) / "gamboost" / "kernels";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = fs::path(home) / ".cache" / "gamboost" / "kernels";
  }
  return !dir.empty() && writableDirectory(dir) ? dir.string() : std::string();
}

struct DeviceContext::State {
  Device device;
  std::string deviceKey;  // platform, device and driver versions: part of every disk key
  std::mutex mutex;
  std::map<std::pair<std::string, std::string>, cl_program> programs;  // (file, options) -> program

  cl_program fromBinary(cl_context context, const std::vector<unsigned char>& binary, const std::string& options);
  cl_program fromSource(cl_context context, const std::string& file, const std::string& source,
                        const std::string& options);
};

cl_program DeviceContext::State::fromBinary(cl_context context, const std::vector<unsigned char>& binary,
                                            const std::string& options) {
  const unsigned char* data = binary.data();
  const std::size_t size = binary.size();
  cl_int binaryStatus = CL_SUCCESS, status = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context, 1, &device.id, &size, &data, &binaryStatus, &status);
  if (status != CL_SUCCESS || binaryStatus != CL_SUCCESS) {
    if (program) clReleaseProgram(program);
    return nullptr;
  }
  const ScopedStage timed("program builds (from cached binaries)");
  if (clBuildProgram(program, 1, &device.id, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    clReleaseProgram(program);
    return nullptr;
  }
  return program;
}

cl_program DeviceContext::State::fromSource(cl_context context, const std::string& file, const std::string& source,
                                            const std::string& options) {
  const char* text = source.c_str();
  const std::size_t length = source.size();
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, &length, &status);
  check(status, "clCreateProgramWithSource");
  const ScopedStage timed("program builds (from source)");
  status = clBuildProgram(program, 1, &device.id, options.c_str(), nullptr, nullptr);
  ++sourceBuilds;
  if (status != CL_SUCCESS) {
    const std::string log = buildLog(program, device.id);
    clReleaseProgram(program);
    throw ComputeError("building kernels/" + file + ".cl with options '" + options + "' on " + device.info.name +
                           " failed: " + statusName(status) + " (the build log is in the details)",
                       log.empty() ? std::string("(the compiler gave no log)") : log);
  }
  return program;
}

DeviceContext::DeviceContext(const Device& device) : s_(std::make_unique<State>()) {
  s_->device = device;
  s_->deviceKey = device.info.platform + "\n" + platformVersion(device.platform) + "\n" + device.info.name + "\n" +
                  device.info.version + "\n" + deviceInfoString(device.id, CL_DRIVER_VERSION);
  cl_int status = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device.platform),
                                         0};
  context_ = clCreateContext(props, 1, &s_->device.id, nullptr, nullptr, &status);
  check(status, "clCreateContext");
}

DeviceContext::~DeviceContext() {
  for (auto& [key, program] : s_->programs) clReleaseProgram(program);
  if (context_) clReleaseContext(context_);
}

std::string programSource(const std::string& file) {
  std::string source = kernelSource("common");
  std::size_t begin = 0;
  while (begin <= file.size()) {
    const std::size_t plus = std::min(file.find('+', begin), file.size());
    const std::string part = file.substr(begin, plus - begin);
    try {
      source += "\n#line 1\n" + kernelSource(part);
    } catch (const std::out_of_range&) {
      throw ComputeError("no kernel file kernels/" + part + ".cl embedded in this build");
    }
    begin = plus + 1;
  }
  return source;
}

cl_program DeviceContext::program(const std::string& file, const std::string& options) {
  std::lock_guard<std::mutex> lock(s_->mutex);
  const auto key = std::make_pair(file, options);
  if (auto it = s_->programs.find(key); it != s_->programs.end()) {
    ++memoryHits;
    return it->second;
  }
  const std::string assembled = programSource(file);
  const std::string* source = &assembled;
  cl_program program = nullptr;
  const std::string directory = skipsDiskCache(s_->device.info.platform) ? std::string() : programCacheDirectory();
  fs::path entry;
  if (!directory.empty()) {
    const std::uint64_t hash =
        fnv1a(options, fnv1a(*source, fnv1a(s_->deviceKey, fnv1a(file, 14695981039346656037ULL))));
    char name[40];
    std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(hash));
    entry = fs::path(directory) / name;
    bool corrupt = false;
    const std::vector<unsigned char> binary = loadEntry(entry, &corrupt);
    if (!binary.empty()) program = s_->fromBinary(context_, binary, options);
    if (program) {
      ++binaryLoads;
    } else if (corrupt || !binary.empty()) {
      ++rejectedEntries;
      std::error_code ec;
      fs::remove(entry, ec);
    }
  }
  if (!program) {
    program = s_->fromSource(context_, file, *source, options);
    if (!entry.empty()) {
      const ScopedStage timed("program binaries (for the disk cache)");
      storeEntry(entry, programBinary(program));
    }
  }
  s_->programs.emplace(key, program);
  return program;
}

namespace {

// Never destroyed: OpenCL drivers tear themselves down at exit in an unspecified order, and releasing a context
// after that crashes some of them. The contexts live as long as the process, which is the point.
struct Registry {
  std::mutex mutex;
  std::map<cl_device_id, std::shared_ptr<DeviceContext>> contexts;
};
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

}  // namespace

std::shared_ptr<DeviceContext> sharedDeviceContext(const Device& device) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::shared_ptr<DeviceContext>& slot = r.contexts[device.id];
  if (!slot) slot = std::make_shared<DeviceContext>(device);
  return slot;
}

void DeviceContext::forgetBuiltPrograms() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto& [id, context] : r.contexts) {
    std::lock_guard<std::mutex> programsLock(context->s_->mutex);
    for (auto& [key, program] : context->s_->programs) clReleaseProgram(program);
    context->s_->programs.clear();
  }
}

}  // namespace gb::ocl

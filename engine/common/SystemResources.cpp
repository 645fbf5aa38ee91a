#include "common/SystemResources.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>

#include "common/Error.hpp"

namespace gb {

namespace {

constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

// A line "Key:   12345 kB" of /proc/meminfo, in bytes; kUnknown when absent.
std::uint64_t meminfoBytes(const std::string& key) {
  std::ifstream in("/proc/meminfo");
  std::string name;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> name >> kib) {
    std::getline(in, unit);
    if (name == key + ":") return kib * 1024;
  }
  return kUnknown;
}

// Address space mapped now (VmSize), to subtract from RLIMIT_AS.
std::uint64_t mappedBytes() {
  std::ifstream in("/proc/self/statm");
  std::uint64_t pages = 0;
  if (!(in >> pages)) return 0;
  return pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace

std::uint64_t availableMemoryBytes() {
  std::uint64_t available = meminfoBytes("MemAvailable");
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t mapped = mappedBytes();
    const std::uint64_t cap = static_cast<std::uint64_t>(limit.rlim_cur);
    available = std::min(available, cap > mapped ? cap - mapped : 0);
  }
  return available;
}

std::uint64_t freeDiskBytes(const std::string& directory) {
  struct statvfs fs {};
  if (::statvfs(directory.empty() ? "." : directory.c_str(), &fs) != 0) return kUnknown;
  return static_cast<std::uint64_t>(fs.f_bavail) * static_cast<std::uint64_t>(fs.f_frsize);
}

int availableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 1;
}

std::string describeBytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 6) {
    value /= 1024.0;
    ++unit;
  }
  char text[48];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

void requireAvailableMemory(double bytes, const std::string& option, const std::string& what, const std::string& memory,
                            const std::string& tail) {
  const std::uint64_t available = availableMemoryBytes();
  if (bytes <= static_cast<double>(available)) return;
  throw InputError(optionMessage(
      option, what + " need about " + describeBytes(static_cast<std::uint64_t>(std::min(bytes, 1.8e19))) + " of " +
                  memory + "; this machine has " + describeBytes(available) + " available" + tail));
}

}  // namespace gb

#include "opencl/DeviceAddress.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

#include "common/Error.hpp"

namespace gb::ocl {

namespace {

bool allDigits(const std::string& s) {
  return !s.empty() && s.size() <= 6 &&
         std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; });
}

std::string available(const std::vector<Device>& devices) {
  std::string out;
  for (const Device& d : devices) out += (out.empty() ? "" : "; ") + d.info.address + " " + d.info.name;
  return out.empty() ? "none" : out;
}

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The first device whose "platform / name" contains `text` (case-insensitive), as --device picks one.
Device deviceNamed(const std::vector<Device>& devices, const std::string& text, const std::string& option) {
  for (const Device& d : devices)
    if (lower(d.info.platform + " / " + d.info.name).find(lower(text)) != std::string::npos) return d;
  throw InputError(option + ": no OpenCL device matches '" + text + "' (available: " + available(devices) + ")");
}

// Sub-devices live for the whole process, keyed by (parent, parts).
struct SubDeviceRegistry {
  std::mutex mutex;
  std::map<std::pair<cl_device_id, int>, std::vector<Device>> made;
};
SubDeviceRegistry& subDeviceRegistry() {
  static SubDeviceRegistry* registry = new SubDeviceRegistry;  // never destroyed: devices outlive static teardown
  return *registry;
}

std::vector<Device> partition(const Device& parent, int parts, const std::string& option) {
  const int units = parent.info.computeUnits;
  const std::string what = option + ": " + parent.info.address + " (" + parent.info.name + ", " +
                           std::to_string(units) + " compute units) cannot be split into " + std::to_string(parts);
  if (units < parts || units % parts != 0)
    throw InputError(what + " equal parts (the parts must divide its compute units)");
  const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                static_cast<cl_device_partition_property>(units / parts), 0};
  cl_uint count = 0;
  cl_int status = clCreateSubDevices(parent.id, props, 0, nullptr, &count);
  if (status != CL_SUCCESS || count < static_cast<cl_uint>(parts))
    throw InputError(what + " (clCreateSubDevices: " + statusName(status) + ")");
  std::vector<cl_device_id> ids(count);
  check(clCreateSubDevices(parent.id, props, count, ids.data(), nullptr), "clCreateSubDevices");
  for (cl_uint i = static_cast<cl_uint>(parts); i < count; ++i) clReleaseDevice(ids[i]);  // only N equal parts used
  std::vector<Device> out;
  for (int i = 0; i < parts; ++i) {
    Device d = parent;
    d.id = ids[static_cast<std::size_t>(i)];
    d.info.computeUnits = units / parts;
    d.info.name = parent.info.name + " (part " + std::to_string(i + 1) + "/" + std::to_string(parts) + ")";
    d.info.address = parent.info.address + "/" + std::to_string(parts) + "." + std::to_string(i);
    d.info.isDefault = false;
    out.push_back(d);
  }
  return out;
}

}  // namespace

bool looksLikeAddress(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) return false;
  const std::size_t slash = text.find('/', colon);
  const std::string p = text.substr(0, colon);
  const std::string d = text.substr(colon + 1, slash == std::string::npos ? std::string::npos : slash - colon - 1);
  return allDigits(p) && allDigits(d) && (slash == std::string::npos || allDigits(text.substr(slash + 1)));
}

DeviceAddress parseDeviceAddress(const std::string& text, const std::string& option) {
  if (!looksLikeAddress(text))
    throw InputError(option + ": '" + text +
                     "' is not a device address (P:D, platform and device index as `gamboost devices` shows, or "
                     "P:D/N for N equal sub-devices)");
  DeviceAddress a;
  const std::size_t colon = text.find(':'), slash = text.find('/');
  a.platform = std::stoi(text.substr(0, colon));
  a.device = std::stoi(text.substr(colon + 1, slash == std::string::npos ? std::string::npos : slash - colon - 1));
  if (slash != std::string::npos) {
    a.parts = std::stoi(text.substr(slash + 1));
    if (a.parts < 2) throw InputError(option + ": '" + text + "' splits into fewer than 2 parts (P:D/N, N >= 2)");
  }
  return a;
}

Device deviceAt(const std::vector<Device>& devices, const DeviceAddress& address, const std::string& option) {
  const std::string wanted = std::to_string(address.platform) + ":" + std::to_string(address.device);
  for (const Device& d : devices)
    if (d.info.address == wanted) return d;
  throw InputError(option + ": no OpenCL device at " + wanted + " (available: " + available(devices) + ")");
}

std::vector<Device> subDevices(const Device& parent, int parts, const std::string& option) {
  SubDeviceRegistry& r = subDeviceRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<Device>& slot = r.made[{parent.id, parts}];
  if (slot.empty()) slot = partition(parent, parts, option);
  return slot;
}

std::vector<Device> resolveDeviceList(const std::vector<std::string>& entries) {
  const std::string option = "--devices";
  if (entries.empty()) throw InputError(option + ": give at least one device (P:D, P:D/N or a name)");
  std::string why;
  const std::vector<Device> devices = listDevices(&why);
  if (devices.empty()) throw InputError(option + ": " + why);
  std::vector<Device> out;
  for (const std::string& entry : entries) {
    if (looksLikeAddress(entry)) {
      const DeviceAddress a = parseDeviceAddress(entry, option);
      const Device d = deviceAt(devices, a, option);
      for (const Device& part : a.parts ? subDevices(d, a.parts, option) : std::vector<Device>{d}) out.push_back(part);
    } else {
      if (entry.empty()) throw InputError(option + ": an empty entry in the list (P:D, P:D/N or a name, by commas)");
      out.push_back(deviceNamed(devices, entry, option));
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (out[i].id == out[j].id)
        throw InputError(option + ": " + out[i].info.address + " (" + out[i].info.name +
                         ") is named twice; give each device once, or split one with P:D/N");
  return out;
}

}  // namespace gb::ocl

#pragma once
// Unambiguous OpenCL device addresses (issue 15): "P:D" is device D of platform P, both 0-based in the order the
// OpenCL ICD loader lists them (`gamboost devices` shows them), so two GPUs of one name can be told apart.
// "P:D/N" splits that device into N equal sub-devices (clCreateSubDevices, CL_DEVICE_PARTITION_EQUALLY): N shards of
// one device, e.g. two halves of PoCL's CPU device to test the sharded backend on a CPU.
#include <string>
#include <vector>

#include "opencl/ClRuntime.hpp"

namespace gb::ocl {

struct DeviceAddress {
  int platform = 0, device = 0;
  int parts = 0;  // 0: the whole device; N >= 2: its N sub-devices
};

// Whether `text` has the form of an address ("P:D" or "P:D/N", digits only).
bool looksLikeAddress(const std::string& text);
// Parses an address; throws InputError "<option>: ..." for a malformed one (N must be >= 2).
DeviceAddress parseDeviceAddress(const std::string& text, const std::string& option);
// The listed device at `address` (parts ignored); throws InputError "<option>: no OpenCL device at P:D (...)".
Device deviceAt(const std::vector<Device>& devices, const DeviceAddress& address, const std::string& option);
// The `parts` equal sub-devices of `parent`, made once per process and kept (a later fit reuses them, and their
// programs). Their info: the parent's, with computeUnits divided, name "<name> (part i/N)", address "P:D/N.i".
// Throws InputError "<option>: ..." when the device cannot be split that way.
std::vector<Device> subDevices(const Device& parent, int parts, const std::string& option);
// The devices of a --devices list: each entry an address ("P:D" or "P:D/N", which gives N devices) or a name
// substring as --device takes; throws InputError "--devices: ..." for an empty list, an unknown entry or one device
// named twice.
std::vector<Device> resolveDeviceList(const std::vector<std::string>& entries);

}  // namespace gb::ocl

// gamboost devices: what can run a fit (the CPU backend always, plus every OpenCL device).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "Commands.hpp"
#include "compute/ComputeDevices.hpp"

namespace gb::cli {
namespace {

struct DevicesOptions {
  bool json = false;
};

nlohmann::json toJson(const ComputeDeviceList& list) {
  nlohmann::json devices = nlohmann::json::array();
  for (const ComputeDeviceInfo& d : list.devices) {
    devices.push_back({{"backend", d.backend},
                       {"address", d.address},
                       {"platform", d.platform},
                       {"device", d.name},
                       {"type", d.type},
                       {"compute_units", d.computeUnits},
                       {"global_memory_bytes", d.globalMemoryBytes},
                       {"max_allocation_bytes", d.maxAllocationBytes},
                       {"fp64", d.fp64},
                       {"version", d.version},
                       {"default", d.isDefault}});
  }
  return {{"devices", devices}, {"opencl_status", list.openClStatus}};
}

void printDevices(const ComputeDeviceList& list) {
  std::vector<std::vector<std::string>> rows;
  for (const ComputeDeviceInfo& d : list.devices) {
    rows.push_back({d.isDefault ? "*" : "", d.backend, d.address.empty() ? "-" : d.address,
                    d.platform.empty() ? "-" : d.platform, d.name, d.type, std::to_string(d.computeUnits),
                    d.globalMemoryBytes ? formatBytes(d.globalMemoryBytes) : "-", d.fp64 ? "yes" : "no"});
  }
  printTable(std::cout, {"", "backend", "address", "platform", "device", "type", "units", "memory", "fp64"}, rows);
  std::cout << "(* = the device a plain --backend opencl uses; pick another with --device P:D or part of its name;\n"
               " several at once: --devices P:D,P:D; P:D/N splits one device into N equal sub-devices)\n";
  if (!list.openClStatus.empty()) std::cout << "OpenCL: " << list.openClStatus << '\n';
}

}  // namespace

Command addDevicesCommand(CLI::App& app) {
  auto options = std::make_shared<DevicesOptions>();
  CLI::App* sub = app.add_subcommand("devices", "List the compute devices a fit can run on.");
  sub->add_flag("--json", options->json, "Print the list as JSON");
  return {sub, [options]() {
            const ComputeDeviceList list = listComputeDevices();
            if (options->json)
              std::cout << toJson(list).dump(2) << '\n';
            else
              printDevices(list);
            return 0;
          }};
}

}  // namespace gb::cli

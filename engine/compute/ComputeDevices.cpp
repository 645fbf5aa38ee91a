#include "compute/ComputeDevices.hpp"

#include <omp.h>

#ifdef GB_HAVE_OPENCL
#include "opencl/ClRuntime.hpp"
#endif

namespace gb {

ComputeDeviceList listComputeDevices() {
  ComputeDeviceList list;
  ComputeDeviceInfo cpu;
  cpu.backend = "cpu";
  cpu.computeUnits = omp_get_num_procs();
  cpu.name = std::to_string(cpu.computeUnits) + "-core CPU (Eigen, OpenMP)";
  cpu.type = "CPU";
  cpu.fp64 = true;
  list.devices.push_back(cpu);
#ifdef GB_HAVE_OPENCL
  for (const ocl::Device& d : ocl::listDevices(&list.openClStatus)) list.devices.push_back(d.info);
#else
  list.openClStatus = "this build has no OpenCL support (GB_WITH_OPENCL=OFF)";
#endif
  return list;
}

}  // namespace gb

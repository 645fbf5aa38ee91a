#pragma once
// The copy bandwidths that floors are measured against, counting bytes read + written: the host's memory (a
// parallel memcpy over all cores) and an OpenCL device's (clEnqueueCopyBuffer on a large buffer).
#include <cstddef>

namespace gb {

namespace ocl {
class Context;
}

// GB/s of a memcpy of `bytes` split over the OpenMP threads; the best of a few repetitions after a warm-up.
double hostCopyBandwidth(std::size_t bytes = std::size_t{256} << 20);
// The size of the host's largest cache (Linux sysfs; 32 MiB where it cannot be read).
std::size_t largestHostCacheBytes();
// GB/s of clEnqueueCopyBuffer on the device (1 GiB on a GPU, 256 MiB otherwise, within the device's limits); the
// median of 10 copies after a warm-up, from event timestamps.
double deviceCopyBandwidth(ocl::Context& ctx);
// GB/s of a host-to-device write from a pinned (mapped) host buffer of up to 256 MiB, counting the bytes once: the
// link's rate on a GPU, a memcpy on a CPU device. The best of 4 writes after a warm-up, from event timestamps.
double hostToDeviceBandwidth(ocl::Context& ctx);

}  // namespace gb

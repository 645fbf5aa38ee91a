#pragma once
// Large host-to-device transfers at the PCIe rate: columns of doubles are converted to the device's REAL on all cores
// into pinned staging buffers (CL_MEM_ALLOC_HOST_PTR, mapped), two in turn, and each filled buffer goes to the device
// by a non-blocking write while the next one is converted. A plain Buffer::write from pageable memory makes the
// driver copy through its own bounce buffer first and overlaps nothing.
#include <cstddef>
#include <vector>

#include "opencl/ClRuntime.hpp"

namespace gb::ocl {

// Writes columns[0], columns[1], ... (each `rows` doubles) one after another into `buffer`, starting at REAL index
// `offset`, as float or double, each less its shift where `shifts` is given (one a column, subtracted in double).
// Returns when the data is on the device. Throws ComputeError naming the call on any OpenCL failure (and waits for
// what it enqueued first).
void uploadColumns(Context& ctx, Buffer& buffer, const std::vector<const double*>& columns, std::size_t rows,
                   bool isDouble, std::size_t offset = 0, const std::vector<double>* shifts = nullptr);

// Bytes of one staging buffer (two are used where the transfer is larger): a 64th of the transfer within these
// bounds; a smaller transfer stages just its size. 16 MiB is still 0.6 ms of PCIe per chunk at n = 1e7.
constexpr std::size_t kStagingMinBytes = std::size_t(1) << 20;
constexpr std::size_t kStagingBytes = std::size_t(16) << 20;

}  // namespace gb::ocl

#pragma once
// The one table of -D defines and launch shapes of the dense gemv kernels (kernels/gemv_*.cl). The compact and
// iteration kernels have their own table (KernelParameters.hpp); the two share nothing but the device facts.
//
// Every dense kernel computes y[r] = sum_{c < n} A[r, c] x[c] for r < m, with A a strided view of the row-major
// design matrix B (rows x cols):
//   B'g     (transposed): m = cols, n = rows, A[r, c] = B[c * cols + r];
//   B*delta (forward):    m = rows, n = k,    A[r, c] = B[r * cols + j * k + c].
#include <cstddef>
#include <string>
#include <vector>

#include "compute/ComputeDevices.hpp"
#include "opencl/DenseGemv.hpp"

namespace gb::ocl {

struct DenseDeviceLimits {
  std::size_t maxWorkGroup = 256;        // CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::size_t localMemoryBytes = 32768;  // CL_DEVICE_LOCAL_MEM_SIZE
  int computeUnits = 1;
  bool gpu = false;
};

// One kernel launch (or the first of two) with its defines.
struct DenseLaunch {
  std::string file;     // kernels/<file>.cl
  std::string kernel;   // entry point
  std::string options;  // "-DREAL=float -DP=16 ..."
  std::vector<std::size_t> global, local;
  std::size_t localBytes = 0;    // size of the __local argument (v1, v2), 0 if none
  std::size_t slices = 1;        // v2: P (partials per row); split-K: row blocks
  std::size_t rowsPerBlock = 0;  // split-K: rows per block
  std::string reduceKernel;      // second pass ("" : none)
  std::vector<std::size_t> reduceGlobal, reduceLocal;
};

// Launch for `kernel` (naive, v1, v2, splitk) on the product described above. For the forward product `sumLength`
// is k and `cols` the row stride; for B'g, sumLength = rows. Throws ComputeError for DenseKernel::ClBlast.
DenseLaunch denseLaunch(DenseKernel kernel, bool forward, std::size_t outputs, std::size_t sumLength, std::size_t cols,
                        bool doublePrecision, const DenseDeviceLimits& device);

}  // namespace gb::ocl

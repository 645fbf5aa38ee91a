#pragma once
// The batched compact B'g from a packed copy of x sorted by interval (kernels/compact_packed.cl has the layout).
// Each row and learner takes 4 bytes, as x in float does. Its interval follows from its place in the sort, so a GPU
// lane sums its rows' moments in registers and touches local memory once per interval segment. The
// lane-private columns kernel (compact_x_partial_columns) touches four local values per row instead.
//
// It applies to the GPU kernels in float with cubic splines of at most 255 intervals. CompactPlan uses it for the
// batched B'g of compact_x where the device's tuning entry says so (the H200's does) or GAMBOOST_PACKED_BTG=1, where
// it applies and the device has room for the copy. At n = 1e7, p = 100, k = 64 it gives the H200 87% of copy
// against the columns kernel's 64%, and the H100 95% against 87% (the Binomial fit 1.84 -> 1.56 s there), but the
// Gaussian fit, with 20 exact B'g passes, gains little, and it costs a second copy of x and its packing at set-up
// (docs/performance.md, "The packed B'g at 85-89% of copy").
#include <cstdint>
#include <string>
#include <vector>

#include "opencl/ClRuntime.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/KernelParameters.hpp"

namespace gb::ocl {

class PackedBtg {
 public:
  // Whether the kernels apply to this data with these parameters.
  static bool applies(const CompactData& data, const KernelParameters& p);
  // Device bytes of the packed copy and its headers.
  static std::size_t deviceBytes(std::size_t rows, int learners, int intervals);

  // Packs data.x() on the device (one launch, waited for). `options`: the compact programs' build options.
  PackedBtg(Context& ctx, const CompactData& data, const KernelParameters& p, const std::string& options);
  ~PackedBtg();
  PackedBtg(const PackedBtg&) = delete;
  PackedBtg& operator=(const PackedBtg&) = delete;

  // out[j*k + c] = (B_j'g)_c for every learner j. profileBytes: the B'g's byte floor, for the profile (the plan
  // counts it as for the columns kernel: the packed copy moves as many bytes as x in float).
  void transposed(const Buffer& g, const Buffer& out, std::uint64_t profileBytes,
                  std::vector<cl_event>* events = nullptr);
  // "warps 5, learners 20 a group, 8 slots, 12 chunks a group": the launch shape, for reports.
  std::string shape() const;
  std::size_t scratchBytes() const;
  // Tests: the 2048 words of (learner, chunk), downloaded, in layout order.
  std::vector<std::uint32_t> words(int learner, int chunk) const;

 private:
  Context* ctx_;
  const CompactData* data_;
  int chunks_ = 0, warps_ = 0, learnersPerGroup_ = 0, blocks_ = 0, chunksPerGroup_ = 0, chunkGroups_ = 0;
  int reduceGroup_ = 64, slots_ = 0;
  Buffer packed_, header_, partials_;
  Kernel partial_, reduce_;
};

}  // namespace gb::ocl

#include "opencl/PackedBtg.hpp"

#include <algorithm>

#include "common/Error.hpp"
#include "common/RunProfile.hpp"
#include "opencl/KernelArgs.hpp"

namespace gb::ocl {

namespace {

constexpr std::size_t kPackRows = 2048;  // PACK_ROWS in kernels/compact_packed.cl
constexpr int kPackGroupsPerUnit = 4;    // work-groups a compute unit, unless GAMBOOST_PACK_GROUPS says
constexpr int kPackSlots = 8;            // segment ends a lane holds (PACK_SLOTS), unless GAMBOOST_PACK_SHAPE says

std::size_t packHeaderBytes(int intervals) { return 80 + static_cast<std::size_t>((intervals + 4 + 15) / 16 * 16); }

std::size_t packChunks(std::size_t rows) { return (rows + kPackRows - 1) / kPackRows; }

// Warps a group and learners a group: the learners' moments, the chunk's g and the lanes' segment ends must fit
// the group's local memory (at most 48 KiB, NVIDIA's limit); of the warp counts that fit, the one that leaves the
// fewest warps idle in a group's last turn over its learners, then the fewest warps (on the H200 4 warps of 20
// learners beat 5 of 20: 67% of copy against 63% with the kernel of 2026-11-27's first version, docs/performance.md).
// A learner's share: its moments and its header of the chunk.
std::size_t packLearnerBytes(int intervals) {
  return static_cast<std::size_t>(intervals) * 4 * sizeof(float) + packHeaderBytes(intervals);
}

std::size_t packLocalBytes(int warps, int learners, int slots, int intervals) {
  return kPackRows * sizeof(float) + static_cast<std::size_t>(warps) * slots * 32 * 16 + 256 +
         static_cast<std::size_t>(learners) * packLearnerBytes(intervals);
}

void choosePackShape(int learners, int intervals, std::size_t localBytes, int* warps, int* perGroup) {
  const std::size_t local = std::min<std::size_t>(localBytes, std::size_t(48) << 10);
  const std::size_t momentBytes = packLearnerBytes(intervals);
  int bestIdle = -1;
  for (int w = 4; w <= 8; ++w) {
    const std::size_t fixed = packLocalBytes(w, 0, kPackSlots, intervals);
    if (fixed + momentBytes > local) continue;
    const int most = static_cast<int>((local - fixed) / momentBytes);
    const int blocks = (learners + most - 1) / most;
    const int per = (learners + blocks - 1) / blocks;
    const int idle = ((per + w - 1) / w) * w - per;
    if (bestIdle < 0 || idle < bestIdle) {
      bestIdle = idle;
      *warps = w;
      *perGroup = per;
    }
  }
  if (bestIdle < 0) throw ComputeError("compact_packed: the learners' moments do not fit the device's local memory");
}

}  // namespace

bool PackedBtg::applies(const CompactData& data, const KernelParameters& p) {
  return p.gpu && p.btgGroupSize > 1 && !data.doublePrecision() && data.degree() == 3 && data.intervals() <= 255 &&
         data.rows() > 0 && data.rows() <= static_cast<std::size_t>(2000000000) &&
         p.localMemoryBytes >= packLocalBytes(4, 1, kPackSlots, data.intervals());
}

std::size_t PackedBtg::deviceBytes(std::size_t rows, int learners, int intervals) {
  const std::size_t cells = packChunks(rows) * static_cast<std::size_t>(learners);
  return cells * (kPackRows * sizeof(cl_uint) + packHeaderBytes(intervals));
}

PackedBtg::PackedBtg(Context& ctx, const CompactData& data, const KernelParameters& p, const std::string& options)
    : ctx_(&ctx), data_(&data) {
  if (!applies(data, p)) throw ComputeError("compact_packed: does not apply to this data or device");
  const int learners = data.learners();
  chunks_ = static_cast<int>(packChunks(data.rows()));
  int slots = kPackSlots;
  if (p.packWarps > 0) {  // GAMBOOST_PACK_SHAPE
    warps_ = p.packWarps;
    learnersPerGroup_ = std::min(p.packLearners, learners);
    slots = p.packSlots;
    if (packLocalBytes(warps_, learnersPerGroup_, slots, data.intervals()) >
        std::min<std::size_t>(p.localMemoryBytes, std::size_t(48) << 10))
      throw InputError("GAMBOOST_PACK_SHAPE: " + std::to_string(warps_) + " warps, " +
                       std::to_string(learnersPerGroup_) + " learners and " + std::to_string(slots) +
                       " slots need more local memory than a work-group has");
  } else {
    choosePackShape(learners, data.intervals(), p.localMemoryBytes, &warps_, &learnersPerGroup_);
  }
  blocks_ = (learners + learnersPerGroup_ - 1) / learnersPerGroup_;
  // One wave: as many groups as the compute units hold at once (4 each on the H100 and H200: 125 registers a
  // work-item and 47 KB of local memory a group), each with an equal share of the chunks. On the H200 that gave 69.6%
  // of copy against 68.2% for about 16 groups a unit, whose last partial wave ran alone (docs/performance.md).
  const int units = std::max(1, ctx.device().info.computeUnits);
  const int wanted = std::max(1, (p.packGroups > 0 ? p.packGroups : kPackGroupsPerUnit) * units / blocks_);
  chunksPerGroup_ = std::max(1, (chunks_ + wanted - 1) / wanted);
  chunkGroups_ = (chunks_ + chunksPerGroup_ - 1) / chunksPerGroup_;
  reduceGroup_ = p.reduceGroupSize;
  slots_ = slots;

  const std::size_t cells = static_cast<std::size_t>(chunks_) * static_cast<std::size_t>(learners);
  packed_ = Buffer(ctx, cells * kPackRows * sizeof(cl_uint));
  header_ = Buffer(ctx, cells * packHeaderBytes(data.intervals()));
  partials_ = Buffer(ctx, static_cast<std::size_t>(learners) * chunkGroups_ * data.k() * sizeof(float));
  const std::string packOptions = options + " -DPACK_WARPS=" + std::to_string(warps_) +
                                  " -DPACK_LEARNERS=" + std::to_string(learnersPerGroup_) +
                                  " -DPACK_SLOTS=" + std::to_string(slots);
  Kernel pack(ctx.kernel("compact_packed", "compact_pack", packOptions));
  partial_ = Kernel(ctx.kernel("compact_packed", "compact_packed_partial", packOptions));
  reduce_ = Kernel(ctx.kernel("compact_btg", "compact_reduce", options));
  CompactPackArgs{static_cast<cl_int>(data.rows()), chunks_, &data.x(), &data.geometry(), &packed_, &header_}.bind(
      pack);
  const ScopedStage timed("x packed by interval (device)");
  pack.launch(ctx, {static_cast<std::size_t>(chunks_) * 256, static_cast<std::size_t>(learners)}, {256, 1});
  ctx.finish();  // allocation failures surface here, where the caller can still fall back
}

PackedBtg::~PackedBtg() = default;

std::vector<std::uint32_t> PackedBtg::words(int learner, int chunk) const {
  if (learner < 0 || learner >= data_->learners() || chunk < 0 || chunk >= chunks_)
    throw ComputeError("compact_packed: no cell (" + std::to_string(learner) + ", " + std::to_string(chunk) + ")");
  std::vector<std::uint32_t> out(kPackRows);
  const std::size_t cell = static_cast<std::size_t>(learner) * chunks_ + static_cast<std::size_t>(chunk);
  packed_.read(*ctx_, out.data(), kPackRows * sizeof(cl_uint), cell * kPackRows * sizeof(cl_uint));
  return out;
}

void PackedBtg::transposed(const Buffer& g, const Buffer& out, std::uint64_t profileBytes,
                           std::vector<cl_event>* events) {
  const int learners = data_->learners();
  CompactPackedPartialArgs{static_cast<cl_int>(data_->rows()),
                           chunks_,
                           chunksPerGroup_,
                           0,
                           learners,
                           &packed_,
                           &header_,
                           &g,
                           &data_->polynomials(),
                           &partials_}
      .bind(partial_);
  partial_.setProfileBytes(profileBytes);
  const std::size_t group = static_cast<std::size_t>(32 * warps_);
  cl_event e = nullptr;
  partial_.launch(*ctx_, {group * static_cast<std::size_t>(blocks_ * chunkGroups_)}, {group}, events ? &e : nullptr);
  if (events) events->push_back(e);
  CompactReduceArgs{chunkGroups_, &partials_, &out}.bind(reduce_);
  const std::size_t rg = static_cast<std::size_t>(reduceGroup_);
  e = nullptr;
  reduce_.launch(*ctx_, {rg * static_cast<std::size_t>(learners)}, {rg}, events ? &e : nullptr);
  if (events) events->push_back(e);
}

std::string PackedBtg::shape() const {
  return "warps " + std::to_string(warps_) + ", learners " + std::to_string(learnersPerGroup_) + " a group, " +
         std::to_string(slots_) + " slots, " + std::to_string(chunksPerGroup_) + " chunks a group";
}

std::size_t PackedBtg::scratchBytes() const { return partials_.bytes() + packed_.bytes() + header_.bytes(); }

}  // namespace gb::ocl

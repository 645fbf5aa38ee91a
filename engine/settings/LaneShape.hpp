#pragma once
// The launch shape of compact_x's lane-private B'g kernel (kernels/compact_btg.cl, compact_x_partial_columns), and
// whether the batched B'g reads the packed sorted copy of x instead (kernels/compact_packed.cl, where it applies: a
// GPU, float, cubic splines): the unit of the per-device tuning table (opencl/TuningTable.hpp) and of `gamboost
// bench tune`'s search.
#include <string>

namespace gb {

struct LaneTuning {
  int lanes = 32;          // work-items of a group (one warp on NVIDIA); a power of two, 16..256
  int laneRows = 8;        // rows per lane and block in flight (LANE_ROWS)
  bool laneRed = false;    // column adds as NVIDIA red.shared instructions (LANE_RED)
  int groupsPerUnit = 16;  // groups per compute unit when the rows allow (sets the chunk size)
  bool packed = false;     // the batched B'g from the packed copy (4 bytes a row and learner of device memory)
  bool operator==(const LaneTuning& o) const {
    return lanes == o.lanes && laneRows == o.laneRows && laneRed == o.laneRed && groupsPerUnit == o.groupsPerUnit &&
           packed == o.packed;
  }
};

// "lanes32-rows8-red0-groups16", with "-packed" when the batched B'g reads the packed copy: how the shape is named
// in reports.
inline std::string laneShapeLabel(const LaneTuning& t) {
  return "lanes" + std::to_string(t.lanes) + "-rows" + std::to_string(t.laneRows) + "-red" +
         std::to_string(t.laneRed ? 1 : 0) + "-groups" + std::to_string(t.groupsPerUnit) + (t.packed ? "-packed" : "");
}

}  // namespace gb

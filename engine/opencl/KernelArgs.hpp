#pragma once
// One struct per kernel parameter list: its fields mirror the .cl parameters in order, and bind() sets them all in
// one call through bindArgs, which numbers them itself. So no launcher writes an argument index, and a .cl list
// that gains, loses or reorders a parameter fails tests/opencl/test_kernel_args.cpp (bind() must set exactly
// CL_KERNEL_NUM_ARGS arguments of the right sizes) instead of misbinding silently.
#include <cstddef>

#include "opencl/ClRuntime.hpp"

namespace gb::ocl {

// A REAL parameter: bound as float or double, as the program was built.
struct RealArg {
  double value = 0.0;
  bool isDouble = false;
};
// A __local parameter of `bytes`.
struct LocalArg {
  std::size_t bytes = 0;
};

using Mem = const Buffer*;  // a buffer parameter (nullptr binds a null buffer, for tests)

// The run of parameters learner_select, learner_solve_select and learner_select_claim share, in their order: the
// step length, the selected learner's slot, the update's partial sums of g'g, 1/n, g'g and the history, the
// record whose risk to finish and the record to write.
struct RecordArgs {
  RealArg nu{};
  Mem learnerIndex{};
  cl_int partialCount{};
  Mem partials{};
  RealArg inverseRows{};
  Mem residualSquares{}, history{};
  cl_int previousRecord{}, record{};
};

// The run that learner_select_claim and learner_correct_solve_select end with (SELECT_CLAIM_PARAMS after the
// record run): the cache's slot count, which slot each learner has and which learner each slot holds, the fill
// state, the step of the last update and the cache blocks (CrossCache::claimArgs gives them).
struct ClaimArgs {
  cl_int slotCount{};
  Mem slotOf{}, slotOwner{}, cacheState{}, step{}, cache{};
};

namespace detail {
template <typename T>
void bindOne(Kernel& k, cl_uint& index, const T& value) {
  k.arg(index++, value);
}
inline void bindOne(Kernel& k, cl_uint& index, const Buffer* b) { k.arg(index++, b ? b->get() : cl_mem{nullptr}); }
inline void bindOne(Kernel& k, cl_uint& index, RealArg r) {
  if (r.isDouble)
    k.arg(index++, r.value);
  else
    k.arg(index++, static_cast<float>(r.value));
}
inline void bindOne(Kernel& k, cl_uint& index, LocalArg l) { k.localArg(index++, l.bytes); }
inline void bindOne(Kernel& k, cl_uint& index, const RecordArgs& r) {
  bindOne(k, index, r.nu);
  bindOne(k, index, r.learnerIndex);
  bindOne(k, index, r.partialCount);
  bindOne(k, index, r.partials);
  bindOne(k, index, r.inverseRows);
  bindOne(k, index, r.residualSquares);
  bindOne(k, index, r.history);
  bindOne(k, index, r.previousRecord);
  bindOne(k, index, r.record);
}
inline void bindOne(Kernel& k, cl_uint& index, const ClaimArgs& c) {
  bindOne(k, index, c.slotCount);
  bindOne(k, index, c.slotOf);
  bindOne(k, index, c.slotOwner);
  bindOne(k, index, c.cacheState);
  bindOne(k, index, c.step);
  bindOne(k, index, c.cache);
}
}  // namespace detail

// Binds the arguments in order (0, 1, ...; a RecordArgs stands for its nine, a ClaimArgs for its six) and returns
// how many were bound.
template <typename... Args>
cl_uint bindArgs(Kernel& kernel, const Args&... args) {
  cl_uint index = 0;
  (detail::bindOne(kernel, index, args), ...);
  return index;
}

// ---- learner_select.cl ----
struct LearnerSolveArgs {  // learner_solve
  Mem c{}, P{}, Q{}, delta{}, reduction{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, c, P, Q, delta, reduction); }
};
struct LearnerSelectArgs {  // learner_select
  cl_int learners{};
  Mem reduction{}, delta{};
  RecordArgs records{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, learners, reduction, delta, records); }
};
struct LearnerSolveSelectArgs {  // learner_solve_select
  cl_int learners{};
  Mem c{}, P{}, Q{}, delta{}, reduction{};
  RecordArgs records{};
  cl_int applyPending{}, slotCount{};
  Mem cache{}, slotOf{}, slotOwner{}, cacheState{}, step{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, learners, c, P, Q, delta, reduction, records, applyPending, slotCount, cache, slotOf, slotOwner,
                    cacheState, step);
  }
};
struct LearnerSolveSelectTrackedArgs {  // learner_solve_select_tracked
  cl_int learners{};
  Mem c{}, P{}, Q{}, delta{}, reduction{};
  RecordArgs records{};
  cl_int exact{}, cover{};
  RealArg margin{}, promote{};
  Mem cache{}, slotOf{}, step{}, cRef{}, shift{}, fills{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, learners, c, P, Q, delta, reduction, records, exact, cover, margin, promote, cache, slotOf, step,
                    cRef, shift, fills);
  }
};
struct LearnerCorrectSolveArgs {  // learner_correct_solve
  cl_int learners{};
  Mem c{}, P{}, Q{}, delta{}, reduction{};
  cl_int applyPending{};
  Mem learnerIndex{}, slotOf{}, cache{}, step{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, learners, c, P, Q, delta, reduction, applyPending, learnerIndex, slotOf, cache, step);
  }
};
struct LearnerSelectClaimArgs {  // learner_select_claim
  cl_int learners{};
  Mem reduction{}, delta{};
  RecordArgs records{};
  ClaimArgs claim{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, learners, reduction, delta, records, claim); }
};
struct LearnerCorrectSolveSelectArgs {  // learner_correct_solve_select
  cl_int learners{};
  Mem c{}, P{}, Q{}, delta{}, reduction{};
  cl_int applyPending{};
  RecordArgs records{};
  ClaimArgs claim{};
  Mem done{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, learners, c, P, Q, delta, reduction, applyPending, records, claim, done);
  }
};

// ---- compact_btg.cl ----
struct CompactXPartialArgs {  // compact_x_partial_local; compact_x_partial_columns with poly
  cl_int n{}, chunkRows{}, learnerBegin{};
  Mem x{}, g{}, geometry{};
  Mem poly{};  // columns variant only
  Mem partials{};
  cl_uint bind(Kernel& k) const {
    return poly ? bindArgs(k, n, chunkRows, learnerBegin, x, g, geometry, poly, partials)
                : bindArgs(k, n, chunkRows, learnerBegin, x, g, geometry, partials);
  }
};
struct CompactXPartialPrivateArgs {  // compact_x_partial_private
  cl_int n{}, chunkRows{}, learnerBegin{};
  Mem x{}, g{}, geometry{}, partials{};
  cl_int learnerCount{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, chunkRows, learnerBegin, x, g, geometry, partials, learnerCount);
  }
};
struct CompactPartialArgs {  // compact_partial_local, compact_partial_private
  cl_int n{}, chunkRows{}, learnerBegin{};
  Mem firstColumn{}, weights{}, g{}, partials{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, chunkRows, learnerBegin, firstColumn, weights, g, partials); }
};
struct CompactSortedPartialArgs {  // compact_sorted_partial_local
  cl_int n{}, chunkRows{}, learnerBegin{};
  Mem order{}, sortedU{}, starts{}, g{}, partials{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, chunkRows, learnerBegin, order, sortedU, starts, g, partials); }
};
struct CompactPackArgs {  // compact_pack (kernels/compact_packed.cl)
  cl_int n{}, chunks{};
  Mem x{}, geometry{}, packed{}, header{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, chunks, x, geometry, packed, header); }
};
struct CompactPackedPartialArgs {  // compact_packed_partial
  cl_int n{}, chunks{}, chunksPerGroup{}, learnerBegin{}, learnerCount{};
  Mem packed{}, header{}, g{}, poly{}, partials{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, chunks, chunksPerGroup, learnerBegin, learnerCount, packed, header, g, poly, partials);
  }
};
struct CompactXReduceArgs {  // compact_x_reduce, compact_x_reduce_columns
  cl_int chunks{}, learnerBegin{};
  Mem partials{}, poly{}, out{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, chunks, learnerBegin, partials, poly, out); }
};
struct CompactReduceArgs {  // compact_reduce
  cl_int chunks{};
  Mem partials{}, out{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, chunks, partials, out); }
};
// The fills' last two parameters: the learners' slots, and whether a learner holding one is copied (1) or summed.
struct CopyCachedArgs {
  Mem slotOf{};
  cl_int copyCached{};
};
struct CrossFillArgs {  // compact_x_cross_fill
  cl_int n{}, chunkRows{}, learners{};
  Mem learnerIndex{}, cacheState{}, x{}, geometry{}, poly{}, cache{};
  CopyCachedArgs copy{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, chunkRows, learners, learnerIndex, cacheState, x, geometry, poly, cache, copy.slotOf,
                    copy.copyCached);
  }
};

// ---- cross_sorted.cl (opencl/CrossFill.cpp) ----
struct CrossSortCountArgs {  // cross_sort_count
  cl_int n{};
  Mem learnerIndex{}, cacheState{}, x{}, geometry{}, counts{}, keys{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, learnerIndex, cacheState, x, geometry, counts, keys); }
};
struct CrossSortScanArgs {  // cross_sort_scan
  cl_int chunks{};
  Mem cacheState{}, counts{}, totals{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, chunks, cacheState, counts, totals); }
};
struct CrossSortGatherArgs {  // cross_sort_gather
  cl_int n{}, learners{}, learnersPerGroup{};
  Mem learnerIndex{}, cacheState{}, x{}, geometry{}, keys{}, offsets{}, totals{}, bucketStart{}, xSorted{}, uSorted{};
  CopyCachedArgs copy{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, learners, learnersPerGroup, learnerIndex, cacheState, x, geometry, keys, offsets, totals,
                    bucketStart, xSorted, uSorted, copy.slotOf, copy.copyCached);
  }
};
struct CrossSortedFillArgs {  // cross_sorted_fill
  cl_int n{}, segmentRows{}, learners{};
  Mem learnerIndex{}, cacheState{}, xSorted{}, uSorted{}, bucketStart{}, geometry{}, poly{}, cache{};
  CopyCachedArgs copy{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, segmentRows, learners, learnerIndex, cacheState, xSorted, uSorted, bucketStart, geometry,
                    poly, cache, copy.slotOf, copy.copyCached);
  }
};

// ---- compact_update.cl ----
struct CompactXUpdateArgs {  // compact_x_update; compact_x_update_cross with the cache fields
  cl_int n{}, groupRows{};
  Mem learnerIndex{}, delta{};
  RealArg scale{};
  Mem x{}, geometry{}, poly{}, y{}, mu{}, g{}, partials{};
  cl_int keepMu = 1;  // 0: the residual alone (g -= f), mu left as it was (compact_x_update, compact_x_update_fill)
  cl_uint bind(Kernel& k) const { return bindWith(k); }
  // These (X_UPDATE_PARAMS in kernels/compact_update.cl), then `more`: the kernels that begin with them.
  template <typename... More>
  cl_uint bindWith(Kernel& k, const More&... more) const {
    return bindArgs(k, n, groupRows, learnerIndex, delta, scale, x, geometry, poly, y, mu, g, keepMu, partials,
                    more...);
  }
};
struct CompactXUpdateFillArgs {  // compact_x_update_fill (program compact_update+compact_cross)
  CompactXUpdateArgs update;
  cl_int updateGroups{}, chunkRows{}, learners{};
  Mem cacheState{}, cache{};
  CopyCachedArgs copy{};
  cl_uint bind(Kernel& k) const {
    const CompactXUpdateArgs& u = update;
    return bindArgs(k, u.n, u.groupRows, u.learnerIndex, u.delta, u.scale, u.x, u.geometry, u.poly, u.y, u.mu, u.g,
                    u.keepMu, u.partials, updateGroups, chunkRows, learners, cacheState, cache, copy.slotOf,
                    copy.copyCached);
  }
};
struct CompactXUpdateCountArgs {  // compact_x_update_count (program compact_update+cross_sorted)
  CompactXUpdateArgs update;
  cl_int updateGroups{}, chunks{};
  Mem cacheState{}, counts{}, keys{};
  cl_uint bind(Kernel& k) const {
    const CompactXUpdateArgs& u = update;
    return bindArgs(k, u.n, u.groupRows, u.learnerIndex, u.delta, u.scale, u.x, u.geometry, u.poly, u.y, u.mu, u.g,
                    u.keepMu, u.partials, updateGroups, chunks, cacheState, counts, keys);
  }
};
struct FittedFromResidualArgs {  // fitted_from_residual
  cl_int n{};
  Mem y{}, g{}, mu{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, y, g, mu); }
};
struct CompactXFamilySelectUpdateArgs {  // compact_x_family_select_update (the gradient path)
  cl_int n{}, groupRows{}, learners{};
  Mem reduction{}, delta{};
  RealArg scale{};
  Mem x{}, geometry{}, poly{}, y{}, w{};
  RealArg param{};
  Mem mu{}, wu{};
  cl_int partialCount{};
  Mem previousPartials{};
  RealArg inverseWeight{};
  Mem partials{}, history{};
  cl_int previousRecord{}, record{};
  Mem learnerIndex{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, groupRows, learners, reduction, delta, scale, x, geometry, poly, y, w, param, mu, wu,
                    partialCount, previousPartials, inverseWeight, partials, history, previousRecord, record,
                    learnerIndex);
  }
};
struct CompactXUpdateCrossArgs {  // compact_x_update_cross
  CompactXUpdateArgs update;
  cl_int updateGroups{}, learners{};
  Mem cacheState{}, cache{};
  cl_uint bind(Kernel& k) const {
    const CompactXUpdateArgs& u = update;
    return bindArgs(k, u.n, u.groupRows, u.learnerIndex, u.delta, u.scale, u.x, u.geometry, u.poly, u.y, u.mu, u.g,
                    u.partials, updateGroups, learners, cacheState, cache);
  }
};
struct CompactXUpdateTrackArgs {  // compact_x_update_track
  CompactXUpdateArgs update;
  cl_int updateGroups{}, learners{}, cover{};
  Mem slotOf{}, fills{}, cache{};
  cl_uint bind(Kernel& k) const { return update.bindWith(k, updateGroups, learners, cover, slotOf, fills, cache); }
};
struct CompactUpdateArgs {  // compact_update
  cl_int n{}, groupRows{};
  Mem learnerIndex{}, delta{};
  RealArg scale{};
  Mem firstColumn{}, weights{}, y{}, mu{}, g{}, partials{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, groupRows, learnerIndex, delta, scale, firstColumn, weights, y, mu, g, partials);
  }
};
struct VectorUpdateArgs {  // vector_update
  cl_int n{}, groupRows{};
  Mem f{};
  RealArg scale{};
  Mem y{}, mu{}, g{}, partials{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, groupRows, f, scale, y, mu, g, partials); }
};
struct CompactXForwardArgs {  // compact_x_forward
  cl_int n{}, groupRows{}, learner{};
  Mem delta{}, x{}, geometry{}, poly{}, out{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, groupRows, learner, delta, x, geometry, poly, out); }
};
struct CompactForwardArgs {  // compact_forward
  cl_int n{}, groupRows{}, learner{};
  Mem delta{}, firstColumn{}, weights{}, out{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, groupRows, learner, delta, firstColumn, weights, out); }
};
struct CompactXDenseArgs {  // compact_x_dense
  cl_int n{}, learners{};
  Mem x{}, geometry{}, poly{}, dense{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, n, learners, x, geometry, poly, dense); }
};

// ---- gemv_*.cl ----
struct PaperGemvArgs {  // gemv_naive; gemv_v1 and gemv_v2 with their __local work
  cl_ulong m{}, n{}, rowStride{}, colStride{};
  Mem block{};
  cl_ulong blockStride{};
  Mem a{}, x{}, y{};
  std::size_t localBytes{};  // 0: gemv_naive (no __local parameter)
  cl_uint bind(Kernel& k) const {
    return localBytes ? bindArgs(k, m, n, rowStride, colStride, block, blockStride, a, x, y, LocalArg{localBytes})
                      : bindArgs(k, m, n, rowStride, colStride, block, blockStride, a, x, y);
  }
};
struct GemvReduceArgs {  // gemv_v2_reduce (m, slices) and gemv_splitk_reduce (cols, blocks)
  cl_ulong count{}, slices{};
  Mem partial{}, out{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, count, slices, partial, out); }
};
struct SplitKPartialArgs {  // gemv_splitk_partial, gemv_splitk_partial_cpu
  cl_ulong rows{}, cols{}, rowsPerBlock{};
  Mem B{}, g{}, partial{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, rows, cols, rowsPerBlock, B, g, partial); }
};
struct RowsForwardArgs {  // gemv_rows_forward; gemv_rows_forward_cpu with rowsPerItem > 0
  cl_ulong rows{}, cols{}, k{};
  Mem learner{}, B{}, delta{}, out{};
  cl_ulong rowsPerItem{};
  cl_uint bind(Kernel& kernel) const {
    return rowsPerItem ? bindArgs(kernel, rows, cols, k, learner, B, delta, out, rowsPerItem)
                       : bindArgs(kernel, rows, cols, k, learner, B, delta, out);
  }
};

}  // namespace gb::ocl

// The GPU cross-product cache fill (engine/opencl/SchemeGpuCached.cpp): B_j'B_l for every learner j into the cache
// slot the select launch just gave the selected learner l. Built only for GPU parameters (BTG_GROUP > 1) and only
// when its K x K local block fits the device's local memory (crossBlockFits, KernelParameters.cpp).
// Defines: those of compact_btg.cl (REAL, DEGREE, K, INTERVALS, BTG_GROUP, GB_NV_PTX_ATOMICS).
#if BTG_GROUP > 1
// Group (j, chunk) of FILL_LANES work-items: when cacheState[0] = slot >= 0, adds B_j'B_l over the chunk's rows
// (l = learnerIndex[0]) into cache[slot][j] (row a: column a of B_j, entry b: column b of B_l); else returns at
// once. The (DEGREE+1)^2 products of a row are spread over as many lanes (lane t: r = t / W, s = t % W), so the
// group handles FILL_ROWS rows at a time and a row's adds hit distinct local cells: with the block's rows
// FILL_STRIDE = K + 4 apart, cell (q_j + r, q_l + s) sits in bank 4 (q_j + r) + q_l + s (mod 32), which is
// different for each of a cubic row's 16 products, so a warp's adds (two rows) conflict at most two ways. (One row
// per work-item, the first version, sent 16 adds per work-item into random banks: 85 ms a fill at n = 1e7, p = 100,
// k = 64 on the H100; one warp per group, 140 ms: too few warps per SM to hide the loads.) The block is then added to
// the slot with global atomics.
#define FILL_LANES 256
#define FILL_PRODUCTS (W * W)
#define FILL_ROWS (FILL_PRODUCTS <= FILL_LANES ? FILL_LANES / FILL_PRODUCTS : 1)
#ifdef REAL_IS_DOUBLE
#define FILL_REAL_BYTES 8
#else
#define FILL_REAL_BYTES 4
#endif
#ifndef FILL_FIXED
#define FILL_FIXED 0
#endif
#if FILL_FIXED
// An experiment (GAMBOOST_KERNEL_DEFINES=-DFILL_FIXED=1): the block in unsigned 64-bit fixed point, added with
// integer atomics (float adds to local memory are compare-and-swap loops on some GPUs). Products of B-spline values
// lie in [0, 1]; 2^32 (float) or 2^40 (double) units per 1 keep 2^32 or 2^24 rows a cell before overflow (the host
// keeps a chunk below 2^24 rows) and quantise each product to 2^-33 or 2^-41, below the REAL's own rounding.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define FILL_CELL ulong
#define FILL_CELL_BYTES 8
#ifdef REAL_IS_DOUBLE
#define FILL_SCALE 0x1p40
#else
#define FILL_SCALE 0x1p32f
#endif
inline void fill_add(volatile __local ulong* p, REAL v) {
  const ulong units = (ulong)(fmax(v, (REAL)0) * FILL_SCALE + (REAL)0.5);
#if defined(GB_NV_PTX_ATOMICS)
  asm volatile("red.shared.add.u64 [%0], %1;" ::"l"((ulong)p), "l"(units));
#else
  atom_add(p, units);
#endif
}
#define FILL_VALUE(cell) ((REAL)(cell) / FILL_SCALE)
#else
#define FILL_CELL REAL
#define FILL_CELL_BYTES FILL_REAL_BYTES
#define fill_add local_add
#define FILL_VALUE(cell) (cell)
#endif
#if K * (K + 4) * FILL_CELL_BYTES <= 40960
#define FILL_STRIDE (K + 4)
#else
#define FILL_STRIDE K
#endif
// One fill task: B_j'B_l over rows [begin, end) added into out (cache[slot][j]) through the group's block. Every
// work-item of the group calls it (its barriers).
inline void cross_fill_rows(int n, int begin, int end, int j, int l, __global const REAL* x,
                            __global const REAL* geometry, __global const REAL* poly, __global REAL* out,
                            __local FILL_CELL* block) {
  const int lane = get_local_id(0);
  for (int m = lane; m < K * FILL_STRIDE; m += FILL_LANES) block[m] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const REAL loj = geometry[2 * j], ij = geometry[2 * j + 1], lol = geometry[2 * l], il = geometry[2 * l + 1];
  __global const REAL* xj = x + (size_t)j * n;
  __global const REAL* xl = x + (size_t)l * n;
  __global const REAL* pj = poly + (size_t)j * INTERVALS * W * W;
  __global const REAL* pl = poly + (size_t)l * INTERVALS * W * W;
  // This lane's row within a step, and its first product (more than FILL_LANES products: a loop over them).
  const int row = FILL_PRODUCTS <= FILL_LANES ? lane / FILL_PRODUCTS : 0;
  const int first = FILL_PRODUCTS <= FILL_LANES ? lane % FILL_PRODUCTS : lane;
  if (row < FILL_ROWS)
    for (int i = begin + row; i < end; i += FILL_ROWS) {
      REAL uj, ul;
      const int qj = locate(xj[i], loj, ij, &uj), ql = locate(xl[i], lol, il, &ul);
      for (int t = first; t < FILL_PRODUCTS; t += FILL_LANES) {
        const int r = t / W, s = t % W;
        REAL a, b;
        GB_HORNER(pj + (qj * W + r) * W, 1, DEGREE, uj, a);
        GB_HORNER(pl + (ql * W + s) * W, 1, DEGREE, ul, b);
        fill_add(block + (qj + r) * FILL_STRIDE + ql + s, a * b);
      }
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int m = lane; m < K * K; m += FILL_LANES) {
    const REAL v = FILL_VALUE(block[(m / K) * FILL_STRIDE + m % K]);
    if (v != (REAL)0) global_add(out + m, v);
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // the block is read before the next task zeroes it
}

// Task (j, chunk) of the fill of slot `slot`: j's rows of the chunk summed, or (GB_COPIES_CACHED) nothing but, in
// chunk 0, the transpose of j's own block for l.
inline void cross_fill_task(int n, int chunk, int chunkRows, int learners, int slot, int j, int l,
                            __global const REAL* x, __global const REAL* geometry, __global const REAL* poly,
                            __global REAL* cache, __global const int* slotOf, int copyCached,
                            __local FILL_CELL* block) {
  const bool copy = GB_COPIES_CACHED(j, l);
  const int begin = chunk * chunkRows, end = copy ? begin : min(n, begin + chunkRows);
  __global REAL* out = cache + ((size_t)slot * learners + j) * K * K;
  cross_fill_rows(n, begin, end, j, l, x, geometry, poly, out, block);
  if (copy && chunk == 0) cache_copy_transposed(cache + ((size_t)slotOf[j] * learners + l) * K * K, out);
}

__kernel __attribute__((reqd_work_group_size(FILL_LANES, 1, 1))) void compact_x_cross_fill(
    int n, int chunkRows, int learners, __global const int* learnerIndex, __global const int* cacheState,
    __global const REAL* x, __global const REAL* geometry, __global const REAL* poly, __global REAL* cache,
    __global const int* slotOf, int copyCached) {
  const int slot = cacheState[0];
  if (slot < 0) return;
  __local FILL_CELL block[K * FILL_STRIDE];
  cross_fill_task(n, get_group_id(1), chunkRows, learners, slot, get_group_id(0), learnerIndex[0], x, geometry, poly,
                  cache, slotOf, copyCached, block);
}

#ifdef GB_WITH_UPDATE
// The update and the fill in one launch (the program is compact_update + compact_cross, GB_WITH_UPDATE defined),
// for the GPU cached scheme with this fill: groups [0, updateGroups) run compact_x_update's rows; then, when
// cacheState[0] = slot >= 0, every group of the launch takes fill tasks t = group, group + groups, ... (learner
// j = t % learners, chunk t / learners of chunkRows rows). An iteration that selects no new learner then costs one
// launch whose extra groups only read cacheState, where the separate fill launch cost about 11 us at n = 1e5 on the
// H100 (docs/performance.md). The group counts are uniform, so every work-item of a group reaches its barriers.
#if UPDATE_GROUP != FILL_LANES
#error "compact_x_update_fill needs UPDATE_GROUP == FILL_LANES"
#endif
__kernel __attribute__((reqd_work_group_size(FILL_LANES, 1, 1))) void compact_x_update_fill(
    X_UPDATE_PARAMS, int updateGroups, int chunkRows, int learners, __global const int* cacheState,
    __global REAL* cache, __global const int* slotOf, int copyCached) {
  __local REAL A[MOMENTS];
  __local REAL scratch[UPDATE_GROUP];
  __local FILL_CELL block[K * FILL_STRIDE];
  const int group = get_group_id(0);
  if (group < updateGroups) X_UPDATE_ROWS(A, scratch);
  const int slot = cacheState[0];
  const int chunks = (n + chunkRows - 1) / chunkRows;
  const int tasks = slot >= 0 ? learners * chunks : 0;
  const int l = learnerIndex[0];
  for (int t = group; t < tasks; t += get_num_groups(0))
    cross_fill_task(n, t / learners, chunkRows, learners, slot, t % learners, l, x, geometry, poly, cache, slotOf,
                    copyCached, block);
}
#endif
#endif

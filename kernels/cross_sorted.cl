// The sorted cross-product cache fill (engine/opencl/CrossFill.cpp): B_j'B_l of every learner j for the selected
// learner l into the cache slot cacheState[0], like compact_x_cross_fill, but with no local atomics in its inner
// loop. Every kernel does nothing when cacheState[0] < 0 (no learner was selected for the first time). On GPUs
// (GB_EARLY_EXIT) it returns at once; elsewhere its loops run zero times and every barrier is still reached: PoCL 3.1
// corrupts the host's heap for a kernel whose barriers sit behind a return or an if (seen with cross_sort_count).
//   cross_sort_count   a group per chunk of SORT_ROWS rows: how many of its rows fall in each interval m of l,
//                      and each row's rank among them;
//   cross_sort_scan    a group per interval m: how many of its rows lie in the chunks before each chunk;
//   cross_sort_gather  a group per (chunk, block of learners): x of every learner copied into that order, and
//                      l's local coordinate u_l of each position;
//   cross_sorted_fill  a group per (learner j, segment of positions): the positions of interval m have B_l
//                      nonzero only in columns m..m+DEGREE, so lane t keeps its own K x 4 strip
//                      S[a][s] += B_j(x_j)_a b_s(u_l) in local memory (plain adds) and the strips are summed into
//                      columns m..m+DEGREE of the slot (global adds) when the segment leaves interval m.
// Defines: those of compact_btg.cl (REAL, DEGREE <= 3, K, INTERVALS, BTG_GROUP > 1, GB_NV_PTX_ATOMICS) and
// SORT_ROWS (a multiple of SORT_GROUP), STRIP_LANES (a power of two), STRIP_EDGES (0: every interval of every
// learner has the pieces of interval DEGREE, extended knots; 1: all but the DEGREE intervals at each end, clamped
// knots; 2: none, each row reads its own interval's pieces), STRIP_ROWS (positions a lane loads per block).
#if BTG_GROUP > 1 && DEGREE <= 3 && defined(SORT_ROWS) && defined(STRIP_LANES)
#ifdef REAL_IS_DOUBLE
typedef double4 REAL4;
#else
typedef float4 REAL4;
#endif
#define SORT_GROUP 256
#define SCAN_GROUP 256
#define SORT_ITEM_ROWS (SORT_ROWS / SORT_GROUP)
// 16 positions a block in float (two blocks in flight: 64 registers of positions): the fit at n = 1e7, p = 100, k = 64
// on the H100 took 293.5 ms against 299.6 ms with 8; double keeps 8 (twice the registers a position).
#ifndef STRIP_ROWS
#ifdef REAL_IS_DOUBLE
#define STRIP_ROWS 8
#else
#define STRIP_ROWS 16
#endif
#endif
#define STRIP_BLOCK (STRIP_LANES * STRIP_ROWS)
#ifdef GB_EARLY_EXIT
#define EXIT_UNLESS(active) \
  if (!(active)) return;
#else
#define EXIT_UNLESS(active)
#endif

// counts[m * chunks + c] = rows of chunk c in interval m of learner l (chunks = the number of groups), and each
// row's key q * SORT_ROWS + rank: its interval q and its rank among the chunk's rows of that interval (in whichever
// order the local atomics give; stored, so that every gather group uses the same order).
inline void sort_count(int n, bool active, int c, int chunks, int l, __global const REAL* x,
                       __global const REAL* geometry, __global int* counts, __global int* keys, __local int* rows) {
  const int t = get_local_id(0);
  for (int m = t; m < INTERVALS; m += SORT_GROUP) rows[m] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const REAL lo = geometry[2 * l], inverseSpacing = geometry[2 * l + 1];
  __global const REAL* xl = x + (size_t)l * n;
  const int begin = c * SORT_ROWS, count = active ? min(n - begin, SORT_ROWS) : 0;
  REAL xs[SORT_ITEM_ROWS];  // all loads first, then the atomics
  #pragma unroll
  for (int k = 0; k < SORT_ITEM_ROWS; ++k) xs[k] = xl[begin + max(0, min(t + SORT_GROUP * k, count - 1))];
  #pragma unroll
  for (int k = 0; k < SORT_ITEM_ROWS; ++k)
    if (t + SORT_GROUP * k < count) {
      REAL u;
      const int q = locate(xs[k], lo, inverseSpacing, &u);
      keys[begin + t + SORT_GROUP * k] = q * SORT_ROWS + atomic_inc(rows + q);
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (active)
    for (int m = t; m < INTERVALS; m += SORT_GROUP) counts[m * chunks + c] = rows[m];
}

__kernel __attribute__((reqd_work_group_size(SORT_GROUP, 1, 1))) void cross_sort_count(
    int n, __global const int* learnerIndex, __global const int* cacheState, __global const REAL* x,
    __global const REAL* geometry, __global int* counts, __global int* keys) {
  __local int rows[INTERVALS];
  const bool active = cacheState[0] >= 0;
  EXIT_UNLESS(active)
  sort_count(n, active, get_group_id(0), get_num_groups(0), learnerIndex[0], x, geometry, counts, keys, rows);
}

#ifdef GB_WITH_UPDATE
// The update and the count in one launch (the program is compact_update + cross_sorted, GB_WITH_UPDATE defined),
// for the GPU cached scheme with this fill: groups [0, updateGroups) run compact_x_update's rows; then, when a
// slot is to be filled, groups take the count's chunks c = group, group + groups, ... (the same chunks and keys
// as cross_sort_count's). An iteration that fills nothing saves the count's launch (6 us on the H100).
#if UPDATE_GROUP != SORT_GROUP
#error "compact_x_update_count needs UPDATE_GROUP == SORT_GROUP"
#endif
__kernel __attribute__((reqd_work_group_size(SORT_GROUP, 1, 1))) void compact_x_update_count(
    X_UPDATE_PARAMS, int updateGroups, int chunks, __global const int* cacheState, __global int* counts,
    __global int* keys) {
  __local REAL A[MOMENTS];
  __local REAL scratch[UPDATE_GROUP];
  __local int rows[INTERVALS];
  const int group = get_group_id(0);
  if (group < updateGroups) X_UPDATE_ROWS(A, scratch);
  const bool active = cacheState[0] >= 0;
  const int l = learnerIndex[0];
  for (int c = group; active && c < chunks; c += get_num_groups(0))
    sort_count(n, true, c, chunks, l, x, geometry, counts, keys, rows);
}
#endif

// Group m: counts[m * chunks + c] := the rows of interval m in chunks before c (an exclusive prefix sum, in place)
// and totals[m] := all rows of interval m. Tiles of SCAN_GROUP chunks, each scanned in local memory.
inline void sort_scan(bool active, int chunks, __global int* counts, __global int* totals, __local int* part) {
  const int t = get_local_id(0), m = get_group_id(0);
  __global int* row = counts + (size_t)m * chunks;
  const int tiles = active ? (chunks + SCAN_GROUP - 1) / SCAN_GROUP : 0;
  int carry = 0;
  for (int tile = 0; tile < tiles; ++tile) {
    const int c = tile * SCAN_GROUP + t;
    const int v = c < chunks ? row[c] : 0;
    part[t] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 1; d < SCAN_GROUP; d *= 2) {  // inclusive scan of the tile (Hillis-Steele)
      const int add = t >= d ? part[t - d] : 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      part[t] += add;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (c < chunks) row[c] = carry + part[t] - v;
    carry += part[SCAN_GROUP - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (active && t == 0) totals[m] = carry;
}

__kernel __attribute__((reqd_work_group_size(SCAN_GROUP, 1, 1))) void cross_sort_scan(
    int chunks, __global const int* cacheState, __global int* counts, __global int* totals) {
  __local int part[SCAN_GROUP];
  const bool active = cacheState[0] >= 0;
  EXIT_UNLESS(active)
  sort_scan(active, chunks, counts, totals, part);
}

// Group (c, b): the rows of chunk c at their sorted positions: first position of interval q + the rows of q in
// chunks before c + the row's rank (its key); for the learners b * learnersPerGroup onwards, x_j of the chunk is
// staged in local memory in row order (coalesced reads) and written out in position order (coalesced writes but
// at interval boundaries). Groups (c, 0) also write u_l, group (0, 0) the intervals' first positions.
inline void sort_gather(int n, bool active, int learners, int learnersPerGroup, int l, __global const REAL* x,
                        __global const REAL* geometry, __global const int* keys, __global const int* offsets,
                        __global const int* totals, __global int* bucketStart, __global REAL* xSorted,
                        __global REAL* uSorted, __global const int* slotOf, int copyCached, __local REAL* stage,
                        __local ushort* source, __local int* target, __local int* start, __local int* base) {
  const int t = get_local_id(0), c = get_group_id(0), chunks = get_num_groups(0);
  const int begin = c * SORT_ROWS, count = active ? min(n - begin, SORT_ROWS) : 0;
  for (int m = t; m < INTERVALS; m += SORT_GROUP)
    if (active) {  // this chunk's rows of interval m (start) and those before it (base), then summed below
      const int before = offsets[m * chunks + c];
      start[m] = (c + 1 < chunks ? offsets[m * chunks + c + 1] : totals[m]) - before;
      base[m] = before;
      target[m] = totals[m];  // target is free until the positions are placed
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (active && t == 0) {
    int inChunk = 0, first = 0;
    for (int m = 0; m < INTERVALS; ++m) {
      const int rows = start[m];
      start[m] = inChunk;
      inChunk += rows;
      base[m] += first;
      if (c == 0 && get_group_id(1) == 0) bucketStart[m] = first;
      first += target[m];
    }
    if (c == 0 && get_group_id(1) == 0) bucketStart[INTERVALS] = n;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const bool writesU = get_group_id(1) == 0;
  const REAL lo = geometry[2 * l], inverseSpacing = geometry[2 * l + 1];
  #pragma unroll
  for (int k = 0; k < SORT_ITEM_ROWS; ++k) {
    const int r = t + SORT_GROUP * k;
    if (r < count) {
      const int key = keys[begin + r], q = key / SORT_ROWS, rank = key % SORT_ROWS;
      source[start[q] + rank] = (ushort)r;
      target[start[q] + rank] = base[q] + rank;
      // u as locate() computes it, for the interval the key holds
      if (writesU) stage[r] = (x[(size_t)l * n + begin + r] - lo) * inverseSpacing - (REAL)q;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Work-item t's sorted positions t + SORT_GROUP k (those past the chunk's end repeat its last one: the same
  // value written twice to the same place).
  int from[SORT_ITEM_ROWS], to[SORT_ITEM_ROWS];
  #pragma unroll
  for (int k = 0; k < SORT_ITEM_ROWS; ++k) {
    const int s = max(0, min(t + SORT_GROUP * k, count - 1));
    from[k] = source[s];
    to[k] = target[s];
  }
  if (writesU && active) {
    #pragma unroll
    for (int k = 0; k < SORT_ITEM_ROWS; ++k) uSorted[to[k]] = stage[from[k]];
  }
  const int j0 = get_group_id(1) * learnersPerGroup, j1 = active ? min(learners, j0 + learnersPerGroup) : j0;
  for (int j = j0; j < j1; ++j) {
    // A learner whose block is copied (cross_sorted_fill) needs no sorted x; the barriers stay unconditional.
    const bool copied = GB_COPIES_CACHED(j, l);
    __global const REAL* xj = x + (size_t)j * n + begin;
    barrier(CLK_LOCAL_MEM_FENCE);  // the previous learner's (or u_l's) reads of stage are done
    if (!copied) {
      #pragma unroll
      for (int k = 0; k < SORT_ITEM_ROWS; ++k) {
        const int r = min(t + SORT_GROUP * k, count - 1);
        stage[r] = xj[r];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global REAL* out = xSorted + (size_t)j * n;
    if (!copied) {
      #pragma unroll
      for (int k = 0; k < SORT_ITEM_ROWS; ++k) out[to[k]] = stage[from[k]];
    }
  }
}

__kernel __attribute__((reqd_work_group_size(SORT_GROUP, 1, 1))) void cross_sort_gather(
    int n, int learners, int learnersPerGroup, __global const int* learnerIndex, __global const int* cacheState,
    __global const REAL* x, __global const REAL* geometry, __global const int* keys, __global const int* offsets,
    __global const int* totals, __global int* bucketStart, __global REAL* xSorted, __global REAL* uSorted,
    __global const int* slotOf, int copyCached) {
  __local REAL stage[SORT_ROWS];
  __local ushort source[SORT_ROWS];  // the chunk's row at each of its sorted positions
  __local int target[SORT_ROWS];     // the global position of each of its sorted positions
  __local int start[INTERVALS];      // where each interval's rows begin among the chunk's sorted positions
  __local int base[INTERVALS];       // the global position of the chunk's first row of each interval
  const bool active = cacheState[0] >= 0;
  EXIT_UNLESS(active)
  sort_gather(n, active, learners, learnersPerGroup, learnerIndex[0], x, geometry, keys, offsets, totals, bucketStart,
              xSorted, uSorted, slotOf, copyCached, stage, source, target, start, base);
}

// ---- cross_sorted_fill ----------------------------------------------------------------------------------------
// Lane t's strip is column t of a K x STRIP_LANES array of REAL4 (row a, component s: columns a of B_j and m + s of
// B_l): a row's four values are one 16-byte access, and lanes t..t+7, which share a quarter-warp's turn, always
// reach different banks whatever rows they add to, so the adds have no conflicts (and no atomics: only lane t
// touches its strip until the flush).

// Adds the row at one position: x_j (B_j nonzero in columns q..q+DEGREE, values left[r]) and u_l (B_l values
// right[s] in columns m + s); a position past the interval (valid false) adds zeros.
inline void strip_add(__local REAL4* mine, REAL xv, REAL ul, bool valid, REAL lo, REAL inverseSpacing,
                      const REAL* piece, __global const REAL* pj, const REAL* pieceL) {
  REAL right[4] = {(REAL)0, (REAL)0, (REAL)0, (REAL)0};
  PIECE_VALUES(pieceL, ul, right)
  const REAL4 b = valid ? (REAL4)(right[0], right[1], right[2], right[3]) : (REAL4)((REAL)0);
  REAL u;
  const int q = locate(xv, lo, inverseSpacing, &u);
  REAL left[W];
#if STRIP_EDGES == 2
  PIECE_VALUES(pj + q * W * W, u, left)
#else
  PIECE_VALUES(piece, u, left)
#if STRIP_EDGES == 1
  if (q < DEGREE || q >= INTERVALS - DEGREE) {
    PIECE_VALUES(pj + q * W * W, u, left)
  }
#endif
#endif
  __local REAL4* at = mine + q * STRIP_LANES;
  #pragma unroll
  for (int r = 0; r < W; ++r) at[r * STRIP_LANES] += left[r] * b;
}

// Positions p0 + lane + STRIP_LANES v (v < STRIP_ROWS) of x_j and u_l; those at or past `end` read end - 1 again.
inline void strip_load(__global const REAL* xj, __global const REAL* uSorted, int p0, int end, REAL* xs, REAL* us) {
  #pragma unroll
  for (int v = 0; v < STRIP_ROWS; ++v) {
    const int p = min(p0 + (int)get_local_id(0) + STRIP_LANES * v, end - 1);
    xs[v] = xj[p];
    us[v] = uSorted[p];
  }
}

inline void strip_block(__local REAL4* mine, int p0, int end, const REAL* xs, const REAL* us, REAL lo,
                        REAL inverseSpacing, const REAL* piece, __global const REAL* pj, const REAL* pieceL) {
  #pragma unroll
  for (int v = 0; v < STRIP_ROWS; ++v)
    strip_add(mine, xs[v], us[v], p0 + (int)get_local_id(0) + STRIP_LANES * v < end, lo, inverseSpacing, piece, pj,
              pieceL);
}

// Sums the lanes' strips into columns m..m+DEGREE of out (global adds) and zeroes them. Lane t sums rows t,
// t + STRIP_LANES, ... reading strip (t + i) mod STRIP_LANES at step i: again a different bank per lane.
inline void strip_flush(__local REAL4* strip, int m, __global REAL* out) {
  const int lane = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int a = lane; a < K; a += STRIP_LANES) {
    __local REAL4* row = strip + a * STRIP_LANES;
    REAL4 sum = (REAL4)((REAL)0);
    for (int i = 0; i < STRIP_LANES; ++i) {
      const int from = (lane + i) & (STRIP_LANES - 1);
      sum += row[from];
      row[from] = (REAL4)((REAL)0);
    }
    const REAL values[4] = {sum.x, sum.y, sum.z, sum.w};
    #pragma unroll
    for (int s = 0; s < W; ++s)
      if (values[s] != (REAL)0) global_add(out + a * K + m + s, values[s]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// The intervals of l whose positions meet [first, last): from the one holding `first` to the one holding last - 1
// (none when first >= last).
inline void strip_intervals(__local const int* bucketStart, int first, int last, int* mFirst, int* mLast) {
  *mFirst = 0;
  *mLast = -1;
  if (first >= last) return;
  for (int m = 0; m < INTERVALS; ++m) {
    const int b = bucketStart[m], e = bucketStart[m + 1];
    if (b <= first && first < e) *mFirst = m;
    if (b < last && last <= e) *mLast = m;
  }
}

inline void sorted_fill(int n, bool active, int segmentRows, int learners, int l, int slot,
                        __global const REAL* xSorted, __global const REAL* uSorted, __global const int* bucketStart,
                        __global const REAL* geometry, __global const REAL* poly, __global REAL* cache,
                        __global const int* slotOf, int copyCached, __local REAL4* strip, __local int* starts) {
  const int j = get_group_id(0);
  const bool copy = active && GB_COPIES_CACHED(j, l);
  __local REAL4* mine = strip + get_local_id(0);
  // (bucketStart holds some values even when nothing is to be filled: the loads need no condition)
  for (int m = get_local_id(0); m <= INTERVALS; m += STRIP_LANES) starts[m] = bucketStart[m];
  if (active)
    for (int a = 0; a < K; ++a) mine[a * STRIP_LANES] = (REAL4)((REAL)0);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int first = (int)min((long)n, (long)get_group_id(1) * segmentRows);
  const int last = active && !copy ? (int)min((long)n, (long)first + segmentRows) : first;
  int mFirst, mLast;
  strip_intervals(starts, first, last, &mFirst, &mLast);
  const REAL lo = geometry[2 * j], inverseSpacing = geometry[2 * j + 1];
  __global const REAL* xj = xSorted + (size_t)j * n;
  __global const REAL* pj = poly + (size_t)j * INTERVALS * W * W;
  __global const REAL* pl = poly + (size_t)l * INTERVALS * W * W;
  REAL piece[W * W];
  #pragma unroll
  for (int e = 0; e < W * W; ++e) piece[e] = pj[min(DEGREE, INTERVALS - 1) * W * W + e];
  __global REAL* out = cache + ((size_t)max(slot, 0) * learners + j) * K * K;
  REAL xa[STRIP_ROWS], ua[STRIP_ROWS], xb[STRIP_ROWS], ub[STRIP_ROWS];
  for (int m = mFirst; m <= mLast; ++m) {  // the same bounds for the whole group
    const int begin = max(first, starts[m]), end = min(last, starts[m + 1]);
    REAL pieceL[W * W];
    #pragma unroll
    for (int e = 0; e < W * W; ++e) pieceL[e] = pl[m * W * W + e];
    // Blocks of STRIP_BLOCK positions, two register buffers in turn: one block's loads are in flight while the
    // other is added. (An interval with no positions here adds nothing; its flush adds nothing either.)
    if (begin < end) strip_load(xj, uSorted, begin, end, xa, ua);
    for (int p = begin; p < end; p += 2 * STRIP_BLOCK) {
      if (p + STRIP_BLOCK < end) strip_load(xj, uSorted, p + STRIP_BLOCK, end, xb, ub);
      strip_block(mine, p, end, xa, ua, lo, inverseSpacing, piece, pj, pieceL);
      if (p + STRIP_BLOCK >= end) break;
      if (p + 2 * STRIP_BLOCK < end) strip_load(xj, uSorted, p + 2 * STRIP_BLOCK, end, xa, ua);
      strip_block(mine, p + STRIP_BLOCK, end, xb, ub, lo, inverseSpacing, piece, pj, pieceL);
    }
    strip_flush(strip, m, out);
  }
  if (copy && get_group_id(1) == 0) cache_copy_transposed(cache + ((size_t)slotOf[j] * learners + l) * K * K, out);
}

__kernel __attribute__((reqd_work_group_size(STRIP_LANES, 1, 1))) void cross_sorted_fill(
    int n, int segmentRows, int learners, __global const int* learnerIndex, __global const int* cacheState,
    __global const REAL* xSorted, __global const REAL* uSorted, __global const int* bucketStart,
    __global const REAL* geometry, __global const REAL* poly, __global REAL* cache, __global const int* slotOf,
    int copyCached) {
  __local REAL4 strip[K * STRIP_LANES];
  __local int starts[INTERVALS + 1];
  const int slot = cacheState[0];
  EXIT_UNLESS(slot >= 0)
  sorted_fill(n, slot >= 0, segmentRows, learners, learnerIndex[0], slot, xSorted, uSorted, bucketStart, geometry,
              poly, cache, slotOf, copyCached, strip, starts);
}
#endif

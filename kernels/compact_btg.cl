// B'g for compact B-spline learners, without a dense B (engine/opencl/CompactKernels.hpp).
//
// Defines (engine/opencl/KernelParameters.cpp): REAL (float|double), REAL_IS_DOUBLE, DEGREE, K (= columns),
// INTERVALS, BTG_GROUP (work-items of a partial group), BIN_COPIES (local bin replicas, GPU), REDUCE_GROUP,
// SORT_CHUNK (rows per sorted chunk), LEARNER_BLOCK and ROW_BLOCK (CPU), GB_NV_PTX_ATOMICS (NVIDIA: local
// float atomics by inline PTX), (the cross-product cache fill is kernels/compact_cross.cl); for compact_x_partial_columns
// (CompactPlan): LANES (work-items, a power of two), EDGE_SLOTS (0, or 2 DEGREE for edge intervals with their own
// pieces), VEC (rows per load, 1 or 4) and LANE_RED (1: each column add is one NVIDIA red.shared instruction).
//
// Two passes. Partials: a work-group per (learner, chunk of rows) accumulates either
//   compact_x: interval moments M[q][s] = sum g u^s  (INTERVALS x (DEGREE+1) values), from x itself, or
//   compact:   the k sums c[first + r] += w_r g      (K values), from the stored compact basis,
// into local bins with atomics (the *_local kernels, GPU), into lane-private local columns without atomics
// (compact_x_partial_columns, GPU, the default for compact_x) or into private accumulators of one work-item that
// streams a long row range (the *_private kernels, CPU devices). Reduce: a work-group per learner sums the
// chunks' partials (and, for compact_x, turns moments into c with the polynomial table).
#ifdef REAL_IS_DOUBLE
typedef double4 REAL4;
#else
typedef float4 REAL4;
#endif

// W, MOMENTS, locate(), PIECE_VALUES and basis_row() come from kernels/common.cl.

inline size_t partial_offset(int width) {
  return ((size_t)get_group_id(0) * get_num_groups(1) + get_group_id(1)) * width;
}

// A program holds the variant its BTG_GROUP calls for: local bins (> 1 work-item per group) or private sums.
#if BTG_GROUP > 1

// Zeroes BIN_COPIES x width local bins.
inline void clear_bins(__local REAL* bins, int width) {
  for (int m = get_local_id(0); m < BIN_COPIES * width; m += get_local_size(0)) bins[m] = (REAL)0;
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Sums the BIN_COPIES replicas and writes `width` partials of this group. momentsByPower: the bins hold moment
// (q, s) at s * INTERVALS + q (lanes of a warp then hit banks by q, not by q * W), the partials at q * W + s.
inline void store_bins(__local REAL* bins, int copies, int width, bool momentsByPower, __global REAL* out) {
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int m = get_local_id(0); m < width; m += get_local_size(0)) {
    const int at = momentsByPower ? (m % W) * INTERVALS + m / W : m;
    REAL sum = (REAL)0;
    for (int copy = 0; copy < copies; ++copy) sum += bins[copy * width + at];
    out[m] = sum;
  }
}

// Rows per work-item per step whose global loads are issued together, before their atomics.
#define ROWS_IN_FLIGHT 4

// ---- compact_x: moments from x -----------------------------------------------------------------------------------
__kernel __attribute__((reqd_work_group_size(BTG_GROUP, 1, 1))) void compact_x_partial_local(
    int n, int chunkRows, int learnerBegin, __global const REAL* x, __global const REAL* g,
    __global const REAL* geometry, __global REAL* partials) {
  __local REAL bins[BIN_COPIES * MOMENTS];
  const int j = learnerBegin + get_group_id(0);
  const REAL lo = geometry[2 * j], inverseSpacing = geometry[2 * j + 1];
  __global const REAL* xj = x + (size_t)j * n;
  clear_bins(bins, MOMENTS);
  __local REAL* mine = bins + (get_local_id(0) * BIN_COPIES / BTG_GROUP) * MOMENTS;
  int begin, end;
  chunk_rows(n, chunkRows, &begin, &end);
  for (int i = begin + get_local_id(0); i < end; i += ROWS_IN_FLIGHT * BTG_GROUP) {
    REAL xs[ROWS_IN_FLIGHT], gs[ROWS_IN_FLIGHT];
    for (int r = 0; r < ROWS_IN_FLIGHT; ++r) {
      const int row = min(i + r * BTG_GROUP, end - 1);
      xs[r] = xj[row];
      gs[r] = i + r * BTG_GROUP < end ? g[row] : (REAL)0;  // rows past the end add zero
    }
    for (int r = 0; r < ROWS_IN_FLIGHT; ++r) {
      REAL u;
      const int q = locate(xs[r], lo, inverseSpacing, &u);
      REAL p = gs[r];
      #pragma unroll
      for (int s = 0; s < W; ++s) {
        local_add(mine + s * INTERVALS + q, p);
        p *= u;
      }
    }
  }
  store_bins(bins, BIN_COPIES, MOMENTS, true, partials + partial_offset(MOMENTS));
}

// ---- compact_x, lane-private columns (GPU, LANES > 0, the default) -------------------------------------------
// A work-group is one warp of LANES work-items; each owns a private copy of the learner's columns in local memory,
// interleaved so that lane L's values all sit in bank L (value b of lane L at b * LANES + L). Binning a row is then
// plain load-add-stores, with no atomics and no bank conflicts whatever the intervals of the warp's rows are (the
// atomics of compact_x_partial_local spent ~4x longer per row on conflicts and retries). With equidistant knots
// the intervals share one set of pieces w_r(u) (the table's interval DEGREE; CompactData checks), so a row in
// interval q adds g w_r(u) to columns q + r directly: K values per lane. Where the 2 DEGREE edge intervals have
// pieces of their own (clamped knots; EDGE_SLOTS = 2 DEGREE, else 0) their rows add the moments g u^s to W slots
// per edge interval instead, which compact_x_reduce_columns turns into columns with the table. The copies are
// summed once per group (diagonal order: lane L reads copy (L + t) mod LANES, again one bank each).
// Rows: VEC (4 where every learner's rows start 16-byte aligned, else 1) consecutive rows per load, LANE_ROWS rows
// per lane and block; one block's loads are in flight while the previous block is binned.
#if defined(LANES) && LANES > 0
#ifndef LANE_ROWS
#define LANE_ROWS 8
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef EDGE_SLOTS
#define EDGE_SLOTS 0
#endif
#ifndef LANE_RED
#define LANE_RED 0
#endif
#define COLUMN_BINS (K + EDGE_SLOTS * W)
#define BLOCK_ROWS (LANES * LANE_ROWS)

#if EDGE_SLOTS > 0
inline bool edge_interval(int q) { return q < DEGREE || q >= INTERVALS - DEGREE; }
// Edge interval q's slot: 0 .. DEGREE-1 at the low end, DEGREE .. 2 DEGREE-1 at the high end.
inline int edge_slot(int q) { return q < DEGREE ? q : q - INTERVALS + EDGE_SLOTS; }
#endif

#if defined(REAL_IS_DOUBLE) || DEGREE == 0
#define locate_row locate
#endif

// Rows row0 + VEC (lane + LANES v) + e (v < LANE_ROWS / VEC, e < VEC) of xj and g, all below the chunk's end.
inline void load_lane_rows(__global const REAL* xj, __global const REAL* g, int row0, REAL* xs, REAL* gs) {
  #pragma unroll
  for (int v = 0; v < LANE_ROWS / VEC; ++v) {
    const int row = row0 + VEC * ((int)get_local_id(0) + LANES * v);
#if VEC == 4
    const REAL4 xv = *(__global const REAL4*)(xj + row), gv = *(__global const REAL4*)(g + row);
    xs[4 * v] = xv.x, xs[4 * v + 1] = xv.y, xs[4 * v + 2] = xv.z, xs[4 * v + 3] = xv.w;
    gs[4 * v] = gv.x, gs[4 * v + 1] = gv.y, gs[4 * v + 2] = gv.z, gs[4 * v + 3] = gv.w;
#else
    xs[v] = xj[row];
    gs[v] = g[row];
#endif
  }
}

// Adds row (xv, gv) to this lane's copy: g w_r(u) to columns q + r (Horner on the shared pieces), or for an edge
// interval g u^s to its slots.
inline void bin_column_row(__local REAL* mine, REAL xv, REAL gv, REAL lo, REAL inverseSpacing, const REAL* piece) {
  REAL u;
  const int q = locate_row(xv, lo, inverseSpacing, &u);
  REAL add[W];
  PIECE_VALUES(piece, u, add)
  #pragma unroll
  for (int r = 0; r < W; ++r) add[r] *= gv;
#if EDGE_SLOTS > 0
  const bool edge = edge_interval(q);
  REAL m = gv;
  #pragma unroll
  for (int s = 0; s < W; ++s, m *= u) add[s] = edge ? m : add[s];
  __local REAL* at = mine + (edge ? K + edge_slot(q) * W : q) * LANES;
#else
  __local REAL* at = mine + q * LANES;
#endif
#if LANE_RED && defined(GB_NV_PTX_ATOMICS)
  // One reduction instruction per column instead of a load, an add and a store: half the local-memory traffic
  // (no conflicts either way: the lane's copy sits in its own bank).
  #pragma unroll
  for (int r = 0; r < W; ++r) local_add(at + r * LANES, add[r]);
#else
  #pragma unroll
  for (int r = 0; r < W; ++r) at[r * LANES] += add[r];
#endif
}

__kernel __attribute__((reqd_work_group_size(LANES, 1, 1))) void compact_x_partial_columns(
    int n, int chunkRows, int learnerBegin, __global const REAL* x, __global const REAL* g,
    __global const REAL* geometry, __global const REAL* poly, __global REAL* partials) {
  __local REAL bins[COLUMN_BINS * LANES];
  const int lane = get_local_id(0);
  const int j = learnerBegin + get_group_id(0);
  const REAL lo = geometry[2 * j], inverseSpacing = geometry[2 * j + 1];
  __global const REAL* xj = x + (size_t)j * n;
  __global const REAL* shared = poly + ((size_t)j * INTERVALS + min(DEGREE, INTERVALS - 1)) * W * W;
  REAL piece[W * W];
  #pragma unroll
  for (int m = 0; m < W * W; ++m) piece[m] = shared[m];
  __local REAL* mine = bins + lane;
  for (int b = 0; b < COLUMN_BINS; ++b) mine[b * LANES] = (REAL)0;  // only this lane touches its copy until the sum
  int begin, end;
  chunk_rows(n, chunkRows, &begin, &end);
  // Whole blocks, two register buffers in turn; then the last < BLOCK_ROWS rows one per lane.
  REAL xa[LANE_ROWS], ga[LANE_ROWS], xb[LANE_ROWS], gb[LANE_ROWS];
  int i = begin;
  if (i + BLOCK_ROWS <= end) load_lane_rows(xj, g, i, xa, ga);
  for (; i + 2 * BLOCK_ROWS <= end; i += 2 * BLOCK_ROWS) {
    load_lane_rows(xj, g, i + BLOCK_ROWS, xb, gb);
    #pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) bin_column_row(mine, xa[r], ga[r], lo, inverseSpacing, piece);
    if (i + 3 * BLOCK_ROWS <= end) load_lane_rows(xj, g, i + 2 * BLOCK_ROWS, xa, ga);
    #pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) bin_column_row(mine, xb[r], gb[r], lo, inverseSpacing, piece);
  }
  if (i + BLOCK_ROWS <= end) {
    #pragma unroll
    for (int r = 0; r < LANE_ROWS; ++r) bin_column_row(mine, xa[r], ga[r], lo, inverseSpacing, piece);
    i += BLOCK_ROWS;
  }
  for (int row = i + lane; row < end; row += LANES) bin_column_row(mine, xj[row], g[row], lo, inverseSpacing, piece);
  barrier(CLK_LOCAL_MEM_FENCE);
  __global REAL* out = partials + partial_offset(COLUMN_BINS);
  for (int b = lane; b < COLUMN_BINS; b += LANES) {
    REAL sum = (REAL)0;
    for (int t = 0; t < LANES; ++t) sum += bins[b * LANES + ((lane + t) & (LANES - 1))];
    out[b] = sum;
  }
}
#endif  // LANES

// ---- compact: sums from the stored basis -----------------------------------------------------------------------
__kernel __attribute__((reqd_work_group_size(BTG_GROUP, 1, 1))) void compact_partial_local(
    int n, int chunkRows, int learnerBegin, __global const int* firstColumn, __global const REAL* weights,
    __global const REAL* g, __global REAL* partials) {
  __local REAL bins[BIN_COPIES * K];
  const int j = learnerBegin + get_group_id(0);
  __global const int* fj = firstColumn + (size_t)j * n;
  __global const REAL* wj = weights + (size_t)j * n * W;
  clear_bins(bins, K);
  __local REAL* mine = bins + (get_local_id(0) * BIN_COPIES / BTG_GROUP) * K;
  int begin, end;
  chunk_rows(n, chunkRows, &begin, &end);
  for (int i = begin + get_local_id(0); i < end; i += BTG_GROUP) {
    const REAL gi = g[i];
    __local REAL* column = mine + fj[i];
    #pragma unroll
    for (int r = 0; r < W; ++r) local_add(column + r, wj[(size_t)i * W + r] * gi);
  }
  store_bins(bins, BIN_COPIES, K, false, partials + partial_offset(K));
}

// ---- compact_sorted: moments from rows pre-sorted by interval within chunks of SORT_CHUNK rows ---------------
// x never changes during a fit, so each chunk's rows can be ordered by interval once (CompactData): order[] holds
// the row within the chunk (ushort), sortedU[] its u, starts[] where each interval begins. A work-item walks a
// contiguous run of sorted rows, keeps the current interval's moments in registers and touches the local bins
// only when the interval changes: ~1 atomic flush per run instead of DEGREE+1 atomics per row. g of the chunk
// is staged in local memory, so the gather by order[] stays on chip. chunkRows is a multiple of SORT_CHUNK.
inline void flush_moments(__local REAL* bins, int q, REAL* m) {
  #pragma unroll
  for (int s = 0; s < W; ++s) {
    local_add(bins + s * INTERVALS + q, m[s]);
    m[s] = (REAL)0;
  }
}

__kernel __attribute__((reqd_work_group_size(BTG_GROUP, 1, 1))) void compact_sorted_partial_local(
    int n, int chunkRows, int learnerBegin, __global const ushort* order, __global const REAL* sortedU,
    __global const int* starts, __global const REAL* g, __global REAL* partials) {
  __local REAL gChunk[SORT_CHUNK];
  __local int first[INTERVALS + 1];
  __local REAL bins[MOMENTS];
  const int j = learnerBegin + get_group_id(0), lid = get_local_id(0);
  const int sortChunks = (n + SORT_CHUNK - 1) / SORT_CHUNK;
  for (int m = lid; m < MOMENTS; m += BTG_GROUP) bins[m] = (REAL)0;
  int begin, end;
  chunk_rows(n, chunkRows, &begin, &end);
  for (int c0 = begin; c0 < end; c0 += SORT_CHUNK) {
    const int len = min(SORT_CHUNK, end - c0);
    barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's readers are done with gChunk and first
    for (int r = lid; r < len; r += BTG_GROUP) gChunk[r] = g[c0 + r];
    __global const int* chunkStarts = starts + ((size_t)j * sortChunks + c0 / SORT_CHUNK) * (INTERVALS + 1);
    for (int q = lid; q <= INTERVALS; q += BTG_GROUP) first[q] = chunkStarts[q];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int per = (len + BTG_GROUP - 1) / BTG_GROUP;
    const int p0 = min(len, lid * per), p1 = min(len, p0 + per);
    if (p0 >= p1) continue;
    int lo = 0, hi = INTERVALS - 1;  // the interval of p0: the last q with first[q] <= p0
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (first[mid] <= p0) lo = mid;
      else hi = mid - 1;
    }
    int q = lo;
    REAL m[W];
    #pragma unroll
    for (int s = 0; s < W; ++s) m[s] = (REAL)0;
    __global const ushort* oj = order + (size_t)j * n + c0;
    __global const REAL* uj = sortedU + (size_t)j * n + c0;
    for (int p = p0; p < p1; ++p) {
      if (p >= first[q + 1]) {
        flush_moments(bins, q, m);
        while (p >= first[q + 1]) ++q;
      }
      const REAL u = uj[p];
      REAL v = gChunk[oj[p]];
      #pragma unroll
      for (int s = 0; s < W; ++s) {
        m[s] += v;
        v *= u;
      }
    }
    flush_moments(bins, q, m);
  }
  store_bins(bins, 1, MOMENTS, true, partials + partial_offset(MOMENTS));
}


#else  // BTG_GROUP == 1: CPU devices

// One work-item per (LEARNER_BLOCK learners, chunk): long loops into private moments, two copies (even/odd rows)
// so neighbouring rows in the same interval do not wait on each other's sum. Rows go in blocks of ROW_BLOCK so
// that g's block stays in the L1 cache while the block's learners stream their x (as the CPU backend does).
inline void moments_of_rows(__global const REAL* xj, __global const REAL* g, REAL lo, REAL inverseSpacing, int i,
                            int end, REAL* m0, REAL* m1) {
  for (; i + 1 < end; i += 2) {
    REAL u0, u1;
    const int a = locate(xj[i], lo, inverseSpacing, &u0) * W;
    const int b = locate(xj[i + 1], lo, inverseSpacing, &u1) * W;
    REAL p0 = g[i], p1 = g[i + 1];
    #pragma unroll
    for (int s = 0; s < W; ++s) {
      m0[a + s] += p0;
      m1[b + s] += p1;
      p0 *= u0;
      p1 *= u1;
    }
  }
  if (i < end) {
    REAL u;
    const int a = locate(xj[i], lo, inverseSpacing, &u) * W;
    REAL p = g[i];
    #pragma unroll
    for (int s = 0; s < W; ++s) {
      m0[a + s] += p;
      p *= u;
    }
  }
}

__kernel void compact_x_partial_private(int n, int chunkRows, int learnerBegin, __global const REAL* x,
                                        __global const REAL* g, __global const REAL* geometry,
                                        __global REAL* partials, int learnerCount) {
  REAL m0[LEARNER_BLOCK * MOMENTS], m1[LEARNER_BLOCK * MOMENTS];
  for (int m = 0; m < LEARNER_BLOCK * MOMENTS; ++m) m0[m] = m1[m] = (REAL)0;
  const int first = get_group_id(0) * LEARNER_BLOCK;  // relative to learnerBegin
  const int count = min(LEARNER_BLOCK, learnerCount - first);
  int begin, end;
  chunk_rows(n, chunkRows, &begin, &end);
  for (int b = begin; b < end; b += ROW_BLOCK) {
    const int e = min(end, b + ROW_BLOCK);
    for (int l = 0; l < count; ++l) {
      const int j = learnerBegin + first + l;
      moments_of_rows(x + (size_t)j * n, g, geometry[2 * j], geometry[2 * j + 1], b, e, m0 + l * MOMENTS,
                      m1 + l * MOMENTS);
    }
  }
  for (int l = 0; l < count; ++l) {
    __global REAL* out = partials + ((size_t)(first + l) * get_num_groups(1) + get_group_id(1)) * MOMENTS;
    for (int m = 0; m < MOMENTS; ++m) out[m] = m0[l * MOMENTS + m] + m1[l * MOMENTS + m];
  }
}

__kernel void compact_partial_private(int n, int chunkRows, int learnerBegin, __global const int* firstColumn,
                                      __global const REAL* weights, __global const REAL* g,
                                      __global REAL* partials) {
  REAL c0[K], c1[K];
  for (int c = 0; c < K; ++c) c0[c] = c1[c] = (REAL)0;
  const int j = learnerBegin + get_group_id(0);
  __global const int* fj = firstColumn + (size_t)j * n;
  __global const REAL* wj = weights + (size_t)j * n * W;
  int begin, end;
  chunk_rows(n, chunkRows, &begin, &end);
  int i = begin;
  for (; i + 1 < end; i += 2) {
    const int a = fj[i], b = fj[i + 1];
    const REAL ga = g[i], gb = g[i + 1];
    #pragma unroll
    for (int r = 0; r < W; ++r) {
      c0[a + r] += wj[(size_t)i * W + r] * ga;
      c1[b + r] += wj[(size_t)(i + 1) * W + r] * gb;
    }
  }
  if (i < end) {
    const int a = fj[i];
    #pragma unroll
    for (int r = 0; r < W; ++r) c0[a + r] += wj[(size_t)i * W + r] * g[i];
  }
  __global REAL* out = partials + partial_offset(K);
  for (int c = 0; c < K; ++c) out[c] = c0[c] + c1[c];
}

#endif  // BTG_GROUP

// ---- reductions: one work-group per learner ------------------------------------------------------------------
// sum[m] = sum over the learner's chunks of its partials[.][m], m < width, into local memory.
inline void sum_chunks(__global const REAL* partials, int chunks, int width, __local REAL* sum) {
  __global const REAL* mine = partials + (size_t)get_group_id(0) * chunks * width;
  for (int m = get_local_id(0); m < width; m += get_local_size(0)) {
    REAL s = (REAL)0;
    for (int ch = 0; ch < chunks; ++ch) s += mine[(size_t)ch * width + m];
    sum[m] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// sum + interval q's share of column q + r: sum_s poly(q,r,s) m[s], m = the interval's moments M[q][.].
inline REAL add_moments(REAL sum, __global const REAL* polyOfLearner, int q, int r, __local const REAL* m) {
  #pragma unroll
  for (int s = 0; s < W; ++s) sum += polyOfLearner[(q * W + r) * W + s] * m[s];
  return sum;
}

// out[group * K + c] = c_c of learner learnerBegin + group, from its moments: c_{q+r} = sum_s poly(q,r,s) M[q][s].
__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void compact_x_reduce(
    int chunks, int learnerBegin, __global const REAL* partials, __global const REAL* poly, __global REAL* out) {
  __local REAL moments[MOMENTS];
  sum_chunks(partials, chunks, MOMENTS, moments);
  const int j = learnerBegin + get_group_id(0);
  __global const REAL* pj = poly + (size_t)j * INTERVALS * W * W;
  for (int c = get_local_id(0); c < K; c += REDUCE_GROUP) {
    REAL sum = (REAL)0;
    #pragma unroll
    for (int r = 0; r < W; ++r) {
      const int q = c - r;
      if (q >= 0 && q < INTERVALS) sum = add_moments(sum, pj, q, r, moments + q * W);
    }
    out[(size_t)get_group_id(0) * K + c] = sum;
  }
}

#if BTG_GROUP > 1 && defined(LANES) && LANES > 0
// compact_x_partial_columns' partials: c_c = column sum c, plus the edge intervals' moments through the table.
__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void compact_x_reduce_columns(
    int chunks, int learnerBegin, __global const REAL* partials, __global const REAL* poly, __global REAL* out) {
  __local REAL sums[COLUMN_BINS];
  sum_chunks(partials, chunks, COLUMN_BINS, sums);
  for (int c = get_local_id(0); c < K; c += REDUCE_GROUP) {
    REAL sum = sums[c];
#if EDGE_SLOTS > 0
    __global const REAL* pj = poly + (size_t)(learnerBegin + get_group_id(0)) * INTERVALS * W * W;
    #pragma unroll
    for (int r = 0; r < W; ++r) {
      const int q = c - r;
      if (q >= 0 && q < INTERVALS && edge_interval(q)) sum = add_moments(sum, pj, q, r, sums + K + edge_slot(q) * W);
    }
#endif
    out[(size_t)get_group_id(0) * K + c] = sum;
  }
}
#endif

__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void compact_reduce(
    int chunks, __global const REAL* partials, __global REAL* out) {
  __local REAL sums[K];
  sum_chunks(partials, chunks, K, sums);
  for (int c = get_local_id(0); c < K; c += REDUCE_GROUP) out[(size_t)get_group_id(0) * K + c] = sums[c];
}

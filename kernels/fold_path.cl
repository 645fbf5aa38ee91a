// Every resampling fold of one cross-validation advancing together (engine/opencl/FoldPath.hpp): the folds share
// x, y, knots and design and differ in their weights, offsets and lambdas, so one pass over x per iteration serves
// them all. Per iteration:
//   fold_btg_partial + fold_btg_reduce  c_b = B'(w_b u_b) for every fold b and spline learner (many right-hand sides)
//   learner_solve (learner_select.cl)    delta and c'Qc of every (fold, learner), FOLDS x learners groups
//   fold_select_update                   per fold: j* (ties to the lowest index), the record, mu_b += nu B_j* delta,
//                                        the next w_b u_b and the partial sums of the out-of-bag loss
// and fold_finish_risk after a batch. Per-fold arrays are row-major with the folds contiguous: value (row i, fold b)
// at i * FOLD_STRIDE + b, so a work-item per fold reads a row's folds coalesced, and a row's folds are one cache line.
//
// Defines: those of buildOptions (REAL, DEGREE, K, INTERVALS, BTG_GROUP, ...), FAMILY, and
//   FOLDS       folds of the batch (at most FOLD_LANES)
//   FOLD_PASS   folds of one B'g pass: GPU, the lanes of a warp (one pass); CPU, the folds a work-item keeps in
//               registers (FOLD_PASS x (DEGREE + 1) of them), a multiple of 4, FOLD_STRIDE / FOLD_PASS passes over x
//   FOLD_STRIDE values per row of the per-fold arrays: FOLDS padded with zero-weight folds (GPU: to a multiple of 4;
//               CPU: to passes x FOLD_PASS)
//   FOLD_GROUP  work-items per learner in a B'g group (one warp on a GPU, 1 on a CPU device)
//   FOLD_WARPS  learners per B'g group (GPU: 8, walking the same chunks so that w u is read from L1; CPU: 1)
//   FOLD_CHUNK  rows per interval-sorted chunk (CompactData's sorted layout built with this chunk)
//   FOLD_LANES  work-items per fold_select_update group, one per fold (a multiple of 32 >= FOLDS)
//   FOLD_ROWS4  1: the GPU B'g takes 4 rows a warp step, 4 folds a lane (NVIDIA, W = 4, FOLD_GROUP = 32); 0: a lane
//               per fold
// W, MOMENTS, locate(), GB_HORNER and the family functions come from kernels/common.cl.
#define RECORD (K + 2)
#define UPDATE_BATCH 4

// ---- B'(w u) for every fold ------------------------------------------------------------------------------------
// The rows of every chunk are ordered by learner j's interval once (x never changes), so a walk through a chunk's
// sorted rows stays in one interval q for many rows: it sums each fold's moments m[b][s] = sum (w u)_b u^s in
// registers and turns them into columns c_{q+r} += sum_s poly(q, r, s) m[b][s] only when q changes (flush).
// Group (learner block, range, pass): FOLD_WARPS learners over a range of chunks, folds pass * FOLD_PASS ... of
// them. Partials: [pass][range][learner][K][FOLD_PASS]. The CPU variant (below the GPU one): a work-item per
// (learner, range, pass) walks every sorted row with FOLD_PASS folds in its registers.
inline void flush_columns(__global const REAL* pj, int q, REAL* m, __local REAL* bins) {
  #pragma unroll
  for (int r = 0; r < W; ++r) {
    REAL piece[W];
    #pragma unroll
    for (int s = 0; s < W; ++s) piece[s] = pj[(q * W + r) * W + s];
    __local REAL* column = bins + (q + r) * FOLD_PASS;
    #pragma unroll
    for (int t = 0; t < FOLD_PASS; ++t) {
      REAL v = (REAL)0;
      #pragma unroll
      for (int s = 0; s < W; ++s) v += piece[s] * m[t * W + s];
      column[t] += v;
    }
  }
  #pragma unroll
  for (int a = 0; a < FOLD_PASS * W; ++a) m[a] = (REAL)0;
}

#ifdef REAL_IS_DOUBLE
typedef double4 FOLD_REAL4;
#else
typedef float4 FOLD_REAL4;
#endif

#if FOLD_GROUP > 1 && FOLD_ROWS4
// NVIDIA, cubic splines (W = 4), float, 32 fold slots (FOLD_PASS = FOLD_GROUP = 32); in tests any device, with a
// warp a group. A warp per learner takes 4 rows a step, 8 lanes a row and 4 folds a lane (one 16-byte load of the
// row's w u), so a (row, learner) costs about 6 warp instructions instead of about 14 with a lane per fold, counted
// from the source (a lane's 16 moment adds serve 4 folds, and one set of loads and addresses serves 4 rows); on the
// H100 the B'g went from 3084 to 2067 us (docs/performance.md). Lane (g, f) = 8 g + f keeps the
// moments of folds 4 f .. 4 f + 3 for the rows g, g + 4, ... of the interval. At the interval's end the four row
// groups' moments are summed (rows4_sum): lane (g, f) gets fold 4 f + g's four sums and adds its 4 columns into
// its fold's bins (a fold a lane, no atomics).
#ifdef REAL_IS_DOUBLE
#error "FOLD_ROWS4 is for float (FoldPath)"
#endif
#ifndef FR_STEPS
#define FR_STEPS 4  // whole warp steps (4 rows each) whose loads are issued together (H100: 4 with 4-warp groups)
#endif
#if FR_STEPS < 1
#error "FR_STEPS must be at least 1"
#endif

// The 4 moments of 4 folds for one row: v holds the folds' w u, m[4 e + s] += v_e u^s.
inline void rows4_add(float* m, float4 v, float u) {
  const float u2 = u * u, u3 = u2 * u;
  const float e[4] = {v.x, v.y, v.z, v.w};
  #pragma unroll
  for (int f = 0; f < 4; ++f) {
    m[4 * f] += e[f];
    m[4 * f + 1] = fma(e[f], u, m[4 * f + 1]);
    m[4 * f + 2] = fma(e[f], u2, m[4 * f + 2]);
    m[4 * f + 3] = fma(e[f], u3, m[4 * f + 3]);
  }
}

#ifdef GB_NV_PTX_ATOMICS
#define FR_SUMS 0  // local floats a lane for rows4_sum
inline float lane_xor(float v, int mask) {
  uint r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(as_uint(v)), "r"(mask));
  return as_float(r);
}
// Lane (g, f)'s fold 4 f + g, its moments summed over the 4 row groups by two butterfly steps: over g ^ 2 each lane
// keeps the pair of folds holding its own and sends the other pair, over g ^ 1 the fold itself.
inline float4 rows4_sum(const float* m, int g, __local float* sums, int lane) {
  const bool hi = (g >> 1) != 0, lo = (g & 1) != 0;
  float pair[8];
  #pragma unroll
  for (int a = 0; a < 8; ++a) pair[a] = (hi ? m[8 + a] : m[a]) + lane_xor(hi ? m[a] : m[8 + a], 16);
  float r[4];
  #pragma unroll
  for (int s = 0; s < 4; ++s) r[s] = (lo ? pair[4 + s] : pair[s]) + lane_xor(lo ? pair[s] : pair[4 + s], 8);
  return (float4)(r[0], r[1], r[2], r[3]);
}
#else
#define FR_SUMS 20  // 16 moments, padded: a quarter warp's 16-byte accesses fall in distinct banks
// Tests on a CPU device: through local memory, with one warp a group (FoldPath), so the group's barrier is the
// warp's.
inline float4 rows4_sum(const float* m, int g, __local float* sums, int lane) {
  __local float4* mine = (__local float4*)(sums + lane * FR_SUMS);
  #pragma unroll
  for (int e = 0; e < 4; ++e) mine[e] = (float4)(m[4 * e], m[4 * e + 1], m[4 * e + 2], m[4 * e + 3]);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int f = lane % 8;
  float4 s = ((__local float4*)(sums + f * FR_SUMS))[g];
  #pragma unroll
  for (int h = 1; h < 4; ++h) s += ((__local float4*)(sums + (8 * h + f) * FR_SUMS))[g];
  barrier(CLK_LOCAL_MEM_FENCE);  // every lane has read the sums before the next interval writes them
  return s;
}
#endif

__kernel __attribute__((reqd_work_group_size(FOLD_GROUP * FOLD_WARPS, 1, 1))) void fold_btg_partial(
    int n, int learners, int chunksPerRange, __global const ushort* order, __global const REAL* sortedU,
    __global const int* starts, __global const REAL* poly, __global const REAL* wu, __global REAL* partials) {
  __local REAL allBins[FOLD_WARPS * K * FOLD_GROUP];
  __local float allSums[FOLD_WARPS * FOLD_GROUP * FR_SUMS + 1];
  const int warp = get_local_id(0) / FOLD_GROUP, lane = get_local_id(0) % FOLD_GROUP;
  const int g = lane / 8, f = lane % 8, fold = 4 * f + g;
  const int j = get_group_id(0) * FOLD_WARPS + warp, range = get_group_id(1);
  const bool active = j < learners;  // a group's last warps may have no learner; they still meet the barriers
  const int jj = active ? j : 0;
  __local REAL* bins = allBins + warp * K * FOLD_GROUP + fold;  // column c of this lane's fold at bins[c * 32]
  __local float* sums = allSums + warp * FOLD_GROUP * FR_SUMS;
  for (int c = 0; c < K; ++c) bins[c * FOLD_GROUP] = (REAL)0;
  const int chunks = (n + FOLD_CHUNK - 1) / FOLD_CHUNK;
  __global const REAL* pj = poly + (size_t)jj * INTERVALS * W * W;
  const int c0 = range * chunksPerRange, c1 = min(chunks, c0 + chunksPerRange);
  const bool loads = 4 * f < FOLD_STRIDE;  // lanes past the row's folds load nothing
  const float4 zero = (float4)(0.0f);
  for (int ch = c0; ch < c1; ++ch) {
    barrier(CLK_LOCAL_MEM_FENCE);  // the group's warps walk the same chunk: its w u stays in L1 between them
    if (!active) continue;
    const int rowBase = ch * FOLD_CHUNK;
    __global const int* first = starts + ((size_t)jj * chunks + ch) * (INTERVALS + 1);
    __global const ushort* oj = order + (size_t)jj * n + rowBase;
    __global const REAL* uj = sortedU + (size_t)jj * n + rowBase;
    __global const float4* wuChunk = (__global const float4*)(wu + (size_t)rowBase * FOLD_STRIDE + 4 * f);
    int p = first[0];
    for (int q = 0; q < INTERVALS; ++q) {
      const int end = first[q + 1];
      if (p == end) continue;
      float m[16];
      #pragma unroll
      for (int a = 0; a < 16; ++a) m[a] = 0.0f;
      // FR_STEPS whole steps at a time: their loads are independent, so their latencies overlap.
      for (; p + 4 * FR_STEPS <= end; p += 4 * FR_STEPS) {
        float u[FR_STEPS];
        float4 v[FR_STEPS];
        #pragma unroll
        for (int e = 0; e < FR_STEPS; ++e) {
          u[e] = uj[p + 4 * e + g];
          v[e] = loads ? wuChunk[(size_t)oj[p + 4 * e + g] * (FOLD_STRIDE / 4)] : zero;
        }
        #pragma unroll
        for (int e = 0; e < FR_STEPS; ++e) rows4_add(m, v[e], u[e]);
      }
      for (; p < end; p += 4) {  // the last steps: rows past the interval's end load no w u and add 0
        const int r = min(p + g, end - 1);
        const float u = uj[r];
        const float4 v = (loads && p + g < end) ? wuChunk[(size_t)oj[r] * (FOLD_STRIDE / 4)] : zero;
        rows4_add(m, v, u);
      }
      p = end;
      const float4 s = rows4_sum(m, g, sums, lane);
      #pragma unroll
      for (int r = 0; r < W; ++r) {
        __global const REAL* pr = pj + (q * W + r) * W;
        bins[(q + r) * FOLD_GROUP] += pr[0] * s.x + pr[1] * s.y + pr[2] * s.z + pr[3] * s.w;
      }
    }
  }
  if (!active) return;
  __global REAL* out = partials + ((size_t)range * learners + j) * K * FOLD_PASS;
  for (int c = 0; c < K; ++c) out[c * FOLD_PASS + fold] = bins[c * FOLD_GROUP];
}

#elif FOLD_GROUP > 1
#define ROW_BATCH 8
// GPU: a warp per learner and a work-item (lane) per fold (FOLD_PASS = FOLD_GROUP lanes, one pass). The warp walks
// each chunk's sorted rows together: a row's order and u are one broadcast load, its folds' w u one coalesced load
// (the row's FOLD_STRIDE values are contiguous), and every lane keeps its fold's W moments of the current interval
// in registers; at the end of an interval each lane adds them into its own columns (lane-private local bins, no
// atomics). Lane-per-row variants gather a different row per lane, which costs the L1 cache a line per lane.
__kernel __attribute__((reqd_work_group_size(FOLD_GROUP * FOLD_WARPS, 1, 1))) void fold_btg_partial(
    int n, int learners, int chunksPerRange, __global const ushort* order, __global const REAL* sortedU,
    __global const int* starts, __global const REAL* poly, __global const REAL* wu, __global REAL* partials) {
  __local REAL allBins[FOLD_WARPS * K * FOLD_GROUP];
  const int warp = get_local_id(0) / FOLD_GROUP, lane = get_local_id(0) % FOLD_GROUP;
  const int j = get_group_id(0) * FOLD_WARPS + warp, range = get_group_id(1);
  const bool active = j < learners;  // a group's last warps may have no learner; they still meet the barriers
  const int jj = active ? j : 0;
  __local REAL* bins = allBins + warp * K * FOLD_GROUP + lane;  // column c of this lane at bins[c * FOLD_GROUP]
  for (int c = 0; c < K; ++c) bins[c * FOLD_GROUP] = (REAL)0;
  const int chunks = (n + FOLD_CHUNK - 1) / FOLD_CHUNK;
  __global const REAL* pj = poly + (size_t)jj * INTERVALS * W * W;
  const int c0 = range * chunksPerRange, c1 = min(chunks, c0 + chunksPerRange);
  const bool fold = lane < FOLDS;
  for (int ch = c0; ch < c1; ++ch) {
    // The group's warps (learners) walk the same chunk together, so its w u stays in the L1 cache between them.
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!active) continue;
    const int rowBase = ch * FOLD_CHUNK;
    __global const int* first = starts + ((size_t)jj * chunks + ch) * (INTERVALS + 1);
    __global const ushort* oj = order + (size_t)jj * n + rowBase;
    __global const REAL* uj = sortedU + (size_t)jj * n + rowBase;
    __global const REAL* wuChunk = wu + (size_t)rowBase * FOLD_STRIDE + lane;
    int p = first[0];
    for (int q = 0; q < INTERVALS; ++q) {
      const int end = first[q + 1];
      if (p == end) continue;
      REAL m[W];
      #pragma unroll
      for (int s = 0; s < W; ++s) m[s] = (REAL)0;
      // ROW_BATCH rows at a time: their loads are independent, so their latencies overlap.
      for (; p + ROW_BATCH <= end; p += ROW_BATCH) {
        REAL u[ROW_BATCH], v[ROW_BATCH];
        #pragma unroll
        for (int e = 0; e < ROW_BATCH; ++e) {
          u[e] = uj[p + e];
          v[e] = fold ? wuChunk[(size_t)oj[p + e] * FOLD_STRIDE] : (REAL)0;
        }
        #pragma unroll
        for (int e = 0; e < ROW_BATCH; ++e)
          #pragma unroll
          for (int s = 0; s < W; ++s) {
            m[s] += v[e];
            v[e] *= u[e];
          }
      }
      for (; p < end; ++p) {
        const REAL u = uj[p];
        REAL v = fold ? wuChunk[(size_t)oj[p] * FOLD_STRIDE] : (REAL)0;
        #pragma unroll
        for (int s = 0; s < W; ++s) {
          m[s] += v;
          v *= u;
        }
      }
      #pragma unroll
      for (int r = 0; r < W; ++r) {
        REAL add = (REAL)0;
        #pragma unroll
        for (int s = 0; s < W; ++s) add += pj[(q * W + r) * W + s] * m[s];
        bins[(q + r) * FOLD_GROUP] += add;
      }
    }
  }
  if (!active) return;
  __global REAL* out = partials + ((size_t)range * learners + j) * K * FOLD_PASS;
  for (int c = 0; c < K; ++c) out[c * FOLD_PASS + lane] = bins[c * FOLD_GROUP];
}

#else  // CPU devices: one work-item per (learner, range, pass), FOLD_PASS folds in private accumulators

__kernel __attribute__((reqd_work_group_size(FOLD_GROUP * FOLD_WARPS, 1, 1))) void fold_btg_partial(
    int n, int learners, int chunksPerRange, __global const ushort* order, __global const REAL* sortedU,
    __global const int* starts, __global const REAL* poly, __global const REAL* wu, __global REAL* partials) {
  __local REAL allBins[FOLD_WARPS * K * FOLD_PASS];
  const int warp = get_local_id(0) / FOLD_GROUP, lid = get_local_id(0) % FOLD_GROUP;
  const int j = get_group_id(0) * FOLD_WARPS + warp, range = get_group_id(1), pass = get_group_id(2);
  const bool active = j < learners;  // a group's last warps may have no learner; they still meet the barriers
  const int jj = active ? j : 0;
  const int base = pass * FOLD_PASS;
  __local REAL* bins = allBins + warp * K * FOLD_PASS;
  for (int a = get_local_id(0); a < FOLD_WARPS * K * FOLD_PASS; a += FOLD_GROUP * FOLD_WARPS) allBins[a] = (REAL)0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int chunks = (n + FOLD_CHUNK - 1) / FOLD_CHUNK;
  __global const REAL* pj = poly + (size_t)jj * INTERVALS * W * W;
  const int c0 = range * chunksPerRange, c1 = min(chunks, c0 + chunksPerRange);
  REAL m[FOLD_PASS * W];
  #pragma unroll
  for (int a = 0; a < FOLD_PASS * W; ++a) m[a] = (REAL)0;
  for (int ch = c0; ch < c1; ++ch) {
    // The group's warps (learners) walk the same chunk together, so its w u stays in the L1 cache between them.
    barrier(CLK_LOCAL_MEM_FENCE);
    const int rowBase = ch * FOLD_CHUNK, len = min(FOLD_CHUNK, n - rowBase);
    __global const int* first = starts + ((size_t)jj * chunks + ch) * (INTERVALS + 1);
    __global const ushort* oj = order + (size_t)jj * n + rowBase;
    __global const REAL* uj = sortedU + (size_t)jj * n + rowBase;
    const int per = (len + FOLD_GROUP - 1) / FOLD_GROUP;
    const int p0 = min(len, lid * per), p1 = active ? min(len, p0 + per) : p0;
    if (p0 >= p1) continue;
    int q = 0;  // the interval of p0: the last q with first[q] <= p0
    while (first[q + 1] <= p0) ++q;
    for (int p = p0; p < p1; ++p) {
      if (p >= first[q + 1]) {
        flush_columns(pj, q, m, bins);
        do ++q;
        while (p >= first[q + 1]);
      }
      const REAL u = uj[p];
      // The row's folds of this pass: FOLD_PASS (a multiple of 4) values, 4 at a time (rows are FOLD_STRIDE apart,
      // a multiple of FOLD_PASS, so every load is aligned).
      __global const FOLD_REAL4* row = (__global const FOLD_REAL4*)(wu + (size_t)(rowBase + oj[p]) * FOLD_STRIDE + base);
      #pragma unroll
      for (int v = 0; v < FOLD_PASS / 4; ++v) {
        const FOLD_REAL4 four = row[v];
        REAL vals[4] = {four.x, four.y, four.z, four.w};
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          REAL x = vals[e];
          #pragma unroll
          for (int s = 0; s < W; ++s) {
            m[(4 * v + e) * W + s] += x;
            x *= u;
          }
        }
      }
    }
    flush_columns(pj, q, m, bins);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!active) return;
  __global REAL* out = partials + (((size_t)pass * get_num_groups(1) + range) * learners + j) * K * FOLD_PASS;
  for (int a = lid; a < K * FOLD_PASS; a += FOLD_GROUP) out[a] = bins[a];
}

#endif  // FOLD_GROUP

// c[(b * learners + j) * K + col] = the sum over the ranges of the partials of fold b, learner j, column col.
__kernel void fold_btg_reduce(int learners, int ranges, __global const REAL* partials, __global REAL* c) {
  const int id = get_global_id(0);
  if (id >= FOLDS * learners * K) return;
  const int b = id / (learners * K), j = (id / K) % learners, col = id % K;
  const int pass = b / FOLD_PASS, t = b % FOLD_PASS;
  __global const REAL* p = partials + ((size_t)pass * ranges * learners + j) * K * FOLD_PASS + col * FOLD_PASS + t;
  REAL sum = (REAL)0;
  for (int r = 0; r < ranges; ++r) sum += p[(size_t)r * learners * K * FOLD_PASS];
  c[id] = sum;
}

// ---- selection, record and update, a work-item per fold ------------------------------------------------------
// Every group: fold b's j* = argmax_j reduction[b][j] (strictly larger wins: ties to the lowest index), its step
// table A_b[q][s] = nu sum_r poly_j*(q, r, s) delta_b,j*[q + r] (private to the work-item, in local memory), then
// over the group's rows mu_b += A_b(x_j*), wu_b = w_b u(y, mu_b), partial sum of o_b loss(y, mu_b). Group 0 also
// finishes the previous record's risk from the previous launch's partials and writes this record.
inline REAL previous_risk(int groups, int b, __global const REAL* previousPartials, REAL inverseWeight) {
  REAL sum[4] = {(REAL)0, (REAL)0, (REAL)0, (REAL)0};  // four chains: the loads overlap
  int g = 0;
  for (; g + 4 <= groups; g += 4)
    #pragma unroll
    for (int e = 0; e < 4; ++e) sum[e] += previousPartials[(size_t)(g + e) * FOLDS + b];
  for (; g < groups; ++g) sum[0] += previousPartials[(size_t)g * FOLDS + b];
  return ((sum[0] + sum[1]) + (sum[2] + sum[3])) * inverseWeight;
}

__kernel __attribute__((reqd_work_group_size(FOLD_LANES, 1, 1))) void fold_select_update(
    int n, int groupRows, int learners, __global const REAL* reduction, __global const REAL* delta, REAL nu,
    __global const REAL* x, __global const REAL* geometry, __global const REAL* poly, __global const REAL* y,
    __global const REAL* w, __global const REAL* o, REAL param, __global REAL* mu, __global REAL* wu,
    __global const REAL* previousPartials, __global REAL* partials, __global const REAL* inverseWeights,
    __global REAL* history, int historyRecords, int previousRecord, int record) {
  __local REAL tables[FOLD_LANES * MOMENTS];
  const int b = get_local_id(0), group = get_group_id(0);
  if (b >= FOLDS) return;  // no barrier follows: every work-item uses only its own table
  __global const REAL* rb = reduction + (size_t)b * learners;
  int j = 0;
  REAL best = rb[0];
  for (int l = 1; l < learners; ++l)
    if (GB_BETTER_REDUCTION(rb[l], best)) {
      best = rb[l];
      j = l;
    }
  __global const REAL* dj = delta + ((size_t)b * learners + j) * K;
  if (group == 0) {
    __global REAL* hb = history + (size_t)b * historyRecords * RECORD;
    if (previousRecord >= 0)
      hb[(size_t)previousRecord * RECORD + 1] =
          previous_risk(get_num_groups(0), b, previousPartials, inverseWeights[b]);
    hb[(size_t)record * RECORD] = (REAL)j;
    for (int a = 0; a < K; ++a) hb[(size_t)record * RECORD + 2 + a] = nu * dj[a];
  }
  __local REAL* A = tables + b * MOMENTS;
  __global const REAL* pj = poly + (size_t)j * INTERVALS * W * W;
  for (int q = 0; q < INTERVALS; ++q)
    #pragma unroll
    for (int s = 0; s < W; ++s) {
      REAL sum = (REAL)0;
      #pragma unroll
      for (int r = 0; r < W; ++r) sum += pj[(q * W + r) * W + s] * dj[q + r];
      A[q * W + s] = nu * sum;
    }
  const REAL lo = geometry[2 * j], inverseSpacing = geometry[2 * j + 1];
  __global const REAL* xj = x + (size_t)j * n;
  const int begin = group * groupRows, end = min(n, begin + groupRows);
  REAL sum = (REAL)0;
  // UPDATE_BATCH rows at a time: their loads are independent, so their latencies overlap (the sum keeps row order).
  int i = begin;
  for (; i + UPDATE_BATCH <= end; i += UPDATE_BATCH) {
    REAL xs[UPDATE_BATCH], ms[UPDATE_BATCH], ys[UPDATE_BATCH], ws[UPDATE_BATCH], os[UPDATE_BATCH];
    #pragma unroll
    for (int e = 0; e < UPDATE_BATCH; ++e) {
      const size_t at = (size_t)(i + e) * FOLD_STRIDE + b;
      xs[e] = xj[i + e];
      ms[e] = mu[at];
      ys[e] = y[i + e];
      ws[e] = w[at];
      os[e] = o[at];
    }
    #pragma unroll
    for (int e = 0; e < UPDATE_BATCH; ++e) {
      REAL u, f;
      const int q = locate(xs[e], lo, inverseSpacing, &u);
      GB_HORNER(A + q * W, 1, DEGREE, u, f)
      const size_t at = (size_t)(i + e) * FOLD_STRIDE + b;
      const REAL m = ms[e] + f;
      mu[at] = m;
      wu[at] = ws[e] * negativeGradient(ys[e], m, param);
      sum += os[e] * loss(ys[e], m, param);
    }
  }
  for (; i < end; ++i) {
    REAL u;
    const int q = locate(xj[i], lo, inverseSpacing, &u);
    REAL f;
    GB_HORNER(A + q * W, 1, DEGREE, u, f)
    const size_t at = (size_t)i * FOLD_STRIDE + b;
    const REAL m = mu[at] + f, yi = y[i];
    mu[at] = m;
    wu[at] = w[at] * negativeGradient(yi, m, param);
    sum += o[at] * loss(yi, m, param);
  }
  partials[(size_t)group * FOLDS + b] = sum;
}

// The last record's risk after a batch: a work-item per fold.
__kernel void fold_finish_risk(int groups, __global const REAL* previousPartials,
                               __global const REAL* inverseWeights, __global REAL* history, int historyRecords,
                               int previousRecord) {
  const int b = get_global_id(0);
  if (b >= FOLDS) return;
  history[((size_t)b * historyRecords + previousRecord) * RECORD + 1] =
      previous_risk(groups, b, previousPartials, inverseWeights[b]);
}

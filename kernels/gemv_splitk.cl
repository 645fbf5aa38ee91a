// Split-K transposed gemv for tall-skinny B'g, the product boosting needs every iteration (design.md section 3),
// after MAGMA's transposed GEMV (Nath, Tomov & Dongarra): read B row by row with coalesced loads and split the long
// sum over the rows ("K") across many work-groups, so that even a few hundred columns keep the whole device busy.
//   out[c] = sum_{i < rows} B[i, c] g[i],   B row-major (rows x cols)
// Pass 1 (gemv_splitk_partial): a work-group of CLANES x RLANES (column lanes x row lanes) owns a tile of
// CLANES * VEC columns and a block of rows. Lane (cl, rl) reads VEC neighbouring columns (one 16-byte float4 /
// double2 load when VEC > 1) of rows rl, rl + RLANES, ...; the row lanes are added in local memory and the group
// writes one row of partials per row block: partial[block * cols + c].
// Pass 2 (gemv_splitk_reduce): out[c] = sum over row blocks of partial[block * cols + c].
// The forward product B*delta has a short sum (k): gemv_rows_forward gives each row CLANES lanes with VEC-wide loads.
// Defines: REAL, GB_DOUBLE; VEC in {1, 2, 4} (the host takes VEC > 1 only when cols % VEC == 0, so every vector
// load is aligned); CLANES column lanes and RLANES row lanes (powers of two); REDUCE_COLS x REDUCE_LANES, the
// work-group of pass 2.
#ifndef VEC
#define VEC 1
#endif
#ifndef CLANES
#define CLANES 16
#endif
#ifndef RLANES
#define RLANES 16
#endif
#ifndef REDUCE_COLS
#define REDUCE_COLS 16
#endif
#ifndef REDUCE_LANES
#define REDUCE_LANES 16
#endif
#if (RLANES & (RLANES - 1)) != 0 || (CLANES & (CLANES - 1)) != 0 || (REDUCE_LANES & (REDUCE_LANES - 1)) != 0
#error "CLANES, RLANES and REDUCE_LANES must be powers of two"
#endif

#define GB_CAT2(a, b) a##b
#define GB_CAT(a, b) GB_CAT2(a, b)
#if VEC == 1
#define REALV REAL
#define HSUM(v) (v)
#elif VEC == 2
#define REALV GB_CAT(REAL, 2)
#define HSUM(v) ((v).s0 + (v).s1)
#elif VEC == 4
#define REALV GB_CAT(REAL, 4)
#define HSUM(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3))
#else
#error "VEC must be 1, 2 or 4"
#endif

// NDRange (tiles * CLANES, blocks * RLANES), local (CLANES, RLANES). rowsPerBlock is a multiple of RLANES.
__kernel __attribute__((reqd_work_group_size(CLANES, RLANES, 1)))
void gemv_splitk_partial(const ulong rows, const ulong cols, const ulong rowsPerBlock,
                         __global const REAL* B, __global const REAL* g, __global REAL* partial) {
  __local REALV work[RLANES * CLANES];
  const uint cl = get_local_id(0), rl = get_local_id(1);
  const ulong colVec = get_global_id(0);          // index of this lane's vector in a row
  const ulong vecCols = cols / VEC;               // vectors per row (exact when VEC > 1)
  const ulong block = get_group_id(1);
  const ulong begin = block * rowsPerBlock;
  const ulong end = min(rows, begin + rowsPerBlock);
  REALV sum = (REALV)0;
  if (colVec < vecCols) {
    __global const REALV* Bv = (__global const REALV*)B + colVec;
    ulong i = begin + rl;
    // Four rows per step, loads first: an in-order GPU core then has four loads in flight per lane, not one.
    for (; i + 3 * RLANES < end; i += 4 * RLANES) {
      const REALV b0 = Bv[i * vecCols], b1 = Bv[(i + RLANES) * vecCols];
      const REALV b2 = Bv[(i + 2 * RLANES) * vecCols], b3 = Bv[(i + 3 * RLANES) * vecCols];
      const REAL g0 = g[i], g1 = g[i + RLANES], g2 = g[i + 2 * RLANES], g3 = g[i + 3 * RLANES];
      sum += b0 * g0 + b1 * g1 + (b2 * g2 + b3 * g3);
    }
    for (; i < end; i += RLANES) sum += Bv[i * vecCols] * g[i];
  }
  work[rl * CLANES + cl] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = RLANES >> 1; stride > 0; stride >>= 1) {
    if (rl < stride) work[rl * CLANES + cl] += work[(rl + stride) * CLANES + cl];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (rl == 0 && colVec < vecCols) {
#if VEC == 1
    partial[block * cols + colVec] = work[cl];
#else
    GB_CAT(vstore, VEC)(work[cl], colVec, partial + block * cols);
#endif
  }
}

// out[c] = sum_b partial[b * cols + c]. Work-group (REDUCE_COLS x REDUCE_LANES): neighbouring work-items read
// neighbouring columns, the lanes of a column split the blocks and meet in local memory (with one work-item per
// column, one learner's 64 columns would leave the device idle while 64 threads walk hundreds of blocks).
__kernel __attribute__((reqd_work_group_size(REDUCE_COLS, REDUCE_LANES, 1)))
void gemv_splitk_reduce(const ulong cols, const ulong blocks, __global const REAL* partial, __global REAL* out) {
  __local REAL work[REDUCE_LANES * REDUCE_COLS];
  const uint cl = get_local_id(0), rl = get_local_id(1);
  const ulong c = get_global_id(0);
  REAL sum = (REAL)0;
  if (c < cols)
    for (ulong b = rl; b < blocks; b += REDUCE_LANES) sum += partial[b * cols + c];
  work[rl * REDUCE_COLS + cl] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = REDUCE_LANES >> 1; stride > 0; stride >>= 1) {
    if (rl < stride) work[rl * REDUCE_COLS + cl] += work[(rl + stride) * REDUCE_COLS + cl];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (rl == 0 && c < cols) out[c] = work[cl];
}

// out[i] = sum_{c < k} B[i, j k + c] delta[j k + c], j = learner[0]. NDRange (CLANES, rows rounded up to
// RLANES), local (CLANES, RLANES): the lanes of a row read its k entries in VEC-wide loads (k % VEC == 0 and
// cols % VEC == 0 when VEC > 1), then add their sums in local memory.
__kernel __attribute__((reqd_work_group_size(CLANES, RLANES, 1)))
void gemv_rows_forward(const ulong rows, const ulong cols, const ulong k, __global const int* learner,
                       __global const REAL* B, __global const REAL* delta, __global REAL* out) {
  __local REAL work[RLANES * CLANES];
  const uint cl = get_local_id(0), rl = get_local_id(1);
  const ulong row = get_global_id(1);
  const ulong first = (ulong)learner[0] * k;
  REAL sum = (REAL)0;
  if (row < rows) {
    __global const REALV* Bv = (__global const REALV*)(B + row * cols + first);
    __global const REALV* dv = (__global const REALV*)(delta + first);
    for (ulong v = cl; v < k / VEC; v += CLANES) sum += HSUM(Bv[v] * dv[v]);
  }
  work[rl * CLANES + cl] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = CLANES >> 1; stride > 0; stride >>= 1) {
    if (cl < stride) work[rl * CLANES + cl] += work[rl * CLANES + cl + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (cl == 0 && row < rows) out[row] = work[rl * CLANES];
}

// CPU devices (PoCL) run a work-group's work-items one after another, so the lanes above would each walk the
// whole row block for 16 bytes a row. There one work-item owns a block of rows and adds g_i times each whole row
// into its own row of partials (an axpy per row: B streams contiguously, the partial row stays in the core's cache).
// NDRange (blocks), any local size; writes the same partials as gemv_splitk_partial.
__kernel void gemv_splitk_partial_cpu(const ulong rows, const ulong cols, const ulong rowsPerBlock,
                                      __global const REAL* B, __global const REAL* g, __global REAL* partial) {
  const ulong vecCols = cols / VEC;
  const ulong block = get_global_id(0);
  const ulong begin = block * rowsPerBlock, end = min(rows, begin + rowsPerBlock);
  __global REALV* acc = (__global REALV*)(partial + block * cols);
  for (ulong v = 0; v < vecCols; ++v) acc[v] = (REALV)0;
  for (ulong i = begin; i < end; ++i) {
    const REAL gi = g[i];
    __global const REALV* row = (__global const REALV*)B + i * vecCols;
    for (ulong v = 0; v < vecCols; ++v) acc[v] += row[v] * gi;
  }
}

// CPU variant of gemv_rows_forward: one work-item per block of rowsPerItem rows, each row's k entries in order.
__kernel void gemv_rows_forward_cpu(const ulong rows, const ulong cols, const ulong k, __global const int* learner,
                                    __global const REAL* B, __global const REAL* delta, __global REAL* out,
                                    const ulong rowsPerItem) {
  const ulong first = (ulong)learner[0] * k;
  const ulong begin = get_global_id(0) * rowsPerItem, end = min(rows, begin + rowsPerItem);
  __global const REALV* dv = (__global const REALV*)(delta + first);
  for (ulong i = begin; i < end; ++i) {
    __global const REALV* Bv = (__global const REALV*)(B + i * cols + first);
    REALV sum = (REALV)0;
    for (ulong v = 0; v < k / VEC; ++v) sum += Bv[v] * dv[v];
    out[i] = HSUM(sum);
  }
}

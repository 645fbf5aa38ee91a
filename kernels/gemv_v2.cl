// The paper's version 2, "P threads per row" (section 3.2.3; Bainville's "gemv3" + "reduce_rows").
// NDRange (m, P), work-groups of (WG x 1): column slice p of the sum (about n / P elements) is shared by every
// work-item of a group, so the group first copies that slice of x into local memory; each work-item then computes
// its row's partial dot product over the slice and stores it in an (m x P) matrix of partials. A second kernel
// (gemv_v2_reduce) adds the P partials of each row.
//   y[r] = sum_{c < n} A[r, c] x[c],   A[r, c] = a[r * rowStride + c * colStride]   (see gemv_naive.cl)
// Defines: REAL, GB_DOUBLE; TILE = elements of x staged in local memory at a time.
// Fixes against the paper:
//  - Appendix B's "Version 2" listing is a copy of mv1 (same body, smaller `work[4]`); this is the kernel the text
//    (and Bainville's design) describes: x staged in local memory, partials to an (m x P) matrix, second kernel;
//  - Bainville's slice length n / P drops the last n % P columns: slices are ceil(n / P) long, the last one clipped;
//  - a slice of n / P elements does not fit in local memory for large n (1e5 rows / 8 slices = 50 KB > the 48 KB
//    NVIDIA gives a group): the slice is staged TILE elements at a time, `work` is a __local argument of TILE;
//  - rows past m (global size rounded up to WG) load x and reach the barriers but write nothing;
//  - 64-bit (ulong) indices; the reduction writes y itself instead of overwriting column 0 of the partials.
#ifndef TILE
#define TILE 1024
#endif

__kernel void gemv_v2(const ulong m, const ulong n, const ulong rowStride, const ulong colStride,
                      __global const int* block, const ulong blockStride,
                      __global const REAL* a, __global const REAL* x, __global REAL* partial,
                      __local REAL* work) {
  const ulong row = get_global_id(0);
  const ulong slices = get_global_size(1);  // P
  const ulong p = get_global_id(1);
  const ulong sliceLength = (n + slices - 1) / slices;
  const ulong begin = min(n, p * sliceLength);
  const ulong end = min(n, begin + sliceLength);
  const ulong offset = (ulong)block[0] * blockStride;
  __global const REAL* arow = a + offset + min(row, m - 1) * rowStride;  // clamped: rows past m read row m-1
  __global const REAL* xs = x + offset;
  const uint lid = get_local_id(0);
  const uint wg = get_local_size(0);
  REAL sum = (REAL)0;
  for (ulong t0 = begin; t0 < end; t0 += TILE) {
    const uint len = (uint)min((ulong)TILE, end - t0);
    barrier(CLK_LOCAL_MEM_FENCE);  // the previous tile is no longer read
    for (uint c = lid; c < len; c += wg) work[c] = xs[t0 + c];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (row < m)
      for (uint c = 0; c < len; ++c) sum += arow[(t0 + c) * colStride] * work[c];
  }
  if (row < m) partial[row + m * p] = sum;
}

// y[r] = sum_p partial[r + m * p]: the column sums of the (m x P) partials, one work-item per row.
__kernel void gemv_v2_reduce(const ulong m, const ulong slices, __global const REAL* partial, __global REAL* y) {
  const ulong row = get_global_id(0);
  if (row >= m) return;
  REAL sum = (REAL)0;
  for (ulong p = 0; p < slices; ++p) sum += partial[row + m * p];
  y[row] = sum;
}

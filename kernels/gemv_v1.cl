// The paper's version 1, "P threads per dot product" (Appendix B mv1; Bainville's "gemv2").
// A 2D work-group of ROWS x P work-items: the P work-items of one output row split its dot product
// (work-item jj sums c = jj, jj + P, ...) and add their partial sums in local memory in log2(P) steps.
//   y[r] = sum_{c < n} A[r, c] x[c],   A[r, c] = a[r * rowStride + c * colStride]   (see gemv_naive.cl)
// Defines (from the host's parameter table, engine/opencl/DenseKernelParameters.cpp):
//   REAL, GB_DOUBLE  precision;  P  work-items per dot product (a power of two);
//   ROW_DIM, COL_DIM which NDRange dimension indexes rows / lanes. The paper's listing uses both names without
//   defining them (fix). B'g takes ROW_DIM 0 (neighbouring work-items read neighbouring columns of B, i.e.
//   neighbouring addresses); B*delta takes COL_DIM 0 (its rows are row-major, the lanes of one row are adjacent).
// Fixes against the paper's listing (Appendix B):
//  - `__local float work[16]` overflows for any group larger than 16 work-items: `work` is a __local argument
//    of ROWS * P elements sized by the host;
//  - no bounds check on the row: rows past m now load nothing and write nothing, but still reach every barrier;
//  - `int` indices overflow for large m * n: 64-bit (ulong) indices;
//  - the lane loop strides by get_global_size(COL_DIM), which equals P only because the NDRange is one group wide
//    in that dimension; written as P to make the assumption explicit.
#ifndef P
#define P 16
#endif
#ifndef ROW_DIM
#define ROW_DIM 0
#endif
#ifndef COL_DIM
#define COL_DIM 1
#endif
#if (P & (P - 1)) != 0
#error "P must be a power of two (the reduction halves it)"
#endif

__kernel void gemv_v1(const ulong m, const ulong n, const ulong rowStride, const ulong colStride,
                      __global const int* block, const ulong blockStride,
                      __global const REAL* a, __global const REAL* x, __global REAL* y,
                      __local REAL* work) {
  const ulong row = get_global_id(ROW_DIM);
  const uint rows = get_local_size(ROW_DIM);  // rows in the group
  const uint ii = get_local_id(ROW_DIM);      // local row, 0 <= ii < rows
  const uint jj = get_local_id(COL_DIM);      // lane, 0 <= jj < P
  const ulong offset = (ulong)block[0] * blockStride;
  REAL sum = (REAL)0;
  if (row < m) {
    __global const REAL* arow = a + offset + row * rowStride;
    __global const REAL* xs = x + offset;
    for (ulong c = jj; c < n; c += P) sum += arow[c * colStride] * xs[c];
  }
  work[ii + rows * jj] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint cols = P >> 1; cols > 0; cols >>= 1) {
    if (jj < cols) work[ii + rows * jj] += work[ii + rows * (jj + cols)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (jj == 0 && row < m) y[row] = work[ii];
}

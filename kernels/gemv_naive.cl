// The paper's naive matrix-vector product (Algorithm 3; Bainville's "gemv1"): one work-item per output element.
//   y[r] = sum_{c < n} A[r, c] x[c],   A[r, c] = a[r * rowStride + c * colStride]
// B'g (transposed): r = column of B (rowStride 1), c = row of B (colStride = cols): consecutive work-items read
// consecutive addresses. B*delta (forward): r = row of B (rowStride = cols), c = column inside learner j's block
// (colStride 1); block[0] * blockStride shifts a and x to learner j's block, read on the device.
// Defines: REAL (float|double), GB_DOUBLE when REAL is double.
// Fixes against the paper's listing: bounds check on r (the global size is rounded up to the work-group size),
// 64-bit indices (int overflows once m*n > 2^31: 1e5 rows x 6400 columns is 6.4e8 elements, 1e7 x 64 too).

__kernel void gemv_naive(const ulong m, const ulong n, const ulong rowStride, const ulong colStride,
                         __global const int* block, const ulong blockStride,
                         __global const REAL* a, __global const REAL* x, __global REAL* y) {
  const ulong r = get_global_id(0);
  if (r >= m) return;  // no barrier in this kernel, so early exit is safe
  const ulong offset = (ulong)block[0] * blockStride;
  a += offset + r * rowStride;
  x += offset;
  REAL sum = (REAL)0;
  for (ulong c = 0; c < n; ++c) sum += a[c * colStride] * x[c];
  y[r] = sum;
}

// The GPU cross-product cache fill (engine/opencl/SchemeGpuCached.cpp): B_j'B_l for every learner j into the cache
// slot the select launch just gave the selected learner l. Built only for GPU parameters (BTG_GROUP > 1) and only
// when its K x K local block fits the device's local memory (crossBlockFits, KernelParameters.cpp).
// Defines: those of compact_btg.cl (REAL, DEGREE, K, INTERVALS, BTG_GROUP, GB_NV_PTX_ATOMICS).
#if BTG_GROUP > 1
// Group (j, chunk): when cacheState[0] = slot >= 0, adds B_j'B_l over the chunk's rows (l = learnerIndex[0])
// into cache[slot][j] (row a: column a of B_j, entry b: column b of B_l); else returns at once. The block is
// summed in local memory, (DEGREE+1)^2 local atomics per row, then added to the slot with global atomics.
__kernel __attribute__((reqd_work_group_size(BTG_GROUP, 1, 1))) void compact_x_cross_fill(
    int n, int chunkRows, int learners, __global const int* learnerIndex, __global const int* cacheState,
    __global const REAL* x, __global const REAL* geometry, __global const REAL* poly, __global REAL* cache) {
  const int slot = cacheState[0];
  if (slot < 0) return;
  __local REAL block[K * K];
  const int j = get_group_id(0), l = learnerIndex[0];
  for (int m = get_local_id(0); m < K * K; m += BTG_GROUP) block[m] = (REAL)0;  // one copy: K*K fills local memory
  barrier(CLK_LOCAL_MEM_FENCE);
  const REAL loj = geometry[2 * j], ij = geometry[2 * j + 1], lol = geometry[2 * l], il = geometry[2 * l + 1];
  __global const REAL* xj = x + (size_t)j * n;
  __global const REAL* xl = x + (size_t)l * n;
  __global const REAL* pj = poly + (size_t)j * INTERVALS * W * W;
  __global const REAL* pl = poly + (size_t)l * INTERVALS * W * W;
  int begin, end;
  chunk_rows(n, chunkRows, &begin, &end);
  for (int i = begin + get_local_id(0); i < end; i += BTG_GROUP) {
    REAL a[W], b[W];
    const int qj = basis_row(xj[i], loj, ij, pj, a), ql = basis_row(xl[i], lol, il, pl, b);
    __local REAL* at = block + qj * K + ql;
    #pragma unroll
    for (int r = 0; r < W; ++r)
      #pragma unroll
      for (int s = 0; s < W; ++s) local_add(at + r * K + s, a[r] * b[s]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global REAL* out = cache + ((size_t)slot * learners + j) * K * K;
  for (int m = get_local_id(0); m < K * K; m += BTG_GROUP)
    if (block[m] != (REAL)0) global_add(out + m, block[m]);
}
#endif

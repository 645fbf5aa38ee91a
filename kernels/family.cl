// The loss families of mboost 2.9 (R/family.R) on the device, one family per program (-DFAMILY=<code>, the codes
// below; engine/opencl/FamilyKernels.hpp keeps the same list). Defines: REAL (float|double), GB_DOUBLE for double.
//   family_gradient: wu[i] = w[i] * u(y[i], f[i]), u the negative gradient (what every learner is fitted to)
//   family_risk:     partials[group] = sum over the group's rows of w[i] * loss(y[i], f[i]), summed in a fixed order
// y is coded as the engine codes it: binomial y in {-1, +1} (mboost's internal coding), poisson counts.
// `param` is Huber's delta, the quantile's or expectile's tau, gamma's shape or negbin's size (unused otherwise).

#ifndef FAMILY
#error "FAMILY must be defined"
#endif
#ifndef GROUP
#define GROUP 256
#endif
// GB_FAMILY_* codes, negativeGradient() and loss() are in kernels/common.cl (shared with compact_update.cl).

// partials[group] = the sum of the group's work-items' `sum`, added pairwise in a fixed order.
inline void group_partial(REAL sum, __local REAL* sums, __global REAL* partials) {
  const uint lid = get_local_id(0);
  sums[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint span = GROUP / 2; span > 0; span /= 2) {
    if (lid < span) sums[lid] += sums[lid + span];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partials[get_group_id(0)] = sums[0];
}

__kernel void family_gradient(const ulong n, __global const REAL* y, __global const REAL* f, __global const REAL* w,
                              const REAL param, __global REAL* wu) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  wu[i] = w[i] * negativeGradient(y[i], f[i], param);
}

// One partial per work-group of GROUP work-items; each work-item first sums a strided run of rows, then the group
// adds its work-items' sums pairwise. The order depends only on n and the launch size, never on timing.
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void family_risk(const ulong n,
                                                                            __global const REAL* y,
                                                                            __global const REAL* f,
                                                                            __global const REAL* w, const REAL param,
                                                                            __global REAL* partials) {
  __local REAL sums[GROUP];
  const ulong stride = get_global_size(0);
  REAL sum = (REAL)0;
  for (ulong i = get_global_id(0); i < n; i += stride) sum += w[i] * loss(y[i], f[i], param);
  group_partial(sum, sums, partials);
}

// family_gradient and family_risk in one pass over y, f and w: wu at f, and the partial sums of w * loss at f (the
// same layout as family_risk's). The OpenCL gradient path runs it once per iteration: the risk it sums is that of
// the previous iteration's update.
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void family_gradient_risk(
    const ulong n, __global const REAL* y, __global const REAL* f, __global const REAL* w, const REAL param,
    __global REAL* wu, __global REAL* partials) {
  __local REAL sums[GROUP];
  const ulong stride = get_global_size(0);
  REAL sum = (REAL)0;
  for (ulong i = get_global_id(0); i < n; i += stride) {
    const REAL yi = y[i], fi = f[i], wi = w[i];
    wu[i] = wi * negativeGradient(yi, fi, param);
    sum += wi * loss(yi, fi, param);
  }
  group_partial(sum, sums, partials);
}

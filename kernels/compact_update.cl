// B delta for compact B-spline learners and the boosting update (engine/opencl/CompactKernels.hpp).
//
// Defines (engine/opencl/KernelParameters.cpp): REAL, REAL_IS_DOUBLE, DEGREE, K, INTERVALS, UPDATE_GROUP
// (work-items per group), ROW_STRIDED (1: work-items interleave rows, coalesced on a GPU; 0: each work-item
// takes a contiguous block, for CPU devices).
//
// The update reads the selected learner j from a device buffer, so the host never sees it inside a batch:
//   mu_i += scale * (B_j delta_j)_i,   g_i = y_i - mu_i,   partials[group] = sum of g_i^2 over the group's rows.
// compact_x evaluates B_j delta_j from x through the step polynomial A[q][s] = sum_r poly(q,r,s) delta_{q+r},
// built once per work-group in local memory; compact reads the stored basis; vector takes it precomputed
// (from a dense gemv).
// W and MOMENTS come from kernels/common.cl.

// A[q][s] = scale * sum_r poly_j(q, r, s) delta[q + r], cooperatively by the group.
inline void step_table(__global const REAL* polyOfLearner, __global const REAL* delta, REAL scale, __local REAL* A) {
  for (int m = get_local_id(0); m < MOMENTS; m += get_local_size(0)) {
    const int q = m / W, s = m % W;
    REAL sum = (REAL)0;
    #pragma unroll
    for (int r = 0; r < W; ++r) sum += polyOfLearner[(q * W + r) * W + s] * delta[q + r];
    A[m] = scale * sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

inline REAL eval_table(__local const REAL* A, REAL x, REAL lo, REAL inverseSpacing) {
  REAL u;
  const int q = locate_interval(x, lo, inverseSpacing, INTERVALS - 1, &u);
  REAL f;
  GB_HORNER(A + q * W, 1, DEGREE, u, f)
  return f;
}

// The rows of this group ([begin, end)) and this work-item's first row and step through them.
inline void my_rows(int n, int groupRows, int* first, int* end, int* step) {
  const long begin = (long)get_group_id(0) * groupRows;
  const int stop = (int)min((long)n, begin + groupRows);
#if ROW_STRIDED
  *first = (int)begin + get_local_id(0);
  *end = stop;
  *step = get_local_size(0);
#else
  const int per = (groupRows + get_local_size(0) - 1) / get_local_size(0);
  *first = (int)min((long)stop, begin + (long)get_local_id(0) * per);
  *end = min(stop, *first + per);
  *step = 1;
#endif
}

// mu += f, g = y - mu; returns g^2 for the sum.
inline REAL apply_step(int i, REAL f, __global const REAL* y, __global REAL* mu, __global REAL* g) {
  const REAL m = mu[i] + f;
  mu[i] = m;
  const REAL r = y[i] - m;
  g[i] = r;
  return r * r;
}

// The residual alone, g -= f (mu is y - g, formed when asked: fitted_from_residual); returns g^2. Reads and writes
// 2 REALs a row where apply_step moves 4 (y, mu read, mu and g written).
inline REAL apply_residual_step(int i, REAL f, __global REAL* g) {
  const REAL r = g[i] - f;
  g[i] = r;
  return r * r;
}

// partials[group] = sum over the group's work-items of `mine`.
inline void group_sum(REAL mine, __local REAL* scratch, __global REAL* partials) {
  const int lid = get_local_id(0);
  scratch[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = UPDATE_GROUP / 2; stride > 0; stride >>= 1) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partials[get_group_id(0)] = scratch[0];
}

// compact_x's update over this group's rows (A and scratch: the kernel's local arrays); with keepMu 0 the residual
// alone (apply_residual_step).
inline void x_update_rows(int n, int groupRows, __global const int* learnerIndex, __global const REAL* delta,
                          REAL scale, __global const REAL* x, __global const REAL* geometry,
                          __global const REAL* poly, __global const REAL* y, __global REAL* mu, __global REAL* g,
                          int keepMu, __global REAL* partials, __local REAL* A, __local REAL* scratch) {
  const int j = learnerIndex[0];
  step_table(poly + (size_t)j * INTERVALS * W * W, delta + (size_t)j * K, scale, A);
  const REAL lo = geometry[2 * j], inverseSpacing = geometry[2 * j + 1];
  __global const REAL* xj = x + (size_t)j * n;
  int i, end, step;
  my_rows(n, groupRows, &i, &end, &step);
  REAL ss = (REAL)0;
  if (keepMu)
    for (; i < end; i += step) ss += apply_step(i, eval_table(A, xj[i], lo, inverseSpacing), y, mu, g);
  else
    for (; i < end; i += step) ss += apply_residual_step(i, eval_table(A, xj[i], lo, inverseSpacing), g);
  group_sum(ss, scratch, partials);
}

// compact_x_update's parameters, and the update part of the kernels that fuse a fill's first step into its launch
// (kernels/compact_cross.cl, cross_sorted.cl): the parameters, and the call of x_update_rows on them.
#define X_UPDATE_PARAMS                                                                                           \
  int n, int groupRows, __global const int *learnerIndex, __global const REAL *delta, REAL scale,               \
      __global const REAL *x, __global const REAL *geometry, __global const REAL *poly, __global const REAL *y, \
      __global REAL *mu, __global REAL *g, int keepMu, __global REAL *partials
#define X_UPDATE_ROWS(A, scratch) \
  x_update_rows(n, groupRows, learnerIndex, delta, scale, x, geometry, poly, y, mu, g, keepMu, partials, A, scratch)

__kernel __attribute__((reqd_work_group_size(UPDATE_GROUP, 1, 1))) void compact_x_update(X_UPDATE_PARAMS) {
  __local REAL A[MOMENTS];
  __local REAL scratch[UPDATE_GROUP];
  X_UPDATE_ROWS(A, scratch);
}

// mu = y - g, for a fit that kept only the residual (x_update_rows with keepMu 0).
__kernel void fitted_from_residual(int n, __global const REAL* y, __global const REAL* g, __global REAL* mu) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) mu[i] = y[i] - g[i];
}

#ifdef FAMILY
// The selection fused into the family update (one launch fewer per iteration): every group finds j* = argmax_j
// reduction[j] (ties to the lowest index, the same in every group), group 0 finishes the previous record's risk
// from the previous update's partials and writes this iteration's record [j*, -, nu delta_j*] and learnerIndex;
// then every group adds nu B_j* delta_j* to mu, forms the next w u = w negativeGradient and writes this update's loss partials. The two
// partial buffers alternate between iterations (the previous ones are read while the new ones are written).
#ifndef RECORD
#define RECORD (K + 2)
#endif
inline int argmax_in_group(int learners, __global const REAL* reduction, __local REAL* value, __local int* at) {
  const int lid = get_local_id(0);
  REAL best = -INFINITY;
  int j = -1;
  for (int l = lid; l < learners; l += UPDATE_GROUP)
    if (j < 0 || GB_BETTER_REDUCTION(reduction[l], best)) {
      best = reduction[l];
      j = l;
    }
  value[lid] = best;
  at[lid] = j;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = UPDATE_GROUP / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      const REAL v = value[lid + stride];
      const int i = at[lid + stride];
      if (i >= 0 && (at[lid] < 0 || GB_BETTER_REDUCTION(v, value[lid]) || (v == value[lid] && i < at[lid]))) {
        value[lid] = v;
        at[lid] = i;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  j = at[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return j;
}

// Group 0's part: the previous record's risk (sum of its partials times inverseWeight) and this record.
inline void record_in_group(int j, int record, REAL scale, __global const REAL* delta, int partialCount,
                            __global const REAL* previousPartials, REAL inverseWeight, __global REAL* history,
                            int previousRecord, __global int* learnerIndex, __local REAL* scratch) {
  const int lid = get_local_id(0);
  if (previousRecord >= 0) {
    REAL sum = (REAL)0;
    for (int b = lid; b < partialCount; b += UPDATE_GROUP) sum += previousPartials[b];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = UPDATE_GROUP / 2; stride > 0; stride >>= 1) {
      if (lid < stride) scratch[lid] += scratch[lid + stride];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) history[(size_t)previousRecord * RECORD + 1] = scratch[0] * inverseWeight;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int a = lid; a < K; a += UPDATE_GROUP) history[(size_t)record * RECORD + 2 + a] = scale * delta[(size_t)j * K + a];
  if (lid == 0) {
    history[(size_t)record * RECORD] = (REAL)j;
    learnerIndex[0] = j;
  }
}

__kernel __attribute__((reqd_work_group_size(UPDATE_GROUP, 1, 1))) void compact_x_family_select_update(
    int n, int groupRows, int learners, __global const REAL* reduction, __global const REAL* delta, REAL scale,
    __global const REAL* x, __global const REAL* geometry, __global const REAL* poly, __global const REAL* y,
    __global const REAL* w, REAL param, __global REAL* mu, __global REAL* wu, int partialCount,
    __global const REAL* previousPartials, REAL inverseWeight, __global REAL* partials, __global REAL* history,
    int previousRecord, int record, __global int* learnerIndex) {
  __local REAL A[MOMENTS];
  __local REAL scratch[UPDATE_GROUP];
  __local int at[UPDATE_GROUP];
  const int j = argmax_in_group(learners, reduction, scratch, at);
  if (get_group_id(0) == 0)
    record_in_group(j, record, scale, delta, partialCount, previousPartials, inverseWeight, history, previousRecord,
                    learnerIndex, scratch);
  step_table(poly + (size_t)j * INTERVALS * W * W, delta + (size_t)j * K, scale, A);
  const REAL lo = geometry[2 * j], inverseSpacing = geometry[2 * j + 1];
  __global const REAL* xj = x + (size_t)j * n;
  int i, end, step;
  my_rows(n, groupRows, &i, &end, &step);
  REAL sum = (REAL)0;
  for (; i < end; i += step) {
    const REAL m = mu[i] + eval_table(A, xj[i], lo, inverseSpacing);
    mu[i] = m;
    const REAL yi = y[i], wi = w[i];
    wu[i] = wi * negativeGradient(yi, m, param);
    sum += wi * loss(yi, m, param);
  }
  group_sum(sum, scratch, partials);
}
#endif

// ---- CPU devices: the update and the cross-product cache fill in one launch ---------------------------------
// u^0 .. u^DEGREE of x's row and its interval (kernels/common.cl's locate_interval).
inline int powers_row(REAL x, REAL lo, REAL inverseSpacing, REAL* p) {
  REAL u;
  const int q = locate_interval(x, lo, inverseSpacing, INTERVALS - 1, &u);
  p[0] = (REAL)1;
  #pragma unroll
  for (int s = 1; s < W; ++s) p[s] = p[s - 1] * u;
  return q;
}

#define PAIR (W * W)
#define PAIRS (INTERVALS * INTERVALS * PAIR)

// out (K x K) = B_j'B_l over all rows, from x, by one work-item. On a pair of intervals (qj, ql) both bases are
// polynomials in their u, so the rows only accumulate the pair moments M[qj][ql][s][t] = sum uj^s ul^t (two
// copies, even/odd rows, so neighbouring rows in the same pair do not wait on each other's sum); then
//   (B_j'B_l)[qj + r][ql + r'] += sum_{s,t} polyj(qj, r, s) M[qj][ql][s][t] polyl(ql, r', t).
inline void cross_column(int n, int j, int l, __global const REAL* x, __global const REAL* geometry,
                         __global const REAL* poly, __global REAL* out) {
  REAL M0[PAIRS], M1[PAIRS];
  for (int m = 0; m < PAIRS; ++m) M0[m] = M1[m] = (REAL)0;
  __global const REAL* xj = x + (size_t)j * n;
  __global const REAL* xl = x + (size_t)l * n;
  const REAL loj = geometry[2 * j], ij = geometry[2 * j + 1], lol = geometry[2 * l], il = geometry[2 * l + 1];
  int i = 0;
  for (; i + 1 < n; i += 2) {
    REAL a0[W], b0[W], a1[W], b1[W];
    const int p0 = (powers_row(xj[i], loj, ij, a0) * INTERVALS + powers_row(xl[i], lol, il, b0)) * PAIR;
    const int p1 = (powers_row(xj[i + 1], loj, ij, a1) * INTERVALS + powers_row(xl[i + 1], lol, il, b1)) * PAIR;
    #pragma unroll
    for (int s = 0; s < W; ++s)
      #pragma unroll
      for (int t = 0; t < W; ++t) {
        M0[p0 + s * W + t] += a0[s] * b0[t];
        M1[p1 + s * W + t] += a1[s] * b1[t];
      }
  }
  if (i < n) {
    REAL a0[W], b0[W];
    const int p0 = (powers_row(xj[i], loj, ij, a0) * INTERVALS + powers_row(xl[i], lol, il, b0)) * PAIR;
    #pragma unroll
    for (int s = 0; s < W; ++s)
      #pragma unroll
      for (int t = 0; t < W; ++t) M0[p0 + s * W + t] += a0[s] * b0[t];
  }
  for (int m = 0; m < K * K; ++m) out[m] = (REAL)0;
  __global const REAL* pj = poly + (size_t)j * INTERVALS * W * W;
  __global const REAL* pl = poly + (size_t)l * INTERVALS * W * W;
  for (int qj = 0; qj < INTERVALS; ++qj)
    for (int ql = 0; ql < INTERVALS; ++ql) {
      const int at = (qj * INTERVALS + ql) * PAIR;
      REAL T[W * W];  // T[s][r'] = sum_t M[s][t] polyl(ql, r', t)
#define PAIR_MOMENT(s, t) (M0[at + (s) * W + (t)] + M1[at + (s) * W + (t)])
#define POLY_L_T(t, r2) pl[(ql * W + (r2)) * W + (t)]
#define STORE_T(s, r2, v) T[(s) * W + (r2)] = (v)
      GB_BLOCK_PRODUCT(PAIR_MOMENT, POLY_L_T, STORE_T)
#define POLY_J(r, s) pj[(qj * W + (r)) * W + (s)]
#define T_AT(s, r2) T[(s) * W + (r2)]
#define ADD_OUT(r, r2, v) out[(qj + (r)) * K + ql + (r2)] += (v)
      GB_BLOCK_PRODUCT(POLY_J, T_AT, ADD_OUT)
    }
}

// Groups [0, updateGroups): compact_x_update. Groups updateGroups + j: when cacheState[0] = s >= 0 (the select
// launch just gave the selected learner l cache slot s), B_j'B_l into cache[s][j] (learners x K x K per slot),
// else nothing. UPDATE_GROUP is 1 on CPU devices, the only ones that run this.
__kernel __attribute__((reqd_work_group_size(UPDATE_GROUP, 1, 1))) void compact_x_update_cross(
    int n, int groupRows, __global const int* learnerIndex, __global const REAL* delta, REAL scale,
    __global const REAL* x, __global const REAL* geometry, __global const REAL* poly, __global const REAL* y,
    __global REAL* mu, __global REAL* g, __global REAL* partials, int updateGroups, int learners,
    __global const int* cacheState, __global REAL* cache) {
  __local REAL A[MOMENTS];
  __local REAL scratch[UPDATE_GROUP];
  const int group = get_group_id(0);
  if (group < updateGroups) {
    x_update_rows(n, groupRows, learnerIndex, delta, scale, x, geometry, poly, y, mu, g, 1, partials, A, scratch);
    return;
  }
  const int slot = cacheState[0], j = group - updateGroups;
  if (slot < 0 || j >= learners || get_local_id(0) != 0) return;
  cross_column(n, j, learnerIndex[0], x, geometry, poly, cache + ((size_t)slot * learners + j) * K * K);
}

// The same update for opencl/SchemeTracked.cpp, whose cache has a slot per learner (slot l is l's). Groups
// updateGroups + j fill rows for the learners l listed in fills[2..] (fills[1] of them):
//   cover 0 (tracking): for a tracked j, B_j'B_l into cache[l][j] and its transpose B_l'B_j into cache[j][l] (the l
//     newly tracked). Where j is newly tracked too, one of the two groups computes the pair: group j when j < l and
//     j + l is even or j > l and j + l is odd, so each new learner's group takes about half of the other new ones;
//   cover 1 (every slot holds every row): for every j, B_j'B_l into cache[l][j] (l newly selected);
//   cover 2 (the switch to cover 1): for every untracked j, B_j'B_l into cache[l][j] (l every tracked learner).
// updateGroups 0: the fills alone.
__kernel __attribute__((reqd_work_group_size(UPDATE_GROUP, 1, 1))) void compact_x_update_track(
    X_UPDATE_PARAMS, int updateGroups, int learners, int cover, __global const int* slotOf, __global const int* fills,
    __global REAL* cache) {
  __local REAL A[MOMENTS];
  __local REAL scratch[UPDATE_GROUP];
  const int group = get_group_id(0);
  if (group < updateGroups) {
    X_UPDATE_ROWS(A, scratch);
    return;
  }
  const int j = group - updateGroups, count = fills[1];
  if (j >= learners || get_local_id(0) != 0) return;
  const int tracked = slotOf[j] >= 0;
  if (cover == 0 ? !tracked : (cover == 2 && tracked)) return;
  int fresh = 0;
  for (int f = 0; f < count; ++f) fresh |= fills[2 + f] == j;
  for (int f = 0; f < count; ++f) {
    const int l = fills[2 + f];
    if (cover == 0 && fresh && l != j && (j < l) != ((j + l) % 2 == 0)) continue;  // group l computes this pair
    __global REAL* block = cache + ((size_t)l * learners + j) * K * K;
    cross_column(n, j, l, x, geometry, poly, block);
    if (cover != 0 || l == j) continue;
    __global REAL* mirror = cache + ((size_t)j * learners + l) * K * K;
    for (int a = 0; a < K; ++a)
      for (int b = 0; b < K; ++b) mirror[a * K + b] = block[b * K + a];
  }
}

inline REAL eval_stored(__global const int* fj, __global const REAL* wj, __global const REAL* dj, int i) {
  const int c = fj[i];
  REAL f = (REAL)0;
  #pragma unroll
  for (int r = 0; r < W; ++r) f += wj[(size_t)i * W + r] * dj[c + r];
  return f;
}

__kernel __attribute__((reqd_work_group_size(UPDATE_GROUP, 1, 1))) void compact_update(
    int n, int groupRows, __global const int* learnerIndex, __global const REAL* delta, REAL scale,
    __global const int* firstColumn, __global const REAL* weights, __global const REAL* y, __global REAL* mu,
    __global REAL* g, __global REAL* partials) {
  __local REAL scratch[UPDATE_GROUP];
  const int j = learnerIndex[0];
  __global const int* fj = firstColumn + (size_t)j * n;
  __global const REAL* wj = weights + (size_t)j * n * W;
  __global const REAL* dj = delta + (size_t)j * K;
  int i, end, step;
  my_rows(n, groupRows, &i, &end, &step);
  REAL ss = (REAL)0;
  for (; i < end; i += step) ss += apply_step(i, scale * eval_stored(fj, wj, dj, i), y, mu, g);
  group_sum(ss, scratch, partials);
}

// f precomputed (B_j delta_j by a dense kernel): mu += scale * f.
__kernel __attribute__((reqd_work_group_size(UPDATE_GROUP, 1, 1))) void vector_update(
    int n, int groupRows, __global const REAL* f, REAL scale, __global const REAL* y, __global REAL* mu,
    __global REAL* g, __global REAL* partials) {
  __local REAL scratch[UPDATE_GROUP];
  int i, end, step;
  my_rows(n, groupRows, &i, &end, &step);
  REAL ss = (REAL)0;
  for (; i < end; i += step) ss += apply_step(i, scale * f[i], y, mu, g);
  group_sum(ss, scratch, partials);
}

// ---- per-learner B delta (learner given by the host) --------------------------------------------------------
__kernel __attribute__((reqd_work_group_size(UPDATE_GROUP, 1, 1))) void compact_x_forward(
    int n, int groupRows, int learner, __global const REAL* delta, __global const REAL* x,
    __global const REAL* geometry, __global const REAL* poly, __global REAL* out) {
  __local REAL A[MOMENTS];
  step_table(poly + (size_t)learner * INTERVALS * W * W, delta, (REAL)1, A);
  const REAL lo = geometry[2 * learner], inverseSpacing = geometry[2 * learner + 1];
  __global const REAL* xj = x + (size_t)learner * n;
  int i, end, step;
  my_rows(n, groupRows, &i, &end, &step);
  for (; i < end; i += step) out[i] = eval_table(A, xj[i], lo, inverseSpacing);
}

__kernel __attribute__((reqd_work_group_size(UPDATE_GROUP, 1, 1))) void compact_forward(
    int n, int groupRows, int learner, __global const REAL* delta, __global const int* firstColumn,
    __global const REAL* weights, __global REAL* out) {
  __global const int* fj = firstColumn + (size_t)learner * n;
  __global const REAL* wj = weights + (size_t)learner * n * W;
  int i, end, step;
  my_rows(n, groupRows, &i, &end, &step);
  for (; i < end; i += step) out[i] = eval_stored(fj, wj, delta, i);
}

// ---- dense B from x: row i, learner j (global ids 0 and 1) -> B[i, j*K .. j*K + K) -------------------------
__kernel void compact_x_dense(int n, int learners, __global const REAL* x, __global const REAL* geometry,
                              __global const REAL* poly, __global REAL* dense) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (i >= n || j >= learners) return;
  const REAL t = (x[(size_t)j * n + i] - geometry[2 * j]) * geometry[2 * j + 1];
  int q = (int)t;
  q = q < 0 ? 0 : (q > INTERVALS - 1 ? INTERVALS - 1 : q);
  const REAL u = t - (REAL)q;
  __global const REAL* pj = poly + (size_t)j * INTERVALS * W * W;
  __global REAL* row = dense + (size_t)i * learners * K + (size_t)j * K;
  for (int c = 0; c < K; ++c) row[c] = (REAL)0;
  #pragma unroll
  for (int r = 0; r < W; ++r) {
    __global const REAL* coef = pj + (q * W + r) * W;
    REAL v = coef[DEGREE];
    #pragma unroll
    for (int s = DEGREE - 1; s >= 0; --s) v = v * u + coef[s];
    row[q + r] = v;
  }
}

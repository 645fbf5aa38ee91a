// The small batched kernels of one boosting iteration (engine/opencl/OpenClBackend.cpp), all on the device:
//   learner_solve:  delta_j = P_j c_j and r_j = c_j' Q_j c_j (RSS reduction), one work-group per learner;
//   learner_select: risk of the previous update from its g'g partials, then j* = argmax_j r_j (ties: lowest
//                   index) and the record (j*, risk, nu * delta_j*) of this iteration in the history buffer;
//   learner_solve_select (CPU devices): both in one launch, after the cross-product cache's correction of c;
//   learner_correct_solve + learner_select_claim (GPU devices): the same in a launch per learner and one select;
//   learner_correct_solve_select (GPU devices): both in one launch, the last work-group to finish selecting.
//
// Defines: REAL, REAL_IS_DOUBLE, K, REDUCE_GROUP (a power of two).
// History record m: RECORD = K + 2 REALs: [j* (exact in REAL below 2^24), risk, nu * delta_j* (K)].
#define RECORD (K + 2)

// Row a of delta_j = P_j c_j, written to deltaRow[a], and its term c_j[a] (Q_j c_j)[a] added to rss. One
// definition for both callers: c_j is __local in solve_learner and __global in learner_solve_select, and OpenCL 1.2
// has no generic address space, so a function could not take both.
#define SOLVE_ROW(Pj, Qj, cj, a, deltaRow, rss)        \
  {                                                    \
    REAL d_ = (REAL)0, q_ = (REAL)0;                   \
    for (int b_ = 0; b_ < K; ++b_) {                   \
      d_ += (Pj)[(a) * K + b_] * (cj)[b_];             \
      q_ += (Qj)[(a) * K + b_] * (cj)[b_];             \
    }                                                  \
    (deltaRow)[a] = d_;                                \
    (rss) += (cj)[a] * q_;                             \
  }

// delta_j = P_j c_j and reduction[j] = c_j' Q_j c_j from c_j in local memory; the group of learner j.
inline void solve_learner(int j, __local const REAL* cj, __global const REAL* P, __global const REAL* Q,
                          __global REAL* delta, __global REAL* reduction, __local REAL* sums) {
  const int lid = get_local_id(0);
  __global const REAL* Pj = P + (size_t)j * K * K;
  __global const REAL* Qj = Q + (size_t)j * K * K;
  __global REAL* deltaj = delta + (size_t)j * K;
  REAL mine = (REAL)0;
  for (int a = lid; a < K; a += REDUCE_GROUP) SOLVE_ROW(Pj, Qj, cj, a, deltaj, mine);
  sums[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = REDUCE_GROUP / 2; stride > 0; stride >>= 1) {
    if (lid < stride) sums[lid] += sums[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) reduction[j] = sums[0];
}

__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void learner_solve(
    __global const REAL* c, __global const REAL* P, __global const REAL* Q, __global REAL* delta,
    __global REAL* reduction) {
  __local REAL cj[K];
  __local REAL sums[REDUCE_GROUP];
  const int j = get_group_id(0);
  for (int a = get_local_id(0); a < K; a += REDUCE_GROUP) cj[a] = c[(size_t)j * K + a];
  barrier(CLK_LOCAL_MEM_FENCE);
  solve_learner(j, cj, P, Q, delta, reduction, sums);
}

// previousRecord >= 0: sums the update's partials into g'g (-> residualSquares[0]) and writes risk = g'g / n into
// that record. Every work-item of the (one) group calls it.
inline void finish_risk(int partialCount, __global const REAL* partials, REAL inverseRows,
                        __global REAL* residualSquares, __global REAL* history, int previousRecord,
                        __local REAL* value) {
  if (previousRecord < 0) return;
  const int lid = get_local_id(0);
  REAL s = (REAL)0;
  for (int b = lid; b < partialCount; b += REDUCE_GROUP) s += partials[b];
  value[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = REDUCE_GROUP / 2; stride > 0; stride >>= 1) {
    if (lid < stride) value[lid] += value[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    residualSquares[0] = value[0];
    history[(size_t)previousRecord * RECORD + 1] = value[0] * inverseRows;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// j* = argmax_j reduction[j], ties to the lowest index; the same value in every work-item.
// reduction is volatile: learner_correct_solve_select reads what other work-groups of its launch wrote.
inline int argmax_learner(int learners, __global const volatile REAL* reduction, __local REAL* value,
                          __local int* index) {
  const int lid = get_local_id(0);
  // Each work-item scans learners lid, lid + G, ... in increasing order: strict > keeps the lowest index.
  REAL best = -INFINITY;
  int at = -1;
  for (int j = lid; j < learners; j += REDUCE_GROUP)
    if (at < 0 || GB_BETTER_REDUCTION(reduction[j], best)) {
      best = reduction[j];
      at = j;
    }
  value[lid] = best;
  index[lid] = at;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = REDUCE_GROUP / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      const REAL v = value[lid + stride];
      const int i = index[lid + stride];
      if (i >= 0 && (index[lid] < 0 || GB_BETTER_REDUCTION(v, value[lid]) || (v == value[lid] && i < index[lid]))) {
        value[lid] = v;
        index[lid] = i;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return index[0];
}

// Writes record `record`: [chosen, (its risk comes with the next launch), nu * delta_chosen], sets learnerIndex[0]
// and, when step is not null, step = nu * delta_chosen (the cache correction's step). Every work-item calls it.
inline void record_selection(int chosen, int record, REAL nu, __global const volatile REAL* delta, __global REAL* history,
                             __global REAL* step, __global int* learnerIndex) {
  const int lid = get_local_id(0);
  for (int a = lid; a < K; a += REDUCE_GROUP) {
    const REAL s = nu * delta[(size_t)chosen * K + a];
    if (step) step[a] = s;
    history[(size_t)record * RECORD + 2 + a] = s;
  }
  if (lid == 0) {
    learnerIndex[0] = chosen;
    history[(size_t)record * RECORD] = (REAL)chosen;
  }
}

// One work-group. previousRecord >= 0: finishes that record's risk. record >= 0: selects and writes this
// iteration's record.
__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void learner_select(
    int learners, __global const REAL* reduction, __global const REAL* delta, REAL nu, __global int* learnerIndex,
    int partialCount, __global const REAL* partials, REAL inverseRows, __global REAL* residualSquares,
    __global REAL* history, int previousRecord, int record) {
  __local REAL value[REDUCE_GROUP];
  __local int index[REDUCE_GROUP];
  finish_risk(partialCount, partials, inverseRows, residualSquares, history, previousRecord, value);
  if (record < 0) return;
  const int chosen = argmax_learner(learners, reduction, value, index);
  record_selection(chosen, record, nu, delta, history, (__global REAL*)0, learnerIndex);
}

// A newly selected learner without a slot takes the next victim's slot (round robin); cacheState[0] = the slot
// the fill must compute now, or -1. Returns it. One work-item.
inline int claim_slot(int chosen, int slots, __global int* slotOf, __global int* slotOwner, __global int* cacheState) {
  int fill = -1;
  if (slotOf[chosen] < 0) {
    fill = cacheState[1];
    cacheState[1] = (fill + 1) % slots;
    if (slotOwner[fill] >= 0) slotOf[slotOwner[fill]] = -1;
    slotOwner[fill] = chosen;
    slotOf[chosen] = fill;
  }
  cacheState[0] = fill;
  return fill;
}

// Every learner's c_j -= G_j step (G: the previous selection's cache slot, null for none), then delta_j and r_j;
// the work-items of the one group take the learners in turn. Ends with a global barrier.
inline void correct_solve_all(int learners, __global REAL* c, __global const REAL* P, __global const REAL* Q,
                              __global REAL* delta, __global REAL* reduction, __global const REAL* G,
                              __global const REAL* step) {
  for (int j = get_local_id(0); j < learners; j += REDUCE_GROUP) {
    __global REAL* cj = c + (size_t)j * K;
    if (G) {
      __global const REAL* Gj = G + (size_t)j * K * K;
      for (int a = 0; a < K; ++a) {
        REAL d = (REAL)0;
        for (int b = 0; b < K; ++b) d += Gj[a * K + b] * step[b];
        cj[a] -= d;
      }
    }
    __global const REAL* Pj = P + (size_t)j * K * K;
    __global const REAL* Qj = Q + (size_t)j * K * K;
    __global REAL* deltaj = delta + (size_t)j * K;
    REAL r = (REAL)0;
    for (int a = 0; a < K; ++a) SOLVE_ROW(Pj, Qj, cj, a, deltaj, r);
    reduction[j] = r;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// ---- CPU devices: correction, solve, select and record in one launch (one work-group) ---------------------------
// The cross-product cache (OpenClBackend.cpp): cache slot s holds G = (B_j'B_l)_j for the learner l that owns it,
// learners x K x K (row a: column a of B_j, entry b: column b of B_l). slotOf[l] is l's slot or -1,
// slotOwner[s] the learner in slot s or -1, cacheState = {slot to fill now or -1, next victim}.
//   applyPending: c_j -= G_{j,l} step for the previous selection l = learnerIndex[0] and its step nu delta_l
//                 (g changed by -B_l step, so B_j'g changed by -B_j'B_l step); 0 when c was just recomputed.
//   slots > 0:    the cache is on; a newly selected learner without a slot takes the next victim's slot
//                 (round robin) and cacheState[0] asks the update launch to fill it.
__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void learner_solve_select(
    int learners, __global REAL* c, __global const REAL* P, __global const REAL* Q, __global REAL* delta,
    __global REAL* reduction, REAL nu, __global int* learnerIndex, int partialCount,
    __global const REAL* partials, REAL inverseRows, __global REAL* residualSquares, __global REAL* history,
    int previousRecord, int record, int applyPending, int slots, __global const REAL* cache,
    __global int* slotOf, __global int* slotOwner, __global int* cacheState, __global REAL* step) {
  __local REAL value[REDUCE_GROUP];
  __local int index[REDUCE_GROUP];
  finish_risk(partialCount, partials, inverseRows, residualSquares, history, previousRecord, value);
  if (record < 0) return;
  const int lid = get_local_id(0);
  __global const REAL* G = (__global const REAL*)0;
  if (applyPending) G = cache + (size_t)slotOf[learnerIndex[0]] * learners * K * K;
  correct_solve_all(learners, c, P, Q, delta, reduction, G, step);
  const int chosen = argmax_learner(learners, reduction, value, index);  // every step[] read is done
  record_selection(chosen, record, nu, delta, history, step, learnerIndex);
  if (lid == 0 && slots > 0) claim_slot(chosen, slots, slotOf, slotOwner, cacheState);
}

// ---- GPU devices: the same scheme in two launches (a single work-group would serialise L k x k products) ----
// learner_correct_solve: a work-group per learner j; with applyPending, c_j -= G_{j,l} step first (l and step of
// the previous selection), then delta_j and r_j as learner_solve.
inline void correct_solve_group(int learners, __global REAL* c, __global const REAL* P, __global const REAL* Q,
                                __global REAL* delta, __global REAL* reduction, int applyPending,
                                __global const int* learnerIndex, __global const int* slotOf,
                                __global const REAL* cache, __global const REAL* step, __local REAL* cj,
                                __local REAL* sums) {
  const int j = get_group_id(0);
  __global const REAL* Gj = (__global const REAL*)0;
  if (applyPending) Gj = cache + ((size_t)slotOf[learnerIndex[0]] * learners + j) * K * K;
  for (int a = get_local_id(0); a < K; a += REDUCE_GROUP) {
    REAL v = c[(size_t)j * K + a];
    if (applyPending) {
      REAL d = (REAL)0;
      for (int b = 0; b < K; ++b) d += Gj[a * K + b] * step[b];
      v -= d;
      c[(size_t)j * K + a] = v;
    }
    cj[a] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  solve_learner(j, cj, P, Q, delta, reduction, sums);
}

__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void learner_correct_solve(
    int learners, __global REAL* c, __global const REAL* P, __global const REAL* Q, __global REAL* delta,
    __global REAL* reduction, int applyPending, __global const int* learnerIndex, __global const int* slotOf,
    __global const REAL* cache, __global const REAL* step) {
  __local REAL cj[K];
  __local REAL sums[REDUCE_GROUP];
  correct_solve_group(learners, c, P, Q, delta, reduction, applyPending, learnerIndex, slotOf, cache, step, cj, sums);
}

// learner_select_claim: one work-group. learner_select, plus the step nu delta_j* for the next correction and,
// when j* has no slot yet, a claimed slot that the group zeroes for compact_x_cross_fill's atomic sums.
// The parameters of learner_select_claim after its first three, as one macro: learner_correct_solve_select has them too.
#define SELECT_CLAIM_PARAMS                                                                                       \
  REAL nu, __global int *learnerIndex, int partialCount, __global const REAL *partials, REAL inverseRows,        \
      __global REAL *residualSquares, __global REAL *history, int previousRecord, int record, int slots,          \
      __global int *slotOf, __global int *slotOwner, __global int *cacheState, __global REAL *step,               \
      __global REAL *cache
#define SELECT_CLAIM_ARGS                                                                                          \
  nu, learnerIndex, partialCount, partials, inverseRows, residualSquares, history, previousRecord, record, slots,  \
      slotOf, slotOwner, cacheState, step, cache

inline void select_claim_group(int learners, __global const volatile REAL* reduction,
                               __global const volatile REAL* delta, SELECT_CLAIM_PARAMS, __local REAL* value,
                               __local int* index, __local int* fillSlot) {
  finish_risk(partialCount, partials, inverseRows, residualSquares, history, previousRecord, value);
  if (record < 0) return;
  const int chosen = argmax_learner(learners, reduction, value, index);
  const int lid = get_local_id(0);
  record_selection(chosen, record, nu, delta, history, step, learnerIndex);
  if (lid == 0) *fillSlot = claim_slot(chosen, slots, slotOf, slotOwner, cacheState);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int fill = *fillSlot;
  if (fill < 0) return;
  __global REAL* G = cache + (size_t)fill * learners * K * K;
  for (size_t m = lid; m < (size_t)learners * K * K; m += REDUCE_GROUP) G[m] = (REAL)0;
}

__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void learner_select_claim(
    int learners, __global const REAL* reduction, __global const REAL* delta, SELECT_CLAIM_PARAMS) {
  __local REAL value[REDUCE_GROUP];
  __local int index[REDUCE_GROUP];
  __local int fill;
  select_claim_group(learners, reduction, delta, SELECT_CLAIM_ARGS, value, index, &fill);
}

// learner_correct_solve_select: learner_correct_solve's work-group per learner, then the last work-group to finish
// does learner_select_claim's work, one launch an iteration fewer (at n = 1e5 a launch cost more than its work).
// Each group commits its delta_j and r_j device-wide (mem_fence) before it counts itself done with an OpenCL 1.2
// atomic on done[0]; the group that counts `learners` reads them back through volatile loads and sets done[0] to 0
// again for the next launch. No group waits for another, so the order the groups run in cannot deadlock it.
__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void learner_correct_solve_select(
    int learners, __global REAL* c, __global const REAL* P, __global const REAL* Q, __global REAL* delta,
    __global REAL* reduction, int applyPending, SELECT_CLAIM_PARAMS, __global volatile int* done) {
  __local REAL cj[K];
  __local REAL value[REDUCE_GROUP];
  __local int index[REDUCE_GROUP];
  __local int flag;
  correct_solve_group(learners, c, P, Q, delta, reduction, applyPending, learnerIndex, slotOf, cache, step, cj,
                      value);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) flag = atomic_inc(done) == learners - 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!flag) return;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);  // every work-item has read flag before select_claim_group reuses it
  select_claim_group(learners, reduction, delta, SELECT_CLAIM_ARGS, value, index, &flag);
  if (get_local_id(0) == 0) *done = 0;
}

// ---- CPU devices, tracking only the learners selected so far (opencl/SchemeTracked.cpp) ----------------------------
// The cache has a slot per learner: slot l is learner l's, and its row j holds B_j'B_l only once both j and l are
// tracked (slotOf >= 0); the other rows stay zero. So the correction leaves an untracked learner's c as the last
// exact B'g left it, at residuals g0, and its reduction r_j(g0) can since have grown to at most
// (sqrt(r_j(g0)) + |A_j| |g - g0|)^2 with |A_j| <= 1 (compute/ReductionBound.hpp). A step s of tracked l moves g by
// -B_l s, so |g - g0|^2 grows by 2 s'(c_l(g0) - c_l) + s'B_l'B_l s (c_l before the step's correction).
//   exact = 1: c = B'g for every learner just now (no correction). cRef = c, shift = 0; the winner among all is
//              recorded, and it and every untracked learner whose reduction is at least `promote` of the winner's
//              are tracked: listed in fills[2..] (fills[1] of them) for the update launch to fill.
//   exact = 0: the previous step's correction; the winner among the tracked learners is recorded unless an
//              untracked learner's bound reaches its reduction: then fills[0] = 1, nothing is recorded, and the host
//              runs the exact B'g and this kernel again with exact = 1.
//   cover = 1: every slot has every learner's row (the host switched after frequent forced passes), so every c is
//              current: the winner among all is recorded and, if new, listed for its slot's fill; no bounds.
// shift = {|g - g0|^2, the sum of its terms' sizes}; margin: the relative rounding allowance of the bounds.
__kernel __attribute__((reqd_work_group_size(REDUCE_GROUP, 1, 1))) void learner_solve_select_tracked(
    int learners, __global REAL* c, __global const REAL* P, __global const REAL* Q, __global REAL* delta,
    __global REAL* reduction, REAL nu, __global int* learnerIndex, int partialCount, __global const REAL* partials,
    REAL inverseRows, __global REAL* residualSquares, __global REAL* history, int previousRecord, int record, int exact,
    int cover, REAL margin, REAL promote, __global const REAL* cache, __global int* slotOf, __global REAL* step,
    __global REAL* cRef, __global REAL* shift, __global int* fills) {
  __local REAL value[REDUCE_GROUP];
  __local int index[REDUCE_GROUP];
  finish_risk(partialCount, partials, inverseRows, residualSquares, history, previousRecord, value);
  if (record < 0) return;
  const int lid = get_local_id(0);
  const int l = learnerIndex[0];
  if (exact) {
    for (int m = lid; m < learners * K; m += REDUCE_GROUP) cRef[m] = c[m];
  } else if (lid == 0 && !cover) {
    __global const REAL* Gll = cache + ((size_t)l * learners + l) * K * K;
    REAL across = (REAL)0, self = (REAL)0;
    for (int a = 0; a < K; ++a) {
      REAL gs = (REAL)0;
      for (int b = 0; b < K; ++b) gs += Gll[a * K + b] * step[b];
      across += step[a] * (cRef[(size_t)l * K + a] - c[(size_t)l * K + a]);
      self += step[a] * gs;
    }
    shift[0] += (REAL)2 * across + self;
    shift[1] += fabs((REAL)2 * across) + fabs(self);
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  correct_solve_all(learners, c, P, Q, delta, reduction,
                    exact ? (__global const REAL*)0 : cache + (size_t)l * learners * K * K, step);
  if (lid == 0) {
    int best = -1;
    for (int j = 0; j < learners; ++j)
      if ((exact || cover || slotOf[j] >= 0) && (best < 0 || GB_BETTER_REDUCTION(reduction[j], reduction[best])))
        best = j;
    int mayWin = best < 0;
    if (exact) {
      shift[0] = shift[1] = (REAL)0;
    } else if (!mayWin && !cover) {
      const REAL moved = sqrt(fmax(shift[0] + margin * shift[1], (REAL)0)) * ((REAL)1 + margin);
      for (int j = 0; j < learners && !mayWin; ++j) {
        if (slotOf[j] >= 0) continue;
        const REAL root = sqrt(fmax(reduction[j], (REAL)0)) + moved;
        mayWin = root * root * ((REAL)1 + margin) >= reduction[best];
      }
    }
    fills[0] = mayWin;
    fills[1] = 0;
    index[0] = mayWin ? -1 : best;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int chosen = index[0];
  if (chosen < 0) return;
  record_selection(chosen, record, nu, delta, history, step, learnerIndex);
  if (lid != 0) return;
  const REAL top = reduction[chosen];
  const int promoting = exact && !cover && top > (REAL)0;  // only where every c is exact
  for (int j = 0; j < learners; ++j)
    if (slotOf[j] < 0 && (j == chosen || (promoting && reduction[j] >= promote * top))) {
      slotOf[j] = j;
      fills[2 + fills[1]++] = j;
    }
}

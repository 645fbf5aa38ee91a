// Linear and factor learners (mboost's bols(x) and bols(f)) on the device: their B'(w u) needs only a few sums, and
// their update adds a per-row value. Defines: REAL (float|double), GB_DOUBLE for double.
//   level_sums:  partials[chunk * levels + l] = sum of v[i] over the chunk's rows with codes[i] == l
//                (a factor's B'v in dummy coding; treatment contrasts follow on the host: the intercept's entry is
//                the sum over all levels)
//   linear_sums: partials[chunk * 2 + {0, 1}] = sum of v[i], sum of x[i] v[i] over the chunk's rows
//   level_update:  f[i] += effect[codes[i]]      (effect: nu times the fitted value of each level)
//   linear_update: f[i] += a + b x[i]           (a, b: nu times intercept and slope)
// Chunks of `chunkRows` rows are summed in row order by one work-item each, so the sums never depend on timing.

__kernel void level_sums(const ulong n, const ulong chunkRows, const uint levels, __global const int* codes,
                         __global const REAL* v, __global REAL* partials) {
  const ulong chunk = get_global_id(0);
  const uint level = get_global_id(1);
  const ulong begin = chunk * chunkRows;
  if (begin >= n || level >= levels) return;
  const ulong end = min(n, begin + chunkRows);
  REAL sum = (REAL)0;
  for (ulong i = begin; i < end; ++i)
    if (codes[i] == (int)level) sum += v[i];
  partials[chunk * levels + level] = sum;
}

__kernel void linear_sums(const ulong n, const ulong chunkRows, __global const REAL* x, __global const REAL* v,
                          __global REAL* partials) {
  const ulong chunk = get_global_id(0);
  const ulong begin = chunk * chunkRows;
  if (begin >= n) return;
  const ulong end = min(n, begin + chunkRows);
  REAL sum = (REAL)0, moment = (REAL)0;
  for (ulong i = begin; i < end; ++i) {
    sum += v[i];
    moment += x[i] * v[i];
  }
  partials[2 * chunk] = sum;
  partials[2 * chunk + 1] = moment;
}

__kernel void level_update(const ulong n, __global const int* codes, __global const REAL* effect, __global REAL* f) {
  const ulong i = get_global_id(0);
  if (i < n) f[i] += effect[codes[i]];
}

__kernel void linear_update(const ulong n, __global const REAL* x, const REAL a, const REAL b, __global REAL* f) {
  const ulong i = get_global_id(0);
  if (i < n) f[i] += a + b * x[i];
}

// Put in front of every program by the runtime (engine/opencl/ProgramCache.cpp, programSource): the precision
// preamble and the helpers more than one kernel file needs, each written once. Followed by "#line 1", so build
// logs count the lines of the kernel file itself.
//
// Precision: REAL is float unless the options say -DREAL=double, with REAL_IS_DOUBLE (or GB_DOUBLE) defined.
#if defined(GB_DOUBLE) && !defined(REAL_IS_DOUBLE)
#define REAL_IS_DOUBLE 1
#endif
#ifdef REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef REAL
#define REAL float
#endif

// The tie rule of every selection (compute/IterationPolicy.hpp states it for C++): the larger RSS reduction wins,
// strictly, so a scan in increasing learner index keeps the lowest index among equals.
#define GB_BETTER_REDUCTION(candidate, best) ((candidate) > (best))

// Interval q of x among intervals 0..last (clamped like SplineBasis::intervalOf) and its local coordinate u.
inline int locate_interval(REAL x, REAL lo, REAL inverseSpacing, int last, REAL* u) {
  const REAL t = (x - lo) * inverseSpacing;
  int q = (int)t;
  q = q < 0 ? 0 : (q > last ? last : q);
  *u = t - (REAL)q;
  return q;
}

// Horner's rule with fused multiply-adds: out = sum_{s <= deg} c[s * stride] u^s. A macro because the
// coefficients sit in global, local or private memory, and OpenCL 1.2 has no generic address space.
#define GB_HORNER(c, stride, deg, u, out)                                                          \
  {                                                                                                \
    REAL h_ = (c)[(deg) * (stride)];                                                               \
    _Pragma("unroll") for (int s_ = (deg)-1; s_ >= 0; --s_) h_ = fma(h_, (u), (c)[s_ * (stride)]); \
    (out) = h_;                                                                                    \
  }

// A compare-and-swap add of a REAL, for devices without float atomics: defines `void name(volatile SPACE REAL*
// p, REAL v)` for the address space SPACE (__local or __global), on the REAL's bits as an integer of its width.
#ifdef REAL_IS_DOUBLE
#define GB_REAL_BITS long
#define GB_AS_BITS as_long
#define GB_AS_REAL as_double
#define GB_CMPXCHG atom_cmpxchg
#else
#define GB_REAL_BITS int
#define GB_AS_BITS as_int
#define GB_AS_REAL as_float
#define GB_CMPXCHG atomic_cmpxchg
#endif
#define GB_DEFINE_CAS_ADD(name, SPACE)                                 \
  inline void name(volatile SPACE REAL* p, REAL v) {                   \
    volatile SPACE GB_REAL_BITS* ip = (volatile SPACE GB_REAL_BITS*)p; \
    GB_REAL_BITS seen = *ip, old;                                      \
    do {                                                               \
      old = seen;                                                      \
      seen = GB_CMPXCHG(ip, old, GB_AS_BITS(GB_AS_REAL(old) + v));     \
    } while (seen != old);                                             \
  }

// ---- compact B-spline programs (DEGREE and INTERVALS defined: compact_btg.cl, compact_update.cl) ----
#ifdef INTERVALS
#define W (DEGREE + 1)
#define MOMENTS (INTERVALS * W)

// Interval q (clamped like SplineBasis::intervalOf) and local coordinate u of x.
#define locate(x, lo, inverseSpacing, u) locate_interval((x), (lo), (inverseSpacing), INTERVALS - 1, (u))

// w[r] = value of basis column q + r at u (r <= DEGREE) from an interval's pieces coef[r * W + s].
#define PIECE_VALUES(coef, u, w) \
  _Pragma("unroll") for (int r_ = 0; r_ < W; ++r_) GB_HORNER((coef) + r_ * W, 1, DEGREE, (u), (w)[r_])

#if !defined(REAL_IS_DOUBLE) && DEGREE > 0
// locate() without its two int/float conversions (a fraction of the FP32 rate on GPUs): adding and subtracting 1.5 *
// 2^23 rounds t - 1/2 to the nearest integer, which is floor(t) except at exact integers, where the interval below may
// be chosen with u = 1; the spline is continuous there (DEGREE > 0), so both give the same values up to rounding. x -
// lo is exact (Sterbenz) for x near lo, as in locate().
inline int locate_row(REAL x, REAL lo, REAL inverseSpacing, REAL* u) {
  const float magic = 0x1.8p23f;
  const float th = fma(x - lo, inverseSpacing, -0.5f);
  const float qf = clamp((th + magic) - magic, 0.0f, (float)(INTERVALS - 1));
  *u = (th - qf) + 0.5f;
  return as_int(qf + magic) - as_int(magic);
}
#endif

// The DEGREE + 1 nonzero basis values of a row (columns q .. q + DEGREE) from x through the polynomial table.
inline int basis_row(REAL x, REAL lo, REAL inverseSpacing, __global const REAL* polyOfLearner, REAL* w) {
  REAL u;
  const int q = locate(x, lo, inverseSpacing, &u);
  PIECE_VALUES(polyOfLearner + q * W * W, u, w)
  return q;
}

// Rows of this group's chunk: [*begin, *end). Dimension 0 of the group id is the learner, dimension 1 the chunk.
inline void chunk_rows(int n, int chunkRows, int* begin, int* end) {
  const long b = (long)get_group_id(1) * chunkRows;
  *begin = (int)b;
  *end = (int)min((long)n, b + chunkRows);
}

// Float adds to local and global memory for the GPU variants (BTG_GROUP > 1): NVIDIA's red instructions by inline
// PTX (GB_NV_PTX_ATOMICS), else a compare-and-swap loop. global_add is local_add's twin: OpenCL 1.2 has no generic
// address space, so one function cannot serve both.
#if defined(BTG_GROUP) && BTG_GROUP > 1
#if defined(GB_NV_PTX_ATOMICS)
// No "memory" clobber: the bins are read only after a barrier, and a clobber would stop the compiler from
// issuing the next rows' global loads before this row's atomics (one memory latency per row).
inline void local_add(volatile __local REAL* p, REAL v) {
#ifdef REAL_IS_DOUBLE
  asm volatile("red.shared.add.f64 [%0], %1;" ::"l"((ulong)p), "d"(v));
#else
  asm volatile("red.shared.add.f32 [%0], %1;" ::"l"((ulong)p), "f"(v));
#endif
}
#else
#ifdef REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif
GB_DEFINE_CAS_ADD(local_add, __local)
#endif
#if defined(GB_NV_PTX_ATOMICS)
inline void global_add(volatile __global REAL* p, REAL v) {
#ifdef REAL_IS_DOUBLE
  asm volatile("red.global.add.f64 [%0], %1;" ::"l"((ulong)p), "d"(v) : "memory");
#else
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"((ulong)p), "f"(v) : "memory");
#endif
}
#else
GB_DEFINE_CAS_ADD(global_add, __global)
#endif
#endif

// The cross-product cache (kernels/compact_cross.cl, cross_sorted.cl): a fill of learner l's slot needs B_j'B_l for
// every j; where j holds a slot itself (copyCached, slotOf[j] >= 0, j != l), that slot's block for l is B_l'B_j,
// summed from the same rows when j was filled, and its transpose is copied instead of summed again.
#define GB_COPIES_CACHED(j, l) (copyCached && (j) != (l) && slotOf[j] >= 0)
// out[a][b] = from[b][a] (K x K), by the work-items of one group.
inline void cache_copy_transposed(__global const REAL* from, __global REAL* out) {
  for (int e = get_local_id(0); e < K * K; e += get_local_size(0)) out[e] = from[(e % K) * K + e / K];
}

// Row-block product of W x W blocks given by index expressions: STORE(a, b, sum_c A(a, c) B(c, b)) for all a, b.
#define GB_BLOCK_PRODUCT(A, B, STORE)                                                                 \
  _Pragma("unroll") for (int a_ = 0; a_ < W; ++a_) _Pragma("unroll") for (int b_ = 0; b_ < W; ++b_) { \
    REAL v_ = (REAL)0;                                                                                \
    _Pragma("unroll") for (int c_ = 0; c_ < W; ++c_) v_ += A(a_, c_) * B(c_, b_);                     \
    STORE(a_, b_, v_);                                                                                \
  }
#endif

// ---- The loss families (kernels/family.cl, compact_update.cl's family update), for programs built with -DFAMILY ----
// mboost 2.9's definitions (R/family.R); y coded as the engine codes it (binomial -1/+1); param: Huber's delta, the
// quantile's or expectile's tau, gamma's shape or negbin's size.
#define GB_FAMILY_GAUSSIAN 0
#define GB_FAMILY_BINOMIAL 1
#define GB_FAMILY_POISSON 2
#define GB_FAMILY_LAPLACE 3
#define GB_FAMILY_HUBER 4
#define GB_FAMILY_QUANTILE 5
#define GB_FAMILY_EXPECTILE 6
#define GB_FAMILY_ADAEXP 7
// GammaReg, param its shape s: the loss here is the shape-free term y exp(-f) - log y + f, from whose weighted sum the
// host finds s and the risk W lgamma(s) + s (sum - W log s) (opencl/GradientPath.cpp).
#define GB_FAMILY_GAMMA 8
// The binomial with R's glm links (mboost's Binomial(link = ...)): f on the link scale
// (engine/family/BinomialLinks.hpp).
#define GB_FAMILY_PROBIT 9
#define GB_FAMILY_CLOGLOG 10
#define GB_FAMILY_CAUCHIT 11
// NBinomial, param its size s: the loss is -A(y, s) + s log(1 + mu / s) + y log(1 + s / mu) with mu = exp(f) and
// A = lgamma(y + s) - lgamma(s) - lgamma(y + 1). The kernels form the two f-dependent terms, each positive (mboost's
// -s log s + s log(mu + s) - y f + y log(mu + s) cancels large terms, which float cannot carry once counts reach the
// thousands); the host adds -sum(w A) in double from the distinct counts (family/NegBinomial.hpp, NegBinCounts).
#define GB_FAMILY_NEGBIN 12

#ifdef FAMILY
// sign() of OpenCL returns 0 for 0 as R's sign() does; written out so that -0.0 and NaN need no thought.
inline REAL signOf(REAL v) { return v > (REAL)0 ? (REAL)1 : v < (REAL)0 ? (REAL)-1 : (REAL)0; }

#if FAMILY >= GB_FAMILY_PROBIT && FAMILY <= GB_FAMILY_CAUCHIT
#define GB_EPS 2.220446049250313e-16  // R's .Machine$double.eps, the floor of R's mu.eta and clamp of cloglog's p
#define GB_PI 3.141592653589793
inline REAL cauchyCdf(REAL x) {  // R's pcauchy, which avoids the cancellation of 1/2 + atan(x)/pi for |x| > 1
  if (fabs(x) > (REAL)1) {
    const REAL t = atan((REAL)1 / x) / (REAL)GB_PI;
    return x > (REAL)0 ? (REAL)1 - t : -t;
  }
  return (REAL)0.5 + atan(x) / (REAL)GB_PI;
}

// p = linkinv(f) and q = 1 - p, with R's clamps. In double q is 1 - p, as R (mboost) forms it. In float 1 - p would
// be 0 wherever p rounds to 1 (probit beyond f = 5.3), and -log(1 - p) inf; q comes from the upper tail instead.
inline REAL linkProbability(REAL f, REAL* q) {
  REAL p, upper;
#if FAMILY == GB_FAMILY_PROBIT
  const REAL e = clamp(f, (REAL)-8.125890664701906, (REAL)8.125890664701906);  // -qnorm(eps)
  p = (REAL)0.5 * erfc(-e * (REAL)M_SQRT1_2);
  upper = (REAL)0.5 * erfc(e * (REAL)M_SQRT1_2);
#elif FAMILY == GB_FAMILY_CLOGLOG
  p = fmax(fmin(-expm1(-exp(f)), (REAL)(1.0 - GB_EPS)), (REAL)GB_EPS);
  upper = fmax(fmin(exp(-exp(f)), (REAL)(1.0 - GB_EPS)), (REAL)GB_EPS);
#else
  const REAL e = clamp(f, (REAL)-1433540284805664.8, (REAL)1433540284805664.8);  // -qcauchy(eps)
  p = cauchyCdf(e);
  upper = cauchyCdf(-e);
#endif
#ifdef REAL_IS_DOUBLE
  *q = (REAL)1 - p;
#else
  *q = upper;
#endif
  return p;
}

// mu.eta(f) = dp/df, at least eps as R's make.link() has it.
inline REAL linkDerivative(REAL f) {
#if FAMILY == GB_FAMILY_PROBIT
  return fmax((REAL)0.3989422804014327 * exp((REAL)-0.5 * f * f), (REAL)GB_EPS);
#elif FAMILY == GB_FAMILY_CLOGLOG
  const REAL e = fmin(f, (REAL)700);
  return fmax(exp(e) * exp(-exp(e)), (REAL)GB_EPS);  // inf * 0 in float is NaN, and fmax then gives eps as R's 0 does
#else
  return fmax((REAL)1 / ((REAL)GB_PI * ((REAL)1 + f * f)), (REAL)GB_EPS);
#endif
}
#endif

inline REAL negativeGradient(REAL y, REAL f, REAL param) {
  const REAL r = y - f;
#if FAMILY == GB_FAMILY_GAUSSIAN
  return r;
#elif FAMILY == GB_FAMILY_BINOMIAL
  // mboost: e = exp(-2yf), u = 2 y e / (log(2) (1 + e)); divided through by e so that no inf/inf appears.
  return (REAL)2 * y / ((REAL)M_LN2 * ((REAL)1 + exp((REAL)2 * y * f)));
#elif FAMILY == GB_FAMILY_POISSON
  return y - exp(f);
#elif FAMILY == GB_FAMILY_LAPLACE
  return signOf(r);
#elif FAMILY == GB_FAMILY_HUBER
  return fabs(r) < param ? r : param * signOf(r);
#elif FAMILY == GB_FAMILY_QUANTILE
  return r >= (REAL)0 ? param : -((REAL)1 - param);
#elif FAMILY == GB_FAMILY_EXPECTILE
  return r > (REAL)0 ? (REAL)2 * param * r : (r < (REAL)0 ? (REAL)2 * ((REAL)1 - param) * r : (REAL)0);
#elif FAMILY == GB_FAMILY_ADAEXP
  return y * exp(-y * f);
#elif FAMILY == GB_FAMILY_GAMMA
  return param * y * exp(-f) - param;
#elif FAMILY == GB_FAMILY_NEGBIN
  // y - (y + s) mu / (mu + s) = s (y - mu) / (mu + s): for large counts the first form subtracts two numbers near y
  // and keeps only float's rounding of them; written with r = 1 / mu where mu > 1, so that neither form overflows.
  if (f > (REAL)0) {
    const REAL r = exp(-f);
    return param * (y * r - (REAL)1) / ((REAL)1 + param * r);
  }
  const REAL mu = exp(f);
  return param * (y - mu) / (mu + param);
#else
  // mboost: mu.eta(f) (y01 / p - (1 - y01) / (1 - p)), of which one term is 0 for y01 in {0, 1}.
  REAL q;
  const REAL p = linkProbability(f, &q);
  const REAL d = linkDerivative(f);
  return y > (REAL)0 ? d * ((REAL)1 / p) : -(d * ((REAL)1 / q));
#endif
}

inline REAL loss(REAL y, REAL f, REAL param) {
  const REAL r = y - f;
#if FAMILY == GB_FAMILY_GAUSSIAN
  return r * r;
#elif FAMILY == GB_FAMILY_BINOMIAL
  // mboost: f clamped to +-36, p = exp(f) / (exp(f) + exp(-f)), y01 = (y + 1) / 2, -y01 log p - (1 - y01) log(1 - p).
  const REAL fc = fmin(fabs(f), (REAL)36) * signOf(f);
#ifdef REAL_IS_DOUBLE
  const REAL p = exp(fc) / (exp(fc) + exp(-fc));
  // Only the term of y's class: the other is 0 * log(...), which R's risk drops as NaN (na.rm) where p is 1.
  return y > (REAL)0 ? -log(p) : -log((REAL)1 - p);
#else
  // The same loss, log(1 + exp(z)) with z = -2 y fc, without forming p: in float p rounds to 1 once |f| > 8.3
  // (exp(-2|f|) < 2^-24), and -log(1 - p) was then inf for a row on the wrong side, where double (mboost) still has
  // a finite loss up to |f| = 18.4. A fold's out-of-bag risk "diverged" in float only.
  const REAL z = (REAL)-2 * (y > (REAL)0 ? fc : -fc);
  return fmax(z, (REAL)0) + log1p(exp(-fabs(z)));
#endif
#elif FAMILY == GB_FAMILY_POISSON
  // -log dpois(y, exp(f)) = exp(f) - y f + lgamma(y + 1); the last term does not depend on f, and OpenCL gives
  // lgamma no accuracy bound, so the host adds sum(w lgamma(y + 1)) once (FamilyKernels::riskConstant).
  return exp(f) - y * f;
#elif FAMILY == GB_FAMILY_LAPLACE
  return fabs(r);
#elif FAMILY == GB_FAMILY_HUBER
  const REAL a = fabs(r);
  return a < param ? a * a / (REAL)2 : param * (a - param / (REAL)2);
#elif FAMILY == GB_FAMILY_QUANTILE
  return r >= (REAL)0 ? param * r : -((REAL)1 - param) * r;
#elif FAMILY == GB_FAMILY_EXPECTILE
  return (r >= (REAL)0 ? param : (REAL)1 - param) * r * r;
#elif FAMILY == GB_FAMILY_ADAEXP
  return exp(-y * f);
#elif FAMILY == GB_FAMILY_GAMMA
  return y * exp(-f) - log(y) + f;
#elif FAMILY == GB_FAMILY_NEGBIN
  // s softplus(z) + y softplus(-z) with z = f - log s: log(1 + mu / s) and log(1 + s / mu) without overflow
  const REAL z = f - log(param);
  const REAL soft = log1p(exp(-fabs(z)));
  return param * (fmax(z, (REAL)0) + soft) + (y > (REAL)0 ? y * (fmax(-z, (REAL)0) + soft) : (REAL)0);
#else
  REAL q;
  const REAL p = linkProbability(f, &q);
  return y > (REAL)0 ? -log(p) : -log(q);
#endif
}
#endif  // FAMILY

// B'g of every learner from the packed interval-sorted layout (engine/opencl/PackedBtg.hpp): GPU, float, cubic.
//
// Defines: those of compact_btg.cl (REAL = float, DEGREE = 3, INTERVALS <= 255, BTG_GROUP > 1, GB_NV_PTX_ATOMICS),
// and for compact_packed_partial PACK_WARPS (32-wide warps a group), PACK_LEARNERS (learners whose moments a group
// keeps in local memory) and PACK_SLOTS (segment ends a lane holds before it adds them to the moments); optional
// PACK_RING (a lane's words in registers, 8 unless set through GAMBOOST_KERNEL_DEFINES).
//
// The layout, per learner and chunk of PACK_ROWS rows, written once by compact_pack from x:
// - the chunk's rows sorted by interval (within an interval in the order compact_pack chooses for the banks of the
//   gathers of g), PACK_RUN to a lane: sorted position p = PACK_RUN L + i is lane L's row i, and its word sits at
//   word (i / 4) 128 + 4 L + i % 4, so a warp's 16-byte loads read 512 consecutive bytes;
// - a word is  v << 13 | row << 2 | last:  u = v / 2^19 (v < 2^19: u to +-9.5e-7, at most 1.9e-6 below 1, finer
//   than the float locate's own rounding of about 4e-6 at 60 intervals), the row within the chunk (11 bits) at bits
//   2..12 so that the word masked is the row's byte offset in the chunk's g, and last = the row is the last of its
//   interval in the chunk (bit 1 is 0). 4 bytes a row, as many as x in float;
// - a header of PACK_HEADER bytes: the segment (the index among the chunk's non-empty intervals) of each lane's
//   first row (32 bytes); each lane's round for adding its open segment (below; 32 bytes); the number of rounds
//   (1 byte, then 15 spare); the interval of each segment.
// A lane keeps running sums of g u^s over its rows (no branch a row); where a row ends its interval it stores the
// sums (one 16-byte local store, predicated), and differences of the stored sums are the segments' moments, added
// to the learner's moments M[q][s] once per segment. At the end a group turns its moments into columns through
// the polynomial table, and compact_reduce (compact_btg.cl) sums the groups' columns.
#define PACK_ROWS 2048
#define PACK_RUN (PACK_ROWS / 32)
#define PACK_MAP 80                                             // where the map of segments to intervals begins
#define PACK_HEADER (PACK_MAP + (INTERVALS + 4 + 15) / 16 * 16)  // 4 bytes to spare: the map is read a word past a place
#define PACK_U_SCALE 524288.0f  // 2^19
#define PACK_V_MAX (PACK_U_SCALE - 1.0f)
#define PACK_WORD(last, row, v) ((v) << 13 | (row) << 2 | (last))
#define PACK_LAST(w) ((w) & 1u)
#define PACK_G(w) (*(__local const float*)((__local const uchar*)gs + ((w) & 0x1FFCu)))  // gs: the chunk's g
#define PACK_U(w) (as_float((((w) >> 9) & 0x7FFFF0u) | 0x3F800000u) - 1.0f)
#ifndef PACK_RING
#define PACK_RING 8  // a lane's 16-byte words in registers: one summed while the others load (4, 8 or 16)
#endif

#if !defined(REAL_IS_DOUBLE) && DEGREE == 3 && INTERVALS <= 255 && defined(BTG_GROUP) && BTG_GROUP > 1

// Rows within an interval may come in any order. Lane L's row i (sorted position PACK_RUN L + i) has its g
// gathered by compact_packed_partial in the same instruction as the other lanes' row i, and those gathers take
// as many local-memory wavefronts as the most rows in one bank (row % 32). So each lane orders the rows of each
// piece of its run (a piece: its rows of one interval) so that its row i's bank is one that no lane before it has
// claimed for row i, where the piece has such a row (uniform rows: 3.5 wavefronts a gather, 2.15 ordered). Lane L
// takes its row i at step i + L, after lane L - 1 took its row i: the order is the same in every run (so are the
// B'g's float sums). claimed: banks claimed for each row i; ordered: the rows in their sorted positions.
inline void pack_order_rows(__local const uint* keys, __local uint* claimed, __local ushort* ordered) {
  const int lid = get_local_id(0), begin = lid * PACK_RUN;
  if (lid < PACK_RUN) claimed[lid] = 0;
  ulong ends = 0;  // bit i: the lane's row i ends a piece (its interval's last row, or the run's); independent loads
  if (lid < 32)
    for (int i = 0; i < PACK_RUN; ++i)
      ends |= (ulong)(i == PACK_RUN - 1 || (keys[begin + i + 1] >> 11) != (keys[begin + i] >> 11)) << i;
  ulong used = 0, piece = 0;  // the run's rows already placed, and those of the current piece (bit p - begin)
  int pieceEnd = 0;
  for (int step = 0; step < PACK_RUN + 31; ++step) {
    barrier(CLK_LOCAL_MEM_FENCE);  // lane lid - 1 has claimed for row i
    const int i = step - lid, p = begin + i;
    if (lid >= 32 || i < 0 || i >= PACK_RUN) continue;
    if (i == pieceEnd) {  // the piece of rows i .. j, j the first end at or after i (bits i .. 63 when j = 63)
      const ulong rest = ends >> i;
      const int j = i + 63 - (int)clz(rest & (~rest + 1));
      piece = ((ulong)2 << j) - ((ulong)1 << i);
      pieceEnd = j + 1;
    }
    const ulong open = piece & ~used;  // never empty: the piece has as many rows as positions
    int pick = 63 - (int)clz(open & (~open + 1));  // the first open row, unless one has an unclaimed bank
    for (ulong rest = open; rest; rest &= rest - 1) {
      const int e = 63 - (int)clz(rest & (~rest + 1));
      if (!((claimed[i] >> (keys[begin + e] & 31u)) & 1u)) {
        pick = e;
        break;
      }
    }
    claimed[i] |= 1u << (keys[begin + pick] & 31u);
    used |= (ulong)1 << pick;
    ordered[p] = (ushort)(keys[begin + pick] & 2047u);
  }
}

// Compare-exchange of k[i] and k[j] into ascending (up) or descending order.
#define PACK_CE(i, j, up)                 \
  {                                       \
    const uint a_ = k[i], b_ = k[j];      \
    if ((a_ > b_) == (up)) {              \
      k[i] = b_;                          \
      k[j] = a_;                          \
    }                                     \
  }
// The stages of stride 4, 2 and 1 of a bitonic merge, on 8 keys that go one way.
#define PACK_MERGE8(up)                                                  \
  PACK_CE(0, 4, up) PACK_CE(1, 5, up) PACK_CE(2, 6, up) PACK_CE(3, 7, up) \
  PACK_CE(0, 2, up) PACK_CE(1, 3, up) PACK_CE(4, 6, up) PACK_CE(5, 7, up) \
  PACK_CE(0, 1, up) PACK_CE(2, 3, up) PACK_CE(4, 5, up) PACK_CE(6, 7, up)

// Bitonic sort of the group's PACK_ROWS keys (interval, row), ascending; the keys are unique, so the order is the
// same as any sort's. A work-item holds keys 8 lid .. 8 lid + 7 in registers for the stages of stride 4, 2 and 1
// (the whole of the sizes 2 to 8), and the stages of stride 8 and up go through local memory: 44 barriers instead
// of 66 (on the H200 the packing's sort had taken 60% of its instructions).
inline void pack_sort(__local uint* keys) {
  const int lid = get_local_id(0);
  __local uint* mine = keys + 8 * lid;
  uint k[8];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = 0; e < 8; ++e) k[e] = mine[e];
  PACK_CE(0, 1, true) PACK_CE(2, 3, false) PACK_CE(4, 5, true) PACK_CE(6, 7, false)  // size 2
  PACK_CE(0, 2, true) PACK_CE(1, 3, true) PACK_CE(4, 6, false) PACK_CE(5, 7, false)  // size 4
  PACK_CE(0, 1, true) PACK_CE(2, 3, true) PACK_CE(4, 5, false) PACK_CE(6, 7, false)
  PACK_MERGE8((lid & 1) == 0)  // size 8
  for (int e = 0; e < 8; ++e) mine[e] = k[e];
  for (int size = 16; size <= PACK_ROWS; size <<= 1) {
    for (int stride = size >> 1; stride >= 8; stride >>= 1) {
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int t = lid; t < PACK_ROWS / 2; t += 256) {
        const int a = 2 * t - (t & (stride - 1)), b = a + stride;
        const uint ka = keys[a], kb = keys[b];
        if ((ka > kb) == ((a & size) == 0)) {
          keys[a] = kb;
          keys[b] = ka;
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0; e < 8; ++e) k[e] = mine[e];
    PACK_MERGE8(((8 * lid) & size) == 0)
    for (int e = 0; e < 8; ++e) mine[e] = k[e];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// One work-group of 256 per (chunk, learner): dimension 0 is the chunk, 1 the learner. Rows past n are padding in
// the last interval (g is 0 there).
__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void compact_pack(int n, int chunks, __global const REAL* x,
                                                                          __global const REAL* geometry,
                                                                          __global uint* packed,
                                                                          __global uchar* header) {
  __local uint keys[PACK_ROWS];
  __local uint vs[PACK_ROWS];
  __local int segmentOf[INTERVALS];
  __local uint claimed[PACK_RUN];
  __local ushort ordered[PACK_ROWS];
  const int c = get_group_id(0), j = get_group_id(1), lid = get_local_id(0);
  const float lo = geometry[2 * j], inverseSpacing = geometry[2 * j + 1];
  const long first = (long)c * PACK_ROWS;
  const int len = (int)min((long)PACK_ROWS, (long)n - first);
  __global const REAL* xj = x + (size_t)j * n + first;
  for (int q = lid; q < INTERVALS; q += 256) segmentOf[q] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = lid; r < PACK_ROWS; r += 256) {
    int q = INTERVALS - 1;
    uint v = 0;
    if (r < len) {
      float u;
      q = locate_row(xj[r], lo, inverseSpacing, &u);
      v = (uint)clamp(rint(u * PACK_U_SCALE), 0.0f, PACK_V_MAX);
    }
    segmentOf[q] = 1;  // every writer writes 1
    keys[r] = (uint)q << 11 | (uint)r;
    vs[r] = v;
  }
  pack_sort(keys);
  if (lid == 0) {  // segment index of each non-empty interval, -1 for an empty one
    int s = 0;
    for (int q = 0; q < INTERVALS; ++q) {
      const int present = segmentOf[q];
      segmentOf[q] = present ? s : -1;
      s += present;
    }
  }
  pack_order_rows(keys, claimed, ordered);
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t at = (size_t)j * chunks + c;
  __global uint* out = packed + at * PACK_ROWS;
  for (int p = lid; p < PACK_ROWS; p += 256) {
    const uint key = keys[p];
    const uint row = ordered[p];
    const bool last = p == PACK_ROWS - 1 || (keys[p + 1] >> 11) != (key >> 11);
    const int lane = p / PACK_RUN, i = p % PACK_RUN;
    out[(i / 4) * 128 + 4 * lane + i % 4] = PACK_WORD(last ? 1u : 0u, row, vs[row]);
  }
  __global uchar* h = header + at * PACK_HEADER;
  if (lid < 32) h[lid] = (uchar)segmentOf[keys[lid * PACK_RUN] >> 11];
  // A lane's open segment: its last interval where its last row is not the interval's last. Lanes whose runs lie
  // inside one interval share it with the lane before; such lanes add it in turns (round 0, 1, ...), so no two
  // lanes add to one interval in the same instruction (the adds are plain loads and stores).
  if (lid == 0) {
    int round = 0, rounds = 1, openBefore = -1;
    for (int lane = 0; lane < 32; ++lane) {
      const int p = lane * PACK_RUN + PACK_RUN - 1, q = (int)(keys[p] >> 11);
      const bool open = p < PACK_ROWS - 1 && (int)(keys[p + 1] >> 11) == q;
      round = open && q == openBefore ? round + 1 : 0;
      rounds = max(rounds, round + 1);
      h[32 + lane] = (uchar)round;
      openBefore = open ? q : -1;
    }
    h[64] = (uchar)rounds;
  }
  for (int q = lid; q < INTERVALS; q += 256)
    if (segmentOf[q] >= 0) h[PACK_MAP + segmentOf[q]] = (uchar)q;
}

#ifdef PACK_WARPS
// The interval of the chunk's segment `segment`, from the header h; first4: the intervals of segments first ..
// first + 3, a byte each (read when the lane's run began), so most lookups need no header read.
inline int pack_interval(__local const uchar* h, int first, uint first4, int segment) {
  const int k = segment - first;
  return k < 4 ? (int)((first4 >> (8 * k)) & 255u) : (int)h[PACK_MAP + segment];
}

// Adds the moments of `count` stored segment ends (differences of the running sums) to the learner's moments, and
// moves *segment and *base past them. A stored end closes its interval, so no other lane adds to that interval in
// the same instruction: plain loads and stores.
inline void pack_drain(__local REAL* moments, __local const uchar* h, int first, uint first4,
                       __local const float4* ends, int count, int* segment, float4* base) {
  for (int s = 0; s < count; ++s) {
    const float4 end = ends[s * 32];
    __local float4* m = (__local float4*)(moments + pack_interval(h, first, first4, *segment) * W);
    *m += end - *base;
    *base = end;
    ++*segment;
  }
}

// One row's word w_ and its g t_: the terms g u^s added to the running sums; at the last row of an interval the
// sums are stored (a predicated store, no branch). eb is the byte offset of the lane's next end in endsOfAll (an
// int from the array's start, so the store is one 32-bit address), 512 bytes (32 lanes of float4) a held end.
#define PACK_ROW(word, gv)                                                          \
  {                                                                                 \
    const uint w_ = (word);                                                         \
    const float u_ = PACK_U(w_);                                                    \
    float t_ = (gv);                                                                \
    run.x += t_;                                                                    \
    t_ *= u_;                                                                       \
    run.y += t_;                                                                    \
    t_ *= u_;                                                                       \
    run.z += t_;                                                                    \
    t_ *= u_;                                                                       \
    run.w += t_;                                                                    \
    if (PACK_LAST(w_)) *(__local float4*)((__local uchar*)endsOfAll + eb) = run;    \
    eb += (int)PACK_LAST(w_) << 9;                                                  \
  }
// Four words (v) of a lane with their g (gv[0..3], gathered before): a lane stores at most 4 ends here, so it
// drains before when more than PACK_SLOTS - 4 are held.
#define PACK_ROWS_4(v, gv)                                                                     \
  {                                                                                            \
    if (eb - eb0 > 512 * (PACK_SLOTS - 4)) {                                                   \
      pack_drain(mine, h, first, first4, PACK_ENDS, (eb - eb0) >> 9, &segment, &base);          \
      eb = eb0;                                                                                \
    }                                                                                          \
    PACK_ROW((v).x, (gv)[0])                                                                   \
    PACK_ROW((v).y, (gv)[1])                                                                   \
    PACK_ROW((v).z, (gv)[2])                                                                   \
    PACK_ROW((v).w, (gv)[3])                                                                   \
  }
#define PACK_GATHER_4(v, gv)                                                              \
  {                                                                                       \
    (gv)[0] = PACK_G((v).x), (gv)[1] = PACK_G((v).y);                                     \
    (gv)[2] = PACK_G((v).z), (gv)[3] = PACK_G((v).w);                                     \
  }

#if PACK_RING != 4 && PACK_RING != 8 && PACK_RING != 16
#error "PACK_RING divides a run's 16 words and holds two loads a step ahead (4, 8 or 16)"
#endif
#if PACK_RUN != 64
#error "a lane's run is 16 words (PACK_EACH16)"
#endif
// The lane's held segment ends (slot s at PACK_ENDS[32 s]), for the drains.
#define PACK_ENDS ((__local const float4*)((__local const uchar*)endsOfAll + eb0))
#define PACK_EACH16(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
// Word w (a literal: 16 and up are the next learner's) into its place in the ring.
#define PACK_LOAD(w)                                    \
  {                                                     \
    if ((w) < 16)                                       \
      a[(w) % PACK_RING] = words[(w) * 32];             \
    else if (more)                                      \
      a[(w) % PACK_RING] = nextWords[((w) - 16) * 32];  \
  }
// Step i of the ring (i a literal): gather word i + 1's g, sum word i's rows, and after an odd step load the two
// words whose places the last two steps freed. The loads go in pairs because a warp has few scoreboards to wait on
// loads with: one load a step had two words a learner waiting on loads issued a step before them (ncu on the
// H200: a fifth of the stall samples), and pairs took the B'g from 86.9% to 88.8% of copy.
#define PACK_RING_STEP(i)                                                                       \
  {                                                                                             \
    if ((i) < 15) PACK_GATHER_4(a[((i) + 1) % PACK_RING], gn)                                   \
    PACK_ROWS_4(a[(i) % PACK_RING], gv)                                                         \
    if ((i) == 15) lastWord = a[(i) % PACK_RING].w;                                             \
    if ((i) & 1) {                                                                              \
      PACK_LOAD((i) + PACK_RING - 1)                                                            \
      PACK_LOAD((i) + PACK_RING)                                                                \
    }                                                                                           \
    gv[0] = gn[0], gv[1] = gn[1], gv[2] = gn[2], gv[3] = gn[3];                                 \
  }
// The chunk's g from row `first` into gs (zero past n) in two halves: pack_g_issue's 16-byte loads into v, before
// the barrier that frees gs, then pack_g_store's stores (a chunk past n is read and stored by the store half).
#define PACK_G_LOADS ((PACK_ROWS / 4 + 32 * PACK_WARPS - 1) / (32 * PACK_WARPS))
#define PACK_H_LOADS ((PACK_LEARNERS * (PACK_HEADER / 16) + 32 * PACK_WARPS - 1) / (32 * PACK_WARPS))
inline void pack_g_issue(__global const REAL* g, long first, int n, float4* v) {
  const int lid = get_local_id(0);
  if (first + PACK_ROWS <= n) {
    #pragma unroll
    for (int e = 0; e < PACK_G_LOADS; ++e)
      if (lid + e * 32 * PACK_WARPS < PACK_ROWS / 4) v[e] = vload4(lid + e * 32 * PACK_WARPS, g + first);
  }
}
inline void pack_g_store(__global const REAL* g, long first, int n, const float4* v, __local REAL* gs) {
  const int lid = get_local_id(0);
  if (first + PACK_ROWS <= n) {
    #pragma unroll
    for (int e = 0; e < PACK_G_LOADS; ++e)
      if (lid + e * 32 * PACK_WARPS < PACK_ROWS / 4) vstore4(v[e], lid + e * 32 * PACK_WARPS, gs);
  } else {
    for (int r = lid; r < PACK_ROWS; r += 32 * PACK_WARPS) gs[r] = first + r < n ? g[first + r] : (REAL)0;
  }
}

// Chunk c's g into gs (zero past n) and the headers of the group's learners (count of them from firstLearner, each
// PACK_HEADER / 16 uint4) into headersOf: loaded into registers before the barrier that frees gs and headersOf (the
// previous chunk's rows are done with them), and stored after it, so a learner's header costs no global latency (on
// the H200 a third of the kernel's long_scoreboard stalls had waited on it).
inline void pack_load_chunk(__global const uchar* header, __global const REAL* g, int n, int chunks, int c,
                            int firstLearner, int count, __local REAL* gs, __local uint4* headersOf) {
  const int lid = get_local_id(0);
  const long first = (long)c * PACK_ROWS;
  uint4 hl[PACK_H_LOADS];
  #pragma unroll
  for (int e = 0; e < PACK_H_LOADS; ++e) {
    const int i = lid + e * 32 * PACK_WARPS, l = i / (PACK_HEADER / 16);
    if (i < count * (PACK_HEADER / 16))
      hl[e] = ((__global const uint4*)(header + ((size_t)(firstLearner + l) * chunks + c) * PACK_HEADER))
          [i % (PACK_HEADER / 16)];
  }
  float4 gl[PACK_G_LOADS];
  pack_g_issue(g, first, n, gl);
  barrier(CLK_LOCAL_MEM_FENCE);  // (the moments are zero before the first chunk's)
  pack_g_store(g, first, n, gl, gs);
  #pragma unroll
  for (int e = 0; e < PACK_H_LOADS; ++e)
    if (lid + e * 32 * PACK_WARPS < count * (PACK_HEADER / 16)) headersOf[lid + e * 32 * PACK_WARPS] = hl[e];
  barrier(CLK_LOCAL_MEM_FENCE);
}

// The group's columns from its learners' moments, c_{q+r} = sum_s poly(q, r, s) M[q][s]: learner l's K columns at
// out[l * chunkGroups * K] (poly and out start at the group's first learner).
inline void pack_columns(__global const REAL* poly, __local const REAL* moments, int count, int chunkGroups,
                         __global REAL* out) {
  for (int e = get_local_id(0); e < count * K; e += 32 * PACK_WARPS) {
    const int l = e / K, column = e % K;
    __global const REAL* pj = poly + (size_t)l * INTERVALS * W * W;
    REAL sum = (REAL)0;
    #pragma unroll
    for (int r = 0; r < W; ++r) {
      const int q = column - r;
      if (q >= 0 && q < INTERVALS)
        for (int s = 0; s < W; ++s) sum += pj[(q * W + r) * W + s] * moments[l * MOMENTS + q * W + s];
    }
    out[(size_t)l * chunkGroups * K + column] = sum;
  }
}

// Work-groups: (learner block, chunk group) with the block fastest, so the groups that read one chunk of g run
// together. A group keeps the moments of PACK_LEARNERS learners and walks chunksPerGroup chunks: each chunk's g
// in local memory, then each warp takes the group's learners in turn, a lane its PACK_RUN rows. Partials: per
// learner (from learnerBegin), per chunk group, K columns, as compact_reduce reads them.
__kernel __attribute__((reqd_work_group_size(32 * PACK_WARPS, 1, 1))) void compact_packed_partial(
    int n, int chunks, int chunksPerGroup, int learnerBegin, int learnerCount, __global const uint* packed,
    __global const uchar* header, __global const REAL* g, __global const REAL* poly, __global REAL* partials) {
  __local REAL gs[PACK_ROWS];
  __local float4 momentsOf[PACK_LEARNERS * INTERVALS];  // float4: an interval's moments are one 16-byte access
  __local REAL* moments = (__local REAL*)momentsOf;
  __local float4 endsOfAll[PACK_WARPS * PACK_SLOTS * 32];
  __local uint4 headersOf[PACK_LEARNERS * (PACK_HEADER / 16)];
  const int blocks = (learnerCount + PACK_LEARNERS - 1) / PACK_LEARNERS;
  const int block = get_group_id(0) % blocks, chunkGroup = get_group_id(0) / blocks;
  const int chunkGroups = get_num_groups(0) / blocks;
  const int l0 = block * PACK_LEARNERS, count = min(PACK_LEARNERS, learnerCount - l0);
  const int lid = get_local_id(0), warp = lid / 32, lane = lid % 32;
  for (int m = lid; m < PACK_LEARNERS * MOMENTS; m += 32 * PACK_WARPS) moments[m] = (REAL)0;
  const int eb0 = (warp * PACK_SLOTS * 32 + lane) * 16;  // the lane's first end, in bytes; slot s 512 s further
  const int c0 = chunkGroup * chunksPerGroup, c1 = min(chunks, c0 + chunksPerGroup);
  // The ring of a lane's words (below): a warp's first words of its first learner of the group's first chunk;
  // later ones are loaded during the learner before (for a warp's first learner of a chunk, during its last learner
  // of the chunk before).
  uint4 a[PACK_RING];
  if (warp < count && c0 < c1) {
    __global const uint4* words =
        (__global const uint4*)(packed + ((size_t)(learnerBegin + l0 + warp) * chunks + c0) * PACK_ROWS) + lane;
    #pragma unroll
    for (int v = 0; v < PACK_RING; ++v) a[v] = words[v * 32];
  }
  for (int c = c0; c < c1; ++c) {
    pack_load_chunk(header, g, n, chunks, c, learnerBegin + l0, count, gs, headersOf);
    for (int l = warp; l < count; l += PACK_WARPS) {
      const size_t at = (size_t)(learnerBegin + l0 + l) * chunks + c;
      __global const uint4* words = (__global const uint4*)(packed + at * PACK_ROWS) + lane;
      const bool another = l + PACK_WARPS < count, more = another || c + 1 < c1;
      __global const uint4* nextWords =
          another ? words + (size_t)PACK_WARPS * chunks * (PACK_ROWS / 4)
                  : (__global const uint4*)(packed + ((size_t)(learnerBegin + l0 + warp) * chunks + c + 1) * PACK_ROWS) +
                        lane;
      __local const uchar* h = (__local const uchar*)headersOf + l * PACK_HEADER;
      __local REAL* mine = moments + l * MOMENTS;
      // The lane's first segment and the intervals of its first four (one unaligned word of the map).
      const int first = h[lane], round = h[32 + lane], rounds = h[64];
      __local const uint* map = (__local const uint*)(h + PACK_MAP);
      const uint lo = map[first / 4], hi = map[first / 4 + 1], shift = 8 * (first & 3);
      const uint first4 = shift ? (lo >> shift) | (hi << (32 - shift)) : lo;
      int segment = first;
      int eb = eb0;  // where the lane's next segment end goes (eb - eb0 = 512 x ends held)
      float4 run = (float4)(0.0f), base = (float4)(0.0f);
      uint lastWord = 0;
      // The run's 16 words in a ring of PACK_RING registers: word i is summed from a[i % PACK_RING], which then
      // takes word i + PACK_RING (in the last PACK_RING steps, the next learner's first words), loaded in pairs, so
      // PACK_RING - 2 or - 1 words a lane are in flight while one is summed. Each word's g is gathered a word ahead.
      float gv[4], gn[4];
      PACK_GATHER_4(a[0], gv)
      PACK_EACH16(PACK_RING_STEP)
      pack_drain(mine, h, first, first4, PACK_ENDS,
                 (eb - eb0) >> 9, &segment, &base);
      // The run's open segment (its last rows, whose interval goes on into the next lane's run), in the lane's round.
      const bool isOpen = !PACK_LAST(lastWord);
      const float4 open = run - base;
      __local float4* m = (__local float4*)(mine + (isOpen ? pack_interval(h, first, first4, segment) : 0) * W);
      for (int r = 0; r < rounds; ++r)
        if (r == round && isOpen) *m += open;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  pack_columns(poly + (size_t)(learnerBegin + l0) * INTERVALS * W * W, moments, count, chunkGroups,
               partials + ((size_t)l0 * chunkGroups + chunkGroup) * K);
}
#endif  // PACK_WARPS

#endif

#include "opencl/CompactKernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/Error.hpp"
#include "common/ParallelErrors.hpp"
#include "common/SystemResources.hpp"
#include "opencl/KernelArgs.hpp"
#include "opencl/PackedBtg.hpp"
#include "opencl/StagedUpload.hpp"

namespace gb::ocl {

std::string toString(CompactKernel k) {
  return k == CompactKernel::Compact ? "compact" : k == CompactKernel::Sorted ? "compact_sorted" : "compact_x";
}

bool compactKernelFromName(const std::string& name, CompactKernel* out) {
  if (name == "compact")
    *out = CompactKernel::Compact;
  else if (name == "compact_x")
    *out = CompactKernel::CompactX;
  else if (name == "compact_sorted")
    *out = CompactKernel::Sorted;
  else
    return false;
  return true;
}

std::vector<std::string> compactKernelNames() { return {"compact_x", "compact", "compact_sorted"}; }

namespace {

// Host values converted to the device's REAL, written at `offset` elements into `buffer`.
void writeReal(Context& ctx, Buffer& buffer, const std::vector<double>& values, std::size_t offset, bool asDouble) {
  if (asDouble) {
    buffer.write(ctx, values.data(), values.size() * sizeof(double), offset * sizeof(double));
  } else {
    const std::vector<float> f(values.begin(), values.end());
    buffer.write(ctx, f.data(), f.size() * sizeof(float), offset * sizeof(float));
  }
}

// Whether intervals [from, to) share the pieces of interval min(degree, intervals - 1) (see uniformPieces()), up
// to the rounding of the knots themselves: knots a + i dx carry errors ~eps |a| that move the pieces by
// ~eps |a| / dx, the same size as the error in u = (x - lo) / dx - q that every compact_x kernel already has.
// Unequal spacing or clamped boundary knots change them by O(1).
bool piecesMatch(const SplineBasis& b, int from, int to) {
  const int d = b.degree(), intervals = b.numIntervals(), ref = std::min(d, intervals - 1);
  double largest = 0.0;
  for (int r = 0; r <= d; ++r)
    for (int s = 0; s <= d; ++s) largest = std::max(largest, std::abs(b.poly(ref, r, s)));
  const double magnitude = std::max(std::abs(b.lo()), std::abs(b.hi())) / b.spacing() + intervals;
  const double tolerance = 16 * std::numeric_limits<double>::epsilon() * magnitude * largest;
  for (int q = std::max(from, 0); q < std::min(to, intervals); ++q)
    for (int r = 0; r <= d; ++r)
      for (int s = 0; s <= d; ++s)
        if (std::abs(b.poly(q, r, s) - b.poly(ref, r, s)) > tolerance) return false;
  return true;
}

}  // namespace

double floatCovariateShift(const SplineBasis& basis) {
  const double lo = basis.lo(), hi = basis.hi();
  return lo > 0.0 || hi < 0.0 ? lo : 0.0;
}

std::size_t CompactData::deviceBytes(std::size_t rows, int learners, const SplineSpec& spec, bool doublePrecision,
                                     bool storeBasis, bool storeSorted, std::size_t sortChunkRows) {
  const std::size_t real = doublePrecision ? 8 : 4, L = static_cast<std::size_t>(learners);
  const std::size_t w = static_cast<std::size_t>(spec.degree) + 1;
  std::size_t bytes = L * rows * real + L * (static_cast<std::size_t>(spec.knots) + 1) * w * w * real + L * 2 * real;
  if (storeBasis) bytes += L * rows * (sizeof(cl_int) + w * real);
  if (storeSorted)
    bytes += L * rows * (sizeof(cl_ushort) + real) +
             L * ((rows + sortChunkRows - 1) / sortChunkRows) * (spec.knots + 2) * sizeof(cl_int);
  return bytes;
}

CompactData::CompactData(Context& ctx, const std::vector<const SplineBasis*>& bases,
                         const std::vector<const double*>& x, std::size_t rows, bool doublePrecision, bool storeBasis,
                         bool storeSorted, std::size_t sortChunkRows)
    : ctx_(&ctx),
      rows_(rows),
      sortChunk_(sortChunkRows),
      learners_(static_cast<int>(bases.size())),
      double_(doublePrecision) {
  if (bases.empty() || bases.size() != x.size() || rows == 0)
    throw ComputeError("CompactData: need one covariate per basis and at least one row and learner");
  if (sortChunkRows == 0 || sortChunkRows > 65536) throw ComputeError("CompactData: sort chunk outside 1..65536");
  const SplineSpec& spec = bases.front()->spec();
  for (const SplineBasis* b : bases)
    if (b->spec().knots != spec.knots || b->degree() != spec.degree)
      throw ComputeError("CompactData: every learner must share knots and degree");
  if (doublePrecision && !ctx.hasFp64())
    throw ComputeError("CompactData: double precision on " + ctx.device().info.name + ", which has no cl_khr_fp64");
  k_ = bases.front()->numColumns();
  degree_ = spec.degree;
  intervals_ = bases.front()->numIntervals();
  const std::size_t L = bases.size(), w = static_cast<std::size_t>(degree_) + 1, real = realBytes();
  const std::size_t polySize = static_cast<std::size_t>(intervals_) * w * w;

  x_ = Buffer(ctx, L * rows * real, CL_MEM_READ_ONLY);
  poly_ = Buffer(ctx, L * polySize * real, CL_MEM_READ_ONLY);
  geometry_ = Buffer(ctx, L * 2 * real, CL_MEM_READ_ONLY);
  if (storeBasis) {
    firstColumn_ = Buffer(ctx, L * rows * sizeof(cl_int), CL_MEM_READ_ONLY);
    weights_ = Buffer(ctx, L * rows * w * real, CL_MEM_READ_ONLY);
  }
  std::vector<double> shifts(L, 0.0);
  if (!double_)
    for (std::size_t j = 0; j < L; ++j) shifts[j] = floatCovariateShift(*bases[j]);
  uploadColumns(ctx, x_, x, rows, double_, 0, &shifts);  // converted on all cores, through pinned buffers
  // Every learner's table in one write (it was a blocking write per learner: 112 uploads at p = 100).
  std::vector<double> geometry(2 * L), weights, one(w), tables(L * polySize);
  std::vector<cl_int> first;
  for (std::size_t j = 0; j < L; ++j) {
    const SplineBasis& b = *bases[j];
    geometry[2 * j] = b.lo() - shifts[j];
    geometry[2 * j + 1] = 1.0 / b.spacing();
    const std::vector<double>& table = b.polynomialTable();
    if (table.size() != polySize) throw ComputeError("CompactData: a learner's polynomial table has the wrong size");
    std::copy(table.begin(), table.end(), tables.begin() + static_cast<std::ptrdiff_t>(j * polySize));
    const int d = b.degree(), intervals = b.numIntervals();
    if (uniform_ != Uniform::None && !piecesMatch(b, d, intervals - d)) uniform_ = Uniform::None;
    if (uniform_ == Uniform::All && !(piecesMatch(b, 0, d) && piecesMatch(b, intervals - d, intervals)))
      uniform_ = Uniform::Interior;
    if (!storeBasis) continue;
    first.resize(rows);
    weights.resize(rows * w);
    for (std::size_t i = 0; i < rows; ++i) {
      first[i] = b.evaluateFast(x[j][i], one.data());
      std::copy(one.begin(), one.end(), weights.begin() + static_cast<std::ptrdiff_t>(i * w));
    }
    firstColumn_.write(ctx, first.data(), rows * sizeof(cl_int), j * rows * sizeof(cl_int));
    writeReal(ctx, weights_, weights, j * rows * w, double_);
  }
  writeReal(ctx, poly_, tables, 0, double_);
  writeReal(ctx, geometry_, geometry, 0, double_);
  if (storeSorted) uploadSorted(ctx, bases, x);
}

// Per learner and chunk of kSortChunkRows rows: a counting sort of the rows by interval, with the interval and
// u computed in double exactly as the CPU backend locates rows. Learners are sorted on all cores, a block of them at
// a time (one per core), and written in order (it was one learner after another: 0.88 s at n = 1e6, p = 100).
void CompactData::uploadSorted(Context& ctx, const std::vector<const SplineBasis*>& bases,
                               const std::vector<const double*>& x) {
  const std::size_t L = bases.size(), chunks = (rows_ + sortChunk_ - 1) / sortChunk_;
  const std::size_t width = static_cast<std::size_t>(intervals_) + 1;
  order_ = Buffer(ctx, L * rows_ * sizeof(cl_ushort), CL_MEM_READ_ONLY);
  sortedU_ = Buffer(ctx, L * rows_ * realBytes(), CL_MEM_READ_ONLY);
  starts_ = Buffer(ctx, L * chunks * width * sizeof(cl_int), CL_MEM_READ_ONLY);
  struct Sorted {
    std::vector<cl_ushort> order;
    std::vector<double> u, t;
    std::vector<cl_int> starts, q;
  };
  auto sortLearner = [&](std::size_t j, Sorted& s) {
    s.order.resize(rows_);
    s.u.resize(rows_);
    s.t.resize(rows_);
    s.q.resize(rows_);
    s.starts.assign(chunks * width, 0);
    const double lo = bases[j]->lo(), inverse = 1.0 / bases[j]->spacing();
    for (std::size_t i = 0; i < rows_; ++i) {
      s.t[i] = (x[j][i] - lo) * inverse;
      s.q[i] = std::clamp(static_cast<int>(s.t[i]), 0, intervals_ - 1);
    }
    std::vector<cl_int> next(width);
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t begin = c * sortChunk_, end = std::min(rows_, begin + sortChunk_);
      cl_int* first = s.starts.data() + c * width;
      for (std::size_t i = begin; i < end; ++i) ++first[s.q[i] + 1];
      for (std::size_t b = 1; b < width; ++b) first[b] += first[b - 1];
      std::copy(first, first + width, next.begin());
      for (std::size_t i = begin; i < end; ++i) {
        const std::size_t at = begin + static_cast<std::size_t>(next[static_cast<std::size_t>(s.q[i])]++);
        s.order[at] = static_cast<cl_ushort>(i - begin);
        s.u[at] = s.t[i] - s.q[i];
      }
    }
  };
  const std::size_t block = std::min(L, static_cast<std::size_t>(std::max(1, availableCores())));
  std::vector<Sorted> sorted(block);
  for (std::size_t j0 = 0; j0 < L; j0 += block) {
    const auto count = static_cast<std::ptrdiff_t>(std::min(block, L - j0));
    ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::ptrdiff_t s = 0; s < count; ++s)
      errors.run([&] { sortLearner(j0 + static_cast<std::size_t>(s), sorted[static_cast<std::size_t>(s)]); });
    errors.rethrow();
    for (std::size_t s = 0; s < static_cast<std::size_t>(count); ++s) {
      const std::size_t j = j0 + s;
      const Sorted& one = sorted[s];
      order_.write(ctx, one.order.data(), rows_ * sizeof(cl_ushort), j * rows_ * sizeof(cl_ushort));
      writeReal(ctx, sortedU_, one.u, j * rows_, double_);
      starts_.write(ctx, one.starts.data(), one.starts.size() * sizeof(cl_int), j * one.starts.size() * sizeof(cl_int));
    }
  }
}

CompactData::~CompactData() = default;

// ---------------------------------------------------------------------------------------------------------------

namespace {

// The packed copy for the batched B'g where it applies and a quarter of the device's memory holds it; null
// otherwise, or where the device cannot make it (the columns kernel serves then).
std::unique_ptr<PackedBtg> packedCopy(Context& ctx, const CompactData& data, const KernelParameters& p,
                                      const std::string& options) {
  if (!PackedBtg::applies(data, p)) return nullptr;
  const ComputeDeviceInfo& info = ctx.device().info;
  const std::size_t bytes = PackedBtg::deviceBytes(data.rows(), data.learners(), data.intervals());
  if ((info.maxAllocationBytes && bytes > info.maxAllocationBytes) ||
      (info.globalMemoryBytes && bytes > info.globalMemoryBytes / 4))
    return nullptr;
  try {
    return std::make_unique<PackedBtg>(ctx, data, p, options);
  } catch (const ComputeError&) {
    return nullptr;
  }
}

}  // namespace

struct CompactPlan::Impl {
  Context* ctx;
  const CompactData* data;
  CompactKernel kind;
  KernelParameters params;
  std::size_t chunkRowsAll = 0, chunkRowsOne = 0;  // B'g chunks: batched and per-learner launches
  int width = 0;                                   // partials per (learner, chunk)
  int lanes = 0;                                   // > 0: compact_x_partial_columns with that group size
  std::string options;                             // the build options of every kernel of the plan
  Kernel partial, reduce, update, forward, dense, fitted;
  Buffer partials;
  std::unique_ptr<PackedBtg> packed;  // the batched B'g from the packed copy, where it applies

  bool sortedOnDevice() const { return kind == CompactKernel::Sorted && params.gpu; }
  bool xPrivate() const { return kind != CompactKernel::Compact && !params.gpu; }
  std::size_t partialGroup() const { return static_cast<std::size_t>(lanes > 0 ? lanes : params.btgGroupSize); }
  int chunks(std::size_t chunkRows) const { return static_cast<int>((data->rows() + chunkRows - 1) / chunkRows); }
  int updateGroups() const {
    return static_cast<int>((data->rows() + params.updateGroupRows - 1) / params.updateGroupRows);
  }
  RealArg real(double value) const { return {value, data->doublePrecision()}; }
  void launch(Kernel& k, const std::vector<std::size_t>& global, const std::vector<std::size_t>& local,
              std::vector<cl_event>* events) {
    cl_event e = nullptr;
    k.launch(*ctx, global, local, events ? &e : nullptr);
    if (events) events->push_back(e);
  }
  CompactXUpdateArgs xUpdateArgs(const Buffer& learnerIndex, const Buffer& delta, double scale, const Buffer& y,
                                 const Buffer& mu, const Buffer& g, const Buffer& partials, bool keepMu) const {
    CompactXUpdateArgs args{static_cast<cl_int>(data->rows()),
                            static_cast<cl_int>(params.updateGroupRows),
                            &learnerIndex,
                            &delta,
                            real(scale),
                            &data->x(),
                            &data->geometry(),
                            &data->polynomials(),
                            &y,
                            &mu,
                            &g,
                            &partials};
    args.keepMu = keepMu ? 1 : 0;
    return args;
  }
  // The update kernel on these buffers (keepMu: mu and g, else g alone; the compact kernel always keeps mu).
  void runUpdate(const char* who, const Buffer& learnerIndex, const Buffer& delta, double scale, const Buffer& y,
                 const Buffer& mu, const Buffer& g, const Buffer& partials, bool keepMu,
                 std::vector<cl_event>* events) {
    if (partials.bytes() < static_cast<std::size_t>(updateGroups()) * data->realBytes())
      throw ComputeError(std::string(who) + ": partials buffer holds fewer than " + std::to_string(updateGroups()) +
                         " values");
    const int n = static_cast<int>(data->rows()), groupRows = static_cast<int>(params.updateGroupRows);
    if (kind != CompactKernel::Compact) {
      xUpdateArgs(learnerIndex, delta, scale, y, mu, g, partials, keepMu).bind(update);
    } else {
      CompactUpdateArgs{n,   groupRows, &learnerIndex, &delta, real(scale), &data->firstColumn(), &data->weights(), &y,
                        &mu, &g,        &partials}
          .bind(update);
    }
    const std::size_t group = static_cast<std::size_t>(params.updateGroupSize);
    launch(update, {group * static_cast<std::size_t>(updateGroups())}, {group}, events);
  }

  // The fewest bytes B'g of `count` learners must move (as `bench kernels` counts them, KernelBenchmark.cpp): per
  // learner its x (compact: first column + d + 1 weights; sorted: row in chunk + u), then g once and the outputs.
  std::uint64_t fewestBytes(int count) const {
    const std::uint64_t n = data->rows(), s = data->doublePrecision() ? 8 : 4, c = static_cast<std::uint64_t>(count);
    const std::uint64_t k = static_cast<std::uint64_t>(data->k()), d = static_cast<std::uint64_t>(data->degree());
    const std::uint64_t perRow = kind == CompactKernel::Compact ? 4 + (d + 1) * s : sortedOnDevice() ? 2 + s : s;
    return c * n * perRow + s * n + s * k * c;
  }

  // Partials of learners [begin, begin + count) then their reduction into out (count x k).
  void transposed(int begin, int count, std::size_t chunkRows, const Buffer& g, const Buffer& out,
                  std::vector<cl_event>* events) {
    if (packed && begin == 0 && count == data->learners())
      return packed->transposed(g, out, fewestBytes(count), events);
    const int n = static_cast<int>(data->rows()), ch = chunks(chunkRows), rows = static_cast<int>(chunkRows);
    std::size_t groups = static_cast<std::size_t>(count);
    if (sortedOnDevice())
      CompactSortedPartialArgs{n, rows, begin, &data->order(), &data->sortedU(), &data->starts(), &g, &partials}.bind(
          partial);
    else if (xPrivate())  // LEARNER_BLOCK learners per work-item
      CompactXPartialPrivateArgs{n, rows, begin, &data->x(), &g, &data->geometry(), &partials, count}.bind(partial);
    else if (kind != CompactKernel::Compact)
      CompactXPartialArgs{
          n, rows, begin, &data->x(), &g, &data->geometry(), lanes > 0 ? &data->polynomials() : nullptr, &partials}
          .bind(partial);
    else
      CompactPartialArgs{n, rows, begin, &data->firstColumn(), &data->weights(), &g, &partials}.bind(partial);
    if (xPrivate()) groups = (groups + params.learnersPerItem - 1) / params.learnersPerItem;
    partial.setProfileBytes(fewestBytes(count));
    const std::size_t group = partialGroup();
    launch(partial, {group * groups, static_cast<std::size_t>(ch)}, {group, 1}, events);

    const std::size_t rg = static_cast<std::size_t>(params.reduceGroupSize);
    const bool moments = kind != CompactKernel::Compact;
    if (moments)
      CompactXReduceArgs{ch, begin, &partials, &data->polynomials(), &out}.bind(reduce);
    else
      CompactReduceArgs{ch, &partials, &out}.bind(reduce);
    launch(reduce, {rg * static_cast<std::size_t>(count)}, {rg}, events);
  }
};

CompactPlan::CompactPlan(Context& ctx, const CompactData& data, CompactKernel kernel)
    : CompactPlan(ctx, data, kernel, kernelParameters(ctx.device().info, data.rows(), data.learners())) {}

CompactPlan::CompactPlan(Context& ctx, const CompactData& data, CompactKernel kernel,
                         const KernelParameters& parameters)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.ctx = &ctx;
  s.data = &data;
  s.kind = kernel;
  s.params = parameters;
  if (kernel == CompactKernel::Compact && !data.hasBasis())
    throw ComputeError("compact kernel: the compact basis was not uploaded (CompactData storeBasis = false)");
  if (kernel == CompactKernel::Sorted && parameters.gpu && !data.hasSorted())
    throw ComputeError("compact_sorted kernel: the sorted layout was not uploaded (CompactData storeSorted = false)");
  // The per-learner launch gets its own chunking so one learner still spreads over the device.
  const SplineSpec spec{data.intervals() - 1, data.degree(), Boundary::Extended};
  const int w = data.degree() + 1;
  const int edgeSlots = data.uniformPieces() == CompactData::Uniform::All ? 0 : 2 * data.degree();
  const int columnBins = data.k() + edgeSlots * w;  // values per lane of compact_x_partial_columns
  if (kernel == CompactKernel::CompactX && data.uniformPieces() != CompactData::Uniform::None)
    s.lanes = laneCount(parameters, static_cast<std::size_t>(columnBins) * data.realBytes());
  KernelParameters one = kernelParameters(ctx.device().info, data.rows(), 1);
  s.chunkRowsAll = s.lanes > 0 ? parameters.laneChunkRows : parameters.btgChunkRows;
  const std::size_t oneRows = s.lanes > 0 ? one.laneChunkRows : one.btgChunkRows;  // 0: a CPU device's table
  s.chunkRowsOne = oneRows > 0 ? std::min(s.chunkRowsAll, oneRows) : s.chunkRowsAll;
  if (parameters.gpu) s.chunkRowsOne = std::max<std::size_t>(s.chunkRowsOne, s.partialGroup());
  if (s.sortedOnDevice()) {  // whole sorted chunks per group
    auto whole = [](std::size_t r) { return (r + kSortChunkRows - 1) / kSortChunkRows * kSortChunkRows; };
    s.chunkRowsAll = whole(s.chunkRowsAll);
    s.chunkRowsOne = whole(s.chunkRowsOne);
  }
  // The columns kernel's shape; VEC = 4 (16-byte loads) where every learner's rows start 16-byte aligned.
  const std::string columnOptions = " -DLANES=" + std::to_string(s.lanes) +
                                    " -DEDGE_SLOTS=" + std::to_string(edgeSlots) +
                                    " -DVEC=" + (data.rows() % 4 == 0 ? "4" : "1");
  std::string options = buildOptions(parameters, spec, data.doublePrecision()) + columnOptions;
  const bool x = kernel != CompactKernel::Compact;  // compact_x and compact_sorted share moments and B delta
  const std::string partialName =
      s.sortedOnDevice() ? "compact_sorted_partial_local"
      : s.lanes > 0
          ? "compact_x_partial_columns"
          : (x ? "compact_x" : "compact") + std::string(parameters.gpu ? "_partial_local" : "_partial_private");
  try {
    s.partial = Kernel(ctx.kernel("compact_btg", partialName, options));
  } catch (const ComputeError&) {
    // A driver that rejects the inline PTX atomics still gets the portable compare-and-swap loop.
    if (!s.params.nvidiaAtomics) throw;
    s.params.nvidiaAtomics = false;
    options = buildOptions(s.params, spec, data.doublePrecision()) + columnOptions;
    s.partial = Kernel(ctx.kernel("compact_btg", partialName, options));
  }
  s.options = options;
  s.reduce = Kernel(ctx.kernel("compact_btg",
                               s.lanes > 0 ? "compact_x_reduce_columns"
                               : x         ? "compact_x_reduce"
                                           : "compact_reduce",
                               options));
  s.update = Kernel(ctx.kernel("compact_update", x ? "compact_x_update" : "compact_update", options));
  s.forward = Kernel(ctx.kernel("compact_update", x ? "compact_x_forward" : "compact_forward", options));
  s.dense = Kernel(ctx.kernel("compact_update", "compact_x_dense", options));
  s.fitted = Kernel(ctx.kernel("compact_update", "fitted_from_residual", options));
  s.width = s.lanes > 0 ? columnBins : x ? data.intervals() * w : data.k();
  if (kernel == CompactKernel::CompactX && parameters.packedBtg) s.packed = packedCopy(ctx, data, s.params, options);
  const std::size_t slots = std::max(static_cast<std::size_t>(data.learners()) * s.chunks(s.chunkRowsAll),
                                     static_cast<std::size_t>(s.chunks(s.chunkRowsOne)));
  s.partials = Buffer(ctx, slots * static_cast<std::size_t>(s.width) * data.realBytes());
}

CompactPlan::~CompactPlan() = default;

CompactKernel CompactPlan::kernel() const { return impl_->kind; }

int CompactPlan::lanes() const { return impl_->lanes; }

const std::string& CompactPlan::options() const { return impl_->options; }

void CompactPlan::transposed(const Buffer& g, const Buffer& out, std::vector<cl_event>* events) {
  impl_->transposed(0, impl_->data->learners(), impl_->chunkRowsAll, g, out, events);
}

void CompactPlan::transposedOne(int learner, const Buffer& g, const Buffer& out, std::vector<cl_event>* events) {
  if (learner < 0 || learner >= impl_->data->learners())
    throw ComputeError("CompactPlan::transposedOne: learner " + std::to_string(learner) + " out of range");
  impl_->transposed(learner, 1, impl_->chunkRowsOne, g, out, events);
}

void CompactPlan::forwardOne(int learner, const Buffer& delta, const Buffer& out, std::vector<cl_event>* events) {
  Impl& s = *impl_;
  if (learner < 0 || learner >= s.data->learners())
    throw ComputeError("CompactPlan::forwardOne: learner " + std::to_string(learner) + " out of range");
  const int n = static_cast<int>(s.data->rows()), groupRows = static_cast<int>(s.params.updateGroupRows);
  if (s.kind != CompactKernel::Compact)
    CompactXForwardArgs{n, groupRows, learner, &delta, &s.data->x(), &s.data->geometry(), &s.data->polynomials(), &out}
        .bind(s.forward);
  else
    CompactForwardArgs{n, groupRows, learner, &delta, &s.data->firstColumn(), &s.data->weights(), &out}.bind(s.forward);
  const std::size_t group = static_cast<std::size_t>(s.params.updateGroupSize);
  s.launch(s.forward, {group * static_cast<std::size_t>(s.updateGroups())}, {group}, events);
}

void CompactPlan::update(const Buffer& learnerIndex, const Buffer& delta, double scale, const Buffer& y,
                         const Buffer& mu, const Buffer& g, const Buffer& partials, std::vector<cl_event>* events) {
  impl_->runUpdate("CompactPlan::update", learnerIndex, delta, scale, y, mu, g, partials, true, events);
}

void CompactPlan::residualUpdate(const Buffer& learnerIndex, const Buffer& delta, double scale, const Buffer& g,
                                 const Buffer& partials, std::vector<cl_event>* events) {
  if (impl_->kind == CompactKernel::Compact)
    throw ComputeError("CompactPlan::residualUpdate: the compact kernel keeps mu (use update)");
  // y and mu are not read: g stands in for both (a kernel argument must be a valid buffer).
  impl_->runUpdate("CompactPlan::residualUpdate", learnerIndex, delta, scale, g, g, g, partials, false, events);
}

void CompactPlan::fittedFromResidual(const Buffer& y, const Buffer& g, const Buffer& mu) {
  Impl& s = *impl_;
  FittedFromResidualArgs{static_cast<cl_int>(s.data->rows()), &y, &g, &mu}.bind(s.fitted);
  const std::size_t group = 64, groups = std::min<std::size_t>((s.data->rows() + group - 1) / group, 4096);
  s.launch(s.fitted, {group * std::max<std::size_t>(groups, 1)}, {group}, nullptr);
}

CompactXUpdateArgs CompactPlan::xUpdateArgs(const Buffer& learnerIndex, const Buffer& delta, double scale,
                                            const Buffer& y, const Buffer& mu, const Buffer& g, const Buffer& partials,
                                            bool keepMu) const {
  return impl_->xUpdateArgs(learnerIndex, delta, scale, y, mu, g, partials, keepMu);
}

std::size_t CompactPlan::updatePartials() const { return static_cast<std::size_t>(impl_->updateGroups()); }

void CompactPlan::expandDense(const Buffer& dense, std::vector<cl_event>* events) {
  Impl& s = *impl_;
  const std::size_t bytes =
      s.data->rows() * static_cast<std::size_t>(s.data->learners()) * s.data->k() * s.data->realBytes();
  if (dense.bytes() < bytes)
    throw ComputeError("CompactPlan::expandDense: buffer of " + std::to_string(dense.bytes()) + " bytes, need " +
                       std::to_string(bytes));
  CompactXDenseArgs{static_cast<int>(s.data->rows()),
                    s.data->learners(),
                    &s.data->x(),
                    &s.data->geometry(),
                    &s.data->polynomials(),
                    &dense}
      .bind(s.dense);
  const std::size_t tile = 64;
  const std::size_t rows = (s.data->rows() + tile - 1) / tile * tile;
  s.launch(s.dense, {rows, static_cast<std::size_t>(s.data->learners())}, {tile, 1}, events);
}

std::size_t CompactPlan::scratchBytes() const {
  return impl_->partials.bytes() + (impl_->packed ? impl_->packed->scratchBytes() : 0);
}

bool CompactPlan::packed() const { return impl_->packed != nullptr; }

std::string CompactPlan::packedShape() const { return impl_->packed ? impl_->packed->shape() : std::string(); }

std::vector<std::uint32_t> CompactPlan::packedWords(int learner, int chunk) const {
  return impl_->packed ? impl_->packed->words(learner, chunk) : std::vector<std::uint32_t>{};
}

}  // namespace gb::ocl

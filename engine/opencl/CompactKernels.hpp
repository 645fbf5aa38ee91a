#pragma once
// Compact B-spline kernels (design.md section 3): B'g and B delta with no dense B. Two forms of the basis:
//   Compact   ("compact"):   the stored compact basis, per row its first column (int) and degree+1 weights,
//                            learner-major (learner j's rows are contiguous);
//   CompactX  ("compact_x"): the basis computed from x itself through the per-interval polynomial table
//                            (SplineBasis::polynomialTable()), u = (x - lo)/dx - q. B'g accumulates interval
//                            moments M[q][s] = sum_i g_i u_i^s, then c_{q+r} += sum_s poly(q,r,s) M[q][s].
//   Sorted    ("compact_sorted"): compact_x's moments from the rows of each chunk of kSortChunkRows rows
//                            ordered by interval once at upload (row index as ushort + u: 2 + REAL bytes a row),
//                            so a GPU work-item sums runs of one interval in registers instead of issuing local
//                            atomics per row. B delta and the update read x as compact_x does. CPU devices run
//                            compact_x's kernel for it.
// Every learner of a fit shares knots and degree, so k, degree and the interval count are compile-time defines
// (KernelParameters.hpp). Sources: kernels/compact_btg.cl (B'g), kernels/compact_update.cl (B delta, update).
//
// Each B'g is two launches: per-(learner, chunk of rows) partials, then one work-group per learner reducing them.
// Launchers append their events to `events` when given (see eventsSeconds in ClRuntime.hpp); the caller releases.
#include <cstdint>
#include <string>
#include <vector>

#include "opencl/ClRuntime.hpp"
#include "opencl/KernelArgs.hpp"
#include "opencl/KernelParameters.hpp"
#include "spline/SplineBasis.hpp"

namespace gb::ocl {

enum class CompactKernel { Compact, CompactX, Sorted };

std::string toString(CompactKernel k);  // "compact" | "compact_x" | "compact_sorted"
bool compactKernelFromName(const std::string& name, CompactKernel* out);
std::vector<std::string> compactKernelNames();  // {"compact_x", "compact", "compact_sorted"}

// What a float copy of a covariate holds less than x: its range's lower end where the range does not reach 0, else 0.
// Every kernel locates a row from (x - lo) / spacing, so x - c on the device with lo - c in its geometry locates the
// same rows, with float's resolution of the range (hi - lo) instead of that of |x|: days since 1970 (near 19000)
// or seconds since 1970 (1.7e9, float's step 128 s) over a day are exact enough. A range across 0 is not shifted
// (x - lo would be larger than |x|). Double is never shifted.
double floatCovariateShift(const SplineBasis& basis);

// Device copy of each learner's covariate (always) and stored compact basis (when asked), uploaded learner by
// learner so host memory stays O(rows). One learner is the per-learner case: pass a one-element vector. In float
// each covariate is held less floatCovariateShift().
class CompactData {
 public:
  // All bases must share degree and knots (else ComputeError). x[j] points at `rows` values of learner j.
  // storeSorted adds the interval-sorted layout of CompactKernel::Sorted, in chunks of sortChunkRows rows (at most
  // 65536: the row within a chunk is a ushort; the fold path sorts smaller chunks).
  CompactData(Context& ctx, const std::vector<const SplineBasis*>& bases, const std::vector<const double*>& x,
              std::size_t rows, bool doublePrecision, bool storeBasis, bool storeSorted = false,
              std::size_t sortChunkRows = kSortChunkRows);
  ~CompactData();
  CompactData(const CompactData&) = delete;
  CompactData& operator=(const CompactData&) = delete;

  // Device bytes such an upload takes (check against the device before constructing).
  static std::size_t deviceBytes(std::size_t rows, int learners, const SplineSpec& spec, bool doublePrecision,
                                 bool storeBasis, bool storeSorted = false, std::size_t sortChunkRows = kSortChunkRows);

  std::size_t rows() const { return rows_; }
  int learners() const { return learners_; }
  int k() const { return k_; }
  int degree() const { return degree_; }
  int intervals() const { return intervals_; }
  bool doublePrecision() const { return double_; }
  bool hasBasis() const { return firstColumn_.get() != nullptr; }
  bool hasSorted() const { return order_.get() != nullptr; }
  std::size_t sortChunkRows() const { return sortChunk_; }
  // Which intervals of every learner share the polynomial pieces of interval `degree` (equidistant knots, up to
  // the knots' own rounding): All (extended knots), Interior (degree <= q < intervals - degree: clamped knots) or
  // None. compact_x_partial_columns applies to All and Interior.
  enum class Uniform { All, Interior, None };
  Uniform uniformPieces() const { return uniform_; }
  std::size_t realBytes() const { return double_ ? 8 : 4; }
  Context& context() const { return *ctx_; }

  const Buffer& x() const { return x_; }                      // learners x rows REAL
  const Buffer& firstColumn() const { return firstColumn_; }  // learners x rows int (hasBasis())
  const Buffer& weights() const { return weights_; }          // learners x rows x (degree+1) REAL (hasBasis())
  const Buffer& polynomials() const { return poly_; }         // learners x intervals x (degree+1)^2 REAL
  const Buffer& geometry() const { return geometry_; }        // learners x 2 REAL: lo, 1/dx
  // Sorted layout (hasSorted()): per learner, chunk by chunk, rows ordered by interval.
  const Buffer& order() const { return order_; }      // learners x rows ushort: row within its chunk
  const Buffer& sortedU() const { return sortedU_; }  // learners x rows REAL: u of that row
  const Buffer& starts() const { return starts_; }    // learners x chunks x (intervals+1) int

 private:
  void uploadSorted(Context& ctx, const std::vector<const SplineBasis*>& bases, const std::vector<const double*>& x);

  Context* ctx_;
  std::size_t rows_, sortChunk_;
  int learners_, k_, degree_, intervals_;
  bool double_;
  Uniform uniform_ = Uniform::All;
  Buffer x_, firstColumn_, weights_, poly_, geometry_, order_, sortedU_, starts_;
};

// Kernels over one CompactData (which must outlive the plan). Buffers hold REAL (the data's precision).
class CompactPlan {
 public:
  // Builds the kernels (program cache). CompactKernel::Compact needs data.hasBasis() (else ComputeError).
  CompactPlan(Context& ctx, const CompactData& data, CompactKernel kernel);
  // Same with explicit parameters (tests run the GPU variant on a CPU device this way).
  CompactPlan(Context& ctx, const CompactData& data, CompactKernel kernel, const KernelParameters& parameters);
  ~CompactPlan();
  CompactPlan(const CompactPlan&) = delete;
  CompactPlan& operator=(const CompactPlan&) = delete;

  CompactKernel kernel() const;
  // Work-items of compact_x_partial_columns, the lane-private B'g kernel; 0 where another B'g kernel runs.
  int lanes() const;
  // The build options of the plan's kernels (buildOptions plus the columns kernel's shape, and the portable atomics
  // where the driver rejected the PTX ones): other kernels of an iteration use them too, so each .cl file is built
  // once per fit.
  const std::string& options() const;

  // Batched: out[j*k + c] = (B_j'g)_c for every learner j (out: learners x k).
  void transposed(const Buffer& g, const Buffer& out, std::vector<cl_event>* events = nullptr);
  // Per learner: out[c] = (B_learner'g)_c (out: k entries).
  void transposedOne(int learner, const Buffer& g, const Buffer& out, std::vector<cl_event>* events = nullptr);

  // Per learner: out[i] = (B_learner delta)_i, delta and out indexed from 0 (delta: k, out: rows).
  void forwardOne(int learner, const Buffer& delta, const Buffer& out, std::vector<cl_event>* events = nullptr);

  // The boosting update, j = learnerIndex[0] read on the device (the host never learns it):
  //   mu += scale * B_j delta_j  (delta: learners x k, row j used),  g = y - mu,
  //   partials[b] = sum of g_i^2 over work-group b's rows (updatePartials() entries).
  void update(const Buffer& learnerIndex, const Buffer& delta, double scale, const Buffer& y, const Buffer& mu,
              const Buffer& g, const Buffer& partials, std::vector<cl_event>* events = nullptr);
  // The same step on the residual alone (compact_x and compact_sorted; throws for compact): g -= scale * B_j delta_j
  // and partials as above; mu is not touched (fittedFromResidual forms it).
  void residualUpdate(const Buffer& learnerIndex, const Buffer& delta, double scale, const Buffer& g,
                      const Buffer& partials, std::vector<cl_event>* events = nullptr);
  // mu = y - g.
  void fittedFromResidual(const Buffer& y, const Buffer& g, const Buffer& mu);
  std::size_t updatePartials() const;
  // compact_x_update's arguments on these buffers (compact_x and compact_sorted), for launches that fuse the update
  // with other work (opencl/CrossFill.hpp); keepMu false: g alone.
  CompactXUpdateArgs xUpdateArgs(const Buffer& learnerIndex, const Buffer& delta, double scale, const Buffer& y,
                                 const Buffer& mu, const Buffer& g, const Buffer& partials, bool keepMu) const;

  // Writes the dense B (rows x learners*k, row-major: learner j owns columns [j*k, (j+1)*k)) into `dense`,
  // computed on the device from the compact data (for the dense kernels of DenseGemv.hpp).
  void expandDense(const Buffer& dense, std::vector<cl_event>* events = nullptr);

  // Bytes of device scratch (partials, and the packed copy) the plan allocated.
  std::size_t scratchBytes() const;
  // Whether the batched B'g runs from the packed sorted copy of x (opencl/PackedBtg.hpp).
  bool packed() const;
  // Tests: the packed copy's words of (learner, 2048-row chunk) in layout order (kernels/compact_packed.cl); empty
  // without a packed copy.
  std::vector<std::uint32_t> packedWords(int learner, int chunk) const;
  // The packed B'g's launch shape ("warps 4, learners 20 a group, ..."), "" without a packed copy.
  std::string packedShape() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gb::ocl

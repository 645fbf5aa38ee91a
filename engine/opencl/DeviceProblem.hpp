#pragma once
// The fit as it lives on the device, made once by the OpenCL backend's prepare(): y, mu, g, c, the learners' solve
// and RSS matrices P and Q, delta, the reductions r_j, the selected index, the update's partial sums of g'g, g'g
// itself and the iteration records; with the compact data and plan (and the dense B and its plan for the dense
// kernels). Every float/double conversion of the backend happens here, once. The iteration schemes
// (opencl/IterationScheme.hpp) drive it; the steps every scheme shares are its methods.
#include <memory>
#include <string>
#include <vector>

#include "compute/Backend.hpp"
#include "opencl/ClRuntime.hpp"
#include "opencl/CompactKernels.hpp"
#include "opencl/DenseGemv.hpp"
#include "opencl/KernelArgs.hpp"
#include "opencl/KernelParameters.hpp"

namespace gb::ocl {

struct DeviceProblemOptions {
  std::string kernelName;  // compact_x, compact, compact_sorted or a dense kernel
  bool isDouble = false;
  bool forceGpuKernels = false;  // tests: the GPU kernel variants on any device
};

class DeviceProblem {
 public:
  // Uploads everything; throws InputError when a dense B cannot fit the device (before allocating it).
  DeviceProblem(Context& ctx, const BoostProblem& problem, const DeviceProblemOptions& options);

  Context& ctx;
  bool isDouble;
  bool isDense;
  CompactKernel compactKind = CompactKernel::CompactX;  // the dense kernels still use its B delta and update
  std::size_t n = 0;
  int L = 0, k = 0;
  SplineSpec spec;  // of every learner's basis
  double nu = 0.1;
  KernelParameters params;
  std::unique_ptr<CompactData> data;
  std::unique_ptr<CompactPlan> plan;
  Buffer y, mu, g, c, P, Q, delta, reduction, index, partials, residualSquares, records;
  std::size_t partialCount = 0;
  std::size_t history = 0;  // records the history buffer holds
  // Set by a scheme whose update keeps only g (CompactPlan::residualUpdate): mu is then y - g, formed by fitted().
  bool residualOnly = false;

  std::size_t realBytes() const { return isDouble ? 8 : 4; }
  RealArg real(double v) const { return {v, isDouble}; }
  Buffer upload(const std::vector<double>& v);
  std::vector<double> download(const Buffer& b, std::size_t count);
  const std::string& options() const { return plan->options(); }
  // Grows the record buffer to at least `count` records (kernels take it at their next launch).
  void ensureHistory(std::size_t count);

  // (1) + (2): c = B'g for every learner, then delta_j and r_j (learner_solve).
  void score();
  // (3) + (5): finishes the risk of record `previous` (if >= 0), selects and records `record` (if >= 0).
  void selectAndRecord(int previous, int record);
  // The same with the risk finished from other partial sums (e.g. the family's weighted loss).
  void selectAndRecord(const RecordArgs& args);
  // The parameters every select kernel takes: finish record `previous`'s risk, write record `record`.
  RecordArgs recordArgs(int previous, int record);
  // (4): mu += nu B_j* delta_j*, g = y - mu, partial sums of g'g.
  void update();
  // The fitted values mu (from y - g where residualOnly).
  std::vector<double> fitted();
  // The records of one batch, checked.
  std::vector<IterationResult> readRecords(int count);

 private:
  DenseKernel denseKind_ = DenseKernel::Naive;
  std::unique_ptr<DenseGemvPlan> densePlan_;
  Buffer denseB_, f_;
  Kernel solve_, select_, vectorUpdate_;
};

}  // namespace gb::ocl

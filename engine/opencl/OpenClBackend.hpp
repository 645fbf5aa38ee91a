#pragma once
// The OpenCL backend (design.md section 3): the whole boosting iteration runs on the device. prepare() uploads
// y, mu, g, the covariates (or compact basis), the polynomial tables and each learner's P_j and Q_j once;
// iterate(count) enqueues per iteration only device work,
//   (1) c = B'g for every learner (compact_x by default, compact, or a dense kernel of DenseGemv.hpp),
//   (2) delta_j = P_j c_j and r_j = c_j'Q_j c_j, a work-group per learner,
//   (3) j* = argmax r (ties: lowest index), (5) the record (j*, risk, nu delta_j*) into a device history,
//   (4) mu += nu B_j* delta_j*, g = y - mu and the partial sums of g'g,
// and reads the batch of records back with one blocking read at the end.
//
// On CPU devices (PoCL) with compact_x (or compact_sorted, which runs compact_x there) the backend keeps, as
// CpuBackend does, a cache of cross-products B_j'B_l for the learners selected so far and updates c incrementally,
// c_j -= (B_j'B_l) nu delta_l, with an exact B'g every refreshInterval iterations; solve, select and the cache
// correction are one launch, the update and the cache fill another (two commands per iteration instead of five).
// GPU devices use the same cache (compact_x, compact, compact_sorted; k x k block within 40 KiB of local memory):
// correction + solve, select + slot claim, the update, and a fill by many work-groups per learner (4 launches);
// the exact B'g only every refreshInterval iterations. GAMBOOST_OPENCL_REFRESH overrides the refresh interval.
#include <memory>
#include <string>

#include "compute/Backend.hpp"
#include "compute/ComputeDevices.hpp"
#include "learner/Learner.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

class OpenClBackend final : public Backend {
 public:
  // Chooses the device (ComputeSettings::device, else GAMBOOST_DEVICE, else the default) and checks the kernel
  // name and precision: InputError for an unknown --device or --kernel, or double on a device without fp64.
  explicit OpenClBackend(const ComputeSettings& compute);
  ~OpenClBackend() override;
  BackendInfo info() const override;
  // Throws InputError when the data would overflow float or a dense B does not fit the device (before
  // allocating it), ComputeError for device failures.
  void prepare(const BoostProblem& problem) override;
  void iterate(int count, std::vector<IterationResult>& out) override;
  std::vector<double> fitted() override;
  CandidateScores candidates() override;
  // Spline-only models run their folds as one batch (opencl/FoldPath.hpp); others get nullptr (one by one).
  std::size_t foldBatchSize() const override;
  std::unique_ptr<FoldBatch> prepareFolds(const std::vector<BoostProblem>& folds) override;

  // The policy (Backend::setRefreshInterval, setCrossCacheBytes): CPU devices use the cache with compact_x /
  // compact_sorted, GPU devices with any compact kernel; each cached learner takes learners x k x k REALs, a full
  // cache evicts round-robin; fewer than min(learners, 8) slots, or refresh 0: no cache.
  // True when prepare() turned the cross-product cache on (tests check that the mode they meant ran).
  bool usesCrossCache() const;
  // The fused-tracked scheme's exact B'g passes forced by a bound, and whether it switched to keeping every learner's
  // c current (0 and false for the other schemes).
  long forcedExactPasses() const;
  bool coversEveryLearner() const;
  // Call before prepare(). Runs the GPU kernel variants (work-groups with local atomics, the portable
  // compare-and-swap ones) on any device, so CPU-only machines test the GPU scheme, its cache included.
  void setForceGpuKernels(bool force);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

namespace ocl {

// Kernel names --kernel accepts on the OpenCL backend: compact_x (default), compact, compact_sorted, then the
// dense ones.
std::vector<std::string> openClKernelNames();
// Throws InputError("--kernel: unknown kernel 'x' (compact_x, compact, naive, ...)") for other names; "" -> compact_x.
std::string resolveKernelName(const std::string& name);
// True for double. "" -> float (the OpenCL default). Throws InputError for "double" on a device without
// cl_khr_fp64 and for anything but "", "float", "double".
bool resolveDoublePrecision(const std::string& precision, const ComputeDeviceInfo& device);
// Throws InputError("--precision float: ...") when y would overflow float arithmetic (max |y| > 1e18, or
// n * max(y^2) > FLT_MAX / 4), naming the number and suggesting --precision double.
void checkFloatRange(const std::vector<double>& y);
// The same for the spline covariates' ranges and the weights (null: none), which float holds on the device.
void checkFloatRange(const std::vector<Learner>& learners, const std::vector<double>* weights);
// Throws InputError("--kernel NAME: dense B needs X GB, device has ... (max allocation ...)") when `bytes` exceed
// the device's maximum allocation or global memory (less what else is already needed, `otherBytes`).
void checkDenseFits(const std::string& kernel, std::uint64_t bytes, std::uint64_t otherBytes,
                    const ComputeDeviceInfo& device);

}  // namespace ocl
}  // namespace gb

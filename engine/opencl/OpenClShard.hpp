#pragma once
// A RowShard (compute/RowShard.hpp) on one OpenCL device or sub-device: its rows' y, x, weights and f live on the
// device, in a DeviceProblem (the compact data of the spline learners) with the family kernels (kernels/family.cl)
// and the linear and factor learners' sums and updates (kernels/ols.cl). Per iteration it computes w u at f
// (family_gradient), the compact B'(w u) of every spline learner and the sums of the linear and factor learners,
// and downloads them (sum_j k_j REALs); the step comes back from the host as delta_j*, written into the device's
// delta row and applied by the compact update (or linear_update / level_update). At least one spline learner.
// B_j'B_l for the host's cache: on GPU parameters, one pass of the GPU cached scheme's fill (opencl/CrossFill.hpp).
// CPU devices (PoCL) have none: k passes of B'g (tried: 24 x 36 ms a selected learner at n = 1e5, p = 100) or the
// GPU fill run there cost more than the exact B'g each iteration, so they go without the cache.
#include <memory>
#include <string>
#include <vector>

#include "compute/RowShard.hpp"
#include "compute/ShardedBackend.hpp"
#include "opencl/ClRuntime.hpp"
#include "opencl/DeviceProblem.hpp"
#include "opencl/FamilyKernels.hpp"
#include "opencl/OlsKernels.hpp"
#include "settings/ComputeSettings.hpp"

namespace gb::ocl {

class OpenClShard final : public RowShard {
 public:
  // kernelName as resolveKernelName gives it; isDouble as resolveDoublePrecision gives it for this device.
  // forceGpuKernels (tests): the GPU kernel variants on any device, the one-pass cross-product fill included.
  OpenClShard(const Device& device, const std::string& kernelName, bool isDouble, bool forceGpuKernels = false);
  ~OpenClShard() override;
  BackendInfo info() const override;
  void prepare(const BoostProblem& slice) override;
  // Rows whose x (every spline learner's column, in the shard's precision) fits the device's largest single
  // allocation, with 1/16 to spare.
  std::size_t maxRows(const BoostProblem& problem) const override;
  std::unique_ptr<RowShard> sibling() const override;
  std::vector<double> coefficients() override;
  void addStep(int learner, const std::vector<double>& delta) override;
  double lossSum() override;
  // Unweighted Gaussian spline steps: every step's writes, update and read of its loss partials queued, then one
  // wait; anything else as the default does.
  std::vector<double> stepsAndLosses(const std::vector<Step>& steps) override;
  std::vector<double> crossProducts(int learner) override;  // only where crossProductsInOnePass()
  bool crossProductsInOnePass() const override;
  std::vector<double> fitted() override;
  double transferSeconds() const override;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// The backend of `fit --devices A,B,...`: one OpenClShard per device that compute.devices names (addresses "P:D",
// "P:D/N" for N sub-devices, or name substrings; opencl/DeviceAddress.hpp), with compute's kernel and precision.
// Throws InputError naming --devices for an unknown address, a device that cannot be partitioned, a device twice
// in different forms, --backend cpu, or double on a device without fp64.
std::unique_ptr<ShardedBackend> makeShardedOpenClBackend(const ComputeSettings& compute);

}  // namespace gb::ocl

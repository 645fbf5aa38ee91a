#pragma once
// The processes of `mpirun -np N gamboost fit --distributed` (issue 15): one MPI rank per process, each reading its own
// part of the CSV (data/CsvPart.hpp) and driving the sharded backend (compute/ShardedBackend.hpp) on those rows;
// MpiReducer (a common/ShardReducer.hpp) combines their partial sums and counts over MPI_COMM_WORLD. Built only where
// CMake found MPI (GB_WITH_MPI, GB_HAVE_MPI); elsewhere MpiSession throws InputError "--distributed: this build has no
// MPI ...".
#include <cstddef>
#include <memory>
#include <vector>

#include "compute/Backend.hpp"
#include "compute/RowShard.hpp"
#include "settings/ComputeSettings.hpp"

namespace gb {

// MPI_Init on construction, MPI_Finalize on destruction (one per process). abort() ends every rank at once
// (MPI_Abort on MPI_COMM_WORLD) with `status`.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  [[noreturn]] void abort(int status);
  // Whether this build has MPI.
  static bool available();

 private:
  int rank_ = 0, size_ = 1;
};

// A ShardReducer over MPI_COMM_WORLD (needs a live MpiSession). sum(): MPI_Allgather of every rank's vector (the same
// length on every rank, checked), then the sum in rank order, so every rank gets the same bits whatever the timing.
// allGather(), allGatherText() and gather(): MPI_Allgather of the lengths, then MPI_Allgatherv of the values.
class MpiReducer final : public ShardReducer {
 public:
  MpiReducer();
  void sum(std::vector<double>& values) override;
  std::string name() const override;
  int processes() const override { return size_; }
  int process() const override { return rank_; }
  std::vector<std::vector<double>> allGather(const std::vector<double>& local) override;
  std::vector<std::string> allGatherText(const std::string& local) override;
  std::vector<double> gather(const std::vector<double>& local) override;

 private:
  int rank_ = 0, size_ = 1;
};

// The backend of `fit --distributed`: the sharded OpenCL backend on this rank's row range, over compute.devices, else
// compute.device, else the default OpenCL device, with an MpiReducer. Throws InputError naming --distributed for a
// CPU backend or a build without OpenCL or MPI.
std::unique_ptr<Backend> makeDistributedBackend(ComputeSettings compute);

}  // namespace gb

#include "compute/MpiReducer.hpp"

#include <cstdlib>
#include <string>

#include "common/Error.hpp"
#include "compute/ShardedBackend.hpp"
#ifdef GB_HAVE_MPI
#include <mpi.h>
#endif
#ifdef GB_HAVE_OPENCL
#include "opencl/ClRuntime.hpp"
#include "opencl/OpenClShard.hpp"
#endif

namespace gb {

namespace {

[[noreturn]] void noMpi() {
  throw InputError(optionMessage("--distributed", "this build has no MPI (built without Open MPI, GB_WITH_MPI)"));
}

#ifdef GB_HAVE_MPI
void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw ComputeError(std::string("MPI: ") + what + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}
#endif

}  // namespace

bool MpiSession::available() {
#ifdef GB_HAVE_MPI
  return true;
#else
  return false;
#endif
}

#ifdef GB_HAVE_MPI

MpiSession::MpiSession() {
  check(MPI_Init(nullptr, nullptr), "MPI_Init");
  // Errors come back as codes (thrown as ComputeError, then MPI_Abort), not as MPI's own abort.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void MpiSession::abort(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);  // MPI_Abort does not return; in case it does
}

MpiReducer::MpiReducer() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

void MpiReducer::sum(std::vector<double>& values) {
  const int length = static_cast<int>(values.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  for (int l : lengths)
    if (l != length) throw ComputeError("MPI: the ranks' partial sums differ in length");
  std::vector<double> all(values.size() * static_cast<std::size_t>(size_));
  check(MPI_Allgather(values.data(), length, MPI_DOUBLE, all.data(), length, MPI_DOUBLE, MPI_COMM_WORLD),
        "MPI_Allgather");
  // Rank order, on every rank: the same bits everywhere, whatever the timing.
  for (std::size_t i = 0; i < values.size(); ++i) {
    double total = all[i];
    for (std::size_t r = 1; r < static_cast<std::size_t>(size_); ++r) total += all[r * values.size() + i];
    values[i] = total;
  }
}

std::string MpiReducer::name() const { return "MPI, " + std::to_string(size_) + (size_ == 1 ? " rank" : " ranks"); }

std::pair<std::size_t, std::size_t> MpiReducer::rows(std::size_t n) const {
  return ShardedBackend::shardRows(n, static_cast<std::size_t>(size_), static_cast<std::size_t>(rank_));
}

std::vector<double> MpiReducer::gather(const std::vector<double>& local, std::size_t n) {
  std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) {
    const auto [begin, end] =
        ShardedBackend::shardRows(n, static_cast<std::size_t>(size_), static_cast<std::size_t>(r));
    counts[static_cast<std::size_t>(r)] = static_cast<int>(end - begin);
    offsets[static_cast<std::size_t>(r)] = static_cast<int>(begin);
  }
  if (static_cast<int>(local.size()) != counts[static_cast<std::size_t>(rank_)])
    throw ComputeError("MPI: this rank holds the wrong number of fitted values");
  std::vector<double> all(n);
  check(MPI_Allgatherv(local.data(), static_cast<int>(local.size()), MPI_DOUBLE, all.data(), counts.data(),
                       offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  return all;
}

#else

MpiSession::MpiSession() { noMpi(); }
MpiSession::~MpiSession() = default;
void MpiSession::abort(int status) { std::_Exit(status); }
MpiReducer::MpiReducer() { noMpi(); }
void MpiReducer::sum(std::vector<double>&) { noMpi(); }
std::string MpiReducer::name() const { return "MPI"; }
std::pair<std::size_t, std::size_t> MpiReducer::rows(std::size_t n) const { return {0, n}; }
std::vector<double> MpiReducer::gather(const std::vector<double>& local, std::size_t) { return local; }

#endif

std::unique_ptr<Backend> makeDistributedBackend(ComputeSettings compute) {
  if (!MpiSession::available()) noMpi();
  if (compute.backend == BackendKind::Cpu)
    throw InputError(optionMessage("--distributed", "runs on OpenCL devices; leave out --backend cpu"));
#ifdef GB_HAVE_OPENCL
  if (compute.devices.empty()) {
    compute.devices = {ocl::chooseDevice(compute.device).info.address};
    compute.device.clear();
  }
  std::unique_ptr<ShardedBackend> backend = ocl::makeShardedOpenClBackend(compute);
  backend->setReducer(std::make_unique<MpiReducer>());
  return backend;
#else
  throw InputError(optionMessage("--distributed", "this build has no OpenCL support (GB_WITH_OPENCL=OFF)"));
#endif
}

}  // namespace gb

#include "compute/MpiReducer.hpp"

#include <cstdlib>
#include <limits>
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

namespace {

// Every rank's `count` (one int each), in rank order.
std::vector<int> allCounts(std::size_t count, int size) {
  if (count > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw ComputeError("MPI: a rank's part holds more than 2^31 values");
  const int local = static_cast<int>(count);
  std::vector<int> counts(static_cast<std::size_t>(size));
  check(MPI_Allgather(&local, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  return counts;
}

// Offsets of the parts laid end to end; throws where the total does not fit an int (MPI's counts).
std::vector<int> offsetsOf(const std::vector<int>& counts) {
  std::vector<int> offsets(counts.size());
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  if (total > std::numeric_limits<int>::max()) throw ComputeError("MPI: the ranks' parts hold more than 2^31 values");
  return offsets;
}

std::size_t totalOf(const std::vector<int>& counts, const std::vector<int>& offsets) {
  return static_cast<std::size_t>(offsets.back()) + static_cast<std::size_t>(counts.back());
}

}  // namespace

// Every rank's `local` (lengths may differ) in rank order; `counts` and `offsets` receive each rank's share.
static std::vector<double> allGatherv(const std::vector<double>& local, int rank, int size, std::vector<int>& counts,
                                      std::vector<int>& offsets) {
  counts = allCounts(local.size(), size);
  offsets = offsetsOf(counts);
  std::vector<double> all(totalOf(counts, offsets));
  check(MPI_Allgatherv(local.data(), counts[static_cast<std::size_t>(rank)], MPI_DOUBLE, all.data(), counts.data(),
                       offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  return all;
}

std::vector<double> MpiReducer::gather(const std::vector<double>& local) {
  std::vector<int> counts, offsets;
  return allGatherv(local, rank_, size_, counts, offsets);
}

std::vector<std::vector<double>> MpiReducer::allGather(const std::vector<double>& local) {
  std::vector<int> counts, offsets;
  const std::vector<double> all = allGatherv(local, rank_, size_, counts, offsets);
  std::vector<std::vector<double>> parts(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r)
    parts[r].assign(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  return parts;
}

std::vector<std::string> MpiReducer::allGatherText(const std::string& local) {
  const std::vector<int> counts = allCounts(local.size(), size_);
  const std::vector<int> offsets = offsetsOf(counts);
  std::string all(totalOf(counts, offsets), '\0');
  check(MPI_Allgatherv(local.data(), counts[static_cast<std::size_t>(rank_)], MPI_CHAR, all.data(), counts.data(),
                       offsets.data(), MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  std::vector<std::string> parts(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r)
    parts[r] = all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(counts[r]));
  return parts;
}

#else

MpiSession::MpiSession() { noMpi(); }
MpiSession::~MpiSession() = default;
void MpiSession::abort(int status) { std::_Exit(status); }
MpiReducer::MpiReducer() { noMpi(); }
void MpiReducer::sum(std::vector<double>&) { noMpi(); }
std::string MpiReducer::name() const { return "MPI"; }
std::vector<std::vector<double>> MpiReducer::allGather(const std::vector<double>& local) { return {local}; }
std::vector<std::string> MpiReducer::allGatherText(const std::string& local) { return {local}; }
std::vector<double> MpiReducer::gather(const std::vector<double>& local) { return local; }

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

// Eigen rows of the kernel benchmark: the same products on the host CPU (the paper's numpy.dot counterpart),
// timed with steady_clock and checked like the device kernels.
#include <unistd.h>

#include <Eigen/Dense>
#include <random>

#include "bench/KernelBenchRunner.hpp"

namespace gb::kbench {
namespace {

double hostMemoryBytes() {
  return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}

}  // namespace

// Eigen on the CPU (the paper's numpy.dot counterpart), same precision as the device run.
template <typename Real>
void Runner::eigenSection(const CaseData& d) {
  if (!wanted("eigen")) return;
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
  const Vector g = Eigen::Map<const Eigen::VectorXd>(d.g.data(), d.rows).cast<Real>();
  const Vector delta = Eigen::Map<const Eigen::VectorXd>(d.delta.data(), d.delta.size()).cast<Real>();
  const double hostCap = std::min(4e9, hostMemoryBytes() / 4);
  auto toDouble = [](const Vector& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
  for (bool batched : {false, true}) {
    const int learners = batched ? d.learners : 1;
    const std::size_t cols = static_cast<std::size_t>(learners) * d.k;
    const std::string granularity = batched ? "batched" : "per-learner";
    const double matrixBytes = static_cast<double>(d.rows) * cols * s_;
    KernelTiming btg = row("eigen", "Btg", granularity, d, learners, s_ * (d.rows * cols + d.rows + cols));
    KernelTiming fwd = row("eigen", "Bdelta", granularity, d, learners, s_ * (d.rows * d.k + d.k + d.rows));
    if (matrixBytes > hostCap) {
      const std::string why = "host matrix of " + gigabytes(matrixBytes) + " > cap " + gigabytes(hostCap);
      skip(btg, why);
      skip(fwd, why);
      continue;
    }
    Matrix B(d.rows, cols);
    kbench::fillDenseRows<Real>(d, 0, learners, 0, d.rows, B.data());
    const int j = batched ? d.selected : 0;
    const Reference& fref = batched ? d.forwardSelected : d.forwardFirst;
    Vector c(cols), f(d.rows);
    Reference btgRef{std::vector<double>(d.btg.value.begin(), d.btg.value.begin() + cols),
                     std::vector<double>(d.btg.scale.begin(), d.btg.scale.begin() + cols)};
    timeHost(
        btg, [&] { c.noalias() = B.transpose() * g; }, [&] { return kbench::maxScaledError(toDouble(c), btgRef); });
    const Eigen::Index first = static_cast<Eigen::Index>(j) * d.k;
    timeHost(
        fwd, [&] { f.noalias() = B.middleCols(first, d.k) * delta.segment(first, d.k); },
        [&] { return kbench::maxScaledError(toDouble(f), fref); });
  }
  eigenSolveRows<Real>(d);
}

// The k x k products delta_j = P_j c_j of Algorithm 2 (P_j random here, c_j = B_j'g): tiny next to B'g, timed
// to show it. Bytes: s (k k + 2 k) per learner.
template <typename Real>
void Runner::eigenSolveRows(const CaseData& d) {
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
  const Eigen::Index k = d.k, p = d.learners;
  std::mt19937_64 rng(o_.seed + 17);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  Matrix P(p * k, k);
  for (Eigen::Index i = 0; i < P.size(); ++i) P.data()[i] = static_cast<Real>(dist(rng));
  const Vector c = Eigen::Map<const Eigen::VectorXd>(d.btg.value.data(), p * k).cast<Real>();
  Reference ref{std::vector<double>(p * k, 0.0), std::vector<double>(p * k, 0.0)};
  for (Eigen::Index r = 0; r < p * k; ++r)
    for (Eigen::Index q = 0; q < k; ++q) {
      const double term = static_cast<double>(P(r, q)) * static_cast<double>(c((r / k) * k + q));
      ref.value[r] += term;
      ref.scale[r] += std::abs(term);
    }
  Vector out(p * k);
  for (bool batched : {false, true}) {
    const Eigen::Index learners = batched ? p : 1;
    KernelTiming t = row("eigen", "solve", batched ? "batched" : "per-learner", d, static_cast<int>(learners),
                         s_ * static_cast<double>(learners) * static_cast<double>(k * k + 2 * k));
    Reference part{std::vector<double>(ref.value.begin(), ref.value.begin() + learners * k),
                   std::vector<double>(ref.scale.begin(), ref.scale.begin() + learners * k)};
    timeHost(
        std::move(t),
        [&] {
          for (Eigen::Index l = 0; l < learners; ++l)
            out.segment(l * k, k).noalias() = P.middleRows(l * k, k) * c.segment(l * k, k);
        },
        [&] { return maxScaledError(std::vector<double>(out.data(), out.data() + learners * k), part); });
  }
}

template void Runner::eigenSection<float>(const CaseData& d);
template void Runner::eigenSection<double>(const CaseData& d);
template void Runner::eigenSolveRows<float>(const CaseData& d);
template void Runner::eigenSolveRows<double>(const CaseData& d);

}  // namespace gb::kbench

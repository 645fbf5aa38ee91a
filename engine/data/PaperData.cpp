#include "data/PaperData.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <numbers>

#include "common/Error.hpp"
#include "common/ParallelErrors.hpp"

namespace gb {

// Named rather than anonymous: PaperDataStream::State holds the generators (an anonymous type there draws
// -Wsubobject-linkage).
namespace paperrng {

// Own generators, so that a seed gives the same numbers with any compiler and standard library
// (std:: distributions are implementation-defined).
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

class Xoshiro256StarStar {
 public:
  // One independent stream per (seed, stream): columns are generated in any order, on any thread.
  Xoshiro256StarStar(std::uint64_t seed, std::uint64_t stream) {
    SplitMix64 mix{SplitMix64{seed}.next() ^ (stream * 0xD1B54A32D192ED03ULL)};
    for (auto& word : s_) word = mix.next();
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform on [0, 1): the top 53 bits, exactly representable.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, bound), unbiased (Lemire's multiply-and-reject).
  std::uint64_t below(std::uint64_t bound) {
    unsigned __int128 product = static_cast<unsigned __int128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        product = static_cast<unsigned __int128>(next()) * bound;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

  // Standard normal by Marsaglia's polar method (needs only log and sqrt); the second value of a pair is kept.
  double normal() {
    if (hasSpare_) {
      hasSpare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * factor;
    hasSpare_ = true;
    return u * factor;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
  double spare_ = 0.0;
  bool hasSpare_ = false;
};

}  // namespace paperrng

using paperrng::SplitMix64;
using paperrng::Xoshiro256StarStar;

namespace {

// 1/1!, -1/3!, 1/5!, ... -1/23!: the Taylor series of sin. Computed at compile time (IEEE division, exact
// same constants everywhere).
constexpr std::array<double, 12> sinTaylorCoefficients() {
  std::array<double, 12> c{};
  double factorial = 1.0;
  for (int k = 0; k < 12; ++k) {
    if (k > 0) factorial *= (2.0 * k) * (2.0 * k + 1.0);
    c[static_cast<std::size_t>(k)] = (k % 2 == 0 ? 1.0 : -1.0) / factorial;
  }
  return c;
}

// sin(2 pi x) for x in [0, 1) from + and * only: libm's sin is not specified to the last bit (so y would
// differ between platforms), calling it costs a third of the generation time, and this loop vectorises.
// Both reductions are exact (x is a multiple of 2^-53 below 1); the series to z^23 leaves out less than
// 5e-21 for |z| <= pi/2, so the result is within a few ulp of the true value. Assumes no FMA contraction
// (GCC's default in ISO C++ mode).
inline double sinTwoPi(double x) {
  constexpr auto c = sinTaylorCoefficients();
  const double u = x - 0.5;                                             // sin(2 pi x) = -sin(2 pi u), |u| <= 1/2
  const double v = std::abs(u) > 0.25 ? std::copysign(0.5, u) - u : u;  // same sine, |v| <= 1/4
  const double z = 2.0 * std::numbers::pi * v;
  const double z2 = z * z;
  double p = c[11];
  for (int k = 10; k >= 0; --k) p = p * z2 + c[static_cast<std::size_t>(k)];
  return -(z * p);
}

// Stream numbers: 0 is the noise of y, j the covariate x_j; the choice of informative covariates has its own.
constexpr std::uint64_t kSelectionStream = ~std::uint64_t{0};

void validate(const PaperDataSpec& spec) {
  if (spec.rows < 1) throw InputError(optionMessage("--rows", "must be at least 1, got 0"));
  // A million columns already make a 20 MB header line and a row of 21 MB; beyond that is a typo.
  if (spec.covariates < 1 || spec.covariates > 1000000)
    throw InputError(
        optionMessage("--covariates", "must be between 1 and 1000000, got " + std::to_string(spec.covariates)));
  if (spec.informative < 0 || spec.informative > spec.covariates)
    throw InputError(optionMessage("--informative", "must be between 0 and --covariates (" +
                                                        std::to_string(spec.covariates) + "), got " +
                                                        std::to_string(spec.informative)));
  if (!(spec.noiseVariance >= 0.0) || !std::isfinite(spec.noiseVariance))
    throw InputError(optionMessage("--noise-var", "must be a finite number >= 0"));
  if (!std::isfinite(spec.intercept)) throw InputError(optionMessage("--intercept", "must be a finite number"));
}

// "x" + to_string written this way: GCC 12 warns falsely (-Wrestrict) about operator+(const char*, string&&).
std::string covariateName(int oneBased) {
  std::string name = "x";
  name += std::to_string(oneBased);
  return name;
}

// Covariate indices (0-based) of the informative set, ascending: a partial Fisher-Yates shuffle.
std::vector<int> drawInformative(const PaperDataSpec& spec) {
  std::vector<int> order(static_cast<std::size_t>(spec.covariates));
  for (int j = 0; j < spec.covariates; ++j) order[static_cast<std::size_t>(j)] = j;
  Xoshiro256StarStar rng(spec.seed, kSelectionStream);
  for (int i = 0; i < spec.informative; ++i) {
    const auto pick = static_cast<std::size_t>(i) + rng.below(static_cast<std::uint64_t>(spec.covariates - i));
    std::swap(order[static_cast<std::size_t>(i)], order[pick]);
  }
  order.resize(static_cast<std::size_t>(spec.informative));
  std::sort(order.begin(), order.end());
  return order;
}

}  // namespace

struct PaperDataStream::State {
  PaperDataSpec spec;
  std::vector<std::string> names, informative;
  std::vector<int> informativeColumns;      // 0-based covariate indices
  std::vector<Xoshiro256StarStar> streams;  // one per column: 0 is the noise of y, j the covariate x_j
  std::size_t produced = 0;
};

PaperDataStream::PaperDataStream(const PaperDataSpec& spec) : s_(std::make_unique<State>()) {
  validate(spec);
  s_->spec = spec;
  s_->informativeColumns = drawInformative(spec);
  for (const int j : s_->informativeColumns) s_->informative.push_back(covariateName(j + 1));
  const int cols = spec.covariates + 1;
  s_->names.reserve(static_cast<std::size_t>(cols));
  s_->names.push_back("y");
  for (int j = 1; j < cols; ++j) s_->names.push_back(covariateName(j));
  s_->streams.reserve(static_cast<std::size_t>(cols));
  for (int c = 0; c < cols; ++c) s_->streams.emplace_back(spec.seed, static_cast<std::uint64_t>(c));
}

PaperDataStream::~PaperDataStream() = default;

const std::vector<std::string>& PaperDataStream::names() const { return s_->names; }
const std::vector<std::string>& PaperDataStream::informative() const { return s_->informative; }
std::size_t PaperDataStream::rowsLeft() const { return s_->spec.rows - s_->produced; }

std::size_t PaperDataStream::next(std::size_t rows, std::vector<std::vector<double>>& columns) {
  const std::size_t n = std::min(rows, rowsLeft());
  const int cols = s_->spec.covariates + 1;
  columns.resize(static_cast<std::size_t>(cols));
  const double noiseSd = std::sqrt(s_->spec.noiseVariance);
  // Each column is one stream and one thread's work: the result cannot depend on the thread count.
  // Small blocks stay on one thread: starting a team costs more than the work, badly so on a busy machine.
  const bool parallel = static_cast<double>(n) * cols >= 1e5;
  ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
  for (int c = 0; c < cols; ++c) {
    std::vector<double>& column = columns[static_cast<std::size_t>(c)];
    if (column.size() < n) errors.run([&] { column.resize(n); });
    if (column.size() < n) continue;  // thrown below
    Xoshiro256StarStar& rng = s_->streams[static_cast<std::size_t>(c)];
    if (c == 0) {
      for (std::size_t i = 0; i < n; ++i) column[i] = noiseSd * rng.normal();
    } else {
      for (std::size_t i = 0; i < n; ++i) column[i] = rng.uniform();
    }
  }
  errors.rethrow();

  // y = ((intercept + effect_1) + effect_2) + ... + noise, effects in column order: a fixed order per row.
  // Rows go in blocks so the effect loop over a block vectorises.
  std::vector<const double*> effects;
  for (const int j : s_->informativeColumns) effects.push_back(columns[static_cast<std::size_t>(j + 1)].data());
  double* y = columns[0].data();
  const double intercept = s_->spec.intercept;
  constexpr std::size_t kBlock = 1024;
  const auto blocks = static_cast<long long>((n + kBlock - 1) / kBlock);
#pragma omp parallel for schedule(static) if (parallel)
  for (long long b = 0; b < blocks; ++b) {
    const std::size_t first = static_cast<std::size_t>(b) * kBlock, count = std::min(kBlock, n - first);
    double mean[kBlock];
    for (std::size_t i = 0; i < count; ++i) mean[i] = intercept;
    for (const double* x : effects)
      for (std::size_t i = 0; i < count; ++i) mean[i] += 10.0 * sinTwoPi(x[first + i]);
    for (std::size_t i = 0; i < count; ++i) y[first + i] = mean[i] + y[first + i];
  }
  s_->produced += n;
  return n;
}

PaperData generatePaperData(const PaperDataSpec& spec) {
  PaperDataStream stream(spec);
  PaperData out;
  out.spec = spec;
  out.informative = stream.informative();
  out.data.source = "paper data (seed ";
  out.data.source += std::to_string(spec.seed) + ")";
  out.data.names = stream.names();
  stream.next(spec.rows, out.data.columns);
  return out;
}

std::string truthJson(const PaperDataSpec& spec, const std::vector<std::string>& informative) {
  nlohmann::ordered_json j;  // keys in the documented order
  j["seed"] = spec.seed;
  j["rows"] = spec.rows;
  j["covariates"] = spec.covariates;
  j["informative"] = informative;
  j["intercept"] = spec.intercept;
  j["noise_var"] = spec.noiseVariance;
  j["effect"] = "10*sin(2*pi*x)";
  return j.dump();
}

std::string truthJson(const PaperData& data) { return truthJson(data.spec, data.informative); }

}  // namespace gb

// Read bandwidth of this machine, for the floors in docs/performance.md: a timed sum over an array of doubles (800 MB
// by default: the x of n = 1e6 rows x 100 covariates), on every core (OpenMP), best of several passes.
// Build: g++ -O3 -march=native -fopenmp scripts/perf/read_bandwidth.cpp -o /tmp/read_bandwidth
// Run:   /tmp/read_bandwidth [megabytes] [passes]
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const double mb = argc > 1 ? std::atof(argv[1]) : 800.0;
  const int passes = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::size_t n = static_cast<std::size_t>(mb * 1e6 / sizeof(double));
  std::vector<double> a(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<double>(i & 1023);
  double best = 1e30, total = 0.0;
  for (int p = 0; p < passes; ++p) {
    const auto t0 = std::chrono::steady_clock::now();
    double sum = 0.0;
    // Eight independent sums per thread, so the adds are not one dependent chain (they vectorise).
#pragma omp parallel reduction(+ : sum)
    {
      double part[8] = {};
#pragma omp for schedule(static)
      for (std::size_t b = 0; b < n / 8; ++b)
        for (int k = 0; k < 8; ++k) part[k] += a[b * 8 + k];
      for (int k = 0; k < 8; ++k) sum += part[k];
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = s < best ? s : best;
    total += sum;
  }
  std::printf("read %.0f MB: best %.4f s = %.1f GB/s on %d threads (checksum %.0f)\n", mb, best, mb / 1e3 / best,
              omp_get_max_threads(), total);
  return 0;
}

// Two probes of this machine's page-fault cost, for docs/performance.md (2026-11-30):
//   page_touch count FILE   counts the line breaks of FILE three ways: through a mapping, through a MAP_POPULATE
//                           mapping, and by pread into one reused 8 MiB buffer (3 rounds);
//   page_touch tail BYTES   fills an allocation of BYTES on 2 MiB boundaries with MADV_HUGEPAGE, as asked and
//                           rounded up to whole huge pages, and reports the minor faults and the time (5 rounds).
// Build: g++ -O2 scripts/perf/page_touch.cpp -o /tmp/page_touch
#include <emmintrin.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

long minorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// 16 bytes compared at a time, the matches summed in byte lanes (as engine/data/CsvChunkRows.cpp's countByte).
std::size_t lineBreaks(const char* p, std::size_t n) {
  const char* const end = p + n;
  std::size_t count = 0;
  const __m128i wanted = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  while (end - p >= 16) {
    const std::ptrdiff_t steps = std::min<std::ptrdiff_t>((end - p) / 16, 255);
    __m128i lanes = zero;
    for (std::ptrdiff_t i = 0; i < steps; ++i, p += 16)
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), wanted));
    const __m128i sums = _mm_sad_epu8(lanes, zero);
    count += static_cast<std::size_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
  return count + static_cast<std::size_t>(std::count(p, end, '\n'));
}

int count(const char* path) {
  const int fd = open(path, O_RDONLY);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0) return 1;
  const auto n = static_cast<std::size_t>(st.st_size);
  const std::size_t block = std::size_t{8} << 20;
  char* buffer = nullptr;
  if (posix_memalign(reinterpret_cast<void**>(&buffer), std::size_t{2} << 20, block) != 0) return 1;
  madvise(buffer, block, MADV_HUGEPAGE);
  for (int round = 0; round < 3; ++round) {
    double t = now();
    auto* m = static_cast<char*>(mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, 0));
    const std::size_t mapped = lineBreaks(m, n);
    munmap(m, n);
    const double tMapped = now() - t;
    t = now();
    m = static_cast<char*>(mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0));
    const double tPopulate = now() - t;
    t = now();
    const std::size_t populated = lineBreaks(m, n);
    munmap(m, n);
    const double tPopulated = now() - t;
    t = now();
    std::size_t read = 0;
    for (std::size_t at = 0; at < n; at += block) {
      const ssize_t got = pread(fd, buffer, block, static_cast<off_t>(at));
      if (got <= 0) return 1;
      read += lineBreaks(buffer, static_cast<std::size_t>(got));
    }
    std::printf("mapped %.3f s; populated %.3f + %.3f s; pread %.3f s (%zu %zu %zu line breaks)\n", tMapped, tPopulate,
                tPopulated, now() - t, mapped, populated, read);
  }
  return 0;
}

int tail(std::size_t bytes) {
  const std::size_t huge = std::size_t{2} << 20;
  for (const bool rounded : {false, true}) {
    const std::size_t size = rounded ? (bytes + huge - 1) / huge * huge : bytes;
    for (int round = 0; round < 5; ++round) {
      void* p = nullptr;
      if (posix_memalign(&p, huge, size) != 0) return 1;
      madvise(p, size / huge * huge, MADV_HUGEPAGE);
      const long before = minorFaults();
      const double t = now();
      std::memset(p, 1, bytes);
      std::printf("%zu bytes in an allocation of %zu: %ld faults, %.2f ms\n", bytes, size, minorFaults() - before,
                  (now() - t) * 1e3);
      std::free(p);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "count") return count(argv[2]);
  if (argc == 3 && std::string(argv[1]) == "tail") return tail(std::strtoull(argv[2], nullptr, 10));
  std::fprintf(stderr, "usage: page_touch count FILE | page_touch tail BYTES\n");
  return 2;
}

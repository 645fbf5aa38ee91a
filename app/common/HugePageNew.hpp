#pragma once
// Whether HugePageNew.cpp replaces the global operator new and delete in this build (not under AddressSanitizer),
// and from which size an allocation starts on a huge page.
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define GB_HUGE_PAGE_NEW 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GB_HUGE_PAGE_NEW 0
#endif
#endif
#ifndef GB_HUGE_PAGE_NEW
#define GB_HUGE_PAGE_NEW 1
#endif

namespace gb {

constexpr bool kHugePageNew = GB_HUGE_PAGE_NEW != 0;
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// How many bytes an allocation of n takes (n itself below kHugePageBytes). From 2 MiB on it is rounded up to whole
// huge pages where that adds at most an eighth of n: a tail past the last whole huge page is mapped 4 KiB at a time,
// a fault each (an 8,000,000-byte column took 5.7-6.2 ms to fill with its 1.63 MiB tail in 4 KiB pages, 0.6-1.0 ms
// rounded up to 8 MiB, on the 2-core VM of 2026-11-30), while the rounding costs resident memory (the last huge page
// is backed whole once touched). The bound keeps that cost within 12.5% of the allocation.
constexpr std::size_t hugePageAllocationBytes(std::size_t n) {
  if (n < kHugePageBytes) return n;
  const std::size_t rounded = (n + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  return rounded - n <= n / 8 ? rounded : n;
}

}  // namespace gb

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

}  // namespace gb

// The executables' global operator new and delete: an allocation of 2 MiB or more starts on a 2 MiB boundary and
// asks for transparent huge pages (madvise MADV_HUGEPAGE, which the Linux default "madvise" mode honours), so that
// the data's large arrays (the CSV reader's columns, the model frame's copies) are mapped 2 MiB at a time. Each
// first touch of a 4 KiB page is a page fault: about 1 us natively, and about 12 us on a virtual machine that keeps
// shadow page tables (the 2-core CI machine of 2026-11-30: touching 400 MB of fresh 4 KiB pages took 1.2-1.6 s,
// of huge pages 0.02-0.04 s; docs/performance.md). Everything else is plain malloc and free, as the default
// operators are, so memory from either path is freed the same way (posix_memalign's memory is free()d).
// Not under AddressSanitizer, whose own operators must stay in place to check new/delete pairs.
#include "HugePageNew.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

#if GB_HUGE_PAGE_NEW

namespace {

constexpr std::size_t kHugePage = gb::kHugePageBytes;

void* allocate(std::size_t n) {
  if (n < kHugePage) return std::malloc(n == 0 ? 1 : n);
  const std::size_t bytes = gb::hugePageAllocationBytes(n);
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, bytes) != 0) return nullptr;
  ::madvise(p, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);  // whole huge pages only: a tail stays 4 KiB pages
  return p;
}

}  // namespace

void* operator new(std::size_t n) {
  for (;;) {
    if (void* p = allocate(n)) return p;
    const std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

#endif

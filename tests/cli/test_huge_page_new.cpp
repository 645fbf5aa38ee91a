// The executables' operator new and delete (app/common/HugePageNew.cpp, linked into this test as into gamboost):
// every size allocates, holds what is written and frees through each form of new and delete, and an allocation of
// 2 MiB or more starts on a 2 MiB boundary (where the replacement is built: not under AddressSanitizer).
#include <QtTest>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "common/HugePageNew.hpp"

class TestHugePageNew : public QObject {
  Q_OBJECT
 private slots:
  void everySizeAllocatesAndHoldsItsData();
  void largeAllocationsStartOnAHugePage();
  void otherFormsOfNewStillPair();
  void tailsRoundedUpWhenCheap();
};

namespace {

bool onHugePage(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % gb::kHugePageBytes == 0; }

}  // namespace

void TestHugePageNew::everySizeAllocatesAndHoldsItsData() {
  const std::size_t huge = gb::kHugePageBytes;
  for (std::size_t bytes :
       {std::size_t{0}, std::size_t{1}, std::size_t{4096}, huge - 8, huge, huge + 8, 5 * huge + 24}) {
    std::vector<double> v(bytes / sizeof(double));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
    double sum = 0.0;
    for (double x : v) sum += x;
    const double n = static_cast<double>(v.size());
    QCOMPARE(sum, n * (n - 1) / 2);  // exact: every partial sum is an integer below 2^53
    std::unique_ptr<char[]> raw(new char[bytes + 1]);
    raw[bytes] = 'x';
    QCOMPARE(raw[bytes], 'x');
  }
}

void TestHugePageNew::largeAllocationsStartOnAHugePage() {
  if (!gb::kHugePageNew) {
    qInfo("this build keeps the runtime's operator new (AddressSanitizer): alignment is not promised, not checked");
    return;
  }
  for (std::size_t bytes : {gb::kHugePageBytes, gb::kHugePageBytes + 8, 7 * gb::kHugePageBytes / 2}) {
    std::vector<char> v(bytes);
    QVERIFY2(onHugePage(v.data()), qPrintable(QString("%1 bytes at %2").arg(bytes).arg(quintptr(v.data()), 0, 16)));
    std::unique_ptr<double[]> a(new double[bytes / sizeof(double)]);
    QVERIFY(onHugePage(a.get()));
  }
  std::vector<char> small(gb::kHugePageBytes - 1);  // below the size: malloc's own placement
  QVERIFY(small.data() != nullptr);
}

void TestHugePageNew::otherFormsOfNewStillPair() {
  // nothrow, over-aligned and sized forms go through the runtime's operators, which must pair with the replaced ones.
  std::unique_ptr<int> p(new (std::nothrow) int(7));
  QVERIFY(p && *p == 7);
  struct alignas(4096) Page {
    char bytes[4096];
  };
  std::unique_ptr<Page> page(new Page{});
  QVERIFY(reinterpret_cast<std::uintptr_t>(page.get()) % 4096 == 0);
  std::unique_ptr<Page[]> pages(new Page[600]);  // 2.3 MiB, over-aligned: the runtime's aligned new
  QVERIFY(reinterpret_cast<std::uintptr_t>(pages.get()) % 4096 == 0);
  void* big = ::operator new(3 * gb::kHugePageBytes, std::nothrow);
  QVERIFY(big != nullptr);
  ::operator delete(big, std::nothrow);
}

// From 2 MiB on, an allocation is rounded up to whole huge pages where that adds at most an eighth of it.
void TestHugePageNew::tailsRoundedUpWhenCheap() {
  const std::size_t h = gb::kHugePageBytes;
  QCOMPARE(gb::hugePageAllocationBytes(0), std::size_t{0});
  QCOMPARE(gb::hugePageAllocationBytes(h - 1), h - 1);                   // below a huge page: as asked
  QCOMPARE(gb::hugePageAllocationBytes(h), h);                           // whole pages: as asked
  QCOMPARE(gb::hugePageAllocationBytes(8000000), 4 * h);                 // 0.39 MB more, under 1 MB
  QCOMPARE(gb::hugePageAllocationBytes(3200000), std::size_t{3200000});  // 0.99 MB more, over 0.4 MB
  QCOMPARE(gb::hugePageAllocationBytes(h + 1), h + 1);                   // nearly a page more: not worth it
  QCOMPARE(gb::hugePageAllocationBytes(16 * h + 1), 17 * h);             // from 16 MiB on, always
  for (std::size_t n = h; n < 40 * h; n += 4093) {
    const std::size_t got = gb::hugePageAllocationBytes(n);
    QVERIFY(got == n || (got % h == 0 && got > n && got - n <= n / 8 && got - n < h));
  }
  if (gb::kHugePageNew) {  // and the memory is there: written to its last byte of the rounded size's request
    std::unique_ptr<char[]> a(new char[8000000]);
    a[7999999] = 'y';
    QCOMPARE(a[7999999], 'y');
    QVERIFY(onHugePage(a.get()));
  }
}

QTEST_APPLESS_MAIN(TestHugePageNew)
#include "test_huge_page_new.moc"

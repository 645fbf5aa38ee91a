// kernels/ols.cl (linear and factor learners on the device) against double sums on the host, float and double,
// awkward sizes, with an empty level. Tolerance: each chunk of at most 1024 rows is summed in order, the chunks in
// order, so a sum's rounding is at most (1024 + chunks) eps sum|terms|; an update is one multiply-add, a few eps of
// |f| + |a| + |b x|.
#include <QtTest>
#include <cmath>

#include "OpenClTestUtil.hpp"
#include "opencl/OlsKernels.hpp"

namespace {
constexpr std::uint64_t kSeed = 777001;

gb::ocl::Buffer uploadCodes(gb::ocl::Context& ctx, const std::vector<int>& codes) {
  gb::ocl::Buffer b(ctx, codes.size() * sizeof(int));
  b.write(ctx, codes.data(), codes.size() * sizeof(int));
  return b;
}
}  // namespace

class TestOlsKernels : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    qInfo("random seed: %llu", static_cast<unsigned long long>(kSeed));
    gbocltest::testDevice();
  }

  void sumsAndUpdates_data() {
    QTest::addColumn<bool>("isDouble");
    QTest::addColumn<qulonglong>("rows");
    for (bool isDouble : {true, false})
      for (qulonglong rows : {1ull, 1023ull, 1025ull, 100003ull})
        QTest::addRow("%s n=%llu", isDouble ? "double" : "float", rows) << isDouble << rows;
  }

  void sumsAndUpdates() {
    QFETCH(bool, isDouble);
    QFETCH(qulonglong, rows);
    gb::ocl::Context ctx(gbocltest::testDevice());
    if (isDouble && !ctx.hasFp64()) QSKIP("device has no fp64");
    const std::size_t n = rows;
    constexpr int levels = 5;  // level 3 never occurs
    const std::vector<double> v = gbocltest::asReal(gbocltest::uniform(n, -2, 2, kSeed + n), isDouble);
    const std::vector<double> x = gbocltest::asReal(gbocltest::uniform(n, -10, 30, kSeed + 2 * n), isDouble);
    const std::vector<double> f0 = gbocltest::asReal(gbocltest::uniform(n, -1, 1, kSeed + 3 * n), isDouble);
    std::vector<int> codes(n);
    const std::vector<double> u = gbocltest::uniform(n, 0, 4, kSeed + 4 * n);
    for (std::size_t i = 0; i < n; ++i) codes[i] = u[i] < 3 ? static_cast<int>(u[i]) : 4;

    gb::ocl::OlsKernels kernels(ctx, isDouble, n);
    gb::ocl::Buffer vb = gbocltest::upload(ctx, v, isDouble), xb = gbocltest::upload(ctx, x, isDouble);
    gb::ocl::Buffer cb = uploadCodes(ctx, codes);
    gb::ocl::Buffer partials = gbocltest::upload(ctx, std::vector<double>(kernels.chunks() * levels, NAN), isDouble);
    const std::vector<double> sums = kernels.levelSums(cb, levels, vb, partials);
    const std::vector<double> lin = kernels.linearSums(xb, vb, partials);

    std::vector<double> want(levels, 0.0), scale(levels, 0.0);
    double s0 = 0, s1 = 0, a0 = 0, a1 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      want[codes[i]] += v[i];
      scale[codes[i]] += std::abs(v[i]);
      s0 += v[i];
      a0 += std::abs(v[i]);
      s1 += x[i] * v[i];
      a1 += std::abs(x[i] * v[i]);
    }
    const double eps = isDouble ? 0x1p-52 : 0x1p-23;
    const double k = (1024 + kernels.chunks()) * eps;
    for (int l = 0; l < levels; ++l)
      QVERIFY2(std::abs(sums[l] - want[l]) <= k * scale[l],
               qPrintable(QString("level %1: %2 vs %3").arg(l).arg(sums[l], 0, 'g', 17).arg(want[l], 0, 'g', 17)));
    QCOMPARE(sums[3], 0.0);
    QVERIFY2(std::abs(lin[0] - s0) <= k * a0, qPrintable(QString("sum %1 vs %2").arg(lin[0]).arg(s0)));
    QVERIFY2(std::abs(lin[1] - s1) <= k * a1, qPrintable(QString("moment %1 vs %2").arg(lin[1]).arg(s1)));

    const std::vector<double> effect = gbocltest::asReal({0.5, -0.25, 0.125, 99.0, -1.5}, isDouble);
    gb::ocl::Buffer eb = gbocltest::upload(ctx, effect, isDouble);
    gb::ocl::Buffer fb = gbocltest::upload(ctx, f0, isDouble);
    kernels.levelUpdate(cb, eb, fb);
    const double a = 0.03, b = -0.002;
    kernels.linearUpdate(xb, a, b, fb);
    const std::vector<double> f = gbocltest::download(ctx, fb, n, isDouble);
    for (std::size_t i = 0; i < n; ++i) {
      const double expect = f0[i] + effect[codes[i]] + (a + b * x[i]);
      const double tol = 4 * eps * (std::abs(f0[i]) + std::abs(effect[codes[i]]) + std::abs(a) + std::abs(b * x[i]));
      if (!(std::abs(f[i] - expect) <= tol))
        QFAIL(qPrintable(QString("row %1: f %2, expected %3").arg(i).arg(f[i], 0, 'g', 17).arg(expect, 0, 'g', 17)));
    }
  }
};

QTEST_GUILESS_MAIN(TestOlsKernels)
#include "test_ols_kernels.moc"

// The CPU backend's cross-product pass (compute/CpuKernels): B_j'B_l accumulated by crossKernel over blocks of rows
// and folded by foldCrossPairs, against B_j'B_l of dense bases built by the independent Cox-de Boor reference, for
// learners of different degrees and knot counts (the pass's buffers are sized by both learners).
#include <QtTest>
#include <cmath>
#include <utility>
#include <vector>

#include "compute/CpuKernels.hpp"
#include "compute/CrossPassShape.hpp"
#include "spline/SplineBasis.hpp"
#include "support/DenseReference.hpp"

using gb::SplineBasis;
using gb::SplineSpec;

namespace {

constexpr quint64 kSeed = 5150;

struct Side {
  SplineBasis basis;
  std::vector<double> poly, x;
  gb::cpu::BasisView view() const { return gb::cpu::basisView(basis, poly.data()); }
};

Side makeSide(int degree, int knots, double lo, double hi, std::size_t rows, gbtest::TestRng& rng) {
  SplineSpec spec;
  spec.degree = degree;
  spec.knots = knots;
  Side s{SplineBasis(lo, hi, spec), {}, {}};
  s.poly = gb::cpu::transposedPolynomials(s.basis.polynomialTable(), s.basis.numIntervals(), degree);
  s.x.resize(rows);
  for (double& v : s.x) v = rng.uniform(lo, hi);
  s.x[0] = lo;  // both ends of the range, where the locator clamps
  s.x[rows - 1] = hi;
  return s;
}

Eigen::MatrixXd referenceBasis(const Side& s) {
  const bool clamped = s.basis.spec().boundary == gb::Boundary::Clamped;
  const auto knots =
      gbtest::referenceKnots(s.basis.lo(), s.basis.hi(), s.basis.spec().knots, s.basis.degree(), clamped);
  return gbtest::denseBasis(knots, s.basis.degree(), s.x);
}

}  // namespace

class TestCpuKernels : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { qInfo("seed %llu", static_cast<unsigned long long>(kSeed)); }
  void crossPassEqualsDenseProduct_data();
  void crossPassEqualsDenseProduct();
  void crossPassShapeStaysWithinItsBudget();
};

void TestCpuKernels::crossPassEqualsDenseProduct_data() {
  QTest::addColumn<int>("degreeJ");
  QTest::addColumn<int>("knotsJ");
  QTest::addColumn<int>("degreeL");
  QTest::addColumn<int>("knotsL");
  QTest::newRow("cubic, 20 knots each (the paper's shape)") << 3 << 20 << 3 << 20;
  QTest::newRow("j linear with 5 knots, l cubic with 20") << 1 << 5 << 3 << 20;
  QTest::newRow("j quintic with 7 knots, l quadratic with 2") << 5 << 7 << 2 << 2;
  QTest::newRow("j cubic with 1 knot, l quartic with 40") << 3 << 1 << 4 << 40;
}

void TestCpuKernels::crossPassEqualsDenseProduct() {
  QFETCH(int, degreeJ);
  QFETCH(int, knotsJ);
  QFETCH(int, degreeL);
  QFETCH(int, knotsL);
  // Rows in blocks that are not a multiple of the kernels' pieces, folded every other block and at the end, as the
  // backend's pass does.
  constexpr std::size_t kRows = 5000, kBlock = 1300;
  gbtest::TestRng rng(kSeed + static_cast<quint64>(degreeJ * 100 + knotsJ));
  const Side J = makeSide(degreeJ, knotsJ, -2.0, 3.0, kRows, rng);
  const Side L = makeSide(degreeL, knotsL, 10.0, 11.5, kRows, rng);
  const int wj = degreeJ + 1, wl = degreeL + 1;
  const int intervalsJ = J.basis.numIntervals(), intervalsL = L.basis.numIntervals();
  const int kj = J.basis.numColumns(), kl = L.basis.numColumns();

  // The pass's buffer: kl x intervalsJ x wj partial sums, padded to catch writes past them.
  const std::size_t partials = static_cast<std::size_t>(kl) * intervalsJ * wj;
  std::vector<double> P(partials + 64, 0.0);
  std::vector<double> C(static_cast<std::size_t>(kj) * kl, 0.0);  // row-major kj x kl
  std::vector<int> first(kBlock);
  std::vector<double> w(kBlock * wl);
  const auto cross = gb::cpu::crossKernel(degreeJ, degreeL);
  int block = 0;
  for (std::size_t b = 0; b < kRows; b += kBlock, ++block) {
    const std::size_t e = std::min(kRows, b + kBlock);
    gb::cpu::basisRowsKernel(degreeL)(L.view(), L.x.data(), b, e, first.data(), w.data());
    cross(J.view(), J.x.data(), b, e, first.data(), w.data(), P.data());
    if (block % 2 == 1 || e == kRows) {
      gb::cpu::foldCrossPairs(P.data(), intervalsJ, wj, intervalsL, wl, kl, C.data());
      for (std::size_t i = 0; i < partials; ++i) QVERIFY(P[i] == 0.0);  // zeroed for the next rows (QCOMPARE is fuzzy)
    }
  }
  for (std::size_t i = partials; i < P.size(); ++i) QVERIFY(P[i] == 0.0);

  const Eigen::MatrixXd reference = referenceBasis(J).transpose() * referenceBasis(L);
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> got(C.data(), kj, kl);
  // Each entry sums at most 5000 non-negative products of basis values in [0, 1], in another order than the
  // reference: at most 5000 roundings of 1.1e-16 relative to the entry, 5.5e-13. The basis values themselves differ
  // by the locator's rounding of x / spacing (x / spacing is about 300 for l here: some 5e-14 relative) and the
  // polynomial table's (a few 1e-16). Hence 1e-12 of the largest entry; a misplaced product is of the order of one
  // basis product, 1e-3 of it or more.
  const double largest = reference.cwiseAbs().maxCoeff();
  const double error = (got - reference).cwiseAbs().maxCoeff();
  qInfo("max |C - reference| %.3g, %.3g of the largest entry", error, error / largest);
  QVERIFY(largest > 1.0);  // the rows really overlap the bases
  QVERIFY2(error <= 1e-12 * largest, qPrintable(QString::number(error / largest)));
}

// Threads and learners a chunk of the pass: known cases, then the rules over a grid of budgets, buffers, learners and
// thread counts.
void TestCpuKernels::crossPassShapeStaysWithinItsBudget() {
  using gb::cpu::crossPassShape;
  const auto shape = [](std::size_t budget, std::size_t buffer, std::size_t learners, int threads) {
    const auto s = crossPassShape(budget, buffer, learners, threads, 32);
    return std::pair<int, int>(s.team, s.perChunk);
  };
  QCOMPARE(shape(100, 1, 99, 2), (std::pair<int, int>(2, 25)));   // two chunks a thread: 25, 25, 25, 24
  QCOMPARE(shape(100, 1, 99, 1), (std::pair<int, int>(1, 32)));   // one thread: the cap
  QCOMPARE(shape(100, 1, 99, 16), (std::pair<int, int>(16, 4)));  // 25 chunks for 16 threads
  QCOMPARE(shape(3, 1, 99, 2), (std::pair<int, int>(2, 1)));      // the budget: one buffer a thread
  QCOMPARE(shape(1, 1, 99, 2), (std::pair<int, int>(1, 1)));      // one buffer in all: one thread
  QCOMPARE(shape(100, 1, 1, 16), (std::pair<int, int>(1, 1)));    // one learner: one thread
  for (std::size_t buffer : {1u, 7u, 1000u})
    for (std::size_t buffers : {1u, 2u, 3u, 17u, 100u})
      for (std::size_t learners : {1u, 2u, 5u, 99u, 1000u})
        for (int threads : {1, 2, 3, 16}) {
          const std::size_t budget = buffers * buffer + buffer / 2;
          const auto s = crossPassShape(budget, buffer, learners, threads, 32);
          const QString at = QString("budget %1, buffer %2, learners %3, threads %4: team %5, chunk %6")
                                 .arg(budget)
                                 .arg(buffer)
                                 .arg(learners)
                                 .arg(threads)
                                 .arg(s.team)
                                 .arg(s.perChunk);
          QVERIFY2(s.team >= 1 && s.team <= threads && static_cast<std::size_t>(s.team) <= learners, qPrintable(at));
          QVERIFY2(s.perChunk >= 1 && s.perChunk <= 32, qPrintable(at));
          QVERIFY2(static_cast<std::size_t>(s.team) * static_cast<std::size_t>(s.perChunk) * buffer <= budget,
                   qPrintable(at));
          // Enough chunks for every thread (the chunk shrinks for the budget only, never grows past the fair share).
          const std::size_t chunks = (learners + static_cast<std::size_t>(s.perChunk) - 1) / s.perChunk;
          QVERIFY2(chunks >= static_cast<std::size_t>(s.team), qPrintable(at));
        }
}

QTEST_APPLESS_MAIN(TestCpuKernels)
#include "test_cpu_kernels.moc"

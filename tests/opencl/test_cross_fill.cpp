// The GPU cross-product cache fill (opencl/CrossFill.hpp), both ways (GAMBOOST_CROSS_FILL=sorted, atomics), run on
// the test device with the GPU kernel variants forced (OpenClShard's forceGpuKernels): B_j'B_l of every learner j
// for several selected learners l in turn (several fills through the same scratch) against the same sums on the
// host, from SplineBasis::evaluate (the Cox-de Boor recursion, not the polynomial table the kernels use), in double.
// Covariates chosen to reach the corners of the sort: uniform; clustered (most intervals of l empty, one holding
// nearly every row); values on the knots (the interval boundary itself); skewed towards the low edge (the clamped
// edge intervals' own pieces); five distinct values. Rows 3001 (a multiple of no chunk, segment or lane count; the
// sort's chunks and the fill's segments here are a few hundred rows, so intervals cross group boundaries).
// Tolerances, normwise per block B_j'B_l (relative to its norm):
//   double 1e-12: the device and host differ only in rounding (products of values <= 1, sums of <= 3001 terms:
//          ~1e-15 relative each; u = (x - lo) / dx - q rounds at ~eps (|x - lo| / dx) <= 61 eps);
//   float  2e-5: x and u in float move u by up to ~(intervals) 2^-24 ~ 4e-6 at k = 64 (basis slopes <= 1), and
//          each entry is a float sum whose longest chain of additions is at most the rows a lane adds plus the lanes
//          and groups summed after it (~250 here): ~250 2^-24 ~ 1.5e-5 at worst, ~1e-6 typically.
#include <QtTest>
#include <cmath>
#include <random>

#include "OpenClTestUtil.hpp"
#include "compute/Backend.hpp"
#include "learner/Learner.hpp"
#include "opencl/CrossFill.hpp"
#include "opencl/OpenClShard.hpp"

using namespace gb;

namespace {

constexpr unsigned kSeed = 20261125;
constexpr std::size_t kRows = 3001;

// Columns y, uniform, clustered, knots, skewed, discrete (all on [0, 1]: the first two rows are 0 and 1).
std::shared_ptr<const Dataset> fillData(int knots) {
  qInfo("fill data: %zu rows, seed %u, knots %d", kRows, kSeed, knots);
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto d = std::make_shared<Dataset>();
  d->source = "fill";
  d->names = {"y", "uniform", "clustered", "knots", "skewed", "discrete"};
  d->columns.assign(d->names.size(), std::vector<double>(kRows));
  d->kinds.assign(d->names.size(), ColumnKind::Numeric);
  d->levels.assign(d->names.size(), {});
  for (std::size_t i = 0; i < kRows; ++i) {
    const double end = i == 0 ? 0.0 : 1.0;
    const double a = u(rng), b = u(rng), c = u(rng), e = u(rng), f = u(rng);
    const double onKnot = std::floor(c * (knots + 2)) / (knots + 1);
    const double row[] = {std::sin(6 * a) + b + 0.1 * u(rng), i < 2 ? end : a,
                          i < 2 ? end : 0.42 + 0.01 * b,      i < 2 ? end : std::min(1.0, onKnot),
                          i < 2 ? end : std::pow(e, 6),       i < 2 ? end : std::floor(5 * f) / 4};
    for (std::size_t col = 0; col < d->names.size(); ++col) d->columns[col][i] = row[col];
  }
  return d;
}

// (B_j'B_l)_ab of every learner j, laid out as OpenClShard::crossProducts gives it (block j, row a, entry b).
std::vector<double> hostCrossProducts(const std::vector<Learner>& learners,
                                      const std::vector<const std::vector<double>*>& x, int l) {
  const std::size_t k = static_cast<std::size_t>(learners.front().numColumns());
  const std::size_t w = static_cast<std::size_t>(learners.front().basis.degree()) + 1;
  std::vector<double> out(learners.size() * k * k, 0.0), bj(w), bl(w);
  for (std::size_t i = 0; i < kRows; ++i) {
    const std::size_t ql = static_cast<std::size_t>(learners[l].basis.evaluate((*x[l])[i], bl.data()));
    for (std::size_t j = 0; j < learners.size(); ++j) {
      const std::size_t qj = static_cast<std::size_t>(learners[j].basis.evaluate((*x[j])[i], bj.data()));
      for (std::size_t r = 0; r < w; ++r)
        for (std::size_t s = 0; s < w; ++s) out[(j * k + qj + r) * k + ql + s] += bj[r] * bl[s];
    }
  }
  return out;
}

}  // namespace

class TestCrossFill : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { gbocltest::testDevice(); }
  void cleanup() {
    qunsetenv("GAMBOOST_CROSS_FILL");
    qunsetenv("GAMBOOST_KERNEL_DEFINES");
  }
  void fillMatchesHost_data();
  void fillMatchesHost();
  void sortedShapeCoversRows();
};

void TestCrossFill::fillMatchesHost_data() {
  QTest::addColumn<QString>("fill");
  QTest::addColumn<bool>("isDouble");
  QTest::addColumn<int>("knots");
  QTest::addColumn<int>("degree");
  QTest::addColumn<bool>("clamped");
  QTest::addColumn<QString>("defines");  // GAMBOOST_KERNEL_DEFINES
  // STRIP_EDGES=2: each row reads its own interval's pieces, as where the knots' pieces differ (no basis of
  // equidistant knots reaches that path by itself).
  QTest::newRow("sorted, double, k 24, no shared pieces")
      << QString("sorted") << true << 20 << 3 << true << QString("-DSTRIP_EDGES=2");
  // Each row builds its own programs on PoCL (most of the test's time), so the atomics fill, which
  // test_opencl_backend's GPU-variant rows also check against the CPU backend, has two shapes here, not six.
  const QString sorted = "sorted", atomics = "atomics";
  QTest::newRow("sorted, double, k 8, clamped") << sorted << true << 4 << 3 << true << QString();
  QTest::newRow("sorted, double, k 24, extended") << sorted << true << 20 << 3 << false << QString();
  QTest::newRow("sorted, double, k 64, clamped") << sorted << true << 60 << 3 << true << QString();
  QTest::newRow("sorted, double, k 14, quadratic") << sorted << true << 11 << 2 << false << QString();
  QTest::newRow("sorted, float, k 64, extended") << sorted << false << 60 << 3 << false << QString();
  QTest::newRow("atomics, double, k 14, quadratic") << atomics << true << 11 << 2 << false << QString();
  QTest::newRow("atomics, float, k 64, extended") << atomics << false << 60 << 3 << false << QString();
}

void TestCrossFill::fillMatchesHost() {
  QFETCH(QString, fill);
  QFETCH(bool, isDouble);
  QFETCH(int, knots);
  QFETCH(int, degree);
  QFETCH(bool, clamped);
  QFETCH(QString, defines);
  if (isDouble && !gbocltest::testDevice().info.fp64) QSKIP("device has no fp64");
  const auto data = fillData(knots);
  ModelSettings settings;
  settings.spline = SplineSpec{knots, degree, clamped ? Boundary::Clamped : Boundary::Extended};
  settings.learners = {"uniform", "clustered", "knots", "skewed", "discrete"};
  settings.edf = 2.5;
  const std::vector<Learner> learners = buildLearners(*data, settings);
  BoostProblem problem;
  problem.rows = kRows;
  problem.response = &data->columns[0];
  problem.learners = &learners;
  for (const Learner& l : learners) problem.covariates.push_back(&data->columns[static_cast<std::size_t>(l.column)]);
  qputenv("GAMBOOST_CROSS_FILL", fill.toUtf8());
  if (!defines.isEmpty()) qputenv("GAMBOOST_KERNEL_DEFINES", defines.toUtf8());
  ocl::OpenClShard shard(gbocltest::testDevice(), "compact_x", isDouble, true);
  shard.prepare(problem);
  QVERIFY(shard.crossProductsInOnePass());
  QVERIFY2(shard.info().scheme.find(fill.toStdString() + " fill") != std::string::npos, shard.info().scheme.c_str());
  const std::size_t k = static_cast<std::size_t>(learners.front().numColumns());
  const double tolerance = isDouble ? 1e-12 : 2e-5;
  double worst = 0.0;
  for (int l : {1, 0, 3, 2, 4, 1}) {  // l = 1 twice: a fill after others gives the same blocks
    const std::vector<double> device = shard.crossProducts(l),
                              host = hostCrossProducts(learners, problem.covariates, l);
    QCOMPARE(device.size(), host.size());
    for (std::size_t j = 0; j < learners.size(); ++j) {
      double diff = 0.0, norm = 0.0;
      for (std::size_t e = j * k * k; e < (j + 1) * k * k; ++e) {
        diff += (device[e] - host[e]) * (device[e] - host[e]);
        norm += host[e] * host[e];
      }
      const double relative = std::sqrt(diff / norm);
      worst = std::max(worst, relative);
      QVERIFY2(relative <= tolerance, qPrintable(QString("l %1, j %2: %3 normwise").arg(l).arg(j).arg(relative)));
    }
  }
  qInfo("%s: worst block %.2e normwise (tolerance %.0e)", shard.info().scheme.c_str(), worst, tolerance);
}

void TestCrossFill::sortedShapeCoversRows() {
  // Every shape's chunks and segments cover the rows exactly once, whatever n and the device look like.
  for (std::size_t rows : {1, 255, 256, 3001, 100000, 10000000})
    for (int units : {1, 4, 132})
      for (int k : {5, 64, 101})
        for (std::size_t real : {4, 8}) {
          const ocl::SortedFillShape s = ocl::sortedFillShape(rows, 100, k, k - 3, real, units, 48 << 10);
          QVERIFY(s.sortRows % 256 == 0 && s.sortRows >= 256 && s.sortRows <= 4096);
          QVERIFY(s.sortRows * (real + 6) + 8 * static_cast<std::size_t>(k - 3) <= (44u << 10));
          QCOMPARE(s.chunks, (rows + s.sortRows - 1) / s.sortRows);
          QVERIFY(s.stripLanes == 0 || k * 4 * real * static_cast<std::size_t>(s.stripLanes) <= (40u << 10));
          if (s.stripLanes == 0) continue;
          QVERIFY(s.segments * s.segmentRows >= rows &&
                  (s.segments - 1) * s.segmentRows < std::max<std::size_t>(rows, 1));
          QCOMPARE(s.segmentRows % static_cast<std::size_t>(s.stripLanes), std::size_t(0));
        }
  const ocl::SortedFillShape h100 = ocl::sortedFillShape(10000000, 100, 64, 61, 4, 132, 48 << 10);
  qInfo("n 1e7, p 100, k 64, float, 132 units: chunks of %d rows (%zu), %d lanes, %zu segments of %zu, scratch %zu B",
        h100.sortRows, h100.chunks, h100.stripLanes, h100.segments, h100.segmentRows, h100.scratchBytes);
  QCOMPARE(h100.stripLanes, 32);
  QCOMPARE(h100.sortRows, 4096);
}

QTEST_APPLESS_MAIN(TestCrossFill)
#include "test_cross_fill.moc"

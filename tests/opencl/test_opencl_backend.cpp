// The OpenCL backend against the CPU backend on the paper's data (gb::generatePaperData):
//   double: the same selection path, fitted values within 1e-9 normwise relative, risks within 1e-9 relative
//           (both sum the same terms in different orders; ~1e-13 is typical, 1e-9 leaves room for n = 1e4);
//   float:  risk within 1e-4 relative and the first 50 selections identical (float sums of 1e4 terms:
//           ~1e-6 relative; the paper's informative learners win by far more than that).
// On a CPU device the backend updates B'g incrementally through cached cross-products (OpenClBackend.hpp): the
// crossCache* tests run it with refresh intervals shorter and longer than mstop, batches that straddle a
// refresh, and a cache so small that slots are evicted, against the CPU backend with the same tolerances.
// Every kernel the backend offers is run (compact_x, compact, and the dense ones of DenseGemv.hpp).
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "OpenClTestUtil.hpp"
#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "data/PaperData.hpp"
#include "opencl/OpenClBackend.hpp"

using namespace gb;

namespace {

std::shared_ptr<const Dataset> paperData(std::size_t rows, int covariates, std::uint64_t seed) {
  PaperDataSpec spec;
  spec.rows = rows;
  spec.covariates = covariates;
  spec.informative = std::min(20, covariates / 2);
  spec.seed = seed;
  qInfo("paper data: %zu rows, %d covariates, seed %llu", rows, covariates, static_cast<unsigned long long>(seed));
  return std::make_shared<const Dataset>(generatePaperData(spec).data);
}

ComputeSettings openCl(const std::string& precision, const std::string& kernel) {
  ComputeSettings c;
  c.backend = gb::BackendKind::OpenCl;
  c.precision = gb::precisionFromString(precision);
  c.kernel = kernel;
  return c;
}

double normwiseRelative(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]) * (a[i] - b[i]);
    norm += b[i] * b[i];
  }
  return std::sqrt(diff / norm);
}

// Risks within 1e-9 relative and fitted values within 1e-9 normwise (double on both sides, sums in other orders).
void expectSameRisksAndFitted(const Booster& gpu, const Booster& cpu) {
  for (std::size_t m = 0; m < cpu.path().risk.size(); ++m)
    QVERIFY2(std::abs(gpu.path().risk[m] - cpu.path().risk[m]) <= 1e-9 * cpu.path().risk[m],
             qPrintable(QString("risk %1: %2 vs %3")
                            .arg(m)
                            .arg(gpu.path().risk[m], 0, 'g', 17)
                            .arg(cpu.path().risk[m], 0, 'g', 17)));
  const double e = normwiseRelative(gpu.fitted(), cpu.fitted());
  QVERIFY2(e <= 1e-9, qPrintable(QString("fitted differ by %1 normwise").arg(e)));
}

}  // namespace

class TestOpenClBackend : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { gbocltest::testDevice(); }
  void doubleMatchesCpu_data();
  void doubleMatchesCpu();
  void floatMatchesCpu();
  void floatCarriesCovariatesFarFromZero();
  void candidatesMatchCpu();
  void infoNamesDeviceKernelPrecision();
  void crossCacheDoubleMatchesCpu_data();
  void crossCacheDoubleMatchesCpu();
  void crossCacheFloatMatchesCpu();
  void trackedSchemeCatchesALateContender();
  void trackedSchemeCoversEveryLearnerWhenBoundsFailOften();
  void gpuVariantCacheDoubleMatchesCpu_data();
  void gpuVariantCacheDoubleMatchesCpu();
  void gpuVariantCacheFloatMatchesCpu_data();
  void gpuVariantCacheFloatMatchesCpu();
  void cleanup() { qunsetenv("GAMBOOST_CROSS_FILL"); }
};

void TestOpenClBackend::doubleMatchesCpu_data() {
  QTest::addColumn<QString>("kernel");
  QTest::addColumn<int>("rows");
  QTest::addColumn<int>("batch");
  QTest::newRow("compact_x, one batch") << "compact_x" << 3001 << 0;
  QTest::newRow("compact_x, batches of 7") << "compact_x" << 3001 << 7;
  QTest::newRow("compact") << "compact" << 2003 << 0;
  QTest::newRow("compact_sorted") << "compact_sorted" << 2003 << 0;
  for (const std::string& dense : ocl::openClKernelNames())
    if (dense.rfind("compact", 0) != 0) QTest::newRow(dense.c_str()) << QString::fromStdString(dense) << 501 << 0;
}

void TestOpenClBackend::doubleMatchesCpu() {
  QFETCH(QString, kernel);
  QFETCH(int, rows);
  QFETCH(int, batch);
  if (!gbocltest::testDevice().info.fp64) QSKIP("device has no fp64");
  const auto data = paperData(static_cast<std::size_t>(rows), 12, 41);
  ModelSettings settings = ModelSettings::paperPreset();
  settings.mstop = 60;
  Booster cpu(data, settings, std::make_unique<CpuBackend>());
  cpu.run(settings.mstop);
  Booster gpu(data, settings, makeBackend(openCl("double", kernel.toStdString())));
  QCOMPARE(gpu.run(settings.mstop, {}, batch), settings.mstop);
  QCOMPARE(gpu.path().learner, cpu.path().learner);
  expectSameRisksAndFitted(gpu, cpu);
  if (QTest::currentTestFailed()) return;
  for (std::size_t j = 0; j < cpu.coefficients().size(); ++j)
    QVERIFY((gpu.coefficients()[j] - cpu.coefficients()[j]).norm() <= 1e-9 * (1 + cpu.coefficients()[j].norm()));
}

void TestOpenClBackend::floatMatchesCpu() {
  const auto data = paperData(10000, 100, 42);
  ModelSettings settings = ModelSettings::paperPreset();
  settings.mstop = 50;
  Booster cpu(data, settings, std::make_unique<CpuBackend>());
  cpu.run(settings.mstop);
  Booster gpu(data, settings, makeBackend(openCl("", "")));  // the default: compact_x in float
  QCOMPARE(gpu.backendInfo().precision, std::string("float"));
  gpu.run(settings.mstop);
  QCOMPARE(gpu.path().learner, cpu.path().learner);
  for (std::size_t m = 0; m < cpu.path().risk.size(); ++m)
    QVERIFY2(std::abs(gpu.path().risk[m] - cpu.path().risk[m]) <= 1e-4 * cpu.path().risk[m],
             qPrintable(QString("risk %1: %2 vs %3").arg(m).arg(gpu.path().risk[m]).arg(cpu.path().risk[m])));
}

// Covariates in seconds since 1970 over one day (x = 1.7e9 + 86400 u, float's step 128 s there): refused in float
// until the device held x less its range's lower end (floatCovariateShift in CompactKernels.hpp). Now float must
// follow the CPU as floatMatchesCpu does: the first 50 selections identical, risks within 1e-4 relative, with the
// CPU kernels and with the GPU variants (packed B'g, sorted cross fill), which read x through the same geometry.
void TestOpenClBackend::floatCarriesCovariatesFarFromZero() {
  auto shifted = std::make_shared<Dataset>(*paperData(10000, 10, 42));
  for (std::size_t c = 1; c < shifted->cols(); ++c)
    for (double& x : shifted->columns[c]) x = 1.7e9 + 86400.0 * x;
  const std::shared_ptr<const Dataset> data = shifted;
  ModelSettings settings;  // mboost's bbs defaults: 20 knots
  settings.mstop = 100;
  Booster cpu(data, settings, std::make_unique<CpuBackend>());
  cpu.run(settings.mstop);
  for (const bool gpuVariant : {false, true}) {
    auto backend = std::make_unique<OpenClBackend>(openCl("float", "compact_x"));
    backend->setForceGpuKernels(gpuVariant);
    Booster gpu(data, settings, std::move(backend));
    gpu.run(settings.mstop);
    for (int m = 0; m < 50; ++m) QCOMPARE(gpu.path().learner[m], cpu.path().learner[m]);
    for (std::size_t m = 0; m < cpu.path().risk.size(); ++m)
      QVERIFY2(std::abs(gpu.path().risk[m] - cpu.path().risk[m]) <= 1e-4 * cpu.path().risk[m],
               qPrintable(QString("risk %1: %2 vs %3").arg(m).arg(gpu.path().risk[m]).arg(cpu.path().risk[m])));
  }
}

void TestOpenClBackend::candidatesMatchCpu() {
  if (!gbocltest::testDevice().info.fp64) QSKIP("device has no fp64");
  const auto data = paperData(1500, 8, 43);
  ModelSettings settings = ModelSettings::paperPreset();
  Booster cpu(data, settings, std::make_unique<CpuBackend>());
  Booster gpu(data, settings, makeBackend(openCl("double", "compact_x")));
  for (int round = 0; round < 2; ++round) {
    const CandidateScores a = gpu.candidates(), b = cpu.candidates();
    QVERIFY(std::abs(a.residualSumOfSquares - b.residualSumOfSquares) <= 1e-9 * b.residualSumOfSquares);
    QCOMPARE(a.rss.size(), b.rss.size());
    for (std::size_t j = 0; j < b.rss.size(); ++j) QVERIFY(std::abs(a.rss[j] - b.rss[j]) <= 1e-9 * b.rss[j]);
    cpu.run(5);
    gpu.run(5);
  }
}

void TestOpenClBackend::infoNamesDeviceKernelPrecision() {
  OpenClBackend backend(openCl("float", "compact"));
  const BackendInfo info = backend.info();
  QCOMPARE(info.backend, std::string("opencl"));
  QCOMPARE(info.device, gbocltest::testDevice().info.name);
  QCOMPARE(info.kernel, std::string("compact"));
  QCOMPARE(info.precision, std::string("float"));
}

namespace {

// The OpenCL backend with the cross-product cache set up; QSKIP-free: callers check usesCrossCache().
// gpuVariant: the GPU scheme (work-group fill with local atomics, 4 launches) on whatever device runs the tests.
std::unique_ptr<OpenClBackend> cachedBackend(const std::string& precision, int refresh, std::size_t cacheBytes,
                                             const std::string& kernel = "compact_x", bool gpuVariant = false) {
  auto backend = std::make_unique<OpenClBackend>(openCl(precision, kernel));
  backend->setRefreshInterval(refresh);
  if (cacheBytes) backend->setCrossCacheBytes(cacheBytes);
  backend->setForceGpuKernels(gpuVariant);
  return backend;
}

// Double with the cache against the CPU backend: same path, risks and fitted within 1e-9 (both correct c by
// cached cross-products, summed in other orders; the GPU fill's atomics add in no fixed order either).
// knots: the paper's 12 (k = 16) unless given; *fitted (if given): the fitted values' normwise difference; *scheme (if
// given, with gpuVariant): the scheme the backend reports.
void checkDoubleCache(const std::string& kernel, int refresh, int batch, int cacheSlots, bool gpuVariant,
                      int knots = 12, double* fitted = nullptr, std::string* scheme = nullptr, double nu = 0.1) {
  const int covariates = 20, mstop = 120;
  const auto data = paperData(2501, covariates, 44);
  ModelSettings settings = ModelSettings::paperPreset();
  settings.spline.knots = knots;
  settings.nu = nu;
  const std::size_t k = static_cast<std::size_t>(settings.spline.knots + settings.spline.degree + 1);
  Booster cpu(data, settings, std::make_unique<CpuBackend>());
  cpu.run(mstop);
  auto backend = cachedBackend("double", refresh, static_cast<std::size_t>(cacheSlots) * covariates * k * k * 8, kernel,
                               gpuVariant);
  const OpenClBackend* raw = backend.get();
  Booster gpu(data, settings, std::move(backend));
  QVERIFY(raw->usesCrossCache());
  if (gpuVariant) {
    qInfo("scheme: %s", raw->info().scheme.c_str());
    const bool unfused = qgetenv("GAMBOOST_FUSED_SELECT") == "0";
    QCOMPARE(raw->info().scheme.find("unfused") != std::string::npos, unfused);
    if (scheme) *scheme = raw->info().scheme;
  } else {  // a slot for every learner: only the selected ones tracked (SchemeTracked.cpp); fewer: evicted in turn
    QCOMPARE(QString::fromStdString(raw->info().scheme), cacheSlots > 0 ? QString("fused-cached") : "fused-tracked");
  }
  QCOMPARE(gpu.run(mstop, {}, batch), mstop);
  QCOMPARE(gpu.path().learner, cpu.path().learner);
  if (cacheSlots > 0) {  // the row only tests eviction if more learners than slots were selected
    std::vector<int> distinct = cpu.path().learner;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    QVERIFY2(static_cast<int>(distinct.size()) > cacheSlots, qPrintable(QString("%1 learners").arg(distinct.size())));
  }
  expectSameRisksAndFitted(gpu, cpu);
  if (fitted) *fitted = normwiseRelative(gpu.fitted(), cpu.fitted());
}

// Float, refresh 50 over 200 iterations in batches of 30: the same tolerances as floatMatchesCpu (float sums:
// ~1e-6 relative; corrections add k-term float dot products per iteration).
void checkFloatCache(const std::string& kernel, bool gpuVariant) {
  const auto data = paperData(10000, 100, 42);
  ModelSettings settings = ModelSettings::paperPreset();
  const int mstop = 200;
  Booster cpu(data, settings, std::make_unique<CpuBackend>());
  cpu.run(mstop);
  auto backend = cachedBackend("float", 50, 0, kernel, gpuVariant);
  const OpenClBackend* raw = backend.get();
  Booster gpu(data, settings, std::move(backend));
  QVERIFY(raw->usesCrossCache());
  gpu.run(mstop, {}, 30);
  for (int m = 0; m < 50; ++m) QCOMPARE(gpu.path().learner[m], cpu.path().learner[m]);
  for (std::size_t m = 0; m < cpu.path().risk.size(); ++m)
    QVERIFY2(std::abs(gpu.path().risk[m] - cpu.path().risk[m]) <= 1e-4 * cpu.path().risk[m],
             qPrintable(QString("risk %1: %2 vs %3").arg(m).arg(gpu.path().risk[m]).arg(cpu.path().risk[m])));
}

}  // namespace

void TestOpenClBackend::crossCacheDoubleMatchesCpu_data() {
  QTest::addColumn<int>("refresh");
  QTest::addColumn<int>("batch");
  QTest::addColumn<int>("cacheSlots");  // cache slots (0: room for every learner)
  QTest::addColumn<double>("nu");
  QTest::newRow("refresh 50, one batch") << 50 << 0 << 0 << 0.1;
  QTest::newRow("refresh 3, batches of 7") << 3 << 7 << 0 << 0.1;  // batches start inside and on refreshes
  QTest::newRow("refresh 9, batches of 4") << 9 << 4 << 0 << 0.1;  // a refresh inside every other batch
  QTest::newRow("refresh 1000 > mstop") << 1000 << 0 << 0 << 0.1;  // one exact B'g, then corrections only
  QTest::newRow("8 slots, evicted") << 1000 << 5 << 8 << 0.1;
  // nu 1 and 0.5: the untracked learners' bounds fail often (15 and 7 forced exact passes in 120 iterations)
  QTest::newRow("nu 1, batches of 10") << 50 << 10 << 0 << 1.0;
  QTest::newRow("nu 0.5, refresh 1000") << 1000 << 0 << 0 << 0.5;
}

void TestOpenClBackend::crossCacheDoubleMatchesCpu() {
  QFETCH(int, refresh);
  QFETCH(int, batch);
  QFETCH(int, cacheSlots);
  QFETCH(double, nu);
  if (gbocltest::testDevice().info.type == "GPU") QSKIP("the CPU-device cache scheme runs on CPU devices only");
  if (!gbocltest::testDevice().info.fp64) QSKIP("device has no fp64");
  checkDoubleCache("compact_x", refresh, batch, cacheSlots, false, 12, nullptr, nullptr, nu);
}

void TestOpenClBackend::crossCacheFloatMatchesCpu() {
  if (gbocltest::testDevice().info.type == "GPU") QSKIP("the CPU-device cache scheme runs on CPU devices only");
  checkFloatCache("compact_x", false);
}

// The fused-tracked scheme (SchemeTracked.cpp) leaves the c of learners never selected as the last exact B'g left it
// and runs an exact B'g only where a bound says one of them might now win: (sqrt(r_j(g0)) + |g - g0|)^2 against the
// best tracked reduction, |g - g0|^2 summed from the steps. Here x2 = x1 + u and y = (x1 - u) / 2 with x1, u
// independent and uniform, so E[y | x2] = 0: at the start x2's reduction is nearly 0 (not tracked), and it grows as
// x1's steps move g, until x2 wins. With one exact B'g in 200 iterations (refresh 1000) only the bound's growth term
// can catch that. Same path as the CPU backend, and at least one forced exact pass.
void TestOpenClBackend::trackedSchemeCatchesALateContender() {
  if (gbocltest::testDevice().info.type == "GPU") QSKIP("the CPU-device cache scheme runs on CPU devices only");
  if (!gbocltest::testDevice().info.fp64) QSKIP("device has no fp64");
  auto made = std::make_shared<Dataset>(*paperData(3000, 6, 45));
  std::vector<double>&y = made->columns[0], &x1 = made->columns[1], &x2 = made->columns[2];
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double u = x2[i];  // x1 and u: independent, uniform
    x2[i] = x1[i] + u;
    y[i] = 0.5 * (x1[i] - u) + 0.01 * made->columns[4][i];
  }
  const std::shared_ptr<const Dataset> data = made;
  ModelSettings settings = ModelSettings::paperPreset();
  const int mstop = 200;
  Booster cpu(data, settings, std::make_unique<CpuBackend>());
  cpu.run(mstop);
  const std::vector<int>& path = cpu.path().learner;
  const auto late = std::find(path.begin(), path.end(), 1);  // x2
  QVERIFY2(late != path.end() && late - path.begin() >= 5, "x2 is selected, and only after x1's first steps");
  {  // the premise: x2 starts far below half the best (untracked) and its reduction grows until it wins
    Booster probe(data, settings, std::make_unique<CpuBackend>());
    auto reduction = [&probe](std::size_t j) {
      const CandidateScores c = probe.candidates();
      return c.residualSumOfSquares - c.rss[j];
    };
    const double start = reduction(1), best = reduction(0);
    probe.run(static_cast<int>(late - path.begin()));
    qInfo("x2's reduction: %g at the start (x1's %g), %g when it is first selected", start, best, reduction(1));
    QVERIFY(start < 0.1 * best);
    QVERIFY(reduction(1) > 10.0 * start);
  }
  auto backend = cachedBackend("double", 1000, 0);
  const OpenClBackend* raw = backend.get();
  Booster gpu(data, settings, std::move(backend));
  QCOMPARE(QString::fromStdString(raw->info().scheme), QString("fused-tracked"));
  QCOMPARE(gpu.run(mstop), mstop);
  QCOMPARE(gpu.path().learner, path);
  QVERIFY2(raw->forcedExactPasses() >= 1, "a bound forced an exact pass");
  QVERIFY(!raw->coversEveryLearner());
  expectSameRisksAndFitted(gpu, cpu);
}

// nu 1 with effects 0.6^j x_j (j = 1..12): each step fits about all of the best learner's linear effect, and the next
// one's reduction, 0.36 of it at the last exact pass, was too small to be tracked there, so nearly every iteration
// forces an exact pass. After 8 within 32 iterations (counted across batches of 10) the scheme keeps every c current
// (coverEveryLearner: the untracked learners' rows in every tracked slot, then every row of each new slot). Same path.
void TestOpenClBackend::trackedSchemeCoversEveryLearnerWhenBoundsFailOften() {
  if (gbocltest::testDevice().info.type == "GPU") QSKIP("the CPU-device cache scheme runs on CPU devices only");
  if (!gbocltest::testDevice().info.fp64) QSKIP("device has no fp64");
  auto made = std::make_shared<Dataset>(*paperData(2501, 20, 44));
  std::vector<double>& y = made->columns[0];
  for (std::size_t i = 0; i < y.size(); ++i) {
    y[i] = 0.0;
    for (int j = 1; j <= 12; ++j) y[i] += std::pow(0.6, j) * made->columns[static_cast<std::size_t>(j)][i];
  }
  const std::shared_ptr<const Dataset> data = made;
  ModelSettings settings = ModelSettings::paperPreset();
  settings.nu = 1.0;
  const int mstop = 80;
  Booster cpu(data, settings, std::make_unique<CpuBackend>());
  cpu.run(mstop);
  auto backend = cachedBackend("double", 50, 0);
  const OpenClBackend* raw = backend.get();
  Booster gpu(data, settings, std::move(backend));
  QCOMPARE(gpu.run(mstop, {}, 10), mstop);
  qInfo("forced exact passes: %ld", raw->forcedExactPasses());
  QVERIFY(raw->coversEveryLearner());
  QCOMPARE(gpu.path().learner, cpu.path().learner);
  expectSameRisksAndFitted(gpu, cpu);
}

// The GPU scheme (learner_correct_solve_select, or with fused false learner_correct_solve and learner_select_claim;
// the cache fill of opencl/CrossFill.hpp with its global compare-and-swap adds) forced on the test device; on a
// real GPU it is the default path. Both fills
// (GAMBOOST_CROSS_FILL: sorted, the default, and atomics); k from 8 to 64. With the sorted fill the fitted values
// must also agree within 1e-12 normwise: the fill's sums differ from the CPU's only in order (~1e-15 relative per
// cross-product), and the path repeats the same 120 steps.
void TestOpenClBackend::gpuVariantCacheDoubleMatchesCpu_data() {
  QTest::addColumn<QString>("fill");
  QTest::addColumn<QString>("kernel");
  QTest::addColumn<int>("refresh");
  QTest::addColumn<int>("batch");
  QTest::addColumn<int>("cacheSlots");
  QTest::addColumn<int>("knots");
  QTest::addColumn<bool>("fused");          // GAMBOOST_FUSED_SELECT
  QTest::addColumn<bool>("unfusedUpdate");  // GAMBOOST_FUSED_FILL=0, GAMBOOST_RESIDUAL_UPDATE=0, GAMBOOST_CACHE_COPY=0
  QTest::newRow("sorted, compact_x, refresh 9, batches of 4") << "sorted"
                                                              << "compact_x" << 9 << 4 << 0 << 12 << true << false;
  QTest::newRow("sorted, unfused select, refresh 9, batches of 4")
      << "sorted"
      << "compact_x" << 9 << 4 << 0 << 12 << false << false;
  QTest::newRow("sorted, compact_sorted, 8 slots, evicted")
      << "sorted"
      << "compact_sorted" << 1000 << 5 << 8 << 12 << true << false;
  QTest::newRow("sorted, compact, refresh 50, one batch") << "sorted"
                                                          << "compact" << 50 << 0 << 0 << 12 << true << false;
  QTest::newRow("sorted, k 8, refresh 1000") << "sorted"
                                             << "compact_x" << 1000 << 0 << 0 << 4 << true << false;
  QTest::newRow("sorted, k 64, refresh 9, batches of 4") << "sorted"
                                                         << "compact_x" << 9 << 4 << 0 << 60 << true << false;
  QTest::newRow("atomics, compact_x, refresh 9, batches of 4") << "atomics"
                                                               << "compact_x" << 9 << 4 << 0 << 12 << true << false;
  QTest::newRow("atomics, k 64, refresh 1000") << "atomics"
                                               << "compact_x" << 1000 << 0 << 0 << 60 << true << false;
  QTest::newRow("atomics, update and fill apart, mu kept") << "atomics"
                                                           << "compact_x" << 9 << 4 << 0 << 12 << true << true;
  QTest::newRow("sorted, mu kept, refresh 9, batches of 4") << "sorted"
                                                            << "compact_x" << 9 << 4 << 0 << 12 << true << true;
}

void TestOpenClBackend::gpuVariantCacheDoubleMatchesCpu() {
  QFETCH(QString, fill);
  QFETCH(QString, kernel);
  QFETCH(int, refresh);
  QFETCH(int, batch);
  QFETCH(int, cacheSlots);
  QFETCH(int, knots);
  QFETCH(bool, fused);
  QFETCH(bool, unfusedUpdate);
  if (!gbocltest::testDevice().info.fp64) QSKIP("device has no fp64");
  qputenv("GAMBOOST_CROSS_FILL", fill.toUtf8());
  qputenv("GAMBOOST_FUSED_SELECT", fused ? "1" : "0");
  qputenv("GAMBOOST_FUSED_FILL", unfusedUpdate ? "0" : "1");
  qputenv("GAMBOOST_RESIDUAL_UPDATE", unfusedUpdate ? "0" : "1");
  qputenv("GAMBOOST_CACHE_COPY", unfusedUpdate ? "0" : "1");
  double fitted = 1.0;
  std::string scheme;
  checkDoubleCache(kernel.toStdString(), refresh, batch, cacheSlots, true, knots, &fitted, &scheme);
  qunsetenv("GAMBOOST_CROSS_FILL");
  qunsetenv("GAMBOOST_FUSED_SELECT");
  qunsetenv("GAMBOOST_FUSED_FILL");
  qunsetenv("GAMBOOST_RESIDUAL_UPDATE");
  qunsetenv("GAMBOOST_CACHE_COPY");
  if (QTest::currentTestFailed()) return;
  // Which update ran: with the fill's first launch (the atomics fill, or the sorted fill's count) and on g alone
  // wherever x is on the device.
  const bool x = kernel != "compact";
  QCOMPARE(scheme.find("with the update") != std::string::npos, x && !unfusedUpdate);
  QCOMPARE(scheme.find("residual update") != std::string::npos, x && !unfusedUpdate);
  if (QTest::currentTestFailed()) return;
  qInfo("fitted values within %.2e normwise of the CPU backend's", fitted);
  if (fill == "sorted") QVERIFY2(fitted <= 1e-12, qPrintable(QString("fitted differ by %1 normwise").arg(fitted)));
}

void TestOpenClBackend::gpuVariantCacheFloatMatchesCpu_data() {
  QTest::addColumn<QString>("fill");
  QTest::newRow("sorted") << "sorted";
  QTest::newRow("atomics") << "atomics";
}

void TestOpenClBackend::gpuVariantCacheFloatMatchesCpu() {
  QFETCH(QString, fill);
  qputenv("GAMBOOST_CROSS_FILL", fill.toUtf8());
  checkFloatCache("compact_x", true);
  qunsetenv("GAMBOOST_CROSS_FILL");
}

QTEST_APPLESS_MAIN(TestOpenClBackend)
#include "test_opencl_backend.moc"

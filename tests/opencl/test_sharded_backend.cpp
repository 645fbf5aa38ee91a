// The row-sharded backend (compute/ShardedBackend.hpp) with two OpenCL shards (opencl/OpenClShard.hpp) against the
// single-device OpenCL backend, in double: the selection path is identical and the risks and fitted values agree
// within 1e-12 (relative, normwise for the fitted values): the same arithmetic, the sums over rows split in two and
// added in shard order. The shards are two sub-devices of the test device (clCreateSubDevices, "P:D/2"); where the
// device cannot be split, the same device twice (printed). Cases: Gaussian with the host-side cross-product cache
// (refresh intervals shorter than mstop, so exact refreshes and cached steps both run), Binomial, case weights, linear
// and factor learners, a resampling fold's out-of-bag risk; and the makeBackend/--devices addressing errors.
#include <QRegularExpression>
#include <QtTest>
#include <cmath>
#include <random>

#include "OpenClTestUtil.hpp"
#include "common/Error.hpp"
#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/ShardedBackend.hpp"
#include "data/PaperData.hpp"
#include "opencl/DeviceAddress.hpp"
#include "opencl/OpenClBackend.hpp"
#include "opencl/OpenClShard.hpp"

using namespace gb;

namespace {

constexpr unsigned kSeed = 915347;

std::shared_ptr<const Dataset> randomData(std::size_t n) {
  qInfo("random data: %zu rows, seed %u", n, kSeed);
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto d = std::make_shared<Dataset>();
  d->source = "random";
  d->names = {"y", "bin", "w", "x1", "x2", "x3", "lin", "fac"};
  d->columns.assign(d->names.size(), std::vector<double>(n));
  d->kinds.assign(d->names.size(), ColumnKind::Numeric);
  d->levels.assign(d->names.size(), {});
  d->kinds[7] = ColumnKind::Text;
  d->levels[7] = {"a", "b", "c", "d"};
  for (std::size_t i = 0; i < n; ++i) {
    const double x1 = u(rng), x2 = u(rng), x3 = u(rng), lin = 2 * u(rng) - 1;
    const int fac = static_cast<int>(4 * u(rng));
    const double eta = std::sin(5 * x1) + (x2 - 0.5) + 0.5 * lin + 0.3 * fac;
    const double row[] = {eta + 0.3 * (u(rng) - 0.5),
                          u(rng) < 1 / (1 + std::exp(-2 * eta)) ? 1.0 : 0.0,
                          static_cast<double>(rng() % 4),
                          x1,
                          x2,
                          x3,
                          lin,
                          static_cast<double>(fac)};
    for (std::size_t c = 0; c < d->names.size(); ++c) d->columns[c][i] = row[c];
  }
  return d;
}

// Settings for randomData: splines of x1..x3 (knots 8), mstop 60, nu 0.2; with ols the linear learner lin and the
// factor fac, with weights the case weights w.
ModelSettings randomDataSettings(Family family, const QString& response, bool ols, bool weights) {
  ModelSettings s;
  s.family = family;
  s.response = response.toStdString();
  s.spline.knots = 8;
  s.mstop = 60;
  s.nu = 0.2;
  s.learners = {"x1", "x2", "x3"};
  if (ols) {
    s.linears = {"lin"};
    s.factors = {"fac"};
  }
  if (weights) s.weights = "w";
  return s;
}

// The test device's address split in two, or the device twice where it cannot be split.
std::vector<ocl::Device> twoShardDevices() {
  const ocl::Device device = gbocltest::testDevice();
  try {
    return ocl::subDevices(device, 2, "test");
  } catch (const InputError& e) {
    qInfo("no sub-devices (%s): the same device twice", e.what());
    return {device, device};
  }
}

// Two shards in double with compact_x: on the device's two halves, or (sameDevice) on the whole device twice; gpu runs
// the GPU kernel variants (and the one-pass cross-product fill) on any device.
std::unique_ptr<ShardedBackend> twoShards(int refresh = IterationPolicy::kDefaultRefreshInterval, bool gpu = false,
                                          bool sameDevice = false) {
  const ocl::Device device = gbocltest::testDevice();
  const std::vector<ocl::Device> devices = sameDevice ? std::vector<ocl::Device>{device, device} : twoShardDevices();
  std::vector<std::unique_ptr<RowShard>> shards;
  for (const ocl::Device& d : devices) shards.push_back(std::make_unique<ocl::OpenClShard>(d, "compact_x", true, gpu));
  auto backend = std::make_unique<ShardedBackend>(std::move(shards));
  backend->setRefreshInterval(refresh);
  return backend;
}

std::unique_ptr<Backend> singleDevice(int refresh = IterationPolicy::kDefaultRefreshInterval, bool gpu = false) {
  ComputeSettings c;
  c.backend = BackendKind::OpenCl;
  c.precision = Precision::Double;
  c.kernel = "compact_x";
  auto backend = std::make_unique<OpenClBackend>(c);
  backend->setRefreshInterval(refresh);
  backend->setForceGpuKernels(gpu);
  return backend;
}

double normwiseRelative(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]) * (a[i] - b[i]);
    norm += b[i] * b[i];
  }
  return std::sqrt(diff / norm);
}

void expectSameFit(const Booster& sharded, const Booster& single) {
  QCOMPARE(sharded.path().learner, single.path().learner);
  QCOMPARE(sharded.path().risk.size(), single.path().risk.size());
  for (std::size_t m = 0; m < single.path().risk.size(); ++m)
    QVERIFY2(std::abs(sharded.path().risk[m] - single.path().risk[m]) <= 1e-12 * std::abs(single.path().risk[m]),
             qPrintable(QString("risk %1: %2 vs %3")
                            .arg(m)
                            .arg(sharded.path().risk[m], 0, 'g', 17)
                            .arg(single.path().risk[m], 0, 'g', 17)));
  QCOMPARE(sharded.fitted().size(), single.fitted().size());
  const double e = normwiseRelative(sharded.fitted(), single.fitted());
  QVERIFY2(e <= 1e-12, qPrintable(QString("fitted differ by %1 normwise").arg(e)));
  double worst = 0.0;
  for (std::size_t m = 0; m < single.path().risk.size(); ++m)
    worst = std::max(worst, std::abs(sharded.path().risk[m] - single.path().risk[m]) / single.path().risk[m]);
  qInfo("%s: fitted %.2e normwise, risk %.2e relative at most", sharded.backendInfo().device.c_str(), e, worst);
}

}  // namespace

class TestShardedBackend : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!gbocltest::testDevice().info.fp64) QSKIP("device has no fp64");
    twoShardDevices();
  }
  void cleanup() { qunsetenv("GAMBOOST_CROSS_FILL"); }
  void gaussianCachedEqualsSingleDevice_data();
  void gaussianCachedEqualsSingleDevice();
  void familiesEqualSingleDevice_data();
  void familiesEqualSingleDevice();
  void foldEqualsSingleDevice();
  void piecesOfDevicesEqualSingleDevice_data();
  void piecesOfDevicesEqualSingleDevice();
  void shardRowsAreContiguous();
  void floatShardsCarryAResponseFarFromZero();
  void devicesAddressedBySettings();
  void badDevicesAreInputErrors_data();
  void badDevicesAreInputErrors();
};

void TestShardedBackend::gaussianCachedEqualsSingleDevice_data() {
  QTest::addColumn<int>("refresh");
  QTest::addColumn<int>("batch");
  QTest::addColumn<bool>("gpu");
  QTest::addColumn<bool>("sameDevice");
  QTest::addColumn<QString>("fill");  // GAMBOOST_CROSS_FILL of the GPU variants ("": the default, sorted)
  QTest::newRow("device's own kernels") << 50 << 0 << false << false << "";
  QTest::newRow("no cache (refresh 0)") << 0 << 0 << false << false << "";
  QTest::newRow("GPU kernel variants, cache, refresh 50") << 50 << 0 << true << false << "";
  QTest::newRow("GPU kernel variants, cache, refresh 7, batches of 11") << 7 << 11 << true << false << "";
  QTest::newRow("GPU kernel variants, atomics fill, refresh 7") << 7 << 0 << true << false << "atomics";
  QTest::newRow("the same device twice, cache") << 50 << 0 << true << true << "";
}

void TestShardedBackend::gaussianCachedEqualsSingleDevice() {
  QFETCH(int, refresh);
  QFETCH(int, batch);
  QFETCH(bool, gpu);
  QFETCH(bool, sameDevice);
  QFETCH(QString, fill);
  if (!fill.isEmpty()) qputenv("GAMBOOST_CROSS_FILL", fill.toUtf8());
  PaperDataSpec spec;
  spec.rows = 3001;
  spec.covariates = 12;
  spec.informative = 6;
  spec.seed = 41;
  const auto data = std::make_shared<const Dataset>(generatePaperData(spec).data);
  ModelSettings settings = ModelSettings::paperPreset();
  settings.mstop = 120;
  Booster single(data, settings, singleDevice(refresh, gpu));
  single.run(settings.mstop);
  Booster sharded(data, settings, twoShards(refresh, gpu, sameDevice));
  qunsetenv("GAMBOOST_CROSS_FILL");
  QCOMPARE(sharded.run(settings.mstop, {}, batch), settings.mstop);
  QCOMPARE(sharded.backendInfo().backend, std::string("sharded"));
  // The cache where the shards fill B_j'B_l in one pass (GPU kernels); else exact c every iteration.
  const bool cached = refresh > 1 && (gpu || gbocltest::testDevice().info.type == "GPU");
  QCOMPARE(sharded.backendInfo().scheme, std::string(cached ? "sharded-cached" : "sharded-gradient"));
  QVERIFY(sharded.backendInfo().device.rfind("2 shards: ", 0) == 0);
  // The measured exchange: "exchange <t> us/iteration, <b> B/iteration", at least the step sent to both shards.
  const QRegularExpression exchange("^exchange [0-9]+ us/iteration, ([0-9]+) B/iteration$");
  const QRegularExpressionMatch m = exchange.match(QString::fromStdString(sharded.backendInfo().tuning));
  QVERIFY2(m.hasMatch(), sharded.backendInfo().tuning.c_str());
  QVERIFY(m.captured(1).toLongLong() >= 2 * (8 * static_cast<long long>(sharded.learners()[0].numColumns()) + 4));
  expectSameFit(sharded, single);
  // The teaching view's race: every candidate's RSS as the single device scores it.
  const CandidateScores a = sharded.candidates(), b = single.candidates();
  QVERIFY(std::abs(a.residualSumOfSquares - b.residualSumOfSquares) <= 1e-12 * b.residualSumOfSquares);
  for (std::size_t j = 0; j < b.rss.size(); ++j) QVERIFY(std::abs(a.rss[j] - b.rss[j]) <= 1e-10 * b.rss[j]);
}

void TestShardedBackend::familiesEqualSingleDevice_data() {
  QTest::addColumn<int>("family");
  QTest::addColumn<QString>("response");
  QTest::addColumn<bool>("weights");
  QTest::addColumn<bool>("ols");
  QTest::newRow("binomial") << int(Family::Binomial) << "bin" << false << false;
  QTest::newRow("binomial, weights, linear + factor") << int(Family::Binomial) << "bin" << true << true;
  QTest::newRow("gaussian, weights") << int(Family::Gaussian) << "y" << true << false;
  QTest::newRow("gaussian, linear + factor") << int(Family::Gaussian) << "y" << false << true;
}

void TestShardedBackend::familiesEqualSingleDevice() {
  QFETCH(int, family);
  QFETCH(QString, response);
  QFETCH(bool, weights);
  QFETCH(bool, ols);
  const auto data = randomData(1201);
  const ModelSettings s = randomDataSettings(static_cast<Family>(family), response, ols, weights);
  Booster single(data, s, singleDevice());
  single.run(s.mstop);
  Booster sharded(data, s, twoShards());
  sharded.run(s.mstop);
  QCOMPARE(sharded.backendInfo().scheme, std::string("sharded-gradient"));
  expectSameFit(sharded, single);
  if (ols) {  // the linear and factor learners took part in the race
    bool olsSelected = false;
    for (int j : sharded.path().learner) olsSelected = olsSelected || j >= 3;
    QVERIFY(olsSelected);
  }
}

void TestShardedBackend::foldEqualsSingleDevice() {
  // A cross-validation fold's fit: fold weights (0 for the out-of-bag rows) and the out-of-bag risk.
  const auto data = randomData(901);
  ModelSettings s;
  s.response = "y";
  s.spline.knots = 8;
  s.mstop = 40;
  s.learners = {"x1", "x2", "x3"};
  std::vector<double> fold(data->columns[0].size());
  for (std::size_t i = 0; i < fold.size(); ++i) fold[i] = i % 5 == 2 ? 0.0 : 1.0;
  Booster single(data, s, singleDevice(), fold, "fold 1");
  single.run(s.mstop);
  Booster sharded(data, s, twoShards(), fold, "fold 1");
  sharded.run(s.mstop);
  expectSameFit(sharded, single);
}

void TestShardedBackend::piecesOfDevicesEqualSingleDevice_data() {
  QTest::addColumn<int>("family");
  QTest::addColumn<QString>("response");
  QTest::addColumn<bool>("ols");
  QTest::newRow("gaussian, cache (GPU kernel variants)") << int(Family::Gaussian) << "y" << false;
  QTest::newRow("binomial, weights, linear + factor") << int(Family::Binomial) << "bin" << true;
}

void TestShardedBackend::piecesOfDevicesEqualSingleDevice() {
  // A device whose rows one shard cannot hold (RowShard::maxRows: its largest allocation; here a cap of 430 rows)
  // gets several pieces on it: 1301 rows over 2 devices are 651 + 650 rows, 2 pieces each.
  QFETCH(int, family);
  QFETCH(QString, response);
  QFETCH(bool, ols);
  const auto data = randomData(1301);
  const ModelSettings s = randomDataSettings(static_cast<Family>(family), response, ols, ols);
  Booster single(data, s, singleDevice(IterationPolicy::kDefaultRefreshInterval, !ols));
  single.run(s.mstop);
  auto backend = twoShards(IterationPolicy::kDefaultRefreshInterval, !ols);
  ShardedBackend* sharded = backend.get();
  sharded->setMaxShardRows(430);
  Booster pieces(data, s, std::move(backend));
  pieces.run(s.mstop);
  QCOMPARE(sharded->deviceCount(), std::size_t(2));
  QCOMPARE(sharded->shardCount(), std::size_t(4));
  const std::string device = pieces.backendInfo().device;
  QVERIFY2(device.rfind("4 shards: ", 0) == 0 && device.find("(2 pieces)") != std::string::npos, device.c_str());
  QCOMPARE(pieces.backendInfo().scheme, std::string(ols ? "sharded-gradient" : "sharded-cached"));
  expectSameFit(pieces, single);
}

// Float shards keep y - offset on their devices, as one device does (opencl/ResponseShift.hpp): with y near 1e6 the
// effect, fitted minus 1e6, stalled at half its range. It must follow the CPU's within 1e-4 of its range (float
// rounding of values of size 1), cached (gaussian) and on the gradient path (case weights).
void TestShardedBackend::floatShardsCarryAResponseFarFromZero() {
  auto data = std::make_shared<Dataset>(*randomData(1201));
  for (double& y : data->columns[0]) y += 1e6;
  for (const bool weights : {false, true}) {
    const ModelSettings s = randomDataSettings(Family::Gaussian, "y", false, weights);
    std::vector<std::unique_ptr<RowShard>> shards;
    for (const ocl::Device& d : twoShardDevices())
      shards.push_back(std::make_unique<ocl::OpenClShard>(d, "compact_x", false));
    Booster sharded(data, s, std::make_unique<ShardedBackend>(std::move(shards)));
    sharded.run(s.mstop);
    Booster cpu(data, s, std::make_unique<CpuBackend>(1));
    cpu.run(s.mstop);
    const double e = gbocltest::maxErrorOverRange(sharded.fitted(), cpu.fitted());
    QVERIFY2(e < 1e-4, qPrintable(QString("weights %1: fitted within %2 of the effect's range").arg(weights).arg(e)));
  }
}

void TestShardedBackend::shardRowsAreContiguous() {
  for (std::size_t shards : {1, 2, 3, 4})
    for (std::size_t n : {4, 5, 7, 1000, 1001}) {
      std::size_t next = 0;
      for (std::size_t s = 0; s < shards; ++s) {
        const auto [b, e] = ShardedBackend::shardRows(n, shards, s);
        QCOMPARE(b, next);
        QVERIFY(e - b == n / shards || e - b == n / shards + 1);
        next = e;
      }
      QCOMPARE(next, n);
    }
}

void TestShardedBackend::devicesAddressedBySettings() {
  // Every listed device has an address P:D, and --device takes it as well as a name.
  const std::vector<ocl::Device> all = ocl::listDevices();
  QVERIFY(!all.empty());
  for (const ocl::Device& d : all) QVERIFY(ocl::looksLikeAddress(d.info.address));
  const ocl::Device byAddress = ocl::chooseDevice(all.back().info.address);
  QCOMPARE(byAddress.id, all.back().id);
  // --devices "P:D/2" through makeBackend: a two-shard backend on the device's halves.
  const ocl::Device device = gbocltest::testDevice();
  ComputeSettings c;
  c.backend = BackendKind::OpenCl;
  c.precision = Precision::Double;
  c.devices = {device.info.address + "/2"};
  try {
    auto backend = makeBackend(c);
    auto* sharded = dynamic_cast<ShardedBackend*>(backend.get());
    QVERIFY(sharded != nullptr);
    QCOMPARE(sharded->shardCount(), std::size_t(2));
  } catch (const InputError& e) {
    QSKIP(qPrintable(QString("the test device cannot be split: %1").arg(e.what())));
  }
}

void TestShardedBackend::badDevicesAreInputErrors_data() {
  QTest::addColumn<QString>("backend");
  QTest::addColumn<QStringList>("devices");
  QTest::addColumn<QString>("expected");
  QTest::newRow("unknown platform") << "opencl" << QStringList{"99:0"} << "--devices: no OpenCL device at 99:0";
  QTest::newRow("unknown device") << "opencl" << QStringList{"0:99"} << "--devices: no OpenCL device at 0:99";
  QTest::newRow("one part") << "opencl" << QStringList{"0:0/1"} << "fewer than 2 parts";
  QTest::newRow("too many parts") << "opencl" << QStringList{"0:0/4096"} << "cannot be split into 4096";
  QTest::newRow("unknown name") << "opencl" << QStringList{"no such device"} << "no OpenCL device matches";
  QTest::newRow("named twice") << "opencl" << QStringList{"0:0", "0:0"} << "is named twice";
  QTest::newRow("empty entry") << "opencl" << QStringList{""} << "an empty entry";
  QTest::newRow("cpu backend") << "cpu" << QStringList{"0:0"} << "--devices: the sharded backend runs on OpenCL";
}

void TestShardedBackend::badDevicesAreInputErrors() {
  QFETCH(QString, backend);
  QFETCH(QStringList, devices);
  QFETCH(QString, expected);
  ComputeSettings c;
  c.backend = backendFromString(backend.toStdString());
  for (const QString& d : devices) c.devices.push_back(d.toStdString());
  try {
    makeBackend(c);
    QFAIL("no error");
  } catch (const InputError& e) {
    QVERIFY2(QString(e.what()).contains(expected), e.what());
  }
}

QTEST_APPLESS_MAIN(TestShardedBackend)
#include "test_sharded_backend.moc"

// Bootstrap bands (compute/EffectBands.hpp) on the OpenCL backend, where the refits advance together as one fold
// batch (opencl/FoldPath.hpp), against the same bands on the CPU backend (refits one by one, and in parallel): in
// double every band value within 1e-9 relative to the effects' scale (the same refits, sums in other orders), in
// float within 1e-3.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <random>

#include "OpenClTestUtil.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/EffectBands.hpp"
#include "opencl/OpenClBackend.hpp"

using namespace gb;

namespace {

constexpr unsigned kSeed = 777;

std::shared_ptr<const Dataset> randomData(std::size_t n) {
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto d = std::make_shared<Dataset>();
  d->source = "random";
  d->names = {"y", "x1", "x2", "x3"};
  d->columns.assign(d->names.size(), std::vector<double>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const double x1 = u(rng), x2 = u(rng), x3 = u(rng);
    d->columns[0][i] = std::sin(5 * x1) + 2 * (x2 - 0.5) * (x2 - 0.5) + 0.3 * (u(rng) - 0.5);
    d->columns[1][i] = x1;
    d->columns[2][i] = x2;
    d->columns[3][i] = x3;
  }
  return d;
}

// The largest difference of any band value, relative to the largest |value|.
double relative(const EffectBands& a, const EffectBands& b) {
  double diff = 0.0, scale = 1e-12;
  for (std::size_t j = 0; j < a.learners.size(); ++j)
    for (auto member : {&LearnerBand::effect, &LearnerBand::lower95, &LearnerBand::lower90, &LearnerBand::upper90,
                        &LearnerBand::upper95}) {
      const std::vector<double>& x = a.learners[j].*member;
      const std::vector<double>& y = b.learners[j].*member;
      for (std::size_t i = 0; i < x.size(); ++i) {
        diff = std::max(diff, std::abs(x[i] - y[i]));
        scale = std::max(scale, std::abs(y[i]));
      }
    }
  return diff / scale;
}

}  // namespace

class TestOpenClBands : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %u", kSeed); }

  void batchedRefitsMatchTheCpu() {
    ModelSettings s;
    s.spline.knots = 8;
    s.mstop = 50;
    s.nu = 0.2;
    s.learners = {"x1", "x2", "x3"};
    const auto data = randomData(500);
    Booster fitted(data, s, std::make_unique<CpuBackend>(1));
    fitted.run(s.mstop);
    auto cpuMaker = [] { return std::make_unique<CpuBackend>(1); };
    const std::optional<EffectBands> cpu = effectBands(data, fitted, 40, kSeed, cpuMaker, 1);  // > 32: two batches
    const std::optional<EffectBands> cpu2 = effectBands(data, fitted, 40, kSeed, cpuMaker, 2);
    QVERIFY(cpu && cpu2);
    QVERIFY(!cpu->batched);
    QCOMPARE(relative(*cpu2, *cpu), 0.0);  // the same refits whichever thread runs them
    for (const char* precision : {"double", "float"}) {
      const bool isDouble = std::string(precision) == "double";
      if (isDouble && !gbocltest::testDevice().info.fp64) continue;
      ComputeSettings c;
      c.backend = BackendKind::OpenCl;
      c.precision = precisionFromString(precision);
      const std::optional<EffectBands> gpu = effectBands(
          data, fitted, 40, kSeed, [&] { return std::make_unique<OpenClBackend>(c); }, 1);
      QVERIFY(gpu);
      const double err = relative(*gpu, *cpu);
      qInfo("%s: bands within %.2e of the CPU's (batched %d)", precision, err, gpu->batched);
      QVERIFY(gpu->batched);
      QVERIFY2(err < (isDouble ? 1e-9 : 1e-3), precision);
    }
  }

  // Binomial with one event: the samples without it cannot be fitted and are left out, once each, batched or not.
  // With a linear learner the OpenCL backend does not batch: the first batch's samples were asked for before the
  // run fell back to one refit after another (they were counted twice: more samples left out than drawn).
  void samplesOfOneClassAreLeftOutOnce() {
    auto data = std::make_shared<Dataset>(*randomData(300));
    std::vector<double>& y = data->columns[0];
    const auto top = std::max_element(y.begin(), y.end()) - y.begin();
    for (double& v : y) v = 0.0;
    y[static_cast<std::size_t>(top)] = 1.0;
    for (const bool linear : {false, true}) {
      ModelSettings s;
      s.family = Family::Binomial;
      s.spline.knots = 6;
      s.mstop = 20;
      s.learners = {"x1", "x2"};
      if (linear) s.linears = {"x3"};
      Booster fitted(data, s, std::make_unique<CpuBackend>(1));
      fitted.run(s.mstop);
      auto cpuMaker = [] { return std::make_unique<CpuBackend>(1); };
      const std::optional<EffectBands> cpu = effectBands(data, fitted, 40, kSeed, cpuMaker, 2);
      QVERIFY(cpu);
      QVERIFY2(cpu->unfitted > 0 && cpu->unfitted < 40, qPrintable(QString::number(cpu->unfitted)));
      ComputeSettings c;
      c.backend = BackendKind::OpenCl;
      c.precision = precisionFromString(gbocltest::testDevice().info.fp64 ? "double" : "float");
      int reported = 0;
      BandsMonitor monitor;
      monitor.replicateDone = [&reported](int done) { reported = std::max(reported, done); };
      const std::optional<EffectBands> gpu = effectBands(
          data, fitted, 40, kSeed, [&] { return std::make_unique<OpenClBackend>(c); }, 1, monitor);
      QVERIFY(gpu);
      QCOMPARE(gpu->batched, !linear);
      QCOMPARE(gpu->unfitted, cpu->unfitted);
      QCOMPARE(gpu->unfittedReason, cpu->unfittedReason);  // the lowest-numbered sample, whichever thread drew it
      QCOMPARE(reported, 40);
      for (std::size_t j = 0; j < cpu->learners.size(); ++j)
        QCOMPARE(gpu->learners[j].replicatesUsed, cpu->learners[j].replicatesUsed);
      const double err = relative(*gpu, *cpu);
      qInfo("linear %d: %d of 40 samples left out; bands within %.2e of the CPU's", linear, gpu->unfitted, err);
      QVERIFY(err < (c.precision == Precision::Double ? 1e-9 : 1e-3));
    }
  }
};

QTEST_GUILESS_MAIN(TestOpenClBands)
#include "test_opencl_bands.moc"

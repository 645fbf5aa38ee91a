// The profiling hook of engine/opencl/ClRuntime: with a RunProfile active, every kernel launch of an OpenCL fit is
// recorded under its kernel's name with its device time, and uploads and downloads with their bytes; with none
// active, no event is requested at all.
#include <QtTest>

#include "OpenClTestUtil.hpp"
#include "common/RunProfile.hpp"
#include "compute/Booster.hpp"
#include "data/PaperData.hpp"
#include "opencl/OpenClBackend.hpp"

using namespace gb;
using gbocltest::testDevice;

namespace {

constexpr std::uint64_t kSeed = 11;

std::shared_ptr<const Dataset> paperData() {
  PaperDataSpec spec;
  spec.rows = 400;
  spec.covariates = 5;
  spec.informative = 2;
  spec.seed = kSeed;
  return std::make_shared<const Dataset>(generatePaperData(spec).data);
}

std::unique_ptr<Booster> openClBooster(int mstop, Family family = Family::Gaussian) {
  ComputeSettings c;
  c.backend = BackendKind::OpenCl;
  ModelSettings s;
  s.mstop = mstop;
  s.spline.knots = 6;
  s.family = family;
  return std::make_unique<Booster>(paperData(), s, std::make_unique<OpenClBackend>(c));
}

}  // namespace

class TestOpenClProfile : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    testDevice();
    qInfo("seed %llu", static_cast<unsigned long long>(kSeed));
  }

  void noProfileRequestsNoEvents() {
    const std::uint64_t before = ocl::profiledLaunches();
    auto booster = openClBooster(20);
    booster->run(20);
    QCOMPARE(booster->iteration(), 20);
    QCOMPARE(ocl::profiledLaunches(), before);
  }

  void profiledFitRecordsKernelsAndTransfers_data() {
    QTest::addColumn<int>("family");
    QTest::newRow("gaussian") << static_cast<int>(Family::Gaussian);
    QTest::newRow("laplace (gradient path)") << static_cast<int>(Family::Laplace);
  }

  void profiledFitRecordsKernelsAndTransfers() {
    QFETCH(int, family);
    RunProfile profile;
    const std::uint64_t before = ocl::profiledLaunches();
    {
      const RunProfile::Activation on(profile);
      auto booster = openClBooster(30, static_cast<Family>(family));
      booster->run(30);
      (void)booster->fitted();
    }
    const std::vector<ProfileKernel> kernels = profile.kernels();
    QVERIFY(!kernels.empty());
    std::uint64_t launches = 0;
    for (const ProfileKernel& k : kernels) {
      QVERIFY2(!k.name.empty() && k.count > 0, k.name.c_str());
      QVERIFY2(k.seconds > 0.0, k.name.c_str());  // event timestamps, END after START
      launches += k.count;
    }
    QCOMPARE(ocl::profiledLaunches() - before, launches);  // every requested event reached the profile
    QCOMPARE(profile.pendingEvents(), std::size_t(0));
    QVERIFY(profile.stage("upload").bytes >= 400 * 5 * sizeof(float));  // at least the covariates went up
    QVERIFY(profile.stage("download").bytes >= 400 * sizeof(float));    // fitted() brought mu back
    QCOMPARE(profile.stage("iterations").calls > 0, true);
    QCOMPARE(profile.stage("backend set-up").calls, std::uint64_t(1));
  }
};

QTEST_GUILESS_MAIN(TestOpenClProfile)
#include "test_opencl_profile.moc"

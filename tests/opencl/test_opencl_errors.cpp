// Every refusal of the OpenCL backend says what was wrong, naming the option, and comes before any allocation.
// (No OpenCL platform at all is test_opencl_no_platform: it must set OCL_ICD_VENDORS before the first call.)
#include <QtTest>

#include "OpenClTestUtil.hpp"
#include "common/Error.hpp"
#include "compute/Backend.hpp"
#include "opencl/OpenClBackend.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

using namespace gb;

namespace {

ComputeSettings openCl(const std::string& kernel = "", const std::string& precision = "") {
  ComputeSettings c;
  c.backend = gb::BackendKind::OpenCl;
  c.kernel = kernel;
  c.precision = gb::precisionFromString(precision);
  return c;
}

// The InputError message of `f`, or a failure if it throws anything else or nothing.
template <typename F>
QString inputErrorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return "(no InputError thrown)";
}

// A problem with `learners` covariates of `rows` rows and cheap learners of `knots` knots (no P/Q: the checks under
// test come first).
struct FakeProblem {
  std::vector<double> y;
  std::vector<std::vector<double>> x;
  std::vector<Learner> learners;
  BoostProblem problem;

  FakeProblem(std::size_t rows, int count, int knots, double yValue) {
    y.assign(rows, yValue);
    x.assign(static_cast<std::size_t>(count), gbocltest::uniform(rows, 0.0, 1.0, 5));
    for (int j = 0; j < count; ++j) {
      const auto [lo, hi] = std::minmax_element(x[j].begin(), x[j].end());
      learners.push_back(Learner{"x" + std::to_string(j),
                                 j,
                                 SplineBasis(*lo, *hi, SplineSpec{knots, 3}),
                                 LearnerType::Spline,
                                 {},
                                 {},
                                 {},
                                 0.0,
                                 0.0,
                                 "",
                                 {},
                                 {}});
    }
    problem.rows = rows;
    problem.response = &y;
    for (const auto& column : x) problem.covariates.push_back(&column);
    problem.learners = &learners;
    problem.offset = yValue;
  }
};

}  // namespace

class TestOpenClErrors : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { gbocltest::testDevice(); }

  void unknownBackend() {
    // Compute settings are enums; the one way in for a word is backendFromString (CLI, JSON, window).
    const QString m = inputErrorOf([&] { gb::backendFromString("quantum"); });
    QVERIFY2(m.startsWith("--backend: must be 'cpu' or 'opencl' (got 'quantum')"), qPrintable(m));
  }

  void unknownDevice() {
    ComputeSettings c = openCl();
    c.device = "no-such-device-xyz";
    const QString m = inputErrorOf([&] { makeBackend(c); });
    QVERIFY2(m.startsWith("--device: no OpenCL device matches 'no-such-device-xyz'"), qPrintable(m));
    QVERIFY2(m.contains(QString::fromStdString(gbocltest::testDevice().info.name)), qPrintable(m));  // lists them
  }

  void unknownKernel() {
    const QString m = inputErrorOf([&] { makeBackend(openCl("v3")); });
    QVERIFY2(m.startsWith("--kernel: unknown kernel 'v3' (compact_x, compact, compact_sorted, naive"), qPrintable(m));
  }

  void badPrecisionName() {
    const QString m = inputErrorOf([&] { makeBackend(openCl("", "half")); });
    QVERIFY2(m.startsWith("--precision: must be 'double' or 'float'"), qPrintable(m));
  }

  void doubleWithoutFp64() {
    ComputeDeviceInfo device = gbocltest::testDevice().info;
    device.fp64 = false;
    const QString m = inputErrorOf([&] { ocl::resolveDoublePrecision("double", device); });
    QVERIFY2(m.startsWith("--precision double: device " + QString::fromStdString(device.name) + " has no cl_khr_fp64"),
             qPrintable(m));
    QCOMPARE(ocl::resolveDoublePrecision("float", device), false);
    device.fp64 = true;
    QCOMPARE(ocl::resolveDoublePrecision("double", device), true);
  }

  void floatOverflowIsRefused() {
    QVERIFY(inputErrorOf([] { ocl::checkFloatRange({1.0, -3e18}); }).contains("|y| = 3e+18"));
    // 1e4 rows of 1e17: n max(y^2) = 1e38 > FLT_MAX / 4 although each value fits.
    const QString m = inputErrorOf([] { ocl::checkFloatRange(std::vector<double>(10000, 1e17)); });
    QVERIFY2(m.startsWith("--precision float: n * max(y^2) = 1e+38") && m.contains("--precision double"),
             qPrintable(m));
    QCOMPARE(inputErrorOf([] { ocl::checkFloatRange(std::vector<double>(10000, 1e15)); }),
             QString("(no InputError thrown)"));
    // A spline covariate beyond float's range, and weights beyond float sums: named before the fit (they diverged,
    // blaming double precision).
    auto spline = [](double hi, double lo = 0.0) {
      return Learner{"x",
                     1,
                     SplineBasis(lo, hi, SplineSpec{4, 3, Boundary::Extended}),
                     LearnerType::Spline,
                     {},
                     {},
                     {},
                     0.0,
                     0.0,
                     "",
                     {},
                     {}};
    };
    std::vector<Learner> learners{spline(1e100)};
    QVERIFY(inputErrorOf([&] {
              ocl::checkFloatRange(learners, nullptr);
            }).startsWith("--precision float: covariate 'x' reaches |x| = 1e+100, beyond float's range"));
    learners[0] = spline(1e30);
    const std::vector<double> heavy{1.0, 1e300};
    QCOMPARE(inputErrorOf([&] { ocl::checkFloatRange(learners, nullptr); }), QString("(no InputError thrown)"));
    QVERIFY(inputErrorOf([&] {
              ocl::checkFloatRange(learners, &heavy);
            }).startsWith("--precision float: a weight reaches 1e+300"));
    // At float's smallest values (x in [1e-302, 1e-300] became 0, the risk NaN), and a range narrow for its size (x
    // in [1e6, 1e6 + 0.01]: float's step there is 0.0625), each named; a response near 1e-300 fitted to 0.
    learners[0] = spline(1e-300, 1e-302);
    QVERIFY(inputErrorOf([&] {
              ocl::checkFloatRange(learners, nullptr);
            }).startsWith("--precision float: covariate 'x' stays within |x| <= 1e-300, at float's smallest"));
    // x in [1e6, 1e6 + 0.01] (float's step there is 0.0625) is held as x - 1e6 on the device (floatCovariateShift):
    // refused until the shift, now carried (test_opencl_backend floatCarriesCovariatesFarFromZero fits one). Only
    // knots beyond float's resolution of the range itself are refused: 2^23 / 2^18 intervals is 32 values each.
    learners[0] = spline(1e6 + 0.01, 1e6);
    QCOMPARE(inputErrorOf([&] { ocl::checkFloatRange(learners, nullptr); }), QString("(no InputError thrown)"));
    learners[0].basis = SplineBasis(1e6, 1e6 + 0.01, SplineSpec{262143, 3, Boundary::Extended});
    const QString narrow = inputErrorOf([&] { ocl::checkFloatRange(learners, nullptr); });
    QVERIFY2(narrow.startsWith("--precision float: covariate 'x' spans [1000000, 1000000.01], narrow for values of "
                               "its size: float holds only about 32 distinct values in each of its 262144 knot "
                               "intervals"),
             qPrintable(narrow));
    learners[0] = spline(19030.0, 19000.0);  // days since 1970, a month of 2022: about 2500 values an interval
    QCOMPARE(inputErrorOf([&] { ocl::checkFloatRange(learners, nullptr); }), QString("(no InputError thrown)"));
    QVERIFY(inputErrorOf([] {
              ocl::checkFloatRange({0.0, -3e-300, 1e-301});
            }).startsWith("--precision float: the response's largest |y| is 3e-300 (below 1e-18"));
    QCOMPARE(inputErrorOf([] { ocl::checkFloatRange(std::vector<double>(5, 0.0)); }),
             QString("(no InputError thrown)"));
    // Through the backend, before anything is allocated. The device holds y less the offset for gaussian
    // (opencl/ResponseShift.hpp), so the response must stray from it: +-1e19 about an offset of 1e19.
    FakeProblem p(100, 2, 3, 1e19);
    for (std::size_t i = 0; i < p.y.size(); i += 2) p.y[i] = -1e19;
    OpenClBackend backend(openCl("compact_x", "float"));
    const std::uint64_t before = ocl::liveBufferBytes();
    QVERIFY(inputErrorOf([&] { backend.prepare(p.problem); }).startsWith("--precision float: the response"));
    QCOMPARE(ocl::liveBufferBytes(), before);
  }

  void denseMatrixTooLarge() {
    // 20000 rows x 60 learners x k = 1004 columns x 4 bytes = 4.8 GB: over PoCL's 4 GiB maximum allocation
    // (and any device's, checked below through the info the message quotes).
    FakeProblem p(20000, 60, 1000, 1.0);
    OpenClBackend backend(openCl("naive", "float"));
    const ComputeDeviceInfo& device = gbocltest::testDevice().info;
    const std::uint64_t bytes = 20000ull * 60 * 1004 * 4;
    if (bytes <= device.maxAllocationBytes && bytes <= device.globalMemoryBytes)
      QSKIP("device too large for this test");
    const std::uint64_t before = ocl::liveBufferBytes();
    const QString m = inputErrorOf([&] { backend.prepare(p.problem); });
    QVERIFY2(m.startsWith("--kernel naive: dense B needs 4.82 GB (4819200000 bytes), device "), qPrintable(m));
    QVERIFY2(m.contains("max allocation"), qPrintable(m));
    QCOMPARE(ocl::liveBufferBytes(), before);  // refused before allocating anything
    // The check itself, with limits given.
    ComputeDeviceInfo small;
    small.name = "tiny";
    small.globalMemoryBytes = 8'000'000'000;
    small.maxAllocationBytes = 2'000'000'000;
    const QString v2 = inputErrorOf([&] { ocl::checkDenseFits("v2", 2'560'000'000, 0, small); });
    QVERIFY2(v2.startsWith("--kernel v2: dense B needs 2.56 GB (2560000000 bytes), device tiny has 8 GB (max "
                           "allocation 2 GB)"),
             qPrintable(v2));
    QCOMPARE(inputErrorOf([&] { ocl::checkDenseFits("v2", 1'000'000'000, 0, small); }),
             QString("(no InputError thrown)"));
    QVERIFY(inputErrorOf([&] {
              ocl::checkDenseFits("v2", 1'900'000'000, 6'500'000'000, small);
            }).contains("dense B needs 1.9 GB"));
  }

  void kernelBuildFailureCarriesLog() {
    ocl::Context ctx(gbocltest::testDevice());
    const std::string options =
        "-DREAL=notatype -DDEGREE=3 -DK=16 -DINTERVALS=13 -DBTG_GROUP=1 -DBIN_COPIES=1 "
        "-DREDUCE_GROUP=1 -DUPDATE_GROUP=1 -DROW_STRIDED=0";
    try {
      ctx.program("compact_btg", options);
      QFAIL("a kernel with REAL=notatype built");
    } catch (const ComputeError& e) {
      const QString m = e.what();
      QVERIFY2(m.contains("kernels/compact_btg.cl") && m.contains(QString::fromStdString(options)), qPrintable(m));
      QVERIFY2(QString::fromStdString(e.details()).contains("notatype"), e.details().c_str());
    }
  }
};

QTEST_APPLESS_MAIN(TestOpenClErrors)
#include "test_opencl_errors.moc"

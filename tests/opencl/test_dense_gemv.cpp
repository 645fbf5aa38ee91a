// Every dense gemv kernel (the paper's naive / v1 / v2, split-K, CLBlast when built) against a double host
// reference, B'g and B*delta, float and double, on awkward shapes: rows not a multiple of any work-group size,
// k = 5 (no 16-byte vector loads), 16 and 64, several learners, the selected learner not the first.
#include <QtTest>
#include <cmath>
#include <cstdint>
#include <memory>

#include "OpenClTestUtil.hpp"
#include "common/Error.hpp"
#include "opencl/ClRuntime.hpp"
#include "opencl/DenseGemv.hpp"

using namespace gb;
using namespace gb::ocl;

namespace {

using namespace gbocltest;

constexpr std::uint64_t kSeed = 20240611;
// Extra output entries past the end: they must still hold the poison afterwards (no work-item past m writes).
constexpr std::size_t kGuard = 67;

struct Shape {
  std::size_t rows;
  int k;
  int learners;
  std::size_t cols() const { return static_cast<std::size_t>(k) * learners; }
};

// Non-zero values of both signs, magnitudes in [0.25, 1) so that a dropped term always shows; rounded to the
// device's REAL so the reference sees exactly the device's inputs and only the summation order differs.
std::vector<double> nonZero(std::size_t n, std::uint64_t seed, bool dbl) {
  std::vector<double> v = uniform(n, 0.25, 1.0, seed);
  const std::vector<double> sign = uniform(n, 0.0, 1.0, seed + 1);
  for (std::size_t i = 0; i < n; ++i)
    if (sign[i] < 0.5) v[i] = -v[i];
  return asReal(v, dbl);
}

// No entry past `from` may have been written: the guard region still holds the NaN poison.
bool guardIntact(const std::vector<double>& got, std::size_t from) {
  for (std::size_t i = from; i < got.size(); ++i)
    if (!std::isnan(got[i])) return false;
  return true;
}

// Any summation order of n products errs by at most about n u sum|terms| (Higham, Accuracy and Stability,
// section 3.1: gamma_n bound for inner products); the longest sum here has 2049 terms: float 2 * 2049 * 6e-8
// = 2.4e-4, double 4.5e-13. A wrong index or a dropped term errs by O(1) of the scale, far above both.
double tolerance(std::size_t terms, bool dbl) {
  const double eps = dbl ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
  return static_cast<double>(terms) * eps;  // = 2 n u: a factor 2 of margin
}

}  // namespace

class TestDenseGemv : public QObject {
  Q_OBJECT
  std::unique_ptr<Context> ctx_;

  void checkKernel(DenseKernel kernel, const Shape& s, bool dbl, bool gpuLayout) {
    Context& ctx = *ctx_;
    const std::size_t cols = s.cols();
    const std::uint64_t seed = kSeed + s.rows;
    const std::vector<double> Bh = nonZero(s.rows * cols, seed, dbl), gh = nonZero(s.rows, seed + 2, dbl),
                              dh = nonZero(cols, seed + 3, dbl);
    DenseGemvPlan plan(ctx, kernel, s.rows, cols, dbl, gpuLayout);
    Buffer B = upload(ctx, Bh, dbl), g = upload(ctx, gh, dbl), delta = upload(ctx, dh, dbl);

    // B'g for every column at once.
    std::vector<double> ref(cols, 0.0), scale(cols, 0.0);
    for (std::size_t i = 0; i < s.rows; ++i)
      for (std::size_t c = 0; c < cols; ++c) {
        ref[c] += Bh[i * cols + c] * gh[i];
        scale[c] += std::abs(Bh[i * cols + c] * gh[i]);
      }
    Buffer out(ctx, (cols + kGuard) * (dbl ? 8 : 4));
    for (int run = 0; run < 2; ++run) {  // twice: the reused scratch must not leak into the second answer
      poison(ctx, out, dbl);
      plan.transposed(B, g, out);
      const std::vector<double> got = download(ctx, out, cols + kGuard, dbl);
      const double err = maxScaledError(got, ref, scale);
      QVERIFY2(err <= tolerance(s.rows, dbl),
               qPrintable(QString("B'g error %1 > %2").arg(err).arg(tolerance(s.rows, dbl))));
      QVERIFY2(guardIntact(got, cols), "B'g wrote past its last column");
    }

    // B*delta for the last learner (its index read on the device).
    const int j = s.learners - 1;
    Buffer learner(ctx, sizeof(int));
    learner.write(ctx, &j, sizeof(j));
    std::vector<double> fref(s.rows, 0.0), fscale(s.rows, 0.0);
    for (std::size_t i = 0; i < s.rows; ++i)
      for (int c = 0; c < s.k; ++c) {
        const std::size_t col = static_cast<std::size_t>(j) * s.k + c;
        fref[i] += Bh[i * cols + col] * dh[col];
        fscale[i] += std::abs(Bh[i * cols + col] * dh[col]);
      }
    Buffer fout(ctx, (s.rows + kGuard) * (dbl ? 8 : 4));
    poison(ctx, fout, dbl);
    plan.forward(B, learner, s.k, delta, fout);
    const std::vector<double> fgot = download(ctx, fout, s.rows + kGuard, dbl);
    const double ferr = maxScaledError(fgot, fref, fscale);
    QVERIFY2(ferr <= tolerance(s.k, dbl), qPrintable(QString("B delta error %1").arg(ferr)));
    QVERIFY2(guardIntact(fgot, s.rows), "B delta wrote past its last row");
  }

 private slots:
  void initTestCase() {
    ensureWritablePoclCache();
    ctx_ = std::make_unique<Context>(testDevice());
    qInfo("seed %llu", static_cast<unsigned long long>(kSeed));
  }

  void names() {
    DenseKernel k{};
    QVERIFY(denseKernelFromName("splitk", &k));
    QCOMPARE(toString(k), std::string("splitk"));
    QVERIFY(!denseKernelFromName("compact", &k));
    QVERIFY(denseKernelNames().size() >= 4);
  }

  void kernels_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("learners");
    QTest::addColumn<bool>("dbl");
    QTest::addColumn<bool>("gpuLayout");
    const bool onGpu = ctx_->device().info.type == "GPU";
    const Shape shapes[] = {{1003, 5, 3}, {517, 16, 4}, {2049, 64, 2}, {37, 16, 1}};
    for (const std::string& name : denseKernelNames())
      for (const Shape& s : shapes)
        for (bool dbl : {false, true})
          // Split-K has a GPU and a CPU variant: run both layouts whatever the device.
          for (bool gpuLayout : name == "splitk" ? std::vector<bool>{true, false} : std::vector<bool>{onGpu}) {
            const QString tag = QString("%1%6 n=%2 k=%3 p=%4 %5")
                                    .arg(name.c_str())
                                    .arg(s.rows)
                                    .arg(s.k)
                                    .arg(s.learners)
                                    .arg(dbl ? "double" : "float")
                                    .arg(gpuLayout ? "-gpu" : "-cpu");
            QTest::newRow(qPrintable(tag))
                << QString(name.c_str()) << int(s.rows) << s.k << s.learners << dbl << gpuLayout;
          }
  }

  void kernels() {
    QFETCH(QString, kernel);
    QFETCH(int, rows);
    QFETCH(int, k);
    QFETCH(int, learners);
    QFETCH(bool, dbl);
    QFETCH(bool, gpuLayout);
    DenseKernel kind{};
    QVERIFY(denseKernelFromName(kernel.toStdString(), &kind));
    const Shape s{static_cast<std::size_t>(rows), k, learners};
    if (dbl && !ctx_->hasFp64()) QSKIP("device has no cl_khr_fp64");
    try {
      checkKernel(kind, s, dbl, gpuLayout);
    } catch (const ComputeError& e) {  // a build failure: show the build log
      QFAIL(qPrintable(QString("%1\n%2").arg(e.what(), e.details().c_str())));
    }
  }

  // The split-K plan keeps its partials; the naive kernel needs none.
  void scratch() {
    DenseGemvPlan naive(*ctx_, DenseKernel::Naive, 1000, 64, false);
    DenseGemvPlan splitk(*ctx_, DenseKernel::SplitK, 100000, 64, false);
    QVERIFY(splitk.scratchBytes() > naive.scratchBytes());
  }

  void cleanupTestCase() { ctx_.reset(); }
};

QTEST_APPLESS_MAIN(TestDenseGemv)
#include "test_dense_gemv.moc"

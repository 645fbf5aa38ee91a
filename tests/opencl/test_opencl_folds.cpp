// The OpenCL fold batch (opencl/FoldPath.hpp: every fold advancing together, one pass over x per iteration) against
// crossValidate on the CPU backend, fold by fold, on random data: every family, bootstrap, k-fold (more folds than
// one batch holds) and subsample folds, with and without case weights, with the CPU and the GPU kernel variants (the
// GPU B'g in float both with 4 rows a warp step and with a lane per fold), over three of its 2048-row chunks.
// In double the out-of-bag risk matrices agree within 1e-10 relative (the same sums in other orders, ~1e-15 each,
// over 60 iterations that select the same learners); in float within 1e-4 (float rounding of the weighted sums).
// A model with a linear learner is not batched and still agrees.
#include <QtTest>
#include <cmath>
#include <limits>
#include <random>

#include "OpenClTestUtil.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/CrossValidation.hpp"
#include "opencl/OpenClBackend.hpp"
#include "settings/ComputeSettings.hpp"

using namespace gb;

namespace {

constexpr unsigned kSeed = 424242;

std::shared_ptr<const Dataset> randomData(std::size_t n) {
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto d = std::make_shared<Dataset>();
  d->source = "random";
  d->names = {"y", "cnt", "bin", "w", "x1", "x2", "x3"};
  d->columns.assign(d->names.size(), std::vector<double>(n));
  d->kinds.assign(d->names.size(), ColumnKind::Numeric);
  d->levels.assign(d->names.size(), {});
  for (std::size_t i = 0; i < n; ++i) {
    const double x1 = u(rng), x2 = u(rng), x3 = std::pow(u(rng), 3);  // x3 crowds the low intervals
    const double eta = std::sin(5 * x1) + (x2 - 0.5) + x3;
    std::poisson_distribution<int> pois(std::exp(eta));
    const double row[] = {eta + 0.3 * (u(rng) - 0.5),
                          static_cast<double>(pois(rng)),
                          u(rng) < 1 / (1 + std::exp(-2 * eta)) ? 1.0 : 0.0,
                          static_cast<double>(1 + rng() % 3),
                          x1,
                          x2,
                          x3};
    for (std::size_t c = 0; c < d->names.size(); ++c) d->columns[c][i] = row[c];
  }
  return d;
}

double relative(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t f = 0; f < a.size(); ++f)
    for (std::size_t m = 0; m < a[f].size(); ++m) {
      if (std::isnan(a[f][m]) || std::isnan(b[f][m])) {
        if (std::isnan(a[f][m]) && std::isnan(b[f][m])) continue;  // a fold left out of both (no curve)
        return std::numeric_limits<double>::infinity();
      }
      diff = std::max(diff, std::abs(a[f][m] - b[f][m]));
      scale = std::max(scale, std::abs(b[f][m]));
    }
  return diff / scale;
}

ResamplingFolds foldsOf(const QString& type, std::size_t rows, const std::vector<double>& caseWeights) {
  if (type == "kfold") return kfoldFolds(rows, 35, kSeed, caseWeights);  // 35 > 32: two batches
  if (type == "subsample") return subsampleFolds(rows, 8, 0.5, kSeed, caseWeights);
  return bootstrapFolds(rows, 10, kSeed, caseWeights);
}

}  // namespace

class TestOpenClFolds : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %u", kSeed); }
  void matchesCpu_data();
  void matchesCpu();
};

void TestOpenClFolds::matchesCpu_data() {
  QTest::addColumn<int>("family");
  QTest::addColumn<QString>("response");
  QTest::addColumn<QString>("folds");
  QTest::addColumn<bool>("weights");
  QTest::addColumn<bool>("linear");
  QTest::addColumn<bool>("everyVariant");  // float and the GPU kernels too (each variant builds its programs)
  QTest::addColumn<double>("shift");       // added to the response; where not 0, float with the CPU kernels runs too
  QTest::addColumn<bool>("seconds");       // covariates as seconds of one day since 1970 (1.7e9 + 86400 x), float too
  QTest::addColumn<bool>("oneClass");      // fold 4's in-bag rows all of class 0: left out of the batch and the mean
  auto row = [](const char* name, Family f, const char* response, const char* folds, bool w, bool lin, bool every,
                double shift = 0.0, bool seconds = false, bool oneClass = false) {
    QTest::newRow(name) << int(f) << QString(response) << QString(folds) << w << lin << every << shift << seconds
                        << oneClass;
  };
  row("gaussian kfold", Family::Gaussian, "y", "kfold", false, false, true);
  row("binomial bootstrap", Family::Binomial, "bin", "bootstrap", false, false, true);
  row("poisson subsample weights", Family::Poisson, "cnt", "subsample", true, false, true);
  row("laplace bootstrap", Family::Laplace, "y", "bootstrap", false, false, false);
  row("huber kfold weights", Family::Huber, "y", "kfold", true, false, false);
  row("quantile subsample", Family::Quantile, "y", "subsample", false, false, false);
  // y near 1e6 with a spread of 2: float's steps at |f| (0.06) swallowed the steps of nu delta until the device
  // carried y - offset (opencl/ResponseShift.hpp); the risk matrix was off by 0.7 relative.
  row("gaussian kfold, y + 1e6", Family::Gaussian, "y", "kfold", false, false, false, 1e6);
  row("quantile bootstrap, y + 1e6", Family::Quantile, "y", "bootstrap", false, false, false, 1e6);
  // Float's step at 1.7e9 is 128 s: refused in float until the device held x less its range's lower end.
  row("binomial bootstrap, x in seconds", Family::Binomial, "bin", "bootstrap", false, false, false, 0.0, true);
  row("binomial bootstrap, a fold of one class", Family::Binomial, "bin", "bootstrap", false, false, false, 0.0, false,
      true);
  row("gaussian linear (not batched)", Family::Gaussian, "y", "bootstrap", false, true, false);
  // Binomial(link = ...): the family code carries the link (Family::Binomial + 100 * link)
  row("probit bootstrap", Family(int(Family::Binomial) + 100 * int(BinomialLink::Probit)), "bin", "bootstrap", false,
      false, true);
  row("cloglog kfold weights", Family(int(Family::Binomial) + 100 * int(BinomialLink::Cloglog)), "bin", "kfold", true,
      false, false);
}

void TestOpenClFolds::matchesCpu() {
  QFETCH(int, family);
  QFETCH(QString, response);
  QFETCH(QString, folds);
  QFETCH(bool, weights);
  QFETCH(bool, linear);
  QFETCH(bool, everyVariant);
  QFETCH(double, shift);
  QFETCH(bool, seconds);
  QFETCH(bool, oneClass);
  ModelSettings s;
  s.family = static_cast<Family>(family % 100);
  s.link = static_cast<BinomialLink>(family / 100);
  s.response = response.toStdString();
  s.spline.knots = 8;
  s.mstop = 60;
  s.nu = 0.2;
  s.huberDelta = 0.4;
  s.tau = 0.8;
  s.learners = {"x1", "x2", "x3"};
  if (linear) s.linears = {"x2"}, s.learners = {"x1", "x3"};
  if (weights) s.weights = "w";
  auto shifted = std::make_shared<Dataset>(*randomData(5000));  // three of the 4-rows-a-step B'g's 2048-row chunks
  for (double& y : shifted->columns[0]) y += shift;
  if (seconds)
    for (std::size_t c = 4; c < shifted->cols(); ++c)
      for (double& x : shifted->columns[c]) x = 1.7e9 + 86400.0 * x;
  const std::shared_ptr<const Dataset> data = shifted;
  const std::vector<double> caseWeights = weights ? data->columns[3] : std::vector<double>{};
  ResamplingFolds f = foldsOf(folds, data->rows(), caseWeights);
  if (oneClass)
    for (std::size_t i = 0; i < data->rows(); ++i)
      if (data->columns[2][i] == 1.0) f.weights[3][i] = 0.0;
  const CvResult cpu = crossValidate(
      data, s, f, [] { return std::make_unique<CpuBackend>(1); }, 1);
  QVERIFY(!cpu.batched);
  QCOMPARE(cpu.dropped, oneClass ? std::vector<int>{4} : std::vector<int>{});
  // Kernel variants: 0 the CPU kernels, 1 the GPU kernels (the B'g with 4 rows a warp step in float, FOLD_ROWS4),
  // 2 the GPU kernels with the lane-per-fold B'g in float too (GAMBOOST_FOLD_ROWS4=0).
  for (const int variant : {0, 1, 2})
    for (const char* precision : {"double", "float"}) {
      const bool isDouble = std::string(precision) == "double", gpuKernels = variant > 0;
      if (isDouble && !gbocltest::testDevice().info.fp64) continue;
      if (!everyVariant && (gpuKernels || (!isDouble && shift == 0.0 && !seconds))) continue;
      if (variant == 2 && isDouble) continue;  // double has the lane-per-fold kernel only
      if (variant == 2) qputenv("GAMBOOST_FOLD_ROWS4", "0");
      ComputeSettings c;
      c.backend = BackendKind::OpenCl;
      c.precision = precisionFromString(precision);
      const CvResult gpu = crossValidate(
          data, s, f,
          [&] {
            auto b = std::make_unique<OpenClBackend>(c);
            b->setForceGpuKernels(gpuKernels);
            return b;
          },
          1);
      qunsetenv("GAMBOOST_FOLD_ROWS4");
      const double err = relative(gpu.risk, cpu.risk), tolerance = std::string(precision) == "double" ? 1e-10 : 1e-4;
      const char* names[] = {"CPU", "GPU", "GPU lane-per-fold"};
      qInfo("%s %s kernels: risk matrix within %.2e (batched %d)", precision, names[variant], err, gpu.batched);
      QCOMPARE(gpu.batched, !linear);
      QCOMPARE(gpu.risk.size(), cpu.risk.size());
      QCOMPARE(gpu.dropped, cpu.dropped);
      QVERIFY2(err < tolerance, precision);
      if (std::string(precision) == "double") QCOMPARE(gpu.mstop, cpu.mstop);
    }
}

QTEST_GUILESS_MAIN(TestOpenClFolds)
#include "test_opencl_folds.moc"

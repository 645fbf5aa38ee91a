// kernels/family.cl against double references written here from mboost 2.9's R/family.R, in its own form (the
// binomial gradient as 2 y exp(-2yf) / (log 2 (1 + exp(-2yf))), the loss through p = exp(f) / (exp(f) + exp(-f)),
// Poisson's loss as -log dpois including lgamma(y + 1); the binomial's glm links as R's make.link() has them), on
// random data with zero weights, at awkward sizes, in float and double, with the outputs poisoned first.
//
// Tolerances. Inputs are rounded to the device's REAL first, so only the device's arithmetic differs. Each
// gradient or loss value is a handful of operations and one exp/log (OpenCL: at most 3-4 ulp), so it may differ by
// 64 eps (1 + |y| + exp|f|) (|f| <= 3 here; a few ulp of each term's size, with room). The risk is a sum of n terms:
// each work-item adds a strided run of L = n / (groups * 256) terms in order, then the group adds 256 sums
// pairwise (8 levels), so the rounding of the sum is at most (L + 8) eps sum|terms|, plus the terms' own errors.
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "OpenClTestUtil.hpp"
#include "opencl/FamilyKernels.hpp"

using gb::ocl::DeviceFamily;
using gb::ocl::FamilyKernels;

namespace {

constexpr std::uint64_t kSeed = 20261123;

// R's make.link(): p = linkinv(f) with its clamps, mu.eta(f) >= eps (written here from R's definitions of pnorm,
// dnorm, pcauchy and dcauchy; the probit's Phi through std::erfc).
bool isLink(DeviceFamily family) {
  return family == DeviceFamily::Probit || family == DeviceFamily::Cloglog || family == DeviceFamily::Cauchit;
}
double linkP(DeviceFamily family, double f) {
  const double eps = 0x1p-52;
  if (family == DeviceFamily::Probit)
    return 0.5 * std::erfc(-std::clamp(f, -8.125890664701906, 8.125890664701906) / std::sqrt(2.0));
  if (family == DeviceFamily::Cloglog) return std::max(std::min(-std::expm1(-std::exp(f)), 1 - eps), eps);
  const double x = std::clamp(f, -1433540284805664.8, 1433540284805664.8);
  return 0.5 + std::atan(x) / M_PI;
}
double linkD(DeviceFamily family, double f) {
  const double eps = 0x1p-52;
  if (family == DeviceFamily::Probit) return std::max(std::exp(-f * f / 2) / std::sqrt(2 * M_PI), eps);
  if (family == DeviceFamily::Cloglog) return std::max(std::exp(f) * std::exp(-std::exp(f)), eps);
  return std::max(1 / (M_PI * (1 + f * f)), eps);
}

double gradientReference(DeviceFamily family, double y, double f, double param) {
  const double r = y - f;
  const double sign = r > 0 ? 1.0 : r < 0 ? -1.0 : 0.0;
  switch (family) {
    case DeviceFamily::Gaussian:
      return r;
    case DeviceFamily::Binomial: {
      const double e = std::exp(-2 * y * f);
      return -(-2 * y * e) / (std::log(2.0) * (1 + e));
    }
    case DeviceFamily::Poisson:
      return y - std::exp(f);
    case DeviceFamily::Laplace:
      return sign;
    case DeviceFamily::Huber:
      return std::abs(r) < param ? r : param * sign;
    case DeviceFamily::Quantile:
      return param * (r >= 0) - (1 - param) * (r < 0);
    case DeviceFamily::Expectile:  // ExpectReg: 2 tau (y - f) ((y - f) > 0) - 2 (1 - tau) (f - y) ((y - f) < 0)
      return 2 * param * r * (r > 0) - 2 * (1 - param) * (f - y) * (r < 0);
    case DeviceFamily::AdaExp:  // AdaExp: y exp(-y f)
      return y * std::exp(-y * f);
    case DeviceFamily::Gamma:  // GammaReg at shape param: sigma y exp(-f) - sigma
      return param * y * std::exp(-f) - param;
    case DeviceFamily::NegBin: {  // NBinomial at size param: y - mu (y + s) / (mu + s), mu = exp(f)
      const double mu = std::exp(f);
      return y - mu * (y + param) / (mu + param);
    }
    default: {  // Binomial(link = ...): mu.eta(f) (y01 / p - (1 - y01) / (1 - p))
      const double p = linkP(family, f), y01 = (y + 1) / 2;
      return linkD(family, f) * (y01 / p - (1 - y01) / (1 - p));
    }
  }
  return NAN;
}

double lossReference(DeviceFamily family, double y, double f, double param) {
  const double r = y - f, a = std::abs(r);
  switch (family) {
    case DeviceFamily::Gaussian:
      return r * r;
    case DeviceFamily::Binomial: {
      const double fc = std::min(std::abs(f), 36.0) * (f > 0 ? 1 : f < 0 ? -1 : 0);
      const double p = std::exp(fc) / (std::exp(fc) + std::exp(-fc)), y01 = (y + 1) / 2;
      return -y01 * std::log(p) - (1 - y01) * std::log(1 - p);
    }
    case DeviceFamily::Poisson:
      return -(y * f - std::exp(f) - std::lgamma(y + 1));  // -log dpois(y, exp(f))
    case DeviceFamily::Laplace:
      return a;
    case DeviceFamily::Huber:
      return a < param ? a * a / 2 : param * (a - param / 2);
    case DeviceFamily::Quantile:
      return param * r * (r >= 0) - (1 - param) * r * (r < 0);
    case DeviceFamily::Expectile:
      return param * r * r * (r >= 0) + (1 - param) * r * r * (r < 0);
    case DeviceFamily::AdaExp:
      return std::exp(-y * f);
    case DeviceFamily::Gamma:  // the kernels' shape-free term (the host adds W lgamma(s) and scales by s)
      return y * std::exp(-f) - std::log(y) + f;
    case DeviceFamily::NegBin: {  // -log dnbinom(y, size = s, mu = exp(f)) less its f-free lgammas (the host's part)
      const double mu = std::exp(f);
      return -(param * std::log(param / (mu + param)) + y * std::log(mu / (mu + param)));
    }
    default: {
      const double p = linkP(family, f), y01 = (y + 1) / 2;
      return -y01 * std::log(p) - (1 - y01) * std::log(1 - p);
    }
  }
  return NAN;
}

std::vector<double> responseFor(DeviceFamily family, std::size_t n, std::uint64_t seed) {
  std::vector<double> y = gbocltest::uniform(n, -4.0, 4.0, seed);
  for (double& v : y) {
    if (family == DeviceFamily::Binomial || family == DeviceFamily::AdaExp || isLink(family)) v = v > 0 ? 1.0 : -1.0;
    if (family == DeviceFamily::Poisson || family == DeviceFamily::NegBin) v = std::floor(std::abs(v) * 3);  // 0..11
    if (family == DeviceFamily::Gamma) v = std::abs(v) + 0.05;                                               // positive
  }
  return y;
}

// One gradient and one risk launch over (y, f, w), the outputs poisoned first: w u and the partial sums of w loss.
struct DeviceRun {
  std::vector<double> wu, partials;
};
DeviceRun runKernels(gb::ocl::Context& ctx, DeviceFamily fam, const std::vector<double>& y,
                     const std::vector<double>& f, const std::vector<double>& w, double param, bool isDouble) {
  const std::size_t n = y.size();
  FamilyKernels kernels(ctx, fam, isDouble);
  gb::ocl::Buffer yb = gbocltest::upload(ctx, y, isDouble), fb = gbocltest::upload(ctx, f, isDouble),
                  wb = gbocltest::upload(ctx, w, isDouble);
  gb::ocl::Buffer wu = gbocltest::upload(ctx, std::vector<double>(n, NAN), isDouble);
  const std::size_t groups = FamilyKernels::riskGroups(n);
  gb::ocl::Buffer partials = gbocltest::upload(ctx, std::vector<double>(groups, NAN), isDouble);
  kernels.gradient(n, yb, fb, wb, param, wu);
  kernels.risk(n, yb, fb, wb, param, partials);
  return {gbocltest::download(ctx, wu, n, isDouble), gbocltest::download(ctx, partials, groups, isDouble)};
}

}  // namespace

class TestFamilyKernels : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    qInfo("random seed: %llu", static_cast<unsigned long long>(kSeed));
    gbocltest::testDevice();
  }

  void matchesTheReferences_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<double>("param");
    QTest::addColumn<bool>("isDouble");
    QTest::addColumn<qulonglong>("rows");
    const char* names[] = {"gaussian", "binomial", "poisson", "laplace", "huber",   "quantile", "expectile",
                           "adaexp",   "gamma",    "probit",  "cloglog", "cauchit", "negbin"};
    const double params[] = {0.0, 0.0, 0.0, 0.0, 1.5, 0.9, 0.2, 0.0, 1.7, 0.0, 0.0, 0.0, 1.3};
    for (int family = 0; family < 13; ++family)
      for (bool isDouble : {true, false})
        for (qulonglong rows : {1ull, 255ull, 1000ull, 300001ull})
          QTest::addRow("%s %s n=%llu", names[family], isDouble ? "double" : "float", rows)
              << family << params[family] << isDouble << rows;
  }

  void matchesTheReferences() {
    QFETCH(int, family);
    QFETCH(double, param);
    QFETCH(bool, isDouble);
    QFETCH(qulonglong, rows);
    gb::ocl::Context ctx(gbocltest::testDevice());
    if (isDouble && !ctx.hasFp64()) QSKIP("device has no fp64");
    const auto fam = static_cast<DeviceFamily>(family);
    const std::size_t n = rows;
    const std::vector<double> y = gbocltest::asReal(responseFor(fam, n, kSeed + n), isDouble);
    const std::vector<double> f = gbocltest::asReal(gbocltest::uniform(n, -3.0, 3.0, kSeed + 2 * n), isDouble);
    std::vector<double> w = gbocltest::uniform(n, -0.5, 2.0, kSeed + 3 * n);
    for (double& v : w) v = v < 0 ? 0.0 : v;  // about a fifth of the rows weigh nothing
    w = gbocltest::asReal(w, isDouble);
    if (isDouble)
      param = static_cast<double>(param);
    else
      param = static_cast<float>(param);

    const DeviceRun run = runKernels(ctx, fam, y, f, w, param, isDouble);
    const std::vector<double>& got = run.wu;
    const std::vector<double>& parts = run.partials;
    const std::size_t groups = parts.size();

    const double eps = isDouble ? 0x1p-52 : 0x1p-23;
    double riskRef = 0.0, riskScale = 0.0, termErrors = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      double slack = 64 * eps * (1 + std::abs(y[i]) + std::exp(std::abs(f[i])));
      if (isLink(fam)) {  // R's 1 - p cancels: an ulp of p is 1 / min(p, 1 - p) ulps of 1 - p (double; float uses q)
        const double p = linkP(fam, f[i]);
        slack /= std::min(p, 1 - p);
      }
      const double want = w[i] * gradientReference(fam, y[i], f[i], param);
      if (!(std::abs(got[i] - want) <= slack * w[i]))
        QFAIL(qPrintable(QString("row %1: wu %2, reference %3 (y %4, f %5, w %6)")
                             .arg(i)
                             .arg(got[i], 0, 'g', 17)
                             .arg(want, 0, 'g', 17)
                             .arg(y[i])
                             .arg(f[i])
                             .arg(w[i])));
      const double term = w[i] * lossReference(fam, y[i], f[i], param);
      riskRef += term;
      riskScale += std::abs(term);
      termErrors += slack * w[i] * (1 + std::abs(y[i]) * 3);  // loss terms: y f adds |y| |f| <= 3 |y|
    }
    double risk = FamilyKernels::riskConstant(fam, y, w);
    for (double p : parts) risk += p;
    const double runLength = std::ceil(static_cast<double>(n) / static_cast<double>(groups * FamilyKernels::kGroup));
    const double bound = (runLength + 8 + 2) * eps * riskScale + termErrors;
    QVERIFY2(std::abs(risk - riskRef) <= bound,
             qPrintable(
                 QString("risk %1, reference %2, bound %3").arg(risk, 0, 'g', 17).arg(riskRef, 0, 'g', 17).arg(bound)));
  }

  // The glm links in float far out (|f| up to 40): R's p clamps keep p inside (0, 1) in double, but in float 1 - p
  // rounds to 0 (probit beyond f = 5.3), so the kernel takes q = 1 - p from the upper tail. Every gradient and the
  // risk must stay finite, and the risk within 1e-5 relative of the double reference (where double's 1 - p keeps
  // about 8 digits at the clamps).
  void linksStayFiniteInFloat() {
    gb::ocl::Context ctx(gbocltest::testDevice());
    const std::size_t n = 2000;
    for (DeviceFamily fam : {DeviceFamily::Probit, DeviceFamily::Cloglog, DeviceFamily::Cauchit}) {
      const std::vector<double> y = responseFor(fam, n, kSeed + 9);
      std::vector<double> f = gbocltest::uniform(n, -40.0, 40.0, kSeed + 10);
      if (fam == DeviceFamily::Cloglog)  // beyond f = 3.6 its double p is clamped at 1 - eps, -log(1 - p) = 36
        for (double& v : f) v = std::min(v, 3.0);
      f = gbocltest::asReal(f, false);
      const std::vector<double> w(n, 1.0);
      const DeviceRun run = runKernels(ctx, fam, y, f, w, 0.0, false);
      for (double g : run.wu) QVERIFY(std::isfinite(g));
      double risk = 0.0, reference = 0.0;
      for (double p : run.partials) risk += p;
      for (std::size_t i = 0; i < n; ++i) reference += lossReference(fam, y[i], f[i], 0.0);
      QVERIFY2(std::isfinite(risk) && std::abs(risk - reference) <= 1e-5 * reference,
               qPrintable(QString("family %1: risk %2, reference %3 (seed %4)")
                              .arg(int(fam))
                              .arg(risk, 0, 'g', 17)
                              .arg(reference, 0, 'g', 17)
                              .arg(kSeed)));
    }
  }

  // Binomial in float at |f| up to 18: mboost's p = exp(f) / (exp(f) + exp(-f)) rounds to 1 in float once |f| > 8.3,
  // so -log(1 - p) would be inf for rows on the wrong side; the float kernel's loss stays finite and equal to
  // log(1 + exp(-2 y f)), here computed in long double. Each term is a few ulp of its size (<= 37), hence the bound.
  void binomialFloatLossStaysFinite() {
    gb::ocl::Context ctx(gbocltest::testDevice());
    const std::size_t n = 1000;
    const std::vector<double> y = responseFor(DeviceFamily::Binomial, n, kSeed + 7);
    const std::vector<double> f = gbocltest::asReal(gbocltest::uniform(n, -18.0, 18.0, kSeed + 8), false);
    const std::vector<double> w(n, 1.0);
    const DeviceRun run = runKernels(ctx, DeviceFamily::Binomial, y, f, w, 0.0, false);
    const std::size_t groups = run.partials.size();
    double risk = 0.0;
    for (double p : run.partials) risk += p;
    long double reference = 0.0L, scale = 0.0L;
    for (std::size_t i = 0; i < n; ++i) {
      const long double z = -2.0L * y[i] * f[i];
      const long double term = (z > 0 ? z : 0.0L) + std::log1p(std::exp(-std::fabs(z)));
      reference += term;
      scale += std::fabs(term) + 1.0L;
    }
    const double eps = 0x1p-23;
    const double bound = (std::ceil(double(n) / double(groups * FamilyKernels::kGroup)) + 8 + 64) * eps * double(scale);
    QVERIFY2(std::isfinite(risk) && std::abs(risk - double(reference)) <= bound,
             qPrintable(QString("risk %1, reference %2, bound %3 (seed %4)")
                            .arg(risk, 0, 'g', 17)
                            .arg(double(reference), 0, 'g', 17)
                            .arg(bound)
                            .arg(kSeed)));
  }
};

QTEST_GUILESS_MAIN(TestFamilyKernels)
#include "test_family_kernels.moc"

// The compact B-spline kernels (compact, compact_x, compact_sorted; GPU and CPU variants, both run here on the device
// the tests get) against double-precision host references built from SplineBasis::evaluate (Cox-de Boor).
// (compact_sorted's GPU variant needs rows over several sorted chunks: n = 4099 and 9001 give 2 and 3.)
// Inputs are random and non-zero, sizes awkward (rows not a multiple of any group or chunk), outputs poisoned
// with NaN before every launch. References use the inputs rounded to the device's REAL, so the tolerances
// measure the kernels' arithmetic alone:
//   double: sums of <= 4099 terms in a different order than the reference, ~n * 1.1e-16 worst case -> 1e-12
//           relative to the sum of magnitudes;
//   float:  the same sums in float (eps 6e-8): sqrt(n) * eps * a few ~ 1e-5 typical, n * eps = 2.5e-4 worst
//           case; 1e-4 relative to the sum of magnitudes admits the first and catches any wrong term (>= 1e-3).
#include <QtTest>
#include <algorithm>
#include <array>

#include "OpenClTestUtil.hpp"
#include "common/Error.hpp"
#include "opencl/CompactKernels.hpp"

using namespace gb;
using namespace gb::ocl;
using namespace gbocltest;

namespace {

struct Problem {
  std::size_t n = 0;
  std::vector<SplineBasis> bases;
  std::vector<std::vector<double>> x;  // per learner, rounded to REAL
  std::vector<double> g;               // rounded to REAL

  std::vector<const SplineBasis*> basisPointers() const {
    std::vector<const SplineBasis*> out;
    for (const SplineBasis& b : bases) out.push_back(&b);
    return out;
  }
  std::vector<const double*> xPointers() const {
    std::vector<const double*> out;
    for (const auto& v : x) out.push_back(v.data());
    return out;
  }
  int k() const { return bases.front().numColumns(); }
};

// Three learners on different ranges; every x column contains its exact lo and hi (the boundary rows). Learner 1
// has clamped knots when `clamped` (edge intervals with pieces of their own), else all three are extended.
Problem makeProblem(std::size_t n, int knots, int degree, bool isDouble, bool clamped, std::uint64_t seed) {
  Problem p;
  p.n = n;
  const double ranges[3][2] = {{0.0, 1.0}, {-3.5, 12.25}, {1e3, 1e3 + 0.75}};
  for (int j = 0; j < 3; ++j) {
    std::vector<double> x = asReal(uniform(n, ranges[j][0], ranges[j][1], seed + j), isDouble);
    x[0] = asReal({ranges[j][0]}, isDouble)[0];
    x[n - 1] = asReal({ranges[j][1]}, isDouble)[0];
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    p.bases.emplace_back(*lo, *hi,
                         SplineSpec{knots, degree, j == 1 && clamped ? Boundary::Clamped : Boundary::Extended});
    p.x.push_back(std::move(x));
  }
  p.g = asReal(uniform(n, 0.5, 2.0, seed + 7), isDouble);
  for (std::size_t i = 0; i < n; i += 3) p.g[i] = -p.g[i];  // non-zero, mixed signs
  return p;
}

// c = B_j'g by Cox-de Boor in double, and the magnitude of what a kernel sums for each entry: sum_i |B_ic g_i|
// for the stored basis; for compact_x, whose moments pass through the polynomial table, sum over rows and powers
// of |poly(q,r,s) u^s g_i| (a B-spline near zero is a cancelling sum of coefficients of size ~1: the moments
// carry that cancellation, and their rounding is relative to this larger magnitude).
void referenceBtg(const Problem& p, int j, std::vector<double>* c, std::vector<double>* scale,
                  std::vector<double>* scaleX) {
  const SplineBasis& basis = p.bases[j];
  const int k = p.k(), w = basis.degree() + 1;
  c->assign(k, 0.0);
  scale->assign(k, 0.0);
  scaleX->assign(k, 0.0);
  std::vector<double> b(w);
  for (std::size_t i = 0; i < p.n; ++i) {
    const int first = basis.evaluate(p.x[j][i], b.data());
    const double u = (p.x[j][i] - basis.lo()) / basis.spacing() - first;
    for (int r = 0; r < w; ++r) {
      (*c)[first + r] += b[r] * p.g[i];
      (*scale)[first + r] += std::abs(b[r] * p.g[i]);
      double power = 1.0;
      for (int s = 0; s < w; ++s, power *= std::abs(u))
        (*scaleX)[first + r] += std::abs(basis.poly(first, r, s)) * power * std::abs(p.g[i]);
    }
  }
}

// lanes: the GPU variant's compact_x kernel, 0 for local atomics, 32 for lane-private columns; packed: its batched
// B'g from the packed sorted copy (opencl/PackedBtg.hpp) instead.
KernelParameters parametersFor(bool gpuVariant, int lanes, bool packed, const Device& device, std::size_t n) {
  ComputeDeviceInfo info = device.info;
  info.type = gpuVariant ? "GPU" : "CPU";
  KernelParameters params = kernelParameters(info, n, 3);
  params.lanes = lanes;
  params.packedBtg = packed;
  params.nvidiaAtomics = gpuVariant && params.nvidiaAtomics && device.info.type == "GPU";
  // Batched groups over two sorted chunks (compact_sorted's loop) while per-learner launches take one.
  if (gpuVariant) params.btgChunkRows = 2 * kSortChunkRows;
  return params;
}

}  // namespace

class TestCompactKernels : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testDevice(); }
  void matchesReference_data();
  void matchesReference();
  void denseExpansionMatchesReference();
  void compactNeedsStoredBasis();
  void packedOrderSpreadsBanks();
};

void TestCompactKernels::matchesReference_data() {
  QTest::addColumn<int>("rows");
  QTest::addColumn<int>("knots");
  QTest::addColumn<int>("degree");
  QTest::addColumn<bool>("isDouble");
  QTest::addColumn<bool>("gpuVariant");
  QTest::addColumn<int>("lanes");
  QTest::addColumn<bool>("clamped");
  QTest::addColumn<quint64>("seed");
  QTest::addColumn<bool>("packed");
  QTest::addColumn<int>("packWarps");  // packed: warps a group (its learners in turn when fewer than L); 0: default
  // Each row is one program build per kernel file (about 1 s on a cold PoCL cache): few, but covering k = 5, 16,
  // 64, both precisions and both variants.
  // The lanes rows cover compact_x_partial_columns' shapes: edge slots (clamped) or not, 16-byte loads (rows a
  // multiple of 4) or not, float (conversion-free locate) and double, degree 2 and 3.
  QTest::newRow("k5 float cpu n1000") << 1000 << 1 << 3 << false << false << 0 << true << quint64(101) << false << 0;
  QTest::newRow("k16 double cpu n4099") << 4099 << 12 << 3 << true << false << 0 << true << quint64(102) << false << 0;
  QTest::newRow("k64 float cpu n4099") << 4099 << 60 << 3 << false << false << 0 << true << quint64(103) << false << 0;
  QTest::newRow("k16 float gpu lanes clamped n9001")
      << 9001 << 12 << 3 << false << true << 32 << true << quint64(104) << false << 0;
  QTest::newRow("k64 float gpu lanes n70000")
      << 70000 << 60 << 3 << false << true << 32 << false << quint64(107) << false << 0;
  QTest::newRow("k64 double gpu lanes clamped n1000")
      << 1000 << 60 << 3 << true << true << 32 << true << quint64(105) << false << 0;
  QTest::newRow("k5 double gpu lanes deg2 n4099")
      << 4099 << 2 << 2 << true << true << 32 << false << quint64(106) << false << 0;
  QTest::newRow("k16 float gpu atomics n9001")
      << 9001 << 12 << 3 << false << true << 0 << true << quint64(108) << false << 0;
  QTest::newRow("k64 double gpu atomics n1000")
      << 1000 << 60 << 3 << true << true << 0 << true << quint64(109) << false << 0;
  // The packed B'g: n = 70000 ends in a chunk of 368 rows (2048-row chunks), whose sparse intervals give lanes more
  // segment ends than they hold at once (the drain inside a run); learner 1 clamped (edge pieces of its own).
  QTest::newRow("k64 float gpu packed clamped n70000")
      << 70000 << 60 << 3 << false << true << 32 << true << quint64(110) << true << 0;
  // Two warps for the three learners, so warp 0 preloads its next learner's first words during learner 0; 9 slots.
  QTest::newRow("k16 float gpu packed 2 warps n9001")
      << 9001 << 12 << 3 << false << true << 32 << false << quint64(111) << true << 2;
}

void TestCompactKernels::matchesReference() {
  QFETCH(int, rows);
  QFETCH(int, knots);
  QFETCH(int, degree);
  QFETCH(bool, isDouble);
  QFETCH(bool, gpuVariant);
  QFETCH(int, lanes);
  QFETCH(bool, clamped);
  QFETCH(quint64, seed);
  QFETCH(bool, packed);
  QFETCH(int, packWarps);
  qInfo("seed %llu", static_cast<unsigned long long>(seed));
  const Device device = testDevice();
  if (isDouble && !device.info.fp64) QSKIP("device has no fp64");
  Context ctx(device);
  const Problem p = makeProblem(static_cast<std::size_t>(rows), knots, degree, isDouble, clamped, seed);
  const int k = p.k(), L = 3;
  // Double: the reference itself (Cox-de Boor on knots lo + i dx, each rounded at the scale of |x|) differs
  // from the device's equidistant polynomial pieces by ~eps |x| / dx in u; learner 2 lives on [1000, 1000.75],
  // where that is 1.1e-16 * 1000 / 0.012 = 9e-12 at k = 64. Float: see the top of the file.
  auto tolerance = [&](int j) {
    if (!isDouble) return 1e-4;
    const double largest = std::max(std::abs(p.bases[j].lo()), std::abs(p.bases[j].hi()));
    return 1e-12 + 8 * 2.2e-16 * largest / p.bases[j].spacing();
  };
  CompactData data(ctx, p.basisPointers(), p.xPointers(), p.n, isDouble, true, true);
  KernelParameters params = parametersFor(gpuVariant, lanes, packed, device, p.n);
  if (packWarps > 0) params.packWarps = packWarps, params.packLearners = L, params.packSlots = 9;
  Buffer g = upload(ctx, p.g, isDouble);

  std::vector<std::vector<double>> cRef(L), scaleStored(L), scaleX(L);
  for (int j = 0; j < L; ++j) referenceBtg(p, j, &cRef[j], &scaleStored[j], &scaleX[j]);

  for (CompactKernel kind : {CompactKernel::CompactX, CompactKernel::Compact, CompactKernel::Sorted}) {
    const QByteArray name = QByteArray::fromStdString(toString(kind));
    CompactPlan plan(ctx, data, kind, params);
    if (kind == CompactKernel::CompactX) {  // the kernel this row is about runs
      QCOMPARE(plan.lanes(), lanes);
      QCOMPARE(plan.packed(), packed);
    }
    const auto& scale = kind == CompactKernel::Compact ? scaleStored : scaleX;
    // Batched B'g.
    Buffer all(ctx, static_cast<std::size_t>(L * k) * data.realBytes());
    poison(ctx, all, isDouble);
    plan.transposed(g, all);
    const std::vector<double> got = download(ctx, all, static_cast<std::size_t>(L * k), isDouble);
    for (int j = 0; j < L; ++j) {
      const std::vector<double> gj(got.begin() + j * k, got.begin() + (j + 1) * k);
      const double e = maxScaledError(gj, cRef[j], scale[j]);
      QVERIFY2(e <= tolerance(j),
               (name + " batched learner " + QByteArray::number(j) + " error " + QByteArray::number(e)));
    }
    // Per-learner B'g.
    Buffer one(ctx, static_cast<std::size_t>(k) * data.realBytes());
    for (int j = 0; j < L; ++j) {
      poison(ctx, one, isDouble);
      plan.transposedOne(j, g, one);
      const double e = maxScaledError(download(ctx, one, k, isDouble), cRef[j], scale[j]);
      QVERIFY2(e <= tolerance(j), (name + " one learner " + QByteArray::number(j) + " error " + QByteArray::number(e)));
    }

    // Per-learner B delta and the fused update, for learner 1 (the clamped one) and learner 2.
    const std::vector<double> delta = asReal(uniform(static_cast<std::size_t>(L * k), -1.0, 1.0, seed + 11), isDouble);
    const std::vector<double> y = asReal(uniform(p.n, 5.0, 9.0, seed + 12), isDouble);
    const std::vector<double> mu0 = asReal(uniform(p.n, 6.0, 8.0, seed + 13), isDouble);
    Buffer deltaBuffer = upload(ctx, delta, isDouble);
    for (int j : {1, 2}) {
      std::vector<double> f(p.n), fScale(p.n), b(degree + 1);
      for (std::size_t i = 0; i < p.n; ++i) {
        const int first = p.bases[j].evaluate(p.x[j][i], b.data());
        for (int r = 0; r <= degree; ++r) {
          f[i] += b[r] * delta[j * k + first + r];
          fScale[i] += std::abs(b[r] * delta[j * k + first + r]);
        }
      }
      Buffer deltaJ = upload(ctx, std::vector<double>(delta.begin() + j * k, delta.begin() + (j + 1) * k), isDouble);
      Buffer out(ctx, p.n * data.realBytes());
      poison(ctx, out, isDouble);
      plan.forwardOne(j, deltaJ, out);
      // A handful of products per row, but compact_x evaluates the basis at u = (x - lo)/dx - q computed in
      // REAL, whose absolute error grows to ~eps * intervals (6e-8 * 61 = 4e-6 in float at k = 64), times the
      // basis' slopes: the same 1e-4 / 1e-12 bounds as B'g, still far below any wrong term.
      const double rowTol = tolerance(j);
      double e = maxScaledError(download(ctx, out, p.n, isDouble), f, fScale);
      QVERIFY2(e <= rowTol, (name + " forward error " + QByteArray::number(e)));

      const double nu = 0.1;
      Buffer yBuffer = upload(ctx, y, isDouble), mu = upload(ctx, mu0, isDouble);
      Buffer gOut(ctx, p.n * data.realBytes()), partials(ctx, plan.updatePartials() * data.realBytes());
      poison(ctx, gOut, isDouble);
      poison(ctx, partials, isDouble);
      Buffer index(ctx, sizeof(cl_int));
      const cl_int jj = j;
      index.write(ctx, &jj, sizeof jj);
      plan.update(index, deltaBuffer, nu, yBuffer, mu, gOut, partials);
      std::vector<double> muWant(p.n), gWant(p.n), magnitude(p.n);
      double ss = 0.0;
      for (std::size_t i = 0; i < p.n; ++i) {
        muWant[i] = mu0[i] + nu * f[i];
        gWant[i] = y[i] - muWant[i];
        magnitude[i] = std::abs(mu0[i]) + std::abs(y[i]) + nu * fScale[i];
        ss += gWant[i] * gWant[i];
      }
      e = maxScaledError(download(ctx, mu, p.n, isDouble), muWant, magnitude);
      QVERIFY2(e <= rowTol, (name + " update mu error " + QByteArray::number(e)));
      e = maxScaledError(download(ctx, gOut, p.n, isDouble), gWant, magnitude);
      QVERIFY2(e <= rowTol, (name + " update g error " + QByteArray::number(e)));
      double ssGot = 0.0;
      for (double v : download(ctx, partials, plan.updatePartials(), isDouble)) ssGot += v;
      // g'g of rows whose g carries an absolute error ~ eps * |y|: relative error ~ eps * |y| / |g| plus the sum.
      QVERIFY2(std::abs(ssGot - ss) <= (isDouble ? 1e-11 : 1e-4) * ss,
               (name + " g'g " + QByteArray::number(ssGot, 'g', 17) + " vs " + QByteArray::number(ss, 'g', 17)));

      // The residual alone (compact_x, compact_sorted): g -= nu B_j delta_j from g0 = y - mu0, the same g'g, and
      // mu = y - g formed afterwards; the same bounds (one subtraction more than the update's, of like size).
      if (kind == CompactKernel::Compact) continue;
      std::vector<double> g0(p.n);
      for (std::size_t i = 0; i < p.n; ++i) g0[i] = y[i] - mu0[i];
      Buffer gResidual = upload(ctx, asReal(g0, isDouble), isDouble), muFormed(ctx, p.n * data.realBytes());
      poison(ctx, partials, isDouble);
      poison(ctx, muFormed, isDouble);
      plan.residualUpdate(index, deltaBuffer, nu, gResidual, partials);
      e = maxScaledError(download(ctx, gResidual, p.n, isDouble), gWant, magnitude);
      QVERIFY2(e <= rowTol, (name + " residual update g error " + QByteArray::number(e)));
      ssGot = 0.0;
      for (double v : download(ctx, partials, plan.updatePartials(), isDouble)) ssGot += v;
      QVERIFY2(
          std::abs(ssGot - ss) <= (isDouble ? 1e-11 : 1e-4) * ss,
          (name + " residual g'g " + QByteArray::number(ssGot, 'g', 17) + " vs " + QByteArray::number(ss, 'g', 17)));
      plan.fittedFromResidual(yBuffer, gResidual, muFormed);
      e = maxScaledError(download(ctx, muFormed, p.n, isDouble), muWant, magnitude);
      QVERIFY2(e <= rowTol, (name + " mu from the residual error " + QByteArray::number(e)));
    }
  }
}

void TestCompactKernels::denseExpansionMatchesReference() {
  const quint64 seed = 301;
  qInfo("seed %llu", static_cast<unsigned long long>(seed));
  const Device device = testDevice();
  Context ctx(device);
  const Problem p = makeProblem(333, 5, 3, false, true, seed);
  const int k = p.k(), L = 3;
  CompactData data(ctx, p.basisPointers(), p.xPointers(), p.n, false, false);
  CompactPlan plan(ctx, data, CompactKernel::CompactX);
  Buffer dense(ctx, p.n * L * k * sizeof(float));
  poison(ctx, dense, false);
  plan.expandDense(dense);
  const std::vector<double> got = download(ctx, dense, p.n * L * k, false);
  std::vector<double> b(4);
  double worst = 0.0;
  for (std::size_t i = 0; i < p.n; ++i)
    for (int j = 0; j < L; ++j) {
      std::vector<double> row(k, 0.0);
      const int first = p.bases[j].evaluate(p.x[j][i], b.data());
      for (int r = 0; r < 4; ++r) row[first + r] = b[r];
      for (int c = 0; c < k; ++c) {
        const double e = std::abs(got[(i * L + j) * k + c] - row[c]);
        worst = std::isnan(e) ? INFINITY : std::max(worst, e);
      }
    }
  // Weights in [0, 1] from a cubic in float: a few float eps.
  QVERIFY2(worst <= 2e-6, QByteArray::number(worst).constData());
}

void TestCompactKernels::compactNeedsStoredBasis() {
  Context ctx(testDevice());
  const Problem p = makeProblem(100, 3, 3, false, true, 7);
  CompactData data(ctx, p.basisPointers(), p.xPointers(), p.n, false, false);
  QVERIFY_THROWS_EXCEPTION(gb::ComputeError, CompactPlan plan(ctx, data, CompactKernel::Compact));
}

// compact_pack orders each interval's rows so that the lanes' row i fall in distinct local-memory banks (row % 32)
// where they can; a warp's gather of g for row i then takes as many wavefronts as the most rows in one bank. With
// rows in ascending order within each piece (a lane's rows of one interval), uniform x gives 3.5 wavefronts a
// step on average, and the ordering 2.1 (a simulation of the claims in a random lane order). Asserted: every
// chunk's words hold each row once, the ordered layout takes at most 2.6 a step, and at least 0.6 fewer than the
// same pieces in ascending order (kernel variations of claim order move the mean by about 0.1).
void TestCompactKernels::packedOrderSpreadsBanks() {
  const quint64 seed = 121;
  qInfo("seed %llu", static_cast<unsigned long long>(seed));
  const Device device = testDevice();
  Context ctx(device);
  const std::size_t n = 4 * 2048;
  const Problem p = makeProblem(n, 60, 3, false, false, seed);
  CompactData data(ctx, p.basisPointers(), p.xPointers(), p.n, false, true, true);
  CompactPlan plan(ctx, data, CompactKernel::CompactX, parametersFor(true, 32, true, device, n));
  QVERIFY(plan.packed());
  const auto meanWavefronts = [](const std::vector<std::array<int, 64>>& rowsOfLane) {
    double sum = 0.0;
    for (int i = 0; i < 64; ++i) {
      std::array<int, 32> inBank{};
      for (const auto& rows : rowsOfLane) ++inBank[rows[i] % 32];
      sum += *std::max_element(inBank.begin(), inBank.end());
    }
    return sum / 64;
  };
  for (int j = 0; j < 3; ++j)
    for (int c = 0; c < 4; ++c) {
      const std::vector<std::uint32_t> words = plan.packedWords(j, c);
      QCOMPARE(words.size(), std::size_t(2048));
      std::vector<std::array<int, 64>> ordered(32), ascending(32);
      std::vector<int> seen(2048, 0);
      for (int lane = 0; lane < 32; ++lane) {
        int pieceBegin = 0;
        for (int i = 0; i < 64; ++i) {
          const std::uint32_t w = words[(i / 4) * 128 + 4 * lane + i % 4];
          ordered[lane][i] = ascending[lane][i] = static_cast<int>((w >> 2) & 2047u);
          ++seen[ordered[lane][i]];
          if ((w & 1u) || i == 63) {  // the piece ends: its interval's last row, or the run's
            std::sort(ascending[lane].begin() + pieceBegin, ascending[lane].begin() + i + 1);
            pieceBegin = i + 1;
          }
        }
      }
      QVERIFY2(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }), "a row twice or missing");
      const double got = meanWavefronts(ordered), plain = meanWavefronts(ascending);
      qInfo("learner %d chunk %d: %.2f wavefronts a step, %.2f in ascending order", j, c, got, plain);
      QVERIFY2(got <= 2.6 && got <= plain - 0.6, QByteArray::number(got).constData());
    }
}

QTEST_APPLESS_MAIN(TestCompactKernels)
#include "test_compact_kernels.moc"

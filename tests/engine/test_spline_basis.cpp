// SplineBasis against an independent recursive Cox-de Boor evaluation written here, against values known by hand,
// and for the properties the model relies on (partition of unity, knot layout, derivative, linear extrapolation).
#include <QtTest>
#include <cfloat>
#include <cmath>
#include <random>

#include "common/Error.hpp"
#include "spline/SplineBasis.hpp"

using gb::Boundary;
using gb::SplineBasis;
using gb::SplineSpec;

namespace {

// The textbook recursion B_{i,0} = [t_i <= x < t_{i+1}], B_{i,j} = w B_{i,j-1} + (1 - w') B_{i+1,j-1}, with 0/0 = 0.
// `lastSpan` makes the last non-empty span closed on the right (x == hi belongs to it), as patsy/scipy do.
double coxDeBoor(const std::vector<double>& t, int i, int j, double x, int lastSpan) {
  if (j == 0) {
    if (i == lastSpan) return (t[i] <= x && x <= t[i + 1]) ? 1.0 : 0.0;
    return (t[i] <= x && x < t[i + 1]) ? 1.0 : 0.0;
  }
  double out = 0.0;
  const double d1 = t[i + j] - t[i];
  const double d2 = t[i + j + 1] - t[i + 1];
  if (d1 > 0) out += (x - t[i]) / d1 * coxDeBoor(t, i, j - 1, x, lastSpan);
  if (d2 > 0) out += (t[i + j + 1] - x) / d2 * coxDeBoor(t, i + 1, j - 1, x, lastSpan);
  return out;
}

std::vector<double> denseRow(const SplineBasis& b, double x) {
  const int p = b.degree();
  // Clamped: hi is a knot of multiplicity degree+1, so the last span [knots[p + K], hi] must be closed on the right.
  // Extended: hi is a simple knot and B-splines of degree >= 1 are continuous there, so half-open spans suffice.
  const int lastSpan = b.spec().boundary == Boundary::Clamped ? p + b.spec().knots : -1;
  std::vector<double> row(static_cast<std::size_t>(b.numColumns()));
  for (int c = 0; c < b.numColumns(); ++c) row[c] = coxDeBoor(b.knotVector(), c, p, x, lastSpan);
  return row;
}

std::vector<double> compactToDense(const SplineBasis& b, int first, const double* w) {
  std::vector<double> row(static_cast<std::size_t>(b.numColumns()), 0.0);
  for (int r = 0; r <= b.degree(); ++r) row[first + r] = w[r];
  return row;
}

}  // namespace

class TestSplineBasis : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { qInfo("random seed: 20261122 (std::mt19937_64)"); }

  void againstRecursion_data() {
    QTest::addColumn<int>("knots");
    QTest::addColumn<int>("degree");
    QTest::addColumn<int>("boundary");
    for (int boundary = 0; boundary < 2; ++boundary)
      for (int degree = 1; degree <= 5; ++degree)
        for (int knots : {1, 4, 12}) {
          const QByteArray name = QByteArray(boundary ? "extended" : "clamped") + " d" + QByteArray::number(degree) +
                                  " knots" + QByteArray::number(knots);
          QTest::newRow(name.constData()) << knots << degree << boundary;
        }
  }
  void againstRecursion() {
    QFETCH(int, knots);
    QFETCH(int, degree);
    QFETCH(int, boundary);
    const SplineBasis b(-1.3, 2.9, SplineSpec{knots, degree, boundary ? Boundary::Extended : Boundary::Clamped});
    std::mt19937_64 rng(20261122);
    std::uniform_real_distribution<double> U(b.lo(), b.hi());
    std::vector<double> xs = {b.lo(), b.hi()};
    for (double k : b.interiorKnots()) xs.push_back(k);  // exactly at knots
    for (int i = 0; i < 200; ++i) xs.push_back(U(rng));
    double worst = 0.0;
    for (double x : xs) {
      const std::vector<double> ref = denseRow(b, x);
      double w[6], wf[6];
      const auto slow = compactToDense(b, b.evaluate(x, w), w);
      const auto fast = compactToDense(b, b.evaluateFast(x, wf), wf);
      for (int c = 0; c < b.numColumns(); ++c) {
        worst = std::max(worst, std::abs(slow[c] - ref[c]));
        worst = std::max(worst, std::abs(fast[c] - ref[c]));
      }
    }
    // Values lie in [0, 1]; both evaluations take O(degree^2) rounded steps: 1e-13 leaves a wide margin.
    QVERIFY2(worst < 1e-13, qPrintable(QString("max abs difference %1").arg(worst)));
  }

  void partitionOfUnity() {
    for (auto boundary : {Boundary::Clamped, Boundary::Extended})
      for (int degree = 1; degree <= 5; ++degree) {
        const SplineBasis b(0.0, 1.0, SplineSpec{7, degree, boundary});
        for (int i = 0; i <= 1000; ++i) {
          const double x = i / 1000.0;
          double w[6];
          b.evaluateFast(x, w);
          double sum = 0.0;
          for (int r = 0; r <= degree; ++r) {
            QVERIFY(w[r] >= -1e-15);
            sum += w[r];
          }
          QVERIFY2(std::abs(sum - 1.0) < 1e-14, qPrintable(QString("x=%1 sum=%2").arg(x).arg(sum, 0, 'g', 17)));
        }
      }
  }

  void handValues() {
    double w[6];
    // Uniform cubic B-spline: at a knot (1/6, 4/6, 1/6, 0); mid-interval (1, 23, 23, 1)/48.
    const SplineBasis cubic(0.0, 10.0, SplineSpec{9, 3, Boundary::Extended});  // dx = 1
    QCOMPARE(cubic.evaluate(4.0, w), 4);
    QVERIFY(std::abs(w[0] - 1.0 / 6) < 1e-15 && std::abs(w[1] - 4.0 / 6) < 1e-15 && std::abs(w[2] - 1.0 / 6) < 1e-15 &&
            std::abs(w[3]) < 1e-15);
    QCOMPARE(cubic.evaluateFast(4.5, w), 4);
    const double mid[4] = {1.0 / 48, 23.0 / 48, 23.0 / 48, 1.0 / 48};
    for (int r = 0; r < 4; ++r) QVERIFY(std::abs(w[r] - mid[r]) < 1e-15);
    // Uniform quadratic at a knot (1/2, 1/2, 0), mid-interval (1/8, 6/8, 1/8).
    const SplineBasis quad(0.0, 10.0, SplineSpec{9, 2, Boundary::Extended});
    quad.evaluateFast(3.0, w);
    QVERIFY(std::abs(w[0] - 0.5) < 1e-15 && std::abs(w[1] - 0.5) < 1e-15 && std::abs(w[2]) < 1e-15);
    quad.evaluateFast(3.5, w);
    QVERIFY(std::abs(w[0] - 0.125) < 1e-15 && std::abs(w[1] - 0.75) < 1e-15 && std::abs(w[2] - 0.125) < 1e-15);
    // Clamped cubic with one interior knot at 0.5 on [0, 1]: B_0(x) = (1 - 2x)^3 on [0, 0.5).
    const SplineBasis clamped(0.0, 1.0, SplineSpec{1, 3, Boundary::Clamped});
    QCOMPARE(clamped.evaluate(0.25, w), 0);
    QVERIFY(std::abs(w[0] - 0.125) < 1e-15);
    // Clamped: the first function is 1 at lo, the last is 1 at hi (right end closed).
    QCOMPARE(clamped.evaluateFast(0.0, w), 0);
    QVERIFY(std::abs(w[0] - 1.0) < 1e-15);
    QCOMPARE(clamped.evaluateFast(1.0, w), 1);
    QVERIFY(std::abs(w[3] - 1.0) < 1e-15);
    // Degree 1 clamped: hat functions, linear interpolation weights.
    const SplineBasis linear(0.0, 4.0, SplineSpec{3, 1, Boundary::Clamped});  // knots at 1, 2, 3
    QCOMPARE(linear.evaluateFast(2.25, w), 2);
    QVERIFY(std::abs(w[0] - 0.75) < 1e-15 && std::abs(w[1] - 0.25) < 1e-15);
  }

  void knotLayout() {
    const double lo = 0.1, hi = 0.9;
    for (int degree = 1; degree <= 5; ++degree) {
      const SplineBasis ext(lo, hi, SplineSpec{20, degree, Boundary::Extended});
      const auto& t = ext.knotVector();
      QCOMPARE(static_cast<int>(t.size()), ext.numColumns() + degree + 1);
      QCOMPARE(ext.numColumns(), 20 + degree + 1);
      const double dx = (hi - lo) / 21;
      for (std::size_t i = 1; i < t.size(); ++i) QVERIFY(std::abs(t[i] - t[i - 1] - dx) < 1e-15);
      QCOMPARE(t[degree], lo);
      QCOMPARE(t[t.size() - 1 - degree], hi);
      const SplineBasis cl(lo, hi, SplineSpec{20, degree, Boundary::Clamped});
      const auto& c = cl.knotVector();
      QCOMPARE(c.size(), t.size());
      for (int i = 0; i <= degree; ++i) {
        QCOMPARE(c[i], lo);
        QCOMPARE(c[c.size() - 1 - i], hi);
      }
      const auto inner = cl.interiorKnots();
      QCOMPARE(static_cast<int>(inner.size()), 20);
      for (int i = 0; i < 20; ++i) QCOMPARE(inner[i], lo + (i + 1) * dx);  // R's seq(): from + i * by, bit for bit
      QCOMPARE(ext.interiorKnots(), inner);
    }
  }

  void derivativeMatchesDifferences() {
    for (auto boundary : {Boundary::Clamped, Boundary::Extended}) {
      const SplineBasis b(0.0, 2.0, SplineSpec{5, 3, boundary});
      for (double x : {0.05, 0.37, 1.0 + 1e-3, 1.71, 1.95}) {
        const double h = 1e-6;
        double d[4], wp[4], wm[4];
        const int f = b.derivative(x, d);
        QCOMPARE(b.evaluateFast(x + h, wp), f);
        QCOMPARE(b.evaluateFast(x - h, wm), f);
        // Central difference error ~ h^2 f''' ~ 1e-12 plus rounding 1e-16/h ~ 1e-10.
        for (int r = 0; r < 4; ++r) QVERIFY(std::abs(d[r] - (wp[r] - wm[r]) / (2 * h)) < 1e-7);
      }
    }
  }

  void linearExtrapolation() {
    const SplineBasis b(0.0, 1.0, SplineSpec{6, 3, Boundary::Clamped});
    double at[4], slope[4], w[4];
    bool outside = false;
    for (double edge : {0.0, 1.0}) {
      const int f = b.evaluateFast(edge, at);
      b.derivative(edge, slope);
      const double step = edge == 0.0 ? -0.3 : 0.4;
      QCOMPARE(b.evaluateExtrapolated(edge + step, w, &outside), f);
      QVERIFY(outside);
      for (int r = 0; r < 4; ++r) QVERIFY(std::abs(w[r] - (at[r] + step * slope[r])) < 1e-14);
    }
    b.evaluateExtrapolated(0.5, w, &outside);
    QVERIFY(!outside);
  }

  // mboost's bbs(degree = 1) predicts flat above its range and linearly below it: R's splineDesign(derivs = 1) gives
  // a zero row at the upper boundary knot for order 2 (mboost 2.9.13, bbs(x, knots = 4, degree = 1): predictions at
  // max(x), max(x) + 0.5 and max(x) + 3 are one value; below min(x) they differ). Clamped bases keep the slope.
  void degreeOneIsFlatAboveItsRangeAsMboost() {
    double at[2], slope[2], w[2];
    bool outside = false;
    const SplineBasis extended(0.0, 2.0, SplineSpec{4, 1, Boundary::Extended});
    const int top = extended.evaluateFast(2.0, at);
    QCOMPARE(extended.evaluateExtrapolated(2.5, w, &outside), top);
    QVERIFY(outside);
    for (int r = 0; r < 2; ++r) QCOMPARE(w[r], at[r]);
    const int bottom = extended.evaluateFast(0.0, at);
    extended.derivative(0.0, slope);
    QVERIFY(slope[0] != 0.0);
    QCOMPARE(extended.evaluateExtrapolated(-0.5, w, &outside), bottom);
    for (int r = 0; r < 2; ++r) QVERIFY(std::abs(w[r] - (at[r] - 0.5 * slope[r])) < 1e-14);
    const SplineBasis clamped(0.0, 2.0, SplineSpec{4, 1, Boundary::Clamped});
    clamped.evaluateFast(2.0, at);
    clamped.derivative(2.0, slope);
    clamped.evaluateExtrapolated(2.5, w, &outside);
    for (int r = 0; r < 2; ++r) QVERIFY(std::abs(w[r] - (at[r] + 0.5 * slope[r])) < 1e-14);
    QVERIFY(slope[0] != 0.0 || slope[1] != 0.0);
  }

  void rejectsBadSpecs() {
    auto message = [](auto&& make) -> QString {
      try {
        make();
      } catch (const gb::InputError& e) {
        return e.what();
      }
      return {};
    };
    QVERIFY(message([] { SplineBasis(0, 1, SplineSpec{0, 3, Boundary::Extended}); }).startsWith("--knots:"));
    QVERIFY(message([] { SplineBasis(0, 1, SplineSpec{5, 0, Boundary::Extended}); }).startsWith("--degree:"));
    QVERIFY(message([] { SplineBasis(0, 1, SplineSpec{5, 6, Boundary::Extended}); }).contains("got 6"));
    QVERIFY(message([] { SplineBasis(1, 1, SplineSpec{5, 3, Boundary::Extended}); }).contains("lo < hi"));
    QVERIFY(message([] { gb::boundaryFromString("open"); }).startsWith("--boundary:"));
    // INT_MAX knots overflowed knots + 1 and knots + 2 (int) before any allocation.
    QCOMPARE(message([] {
               SplineBasis(0, 1, SplineSpec{2147483647, 3, Boundary::Extended});
             }),
             QStringLiteral("--knots: must be in 1..1000000 (got 2147483647)"));
  }

  // The range rule: finite, hi > lo, normal and distinct knot spacing, finite extended knots.
  void rangeRule_data() {
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<QString>("problem");  // "" = accepted
    const QString narrow = "too narrow a range for a spline basis";
    const QString wide = "too wide a range for a spline basis";
    QTest::newRow("unit") << 0.0 << 1.0 << "";
    QTest::newRow("tiny but normal") << 0.0 << 1e-300 << "";
    QTest::newRow("large offset, wide enough") << 1e6 << 1e6 + 1.0 << "";
    QTest::newRow("subnormal 1e-321") << 0.0 << 1e-321 << narrow;
    QTest::newRow("subnormal 1e-320") << 0.0 << 1e-320 << narrow;
    // dx = 21 * DBL_MIN / 21 = DBL_MIN exactly is still normal; a bit less is not.
    QTest::newRow("spacing DBL_MIN") << 0.0 << 21 * DBL_MIN << "";
    QTest::newRow("spacing below DBL_MIN") << 0.0 << 20 * DBL_MIN << narrow;
    // 1e6 has an ulp of 1.2e-10: knots 5e-11 apart would not be distinct.
    QTest::newRow("not distinct") << 1e6 << 1e6 + 1e-9 << narrow;
    QTest::newRow("empty") << 1.0 << 1.0 << "the range must satisfy lo < hi";
    QTest::newRow("reversed") << 2.0 << 1.0 << "the range must satisfy lo < hi";
    QTest::newRow("infinite") << 0.0 << HUGE_VAL << "the range must be finite";
    QTest::newRow("nan") << std::nan("") << 1.0 << "the range must be finite";
    QTest::newRow("width overflows") << -1e308 << 1e308 << wide;
    QTest::newRow("extended knots overflow") << 0.0 << 1.7e308 << wide;
  }

  void rangeRule() {
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(QString, problem);
    const SplineSpec spec{20, 3, Boundary::Extended};
    QCOMPARE(QString::fromStdString(SplineBasis::rangeProblem(lo, hi, spec)), problem);
    if (!problem.isEmpty()) {
      QVERIFY_THROWS_EXCEPTION(gb::InputError, SplineBasis(lo, hi, spec));
      return;
    }
    // An accepted range gives a basis whose values are finite and sum to 1 inside (partition of unity).
    const SplineBasis b(lo, hi, spec);
    double w[SplineBasis::kMaxDegree + 1];
    for (double t : {0.0, 0.3, 0.77, 1.0}) {
      const double x = lo + t * (hi - lo);
      b.evaluateFast(x, w);
      double sum = 0.0;
      for (int r = 0; r <= 3; ++r) {
        QVERIFY(std::isfinite(w[r]));
        sum += w[r];
      }
      QVERIFY2(std::abs(sum - 1.0) < 1e-6, qPrintable(QString::number(sum, 'g', 17)));
    }
  }
};

QTEST_APPLESS_MAIN(TestSplineBasis)
#include "test_spline_basis.moc"

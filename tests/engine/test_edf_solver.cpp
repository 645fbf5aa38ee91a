// edf(lambda) from the Demmler-Reinsch eigenvalues against the hat matrix formed densely (n x n), and lambda from
// the root finder against the target, for both edf definitions, ridge and P-spline penalties, and the edge cases.
#include <Eigen/Dense>
#include <QtTest>
#include <random>

#include "common/Error.hpp"
#include "data/Dataset.hpp"
#include "learner/EdfSolver.hpp"
#include "learner/Learner.hpp"
#include "learner/MboostLambda.hpp"
#include "spline/Penalty.hpp"
#include "spline/SplineBasis.hpp"

using namespace gb;

namespace {

constexpr unsigned kSeed = 7;

Eigen::MatrixXd denseBasis(const SplineBasis& b, const std::vector<double>& x) {
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(x.size()), b.numColumns());
  double w[6];
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int f = b.evaluate(x[i], w);
    for (int r = 0; r <= b.degree(); ++r) B(static_cast<Eigen::Index>(i), f + r) = w[r];
  }
  return B;
}

std::vector<double> uniform(std::size_t n, double lo, double hi, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(lo, hi);
  std::vector<double> x(n);
  for (double& v : x) v = U(rng);
  return x;
}

// tr(H) or tr(2H - H'H) with H = B (B'B + lambda S)^-1 B' formed as an n x n matrix.
double denseEdf(const Eigen::MatrixXd& B, const Eigen::MatrixXd& S, double lambda, EdfDefinition def) {
  const Eigen::MatrixXd A = B.transpose() * B + lambda * S;
  const Eigen::MatrixXd H = B * A.ldlt().solve(B.transpose());
  // tr(H'H) is the sum of H's squared entries: the same number without an n x n x n product (at n = 2000 that
  // product was most of this test's 47 s under the sanitizers).
  return def == EdfDefinition::Trace ? H.trace() : 2.0 * H.trace() - H.squaredNorm();
}

// tr(H) = tr((B'B + lambda S)^-1 B'B) in long double: at lambda 3e10 the double solve is off by 1e-5.
long double longDoubleTraceEdf(const Eigen::MatrixXd& B, const Eigen::MatrixXd& S, double lambda) {
  using M = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  const M Bl = B.cast<long double>();
  const M G = Bl.transpose() * Bl;
  const M A = G + static_cast<long double>(lambda) * S.cast<long double>();
  return A.ldlt().solve(G).trace();
}

}  // namespace

class TestEdfSolver : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { qInfo("random seed: %u", kSeed); }

  void edfMatchesHatMatrix_data() {
    QTest::addColumn<int>("penalty");
    QTest::addColumn<int>("differences");
    QTest::addColumn<int>("boundary");
    QTest::newRow("ridge clamped") << 0 << 0 << 0;
    QTest::newRow("ridge extended") << 0 << 0 << 1;
    QTest::newRow("pspline d1 extended") << 1 << 1 << 1;
    QTest::newRow("pspline d2 extended") << 1 << 2 << 1;
    QTest::newRow("pspline d3 clamped") << 1 << 3 << 0;
  }
  void edfMatchesHatMatrix() {
    QFETCH(int, penalty);
    QFETCH(int, differences);
    QFETCH(int, boundary);
    const auto kind = penalty ? PenaltyKind::PSpline : PenaltyKind::Ridge;
    const auto x = uniform(150, 0.0, 1.0, kSeed);
    const SplineBasis b(*std::min_element(x.begin(), x.end()), *std::max_element(x.begin(), x.end()),
                        SplineSpec{8, 3, boundary ? Boundary::Extended : Boundary::Clamped});
    const Eigen::MatrixXd B = denseBasis(b, x);
    const Eigen::MatrixXd S = penaltyMatrix(b.numColumns(), kind, differences);
    const EdfFunction edf(B.transpose() * B, S);
    QCOMPARE(edf.rank(), b.numColumns());
    QCOMPARE(edf.nullSpaceDimension(), penaltyNullSpaceDimension(kind, differences));
    for (double lambda : {0.0, 1e-3, 0.37, 5.0, 80.0, 3e3, 1e6})
      for (auto def : {EdfDefinition::Trace, EdfDefinition::Mboost}) {
        const double dense = denseEdf(B, S, lambda, def);
        // Both sides are O(k) sums of O(1) terms; the dense side goes through an n x n product: 1e-10 relative.
        QVERIFY2(std::abs(edf(lambda, def) - dense) < 1e-10 * std::max(1.0, dense),
                 qPrintable(QString("lambda %1: %2 vs dense %3")
                                .arg(lambda)
                                .arg(edf(lambda, def), 0, 'g', 17)
                                .arg(dense, 0, 'g', 17)));
      }
  }

  void lambdaSolvesTarget() {
    const auto x = uniform(400, -2.0, 3.0, kSeed + 1);
    const SplineBasis b(*std::min_element(x.begin(), x.end()), *std::max_element(x.begin(), x.end()),
                        SplineSpec{20, 3, Boundary::Extended});
    const Eigen::MatrixXd B = denseBasis(b, x);
    for (auto kind : {PenaltyKind::Ridge, PenaltyKind::PSpline}) {
      const Eigen::MatrixXd S = penaltyMatrix(b.numColumns(), kind, 2);
      const EdfFunction edf(B.transpose() * B, S);
      for (double target : {2.5, 4.0, 10.0}) {
        const auto trace = solveLambda(edf, target, EdfDefinition::Trace, "x");
        const auto mb = solveLambda(edf, target, EdfDefinition::Mboost, "x");
        QVERIFY(!trace.unpenalised && trace.lambda > 0);
        // The trace root is solved to double precision: the dense hat matrix agrees to its own rounding.
        QVERIFY(std::abs(denseEdf(B, S, trace.lambda, EdfDefinition::Trace) - target) < 1e-9);
        // mboost's df2lambda stops R's uniroot once the bracket is within tol = sqrt(eps) (absolute, plus 4 eps
        // lambda); B'B is well conditioned here, so its 1e-9 S perturbation moves the root by far less. Bound: the
        // slope of the edf (central difference) times twice that bracket, plus the dense matrix's rounding.
        const double bracket = 2 * (std::sqrt(2.2e-16) + 4 * 2.2e-16 * mb.lambda);
        const double h = 1e-6 * mb.lambda;
        const double slope =
            (edf(mb.lambda + h, EdfDefinition::Mboost) - edf(mb.lambda - h, EdfDefinition::Mboost)) / (2 * h);
        const double dense = denseEdf(B, S, mb.lambda, EdfDefinition::Mboost);
        QVERIFY2(std::abs(dense - target) < std::abs(slope) * bracket + 1e-9,
                 qPrintable(QString("lambda %1: edf %2").arg(mb.lambda).arg(dense, 0, 'g', 17)));
        // tr(2H - H'H) <= tr(H) pointwise, so the mboost definition needs more penalty for the same target.
        QVERIFY(mb.lambda > trace.lambda);
      }
    }
  }

  // Brent's zero finder as R's uniroot runs it: the same iterate at the same stop, so the same root R returns
  // (values printed by R 4.2.2: uniroot(f, interval, tol = ...)$root with 17 digits; tolerance a few ulps).
  void zeroFinderStopsWhereRsUnirootStops() {
    auto near = [](double a, double b) { return std::abs(a - b) <= 1e-14 * std::abs(b); };
    auto cubic = [](double x) { return x * x * x - 2 * x - 5; };
    QVERIFY(near(brentZero(cubic, 2, 3, cubic(2), cubic(3), 1e-3, 1000), 2.0946022401041318));
    QVERIFY(
        near(brentZero(cubic, 2, 3, cubic(2), cubic(3), std::sqrt(2.220446049250313e-16), 1000), 2.0945514815361843));
    // df2lambda's equation for d = (3, 1, 0.2, 0.01) and df 2.5 on mboost's bracket [0, 1e15]
    const Eigen::VectorXd d = (Eigen::VectorXd(4) << 3, 1, 0.2, 0.01).finished();
    QVERIFY(near(mboostLambda(d, 2.5), 2.9332467913551907));
  }

  void unpenalisedAtOrAboveRank() {
    const auto x = uniform(100, 0.0, 1.0, kSeed + 2);
    const SplineBasis b(0.0, 1.0, SplineSpec{4, 3, Boundary::Extended});  // k = 8
    const Eigen::MatrixXd B = denseBasis(b, x);
    const EdfFunction edf(B.transpose() * B, penaltyMatrix(8, PenaltyKind::PSpline, 2));
    const auto s = solveLambda(edf, 8.0, EdfDefinition::Mboost, "x3");
    QVERIFY(s.unpenalised);
    QCOMPARE(s.lambda, 0.0);
    QVERIFY2(QString::fromStdString(s.note).contains("rank 8"), s.note.c_str());
  }

  // A skewed covariate (lognormal) leaves the last basis columns on a row or two: B's singular values reach down to
  // about 1e-6 of the largest, yet B has full rank (mboost's rankMatrix, a QR with tolerance max(n, k) eps, says
  // k). The pencil's 1e-10 counted one direction too few, and an unpenalised fit dropped it: 0.38 off least squares.
  // Reference: the rank from B's singular values (mboost's tolerance) and the least-squares fit from a QR of B.
  void unpenalisedSkewedCovariateKeepsEveryDirection() {
    // Seed 13: the smallest singular value of B is 1.5e-6 of the largest (of seeds 0-20, most give truly empty
    // columns, rank < k, which singularGramUsesPencil covers).
    constexpr unsigned kSkewedSeed = 13;
    qInfo("seed %u", kSkewedSeed);
    std::mt19937_64 rng(kSkewedSeed);
    std::normal_distribution<double> N(0.0, 1.2);
    std::vector<double> x(150), u(150);
    for (double& v : x) v = std::exp(N(rng));
    for (double& v : u) v = N(rng);  // drawn after x: x is the seed's
    const double lo = *std::min_element(x.begin(), x.end()), hi = *std::max_element(x.begin(), x.end());
    const SplineBasis b(lo, hi, SplineSpec{5, 3, Boundary::Extended});  // k = 9
    const Eigen::MatrixXd B = denseBasis(b, x);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(B);
    const Eigen::VectorXd sv = svd.singularValues();
    const double tolerance = 150 * std::numeric_limits<double>::epsilon() * sv[0];
    const int rankB = static_cast<int>((sv.array() > tolerance).count());
    qInfo("singular values of B: %.3g .. %.3g, rank %d", sv[0], sv[sv.size() - 1], rankB);
    QCOMPARE(rankB, 9);
    QVERIFY2(sv[sv.size() - 1] < 1e-4 * sv[0], "the case needs nearly empty end columns");
    const EdfFunction edf(B.transpose() * B, penaltyMatrix(9, PenaltyKind::PSpline, 2));
    QCOMPARE(edf.rank(), rankB);

    Dataset data{"skewed", {"y", "x"}, {u, x}};
    ModelSettings settings;
    settings.learners = {"x"};
    settings.spline = SplineSpec{5, 3, Boundary::Extended};
    settings.edf = 10.0;  // at or above the rank: unpenalised
    const std::vector<Learner> learners = buildLearners(data, settings);
    QCOMPARE(learners.size(), std::size_t{1});
    QCOMPARE(learners[0].lambda, 0.0);
    const Eigen::Map<const Eigen::VectorXd> uv(u.data(), 150);
    const Eigen::VectorXd fit = B * (learners[0].solveMatrix * (B.transpose() * uv));
    const Eigen::VectorXd exact = B * B.colPivHouseholderQr().solve(uv);
    // Both solves lose about cond(B) eps = 1e6 x 2.2e-16 relative; 1e-7 leaves a wide margin (was 0.38 and more).
    const double error = (fit - exact).cwiseAbs().maxCoeff() / exact.cwiseAbs().maxCoeff();
    QVERIFY2(error < 1e-7, qPrintable(QString::number(error)));
  }

  void targetAtNullSpaceIsAnError() {
    const auto x = uniform(100, 0.0, 1.0, kSeed + 3);
    const SplineBasis b(0.0, 1.0, SplineSpec{6, 3, Boundary::Extended});
    const Eigen::MatrixXd B = denseBasis(b, x);
    const EdfFunction edf(B.transpose() * B, penaltyMatrix(b.numColumns(), PenaltyKind::PSpline, 2));
    for (double target : {2.0, 1.5}) {
      try {
        solveLambda(edf, target, EdfDefinition::Trace, "x9");
        QFAIL("expected an InputError");
      } catch (const InputError& e) {
        const QString m = e.what();
        QVERIFY2(m.startsWith("--edf:") && m.contains("x9") && m.contains(QString::number(target)) && m.contains("2"),
                 e.what());
      }
    }
  }

  // A third-order difference penalty on 304 columns: its smallest real eigenvalues, about (pi / k)^6 times the
  // largest, lie below any threshold that clears rounding, so counting them refused edf 4 ("must exceed 4") and gave
  // edf 5.008 for the lambda of edf 5. With the nullity the caller knows (3), edf 4 is reachable and the edf at
  // every lambda is the hat matrix's (denseEdf: tr(2H - H'H) from B (B'B + lambda S)^-1 B').
  void manyColumnsKeepTheDifferencePenaltysNullity() {
    const auto x = uniform(2000, 0.0, 1.0, kSeed + 6);
    const SplineBasis b(0.0, 1.0, SplineSpec{300, 3, Boundary::Extended});
    const Eigen::MatrixXd B = denseBasis(b, x);
    const Eigen::MatrixXd S = penaltyMatrix(b.numColumns(), PenaltyKind::PSpline, 3);
    const Eigen::MatrixXd G = B.transpose() * B;
    QVERIFY(EdfFunction(G, S).nullSpaceDimension() > 3);  // the count from eigenvalues: what went wrong
    const EdfFunction edf(G, S, "x", penaltyNullSpaceDimension(PenaltyKind::PSpline, 3));
    QCOMPARE(edf.nullSpaceDimension(), 3);
    for (double lambda : {1.0, 1e4, 1e8}) {
      const double want = denseEdf(B, S, lambda, EdfDefinition::Mboost);
      QVERIFY2(
          std::abs(edf(lambda, EdfDefinition::Mboost) - want) < 1e-6 * want,
          qPrintable(QString("lambda %1: %2 vs %3").arg(lambda).arg(edf(lambda, EdfDefinition::Mboost)).arg(want)));
    }
    const auto exact = solveLambda(edf, 4.0, EdfDefinition::Trace, "x");  // a root to double precision
    const double reference = static_cast<double>(longDoubleTraceEdf(B, S, exact.lambda));
    qInfo("lambda %.6g: edf %.12g, long double hat matrix %.12g", exact.lambda, exact.edf, reference);
    // At lambda 3e10 the smallest eigenvalues (1e-12 of the largest) carry h = 1 / (1 + lambda d) near 1/2, and
    // their rounding moves the edf by about 1e-5 (mboost's SVD does no better); before, edf 4 was refused outright.
    QVERIFY(std::abs(reference - 4.0) < 1e-4);
    // mboost's lambda: its optimize() stops within its tolerance (here edf 3.99997), and the edf recorded is the
    // hat matrix's at that lambda.
    const auto s = solveLambda(edf, 4.0, EdfDefinition::Mboost, "x");
    QVERIFY2(std::abs(s.edf - 4.0) < 1e-4, qPrintable(QString::number(s.edf)));
  }

  void singularGramUsesPencil() {
    // Data only in the left half: the right-most basis columns see no data, so B'B is singular.
    const auto x = uniform(200, 0.0, 0.45, kSeed + 4);
    const SplineBasis b(0.0, 1.0, SplineSpec{10, 3, Boundary::Extended});
    const Eigen::MatrixXd B = denseBasis(b, x);
    const Eigen::MatrixXd S = penaltyMatrix(b.numColumns(), PenaltyKind::Ridge, 0);
    const EdfFunction edf(B.transpose() * B, S);
    QVERIFY(edf.rank() < b.numColumns());
    for (double lambda : {0.01, 1.0, 100.0})
      QVERIFY(std::abs(edf(lambda, EdfDefinition::Trace) - denseEdf(B, S, lambda, EdfDefinition::Trace)) < 1e-9);
    const auto s = solveLambda(edf, 3.0, EdfDefinition::Trace, "x");
    QVERIFY(std::abs(denseEdf(B, S, s.lambda, EdfDefinition::Trace) - 3.0) < 1e-9);
  }

  void differenceMatrixShape() {
    const Eigen::MatrixXd D2 = differenceMatrix(6, 2);
    QCOMPARE(D2.rows(), Eigen::Index(4));
    QCOMPARE(D2(0, 0), 1.0);
    QCOMPARE(D2(0, 1), -2.0);
    QCOMPARE(D2(0, 2), 1.0);
    QCOMPARE(penaltyMatrix(5, PenaltyKind::Ridge, 2), Eigen::MatrixXd(Eigen::MatrixXd::Identity(5, 5)));
    bool threw = false;
    try {
      differenceMatrix(6, 4);
    } catch (const InputError& e) {
      threw = QString(e.what()).startsWith("--differences:");
    }
    QVERIFY(threw);
  }
};

QTEST_APPLESS_MAIN(TestEdfSolver)
#include "test_edf_solver.moc"

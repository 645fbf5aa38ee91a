// The CPU booster against an independent dense implementation of Algorithm 2 (support/DenseReference):
// dense Cox-de Boor B, dense penalties, dense solves and RSS = ||g - B delta||^2. Acceptance demands the same
// selection path and fitted values / risks within 1e-10 relative.
#include <QtTest>
#include <cmath>
#include <set>

#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "support/DenseReference.hpp"

using namespace gb;
using gbtest::relativeMaxError;

class TestBoosterExact : public QObject {
  Q_OBJECT

 private slots:
  void matchesDenseReference_data();
  void matchesDenseReference();
};

void TestBoosterExact::matchesDenseReference_data() {
  QTest::addColumn<bool>("clamped");
  QTest::addColumn<bool>("ridge");
  QTest::addColumn<int>("differences");
  QTest::addColumn<int>("degree");
  QTest::addColumn<int>("knots");
  QTest::addColumn<double>("edf");
  QTest::addColumn<bool>("mboostEdf");
  QTest::addColumn<double>("nu");
  QTest::addColumn<int>("mstop");
  QTest::addColumn<int>("rows");
  QTest::addColumn<int>("covariates");
  QTest::addColumn<quint64>("seed");
  // clang-format off
  // name                                   clamp  ridge  d  deg knots edf  mboost nu    mstop rows cov seed
  QTest::newRow("paper: clamped ridge trace") << true << true << 0 << 3 << 12 << 1.0 << false << 0.1 << 80 << 300 << 6 << quint64(11);
  QTest::newRow("mboost: extended pspline2") << false << false << 2 << 3 << 20 << 4.0 << true << 0.1 << 80 << 400 << 6 << quint64(12);
  QTest::newRow("extended pspline1 trace deg2") << false << false << 1 << 2 << 6 << 3.0 << false << 0.3 << 60 << 250 << 5 << quint64(13);
  QTest::newRow("clamped pspline3 mboost deg4") << true << false << 3 << 4 << 5 << 5.0 << true << 0.2 << 60 << 300 << 7 << quint64(14);
  QTest::newRow("extended ridge mboost deg1") << false << true << 0 << 1 << 12 << 2.5 << true << 0.1 << 70 << 350 << 6 << quint64(15);
  QTest::newRow("clamped pspline2 trace deg5") << true << false << 2 << 5 << 7 << 3.0 << false << 0.1 << 60 << 300 << 8 << quint64(16);
  QTest::newRow("extended pspline3 trace deg5") << false << false << 3 << 5 << 4 << 4.5 << false << 1.0 << 40 << 200 << 5 << quint64(17);
  QTest::newRow("clamped pspline0 mboost deg2") << true << false << 0 << 2 << 3 << 1.5 << true << 0.5 << 50 << 220 << 6 << quint64(18);
  QTest::newRow("clamped ridge deg1 knots1") << true << true << 0 << 1 << 1 << 1.2 << false << 0.1 << 40 << 200 << 5 << quint64(19);
  // Several row blocks of the backend with an odd tail.
  QTest::newRow("many rows, odd count") << false << false << 2 << 3 << 10 << 4.0 << true << 0.1 << 60 << 9001 << 5 << quint64(20);
  // clang-format on
}

void TestBoosterExact::matchesDenseReference() {
  QFETCH(bool, clamped);
  QFETCH(bool, ridge);
  QFETCH(int, differences);
  QFETCH(int, degree);
  QFETCH(int, knots);
  QFETCH(double, edf);
  QFETCH(bool, mboostEdf);
  QFETCH(double, nu);
  QFETCH(int, mstop);
  QFETCH(int, rows);
  QFETCH(int, covariates);
  QFETCH(quint64, seed);
  qInfo("seed %llu", static_cast<unsigned long long>(seed));

  auto data = gbtest::makeSmoothData(static_cast<std::size_t>(rows), covariates, seed);
  ModelSettings s;
  s.spline = SplineSpec{knots, degree, clamped ? Boundary::Clamped : Boundary::Extended};
  s.penalty = ridge ? PenaltyKind::Ridge : PenaltyKind::PSpline;
  s.differences = differences;
  s.edf = edf;
  s.edfDefinition = mboostEdf ? EdfDefinition::Mboost : EdfDefinition::Trace;
  s.nu = nu;
  s.mstop = mstop;
  Booster booster(data, s, std::make_unique<CpuBackend>());
  QCOMPARE(booster.run(mstop), mstop);

  std::vector<gbtest::DenseLearner> dense;
  for (const Learner& l : booster.learners()) {
    const std::vector<double>& x = data->column(l.name);
    const auto [mn, mx] = std::minmax_element(x.begin(), x.end());
    const std::vector<double> t = gbtest::referenceKnots(*mn, *mx, knots, degree, clamped);
    QCOMPARE(l.basis.knotVector().size(), t.size());
    for (std::size_t i = 0; i < t.size(); ++i)  // knots from the same formula: equal up to a few ulps
      QVERIFY2(std::abs(l.basis.knotVector()[i] - t[i]) <= 1e-13 * (1.0 + std::abs(t[i])), l.name.c_str());
    gbtest::DenseLearner d{gbtest::denseBasis(t, degree, x),
                           gbtest::referencePenalty(l.numColumns(), ridge, differences), l.lambda};
    QVERIFY2(l.lambda > 0.0, l.note.c_str());  // every case asks for edf below rank(B)
    if (rows <= 1000) {
      // lambda from the engine's eigen-solver must give the target edf by the n x n hat-matrix definition;
      // 1e-8 leaves room for the condition of the dense solve (the root finder itself is at ~1e-15).
      const double got = gbtest::denseEdf(d.B, d.S, d.lambda, mboostEdf);
      QVERIFY2(std::abs(got - edf) <= 1e-8 * edf,
               qPrintable(QString("%1: dense edf %2 vs target %3").arg(l.name.c_str()).arg(got, 0, 'g', 17).arg(edf)));
    }
    dense.push_back(std::move(d));
  }
  const gbtest::DenseFit ref = gbtest::denseBoost(data->column("y"), dense, nu, mstop);

  QCOMPARE(booster.offset(), ref.offset);
  QCOMPARE(booster.path().learner, ref.path);
  const std::set<int> distinct(ref.path.begin(), ref.path.end());
  qInfo("%zu of %d learners selected", distinct.size(), covariates);
  QVERIFY(distinct.size() >= 2);  // the race between learners is part of what is compared
  // Double precision throughout; differences come only from summation order and the interval-polynomial form
  // of B, amplified by cond(G + lambda S) <= ~1e4 here: 1e-10 leaves two orders of margin.
  const double fitErr = relativeMaxError(booster.fitted(), ref.fitted);
  const double riskErr = relativeMaxError(booster.path().risk, ref.risk);
  qInfo("fitted rel err %.3g, risk rel err %.3g", fitErr, riskErr);
  QVERIFY2(fitErr <= 1e-10, qPrintable(QString::number(fitErr)));
  QVERIFY2(riskErr <= 1e-10, qPrintable(QString::number(riskErr)));
  for (std::size_t j = 0; j < dense.size(); ++j) {
    const std::vector<double> fx = booster.partialEffect(j, data->column(booster.learners()[j].name));
    const Eigen::VectorXd fref = dense[j].B * ref.gamma[j];
    const double err = relativeMaxError(fx, std::vector<double>(fref.data(), fref.data() + fref.size()));
    QVERIFY2(err <= 1e-10 || fref.cwiseAbs().maxCoeff() == 0.0, qPrintable(QString::number(err)));
  }
}

QTEST_APPLESS_MAIN(TestBoosterExact)
#include "test_booster_exact.moc"

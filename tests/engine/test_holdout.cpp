// fit --holdout in the engine (compute/Holdout.hpp): the held-out risk the Booster follows on the host equals the
// out-of-bag risk the backend reports for the same fold (cvrisk's fold Booster), the fit is that fold's fit, the
// held-out rows are round(F n) used rows drawn by the seed, and bad fractions name --holdout.
#include <QtTest>
#include <cmath>

#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/Holdout.hpp"
#include "learner/ModelFrame.hpp"
#include "support/DenseReference.hpp"
#include "support/TestSupport.hpp"

using namespace gb;

namespace {

constexpr std::uint64_t kSeed = 17;

bool near(double a, double b, double tol) { return std::abs(a - b) <= tol * std::max(1.0, std::abs(b)); }

}  // namespace

class TestHoldout : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %llu", static_cast<unsigned long long>(kSeed)); }

  void heldOutRiskEqualsTheFoldsOutOfBagRisk_data() {
    QTest::addColumn<QString>("family");
    QTest::newRow("gaussian") << "gaussian";
    QTest::newRow("binomial") << "binomial";
    QTest::newRow("poisson") << "poisson";
  }

  void heldOutRiskEqualsTheFoldsOutOfBagRisk() {
    QFETCH(QString, family);
    auto data = gbtest::makeSmoothData(150, 3, kSeed);
    std::vector<double>& y = data->columns[0];
    QCOMPARE(data->names[0], std::string("y"));
    double mean = 0.0;
    for (double v : y) mean += v / static_cast<double>(y.size());
    for (std::size_t i = 0; i < y.size(); ++i)  // a response the family accepts, still following the covariates
      if (family == "binomial")
        y[i] = y[i] > mean ? 1.0 : 0.0;
      else if (family == "poisson")
        y[i] = std::floor(3.0 * std::exp(0.3 * (y[i] - mean)));
    ModelSettings s;
    s.family = familyFromString(family.toStdString());
    s.spline.knots = 6;
    s.mstop = 25;
    s.learners = {"x1", "x2", "x3"};
    const HoldoutSpec spec{0.3, kSeed};
    Booster held(data, s, std::make_unique<CpuBackend>(1), spec);
    held.run(s.mstop);
    const HoldoutFold fold = holdoutFold(buildModelFrame(data, s), spec);
    Booster oob(data, s, std::make_unique<CpuBackend>(1), fold.weights, "fold");
    oob.run(s.mstop);

    QVERIFY(held.heldOut() != nullptr);
    QVERIFY(oob.heldOut() == nullptr);
    QCOMPARE(held.path().learner, oob.path().learner);  // the same fit
    const std::vector<double>& risk = held.heldOut()->risk();
    QCOMPARE(risk.size(), oob.path().risk.size());
    for (std::size_t m = 0; m < risk.size(); ++m)
      QVERIFY2(near(risk[m], oob.path().risk[m], 1e-12),
               qPrintable(QString("m = %1: host %2, backend %3").arg(m).arg(risk[m]).arg(oob.path().risk[m])));
    // path().risk is the fit's own (in-bag) risk, not the held-out one.
    QVERIFY(std::abs(held.path().risk.back() / risk.back() - 1.0) > 1e-6);

    // round(0.3 x 150) = 45 rows, exactly those of fold weight 0.
    const std::vector<std::size_t>& rows = held.heldOut()->inputRows();
    QCOMPARE(rows.size(), std::size_t{45});
    std::size_t zeros = 0;
    for (double w : fold.weights) zeros += w == 0.0 ? 1 : 0;
    QCOMPARE(zeros, std::size_t{45});
    for (std::size_t r : rows) QCOMPARE(fold.weights[r], 0.0);
  }

  void theSeedDrawsTheRows() {
    auto data = gbtest::makeSmoothData(60, 2, kSeed);
    ModelSettings s;
    s.learners = {"x1", "x2"};
    const ModelFrame frame = buildModelFrame(data, s);
    const HoldoutFold a = holdoutFold(frame, {0.25, 1}), b = holdoutFold(frame, {0.25, 1});
    QCOMPARE(a.heldOut, b.heldOut);
    QCOMPARE(a.heldOut.size(), std::size_t{15});
    QVERIFY(holdoutFold(frame, {0.25, 2}).heldOut != a.heldOut);
  }

  void badFractionsNameTheOption() {
    auto data = gbtest::makeSmoothData(30, 2, kSeed);
    ModelSettings s;
    s.learners = {"x1", "x2"};
    const ModelFrame frame = buildModelFrame(data, s);
    for (double f : {0.0, 1.0, -0.5, 1.5, std::nan("")})
      QVERIFY(gbtest::inputErrorOf([&] { holdoutFold(frame, {f, 1}); }).startsWith("--holdout: must be in (0, 1)"));
    QVERIFY(gbtest::inputErrorOf([&] { holdoutFold(frame, {0.01, 1}); }).endsWith("leaves no row out"));
    QVERIFY(gbtest::inputErrorOf([&] { holdoutFold(frame, {0.99, 1}); }).endsWith("leaves no row in"));
  }

  // A fold (or holdout) whose rows of weight 0 all have case weight 0 leaves rows out but nothing to measure: the
  // message says so rather than "leaves no row out".
  void foldOfCaseWeightZeroRowsIsNamed() {
    auto data = gbtest::makeSmoothData(30, 2, kSeed);
    std::vector<double> w(30, 1.0), fold(30, 1.0);
    for (std::size_t i = 0; i < 5; ++i) w[i] = fold[i] = 0.0;
    data->names.push_back("w");
    data->columns.push_back(w);
    data->kinds.push_back(ColumnKind::Numeric);
    data->levels.emplace_back();
    ModelSettings s;
    s.learners = {"x1", "x2"};
    s.weights = "w";
    ModelFrame frame = buildModelFrame(data, s);
    QCOMPARE(gbtest::inputErrorOf([&] { applyFold(frame, fold, "fold 1", OutOfBag::Required); }),
             QString("fold 1: its 5 used rows of weight 0 all have case weight 0 too (no out-of-bag risk)"));
    fold[7] = 0.0;  // a row of case weight 1 left out: fine
    applyFold(frame, fold, "fold 1", OutOfBag::Required);
    QCOMPARE(frame.oobWeights[7], 1.0);
  }
};

QTEST_GUILESS_MAIN(TestHoldout)
#include "test_holdout.moc"

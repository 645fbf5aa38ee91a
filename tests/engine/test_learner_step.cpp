// engine/compute/LearnerStep: the host's worked step (for the window's "what the learner fits" view) against the
// backend's own iteration. After a few iterations, every learner's RSS reduction equals the race's (the CPU
// backend's candidates()), the best of them is the learner the next iteration selects, and its delta is the
// coefficient change of that iteration. Gaussian and binomial; tolerance 1e-9 relative (both in double, summed in
// different orders over 400 rows).
#include <QtTest>
#include <cmath>

#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/LearnerStep.hpp"
#include "support/DenseReference.hpp"

using namespace gb;

namespace {

constexpr std::uint64_t kSeed = 31;

bool near(double a, double b, double tol) { return std::abs(a - b) <= tol * std::max(1.0, std::abs(b)); }

}  // namespace

class TestLearnerStep : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %llu", static_cast<unsigned long long>(kSeed)); }

  void designRowsOfEachType() {
    auto data = gbtest::makeSmoothData(200, 1, kSeed);
    ModelSettings settings;
    const std::vector<Learner> learners = buildLearners(*data, settings);
    const Learner& l = learners.front();
    std::vector<double> row(static_cast<std::size_t>(l.numColumns()));
    designRow(l, 0.37, row.data());
    double sum = 0.0;
    int nonzero = 0;
    for (double v : row) {
      sum += v;
      nonzero += v != 0.0 ? 1 : 0;
    }
    QVERIFY(std::abs(sum - 1.0) < 1e-12);  // B-splines sum to one inside the range
    QVERIFY(nonzero <= l.basis.degree() + 1);
    Learner linear = l;
    linear.type = LearnerType::Linear;
    designRow(linear, 2.5, row.data());
    QCOMPARE(row[0], 1.0);
    QCOMPARE(row[1], 2.5);
    Learner factor = l;
    factor.type = LearnerType::Factor;
    factor.levels = {"a", "b", "c"};
    designRow(factor, 2.0, row.data());
    QCOMPARE(row[0], 1.0);
    QCOMPARE(row[1], 0.0);
    QCOMPARE(row[2], 1.0);
  }

  void stepEqualsTheBackendsIteration_data() {
    QTest::addColumn<QString>("family");
    QTest::newRow("gaussian") << "gaussian";
    QTest::newRow("binomial") << "binomial";
  }

  void stepEqualsTheBackendsIteration() {
    QFETCH(QString, family);
    auto data = gbtest::makeSmoothData(400, 4, kSeed);
    ModelSettings settings;
    settings.mstop = 10;
    if (family == "binomial") {
      settings.family = Family::Binomial;
      for (double& y : data->columns[0]) y = y > 0.0 ? 1.0 : 0.0;
    }
    Booster booster(data, settings, std::make_unique<CpuBackend>(1));
    booster.run(6);
    const std::vector<double> f = booster.fitted();
    const std::vector<double>& y = booster.frame().response;
    std::vector<double> u(f.size());
    for (std::size_t i = 0; i < f.size(); ++i) u[i] = booster.family().ngradient(y[i], f[i]);

    const CandidateScores race = booster.candidates();
    int best = -1;
    LearnerStep bestStep;
    for (std::size_t j = 0; j < booster.learners().size(); ++j) {
      const Learner& l = booster.learners()[j];
      const LearnerStep s =
          learnerStep(l, booster.frame().data->columns[static_cast<std::size_t>(l.column)], u, nullptr, settings.nu);
      QVERIFY2(near(s.reduction, race.residualSumOfSquares - race.rss[j], 1e-9), qPrintable(QString::number(j)));
      if (best < 0 || s.reduction > bestStep.reduction) {
        best = static_cast<int>(j);
        bestStep = s;
      }
    }
    const Eigen::VectorXd before = booster.coefficients()[static_cast<std::size_t>(best)];
    booster.step();
    QCOMPARE(booster.path().learner.back(), best);
    const Eigen::VectorXd change = booster.coefficients()[static_cast<std::size_t>(best)] - before;
    QVERIFY((change - bestStep.delta).norm() <= 1e-9 * std::max(1.0, change.norm()));
  }
};

QTEST_APPLESS_MAIN(TestLearnerStep)
#include "test_learner_step.moc"

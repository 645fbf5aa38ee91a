// engine/compute/StepLog: the coefficients replayed from the recorded steps equal the fit's own, at the end and at
// past iterations (a second fit stopped there), across chunk boundaries; copies share the full chunks.
#include <QtTest>

#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "support/DenseReference.hpp"

using namespace gb;

namespace {

constexpr std::uint64_t kSeed = 37;

std::vector<int> columnsOf(const Booster& b) {
  std::vector<int> k;
  for (const Learner& l : b.learners()) k.push_back(l.numColumns());
  return k;
}

}  // namespace

class TestStepLog : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %llu", static_cast<unsigned long long>(kSeed)); }

  void replayEqualsTheFit() {
    auto data = gbtest::makeSmoothData(120, 3, kSeed);
    ModelSettings settings;
    const int total = static_cast<int>(2 * StepLog::kChunk + 300);  // two full chunks and an open one
    settings.mstop = total;
    Booster full(data, settings, std::make_unique<CpuBackend>(1));
    full.run(total);
    QCOMPARE(full.steps().size(), static_cast<std::size_t>(total));
    const std::vector<int> k = columnsOf(full);
    const std::vector<Eigen::VectorXd> end = full.steps().coefficientsAt(static_cast<std::size_t>(total), k);
    for (std::size_t j = 0; j < k.size(); ++j) QCOMPARE(end[j], full.coefficients()[j]);  // same sums, same order
    for (int m : {0, 1, 700, static_cast<int>(StepLog::kChunk), 1500}) {
      Booster part(data, settings, std::make_unique<CpuBackend>(1));
      part.run(m);
      const std::vector<Eigen::VectorXd> past = full.steps().coefficientsAt(static_cast<std::size_t>(m), k);
      for (std::size_t j = 0; j < k.size(); ++j)
        QVERIFY2((past[j] - part.coefficients()[j]).norm() <= 1e-13 * std::max(1.0, part.coefficients()[j].norm()),
                 qPrintable(QString("m %1 learner %2").arg(m).arg(j)));
      if (m > 0) QCOMPARE(full.steps().learnerAt(static_cast<std::size_t>(m - 1)), part.path().learner.back());
    }
  }

  void copiesAreIndependentAndBoundsAreChecked() {
    StepLog log;
    for (std::size_t t = 0; t < StepLog::kChunk + 5; ++t) log.append(0, {1.0, 2.0});
    StepLog copy = log;
    log.append(0, {10.0, 10.0});
    QCOMPARE(copy.size(), StepLog::kChunk + 5);
    QCOMPARE(log.size(), StepLog::kChunk + 6);
    const auto g = copy.coefficientsAt(copy.size(), {2});
    QCOMPARE(g[0][0], static_cast<double>(StepLog::kChunk + 5));
    QCOMPARE(g[0][1], 2.0 * static_cast<double>(StepLog::kChunk + 5));
    bool threw = false;
    try {
      copy.coefficientsAt(copy.size() + 1, {2});
    } catch (const std::exception&) {
      threw = true;
    }
    QVERIFY(threw);
  }
};

QTEST_APPLESS_MAIN(TestStepLog)
#include "test_step_log.moc"

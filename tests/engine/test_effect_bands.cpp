// Bootstrap bands for the partial effects (compute/EffectBands.hpp) against an independent computation: the same
// bootstrap samples fitted one by one as fold Boosters, each learner's effect from Booster::partialEffect on a
// grid built here, centred by its plain mean over the data rows, and a type-7 quantile written here.
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <cmath>

#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/EffectBands.hpp"
#include "learner/ModelFrame.hpp"
#include "support/DenseReference.hpp"
#include "support/TestSupport.hpp"

using namespace gb;

namespace {

constexpr std::uint64_t kSeed = 17;
constexpr int kReplicates = 9;

// R's quantile(x, p, type = 7): h = (n - 1) p + 1 (1-based), x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
double rQuantile7(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double h = (static_cast<double>(x.size()) - 1.0) * p + 1.0;
  const auto below = static_cast<std::size_t>(std::floor(h));  // 1-based
  const double above = below < x.size() ? x[below] : x[below - 1];
  return x[below - 1] + (h - std::floor(h)) * (above - x[below - 1]);
}

// y, x1..x3 smooth, plus a three-level factor f that shifts y.
std::shared_ptr<Dataset> dataWithFactor() {
  std::shared_ptr<Dataset> d = gbtest::makeSmoothData(140, 3, kSeed);
  std::vector<double> f(d->rows());
  for (std::size_t i = 0; i < f.size(); ++i) {
    f[i] = static_cast<double>((i * 7) % 3);
    d->columns[0][i] += 0.8 * f[i];
  }
  d->names.push_back("f");
  d->columns.push_back(f);
  d->kinds.assign(d->cols(), ColumnKind::Numeric);
  d->kinds.back() = ColumnKind::Text;
  d->levels.assign(d->cols(), {});
  d->levels.back() = {"a", "b", "c"};
  return d;
}

ModelSettings bandSettings() {
  ModelSettings s;
  s.spline.knots = 8;
  s.mstop = 40;
  s.learners = {"x1", "x2"};
  s.linears = {"x3"};
  s.factors = {"f"};
  return s;
}

BackendMaker cpuMaker() {
  return [] { return std::make_unique<CpuBackend>(1); };
}

}  // namespace

class TestEffectBands : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %llu, %d replicates", static_cast<unsigned long long>(kSeed), kReplicates); }

  void bandsEqualSeparateRefitsAndPlainQuantiles() {
    const std::shared_ptr<const Dataset> data = dataWithFactor();
    Booster fitted(data, bandSettings(), std::make_unique<CpuBackend>(1));
    fitted.run(fitted.settings().mstop);
    const std::optional<EffectBands> bands = effectBands(data, fitted, kReplicates, kSeed, cpuMaker(), 2);
    QVERIFY(bands.has_value());
    QCOMPARE(bands->replicates, kReplicates);
    QCOMPARE(bands->mstop, 40);
    QCOMPARE(bands->learners.size(), fitted.learners().size());

    // No row is omitted, so the samples are bootstrapFolds' over the input rows.
    const ResamplingFolds folds = bootstrapFolds(data->rows(), kReplicates, kSeed, {});
    std::vector<std::unique_ptr<Booster>> refits;
    for (int b = 0; b < kReplicates; ++b) {
      refits.push_back(std::make_unique<Booster>(data, fitted.settings(), std::make_unique<CpuBackend>(1),
                                                 folds.weights[static_cast<std::size_t>(b)], "refit"));
      refits.back()->run(40);
    }
    int checked = 0, withWidth = 0;
    for (std::size_t j = 0; j < fitted.learners().size(); ++j) {
      const Learner& l = fitted.learners()[j];
      const LearnerBand& band = bands->learners[j];
      QCOMPARE(band.name, l.name);
      std::vector<double> grid;
      if (l.type == LearnerType::Factor) {
        grid = {0.0, 1.0, 2.0};
      } else {
        for (int i = 0; i < 161; ++i) grid.push_back(l.basis.lo() + (l.basis.hi() - l.basis.lo()) * i / 160.0);
      }
      QCOMPARE(band.x.size(), grid.size());
      const std::vector<double>& xj = data->columns[static_cast<std::size_t>(l.column)];
      auto centred = [&](const Booster& b) {
        std::vector<double> atRows = b.partialEffect(j, xj), y = b.partialEffect(j, grid);
        double mean = 0.0;
        for (double v : atRows) mean += v / static_cast<double>(atRows.size());
        for (double& v : y) v -= mean;
        return y;
      };
      const std::vector<double> effect = centred(fitted);
      std::vector<std::vector<double>> reps;
      for (const auto& r : refits) reps.push_back(centred(*r));
      double scale = 1e-3;
      for (double v : effect) scale = std::max(scale, std::abs(v));
      const double tol = 1e-9 * scale;
      for (std::size_t i = 0; i < grid.size(); ++i) {
        QVERIFY(std::abs(band.x[i] - grid[i]) <= 1e-12 * (1.0 + std::abs(grid[i])));
        std::vector<double> at;
        for (const auto& r : reps) at.push_back(r[i]);
        const double expected[5] = {effect[i], rQuantile7(at, 0.025), rQuantile7(at, 0.975), rQuantile7(at, 0.05),
                                    rQuantile7(at, 0.95)};
        const double got[5] = {band.effect[i], band.lower95[i], band.upper95[i], band.lower90[i], band.upper90[i]};
        for (int q = 0; q < 5; ++q)
          if (std::abs(got[q] - expected[q]) > tol)
            QFAIL(qPrintable(QString("%1 at x = %2, value %3: %4, expected %5")
                                 .arg(QString::fromStdString(l.name))
                                 .arg(grid[i])
                                 .arg(q)
                                 .arg(got[q], 0, 'g', 17)
                                 .arg(expected[q], 0, 'g', 17)));
        QVERIFY(band.lower95[i] <= band.lower90[i] && band.lower90[i] <= band.upper90[i] &&
                band.upper90[i] <= band.upper95[i]);
        ++checked;
      }
      // The refits differ (else the comparison above proves little): the bands of the effects in y have width.
      double width = 0.0;
      for (std::size_t i = 0; i < grid.size(); ++i) width = std::max(width, band.upper95[i] - band.lower95[i]);
      qInfo("%s: widest 95%% band %.4g, largest |effect| %.4g", l.name.c_str(), width, scale);
      if (fitted.selectionCounts()[j] > 0) {
        QVERIFY(width > 1e-3);
        ++withWidth;
      }
    }
    QCOMPARE(checked, 3 * 161 + 3);
    QVERIFY(withWidth >= 2);
  }

  void samplesSkipOmittedRows() {
    std::shared_ptr<Dataset> d = gbtest::makeSmoothData(60, 2, kSeed);
    d->columns[1][5] = std::nan("");
    d->columns[2][9] = std::nan("");
    ModelSettings s;
    s.learners = {"x1", "x2"};
    const ModelFrame frame = buildModelFrame(d, s);
    BandSampler sampler(frame, kSeed);
    for (int b = 0; b < 4; ++b) {
      const std::vector<double> sample = sampler.next();
      QCOMPARE(sample.size(), std::size_t{60});
      QCOMPARE(sample[5], 0.0);
      QCOMPARE(sample[9], 0.0);
      double sum = 0.0;
      for (double v : sample) sum += v;
      QCOMPARE(sum, 58.0);  // one draw per used row
    }
    Booster fitted(d, s, std::make_unique<CpuBackend>(1));
    QVERIFY(gbtest::inputErrorOf([&] { effectBands(d, fitted, 0, 1, cpuMaker(), 1); }).startsWith("--bands: "));
    // Every refit's effects are kept until the percentiles: far more than any machine has is refused up front.
    const QString tooMany = gbtest::inputErrorOf([&] { effectBands(d, fitted, 2000000000, 1, cpuMaker(), 1); });
    QVERIFY2(tooMany.startsWith("--bands: 2000000000 refits' effects on ") && tooMany.contains("available"),
             qPrintable(tooMany));
  }

  // A level on one row of 140 misses about a third of the bootstrap samples; those refits leave its effect undecided
  // (unpenalised: mboost's bols() would stop) and are left out of that learner's percentiles, not of the others'.
  // The samples that hold the row are counted here from a BandSampler of the same seed.
  void refitsLeavingALevelUndecidedAreLeftOut() {
    std::shared_ptr<Dataset> d = dataWithFactor();
    for (std::size_t i = 1; i < d->rows(); ++i)
      if (d->columns.back()[i] == 2.0) d->columns.back()[i] = 0.0;  // level "c" on row 0 alone
    d->columns.back()[0] = 2.0;
    const ModelSettings s = bandSettings();
    Booster fitted(d, s, std::make_unique<CpuBackend>(1));
    fitted.run(s.mstop);
    const int replicates = 20;
    const std::optional<EffectBands> bands = effectBands(d, fitted, replicates, kSeed, cpuMaker(), 2);
    QVERIFY(bands.has_value());
    BandSampler sampler(fitted.frame(), kSeed);
    int holding = 0;
    for (int b = 0; b < replicates; ++b) holding += sampler.next()[0] > 0.0 ? 1 : 0;
    QVERIFY2(holding > 0 && holding < replicates, qPrintable(QString("%1 samples hold row 0").arg(holding)));
    for (const LearnerBand& b : bands->learners) {
      QCOMPARE(b.replicatesUsed, b.type == LearnerType::Factor ? holding : replicates);
      for (std::size_t i = 0; i < b.x.size(); ++i) QVERIFY(b.lower95[i] <= b.upper95[i]);
    }
  }

  // Binomial with one event: every sample without it is of one class, cannot be fitted (mboost's refit stops), and is
  // left out of every band; the others give the bands (they stopped the whole run with an error).
  void samplesOfOneClassAreLeftOut() {
    std::shared_ptr<Dataset> d = gbtest::makeSmoothData(60, 1, kSeed);
    for (double& y : d->columns[0]) y = 0.0;
    d->columns[0][0] = 1.0;  // the one event
    ModelSettings s;
    s.family = Family::Binomial;
    s.spline.knots = 6;
    s.mstop = 20;
    s.learners = {"x1"};
    Booster fitted(d, s, std::make_unique<CpuBackend>(1));
    fitted.run(s.mstop);
    const int replicates = 12;
    BandSampler sampler(fitted.frame(), kSeed);
    int holding = 0;
    for (int b = 0; b < replicates; ++b) holding += sampler.next()[0] > 0.0 ? 1 : 0;
    QVERIFY2(holding > 0 && holding < replicates, qPrintable(QString("%1 samples hold the event").arg(holding)));
    for (const int parallel : {1, 2}) {
      const std::optional<EffectBands> bands = effectBands(d, fitted, replicates, kSeed, cpuMaker(), parallel);
      QVERIFY(bands.has_value());
      QCOMPARE(bands->unfitted, replicates - holding);
      QVERIFY2(QString::fromStdString(bands->unfittedReason).contains("are all of one class ('0')"),
               bands->unfittedReason.c_str());
      QCOMPARE(bands->learners.size(), std::size_t{1});
      QCOMPARE(bands->learners[0].replicatesUsed, holding);
    }
  }

  void cancelStopsTheRun() {
    const std::shared_ptr<const Dataset> data = dataWithFactor();
    Booster fitted(data, bandSettings(), std::make_unique<CpuBackend>(1));
    fitted.run(fitted.settings().mstop);
    std::atomic<int> done{0};
    BandsMonitor monitor;
    monitor.cancelled = [&done] { return done.load() >= 2; };
    monitor.replicateDone = [&done](int d) { done = d; };
    QVERIFY(!effectBands(data, fitted, 20, kSeed, cpuMaker(), 1, monitor).has_value());
    QVERIFY(done.load() < 20);
  }

  void quantilesOfOneValueAreThatValue() {
    const std::vector<double> band = percentileBand({2.5});
    for (double v : band) QCOMPARE(v, 2.5);
    const std::vector<double> four = percentileBand({4, 1, 3, 2});
    QCOMPARE(four[0], rQuantile7({1, 2, 3, 4}, 0.025));
    QCOMPARE(four[3], rQuantile7({1, 2, 3, 4}, 0.975));
  }
};

QTEST_GUILESS_MAIN(TestEffectBands)
#include "test_effect_bands.moc"

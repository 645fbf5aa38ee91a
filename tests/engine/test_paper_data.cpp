// The paper's simulated data (section 4.1): reproducible per seed on any platform and thread count, and
// distributed as specified.
#include <omp.h>

#include <QtTest>
#include <algorithm>
#include <bit>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <set>

#include "common/Error.hpp"
#include "data/PaperData.hpp"

namespace {

bool bitwiseEqual(const gb::Dataset& a, const gb::Dataset& b) {
  if (a.names != b.names || a.cols() != b.cols()) return false;
  for (std::size_t c = 0; c < a.cols(); ++c) {
    if (a.columns[c].size() != b.columns[c].size()) return false;
    for (std::size_t i = 0; i < a.columns[c].size(); ++i)
      if (std::bit_cast<std::uint64_t>(a.columns[c][i]) != std::bit_cast<std::uint64_t>(b.columns[c][i])) return false;
  }
  return true;
}

gb::PaperDataSpec spec(std::size_t rows, std::uint64_t seed) {
  gb::PaperDataSpec s;
  s.rows = rows;
  s.seed = seed;
  return s;
}

// Expects an InputError whose message starts with the option name.
void expectOptionError(const gb::PaperDataSpec& s, const char* option) {
  try {
    gb::generatePaperData(s);
    QFAIL(qPrintable(QString("no error for ") + option));
  } catch (const gb::InputError& e) {
    QVERIFY2(QString(e.what()).startsWith(QString(option) + ": "), e.what());
  }
}

}  // namespace

class TestPaperData : public QObject {
  Q_OBJECT

 private slots:
  void layout() {
    const gb::PaperData d = gb::generatePaperData(spec(50, 3));
    QCOMPARE(d.data.cols(), std::size_t{101});
    QCOMPARE(d.data.rows(), std::size_t{50});
    QCOMPARE(d.data.names.front(), std::string("y"));
    QCOMPARE(d.data.names[1], std::string("x1"));
    QCOMPARE(d.data.names.back(), std::string("x100"));
  }

  void sameSeedSameData() {
    qInfo("seed 11");
    const gb::PaperData a = gb::generatePaperData(spec(2000, 11));
    const gb::PaperData b = gb::generatePaperData(spec(2000, 11));
    QVERIFY(bitwiseEqual(a.data, b.data));
    QCOMPARE(a.informative, b.informative);
  }

  void differentSeedDifferentData() {
    // Two seeds drawing the same 20 of 100 covariates has probability 1 / C(100, 20), about 2e-21.
    const gb::PaperData a = gb::generatePaperData(spec(100, 1));
    const gb::PaperData b = gb::generatePaperData(spec(100, 2));
    QVERIFY(a.informative != b.informative);
    QVERIFY(a.data.columns[1] != b.data.columns[1]);
  }

  // The uniform streams are pure integer arithmetic, so their values are pinned: these were computed by an
  // independent Python implementation of splitmix64 -> xoshiro256** with the same seeding rule
  // (stream j of seed s starts from splitmix64(s) xor j * 0xD1B54A32D192ED03). A change here changes
  // every user's data for a seed.
  void uniformStreamsArePinned() {
    const gb::PaperData d = gb::generatePaperData(spec(3, 42));
    QCOMPARE(d.data.columns[1],
             (std::vector<double>{0x1.e89c74359f450p-1, 0x1.6a3553c61bcc3p-1, 0x1.c4cf8217c1b72p-1}));
    QCOMPARE(d.data.columns[100],
             (std::vector<double>{0x1.3fdca7ad8a2dep-1, 0x1.e5f5207574a9cp-1, 0x1.051ec8217d6e0p-4}));
  }

  void informativeSet_data() {
    QTest::addColumn<int>("covariates");
    QTest::addColumn<int>("informative");
    QTest::newRow("paper: 20 of 100") << 100 << 20;
    QTest::newRow("none") << 10 << 0;
    QTest::newRow("all") << 7 << 7;
    QTest::newRow("one of one") << 1 << 1;
  }
  void informativeSet() {
    QFETCH(int, covariates);
    QFETCH(int, informative);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      gb::PaperDataSpec s = spec(10, seed);
      s.covariates = covariates;
      s.informative = informative;
      const gb::PaperData d = gb::generatePaperData(s);
      QCOMPARE(static_cast<int>(d.informative.size()), informative);
      std::vector<int> indices;
      for (const std::string& name : d.informative) {
        const int column = d.data.columnIndex(name);
        QVERIFY2(column >= 1, name.c_str());
        indices.push_back(column);
      }
      QVERIFY(std::is_sorted(indices.begin(), indices.end()));
      QCOMPARE(std::set<int>(indices.begin(), indices.end()).size(), indices.size());
    }
  }

  // Residual y - intercept - sum of effects is the noise: its mean is 0 and its sample variance the spec's.
  void responseFollowsTheModel() {
    gb::PaperDataSpec s = spec(200000, 5);
    s.covariates = 30;
    s.informative = 6;
    s.noiseVariance = 2e-3;
    s.intercept = -3.0;
    qInfo("seed %llu, n %zu", static_cast<unsigned long long>(s.seed), s.rows);
    const gb::PaperData d = gb::generatePaperData(s);
    std::vector<const std::vector<double>*> effects;
    for (const std::string& name : d.informative) effects.push_back(&d.data.column(name));
    const std::vector<double>& y = d.data.column("y");
    double sum = 0.0, sumSquares = 0.0;
    for (std::size_t i = 0; i < s.rows; ++i) {
      double r = y[i] - s.intercept;
      for (const auto* x : effects) r -= 10.0 * std::sin(2.0 * std::numbers::pi * (*x)[i]);
      sum += r;
      sumSquares += r * r;
    }
    const double n = static_cast<double>(s.rows);
    const double mean = sum / n;
    const double variance = (sumSquares - n * mean * mean) / (n - 1.0);
    // Gaussian noise: sd(mean) = sigma / sqrt(n) ~ 1e-4; sd(sample variance) = sigma^2 sqrt(2 / (n - 1)), 0.32%
    // of sigma^2 here. Five standard errors: a false failure has probability below 1e-6. Rounding of y (|y| < 70,
    // ulp ~ 1e-14) is far below both.
    QVERIFY2(std::abs(mean) < 5.0 * std::sqrt(s.noiseVariance / n), qPrintable(QString::number(mean)));
    QVERIFY2(std::abs(variance / s.noiseVariance - 1.0) < 5.0 * std::sqrt(2.0 / (n - 1.0)),
             qPrintable(QString::number(variance, 'g', 10)));
  }

  // Without noise y is exactly the model up to rounding: checks the generator's own sin(2 pi x) against libm.
  void noiseFreeResponseMatchesTheModel() {
    gb::PaperDataSpec s = spec(100000, 21);
    s.noiseVariance = 0.0;
    s.covariates = 3;
    s.informative = 1;
    s.intercept = 0.0;
    const gb::PaperData one = gb::generatePaperData(s);
    const auto& x = one.data.column(one.informative.front());
    double worst = 0.0;
    for (std::size_t i = 0; i < s.rows; ++i)
      worst = std::max(worst, std::abs(one.data.columns[0][i] - 10.0 * std::sin(2.0 * std::numbers::pi * x[i])));
    // Both sides are within a few ulp of 10 sin(2 pi x) (ulp(10) = 1.8e-15; libm's argument 2 pi x is rounded
    // by up to 4.4e-16): a wrong series or reduction shows as 1e-10 or far worse.
    QVERIFY2(worst < 5e-14, qPrintable(QString::number(worst)));

    s.covariates = 100;
    s.informative = 20;
    s.intercept = 7.0;
    s.rows = 20000;
    const gb::PaperData all = gb::generatePaperData(s);
    std::vector<const std::vector<double>*> effects;
    for (const std::string& name : all.informative) effects.push_back(&all.data.column(name));
    worst = 0.0;
    for (std::size_t i = 0; i < s.rows; ++i) {
      double r = all.data.columns[0][i] - s.intercept;
      for (const auto* column : effects) r -= 10.0 * std::sin(2.0 * std::numbers::pi * (*column)[i]);
      worst = std::max(worst, std::abs(r));
    }
    // 21 additions on partial sums below 2^8 (half an ulp 2.8e-14 each), done twice (generator and here).
    QVERIFY2(worst < 2e-12, qPrintable(QString::number(worst)));
  }

  void covariatesAreUniform() {
    gb::PaperDataSpec s = spec(100000, 9);
    s.covariates = 20;
    s.informative = 5;
    const gb::PaperData d = gb::generatePaperData(s);
    for (std::size_t c = 1; c < d.data.cols(); ++c) {
      const auto& x = d.data.columns[c];
      const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
      QVERIFY(*lo >= 0.0 && *hi < 1.0);
      // U(0,1): mean 1/2, sd 1/sqrt(12 n) ~ 9e-4 with n = 1e5; 5 sd over 20 columns: false failure < 1e-5.
      double mean = 0.0;
      for (double v : x) mean += v;
      mean /= static_cast<double>(x.size());
      QVERIFY2(std::abs(mean - 0.5) < 5.0 / std::sqrt(12.0 * static_cast<double>(x.size())),
               qPrintable(QString("column %1 mean %2").arg(c).arg(mean)));
    }
  }

  // 2e4 x 101 values: well above the size (1e5 values) below which the generator stays on one thread.
  void threadCountDoesNotMatter() {
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const gb::PaperData one = gb::generatePaperData(spec(20000, 13));
    omp_set_num_threads(2);
    const gb::PaperData two = gb::generatePaperData(spec(20000, 13));
    omp_set_num_threads(3);
    const gb::PaperData three = gb::generatePaperData(spec(20000, 13));
    omp_set_num_threads(threads);
    QVERIFY(bitwiseEqual(one.data, two.data));
    QVERIFY(bitwiseEqual(one.data, three.data));
  }

  // gamboost generate streams the table in blocks: any block size gives the in-memory table, bit for bit (the
  // noise's polar method keeps a spare value across blocks; the blocks of 1 and 3 rows cross it).
  void streamingInBlocksEqualsTheWholeTable_data() {
    QTest::addColumn<int>("blockRows");
    for (int block : {1, 3, 1000, 2500}) QTest::newRow(qPrintable(QString::number(block))) << block;
  }

  void streamingInBlocksEqualsTheWholeTable() {
    QFETCH(int, blockRows);
    const gb::PaperDataSpec s = spec(2500, 9);
    const gb::PaperData whole = gb::generatePaperData(s);
    gb::PaperDataStream stream(s);
    QCOMPARE(stream.names(), whole.data.names);
    QCOMPARE(stream.informative(), whole.informative);
    gb::Dataset streamed;
    streamed.names = stream.names();
    streamed.columns.resize(streamed.names.size());
    std::vector<std::vector<double>> block;
    while (stream.rowsLeft() > 0) {
      const std::size_t count = stream.next(static_cast<std::size_t>(blockRows), block);
      QVERIFY(count >= 1 && count <= static_cast<std::size_t>(blockRows));
      for (std::size_t c = 0; c < block.size(); ++c)
        streamed.columns[c].insert(streamed.columns[c].end(), block[c].begin(), block[c].begin() + count);
    }
    QVERIFY(bitwiseEqual(streamed, whole.data));
    QCOMPARE(gb::truthJson(s, stream.informative()), gb::truthJson(whole));
  }

  void zeroNoiseAndOneRow() {
    gb::PaperDataSpec s = spec(1, 4);
    s.noiseVariance = 0.0;
    s.informative = 0;
    const gb::PaperData d = gb::generatePaperData(s);
    QCOMPARE(d.data.rows(), std::size_t{1});
    QCOMPARE(d.data.columns[0][0], s.intercept);  // no effects, no noise: exactly the intercept
  }

  void invalidSpecsNameTheOption() {
    gb::PaperDataSpec s = spec(0, 1);
    expectOptionError(s, "--rows");
    s = spec(10, 1);
    s.covariates = 0;
    s.informative = 0;
    expectOptionError(s, "--covariates");
    s = spec(10, 1);
    s.informative = 101;
    expectOptionError(s, "--informative");
    s.informative = -1;
    expectOptionError(s, "--informative");
    s = spec(10, 1);
    s.noiseVariance = -1e-3;
    expectOptionError(s, "--noise-var");
    s.noiseVariance = std::nan("");
    expectOptionError(s, "--noise-var");
  }

  void truthJsonDescribesTheData() {
    gb::PaperDataSpec s = spec(10, 77);
    s.informative = 5;
    const gb::PaperData d = gb::generatePaperData(s);
    const auto j = nlohmann::json::parse(gb::truthJson(d));
    QCOMPARE(j.at("seed").get<std::uint64_t>(), std::uint64_t{77});
    QCOMPARE(j.at("rows").get<std::size_t>(), std::size_t{10});
    QCOMPARE(j.at("covariates").get<int>(), 100);
    QCOMPARE(j.at("informative").get<std::vector<std::string>>(), d.informative);
    QCOMPARE(j.at("intercept").get<double>(), 7.0);
    QCOMPARE(j.at("noise_var").get<double>(), 1e-3);
    QCOMPARE(j.at("effect").get<std::string>(), std::string("10*sin(2*pi*x)"));
  }
};

QTEST_APPLESS_MAIN(TestPaperData)
#include "test_paper_data.moc"

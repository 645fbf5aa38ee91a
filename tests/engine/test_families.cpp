// mboost's families, case weights, linear and factor learners and the model frame, each against a reference that is
// independent of the code under test: a finite-difference slope, a closed form, a replicated data set, or least
// squares solved densely.
#include <QtTest>
#include <cmath>
#include <limits>
#include <random>

#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/Divergence.hpp"
#include "family/BinomialLinks.hpp"
#include "family/BrentMinimum.hpp"
#include "family/FamilyFunctions.hpp"
#include "family/NegBinomial.hpp"
#include "family/OffsetReason.hpp"
#include "learner/EdfSolver.hpp"
#include "learner/ModelFrame.hpp"
#include "spline/Penalty.hpp"
#include "support/DenseReference.hpp"
#include "support/TestSupport.hpp"

using namespace gb;

namespace {

constexpr unsigned kSeed = 20261125;

std::shared_ptr<Dataset> table(std::vector<std::string> names, std::vector<std::vector<double>> columns) {
  auto d = std::make_shared<Dataset>();
  d->source = "t.csv";
  d->names = std::move(names);
  d->columns = std::move(columns);
  d->kinds.assign(d->names.size(), ColumnKind::Numeric);
  d->levels.assign(d->names.size(), {});
  return d;
}

void makeText(Dataset& d, std::size_t c, std::vector<std::string> levels) {
  d.kinds[c] = ColumnKind::Text;
  d.levels[c] = std::move(levels);
}

Booster fit(std::shared_ptr<const Dataset> d, const ModelSettings& s) {
  return Booster(std::move(d), s, std::make_unique<CpuBackend>(1));
}

}  // namespace

class TestFamilies : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %u", kSeed); }
  void negativeGradientIsTheLossSlope_data();
  void negativeGradientIsTheLossSlope();
  void offsetsAreMboosts();
  void linksAreRs();
  void gammaShapeIsOptimizes();
  void negbinIsNBinomials();
  void huberAdaptiveDeltaIsHubers();
  void gradientPathEqualsTheShortcut();
  void integerWeightsEqualReplicatedRows();
  void unpenalisedFactorAndLinearAreLeastSquares();
  void frameFollowsGamboostDefaults();
  void frameOmitsAndCodes();
  void frameRefusesBadResponses();
  void nullSpaceIsThePenaltys();
  void riskNotesCountRises();
  void tinyResponseIsRefused();
  void tinyHuberDeltaIsRefused();
  void weightsColumnMayBeALearner();
};

void TestFamilies::negativeGradientIsTheLossSlope_data() {
  QTest::addColumn<int>("family");
  QTest::addColumn<double>("scale");  // ngradient = -scale * d loss / df
  QTest::addColumn<int>("link");
  QTest::newRow("gaussian") << int(Family::Gaussian) << 0.5 << 0;                  // mboost's gradient of (y - f)^2 / 2
  QTest::newRow("binomial") << int(Family::Binomial) << 1.0 / std::log(2.0) << 0;  // log2 loss, natural-log risk
  QTest::newRow("poisson") << int(Family::Poisson) << 1.0 << 0;
  QTest::newRow("laplace") << int(Family::Laplace) << 1.0 << 0;
  QTest::newRow("huber") << int(Family::Huber) << 1.0 << 0;
  QTest::newRow("quantile") << int(Family::Quantile) << 1.0 << 0;
  QTest::newRow("expectile") << int(Family::Expectile) << 1.0 << 0;
  QTest::newRow("adaexp") << int(Family::AdaExp) << 1.0 << 0;
  QTest::newRow("gamma") << int(Family::Gamma) << 1.0 << 0;    // at the shape 1 of the FamilyFunctions below
  QTest::newRow("negbin") << int(Family::NegBin) << 1.0 << 0;  // at the size 1
  // Binomial(link = ...): the natural-log likelihood's slope, f on the link scale
  QTest::newRow("binomial probit") << int(Family::Binomial) << 1.0 << int(BinomialLink::Probit);
  QTest::newRow("binomial cloglog") << int(Family::Binomial) << 1.0 << int(BinomialLink::Cloglog);
  QTest::newRow("binomial cauchit") << int(Family::Binomial) << 1.0 << int(BinomialLink::Cauchit);
}

void TestFamilies::negativeGradientIsTheLossSlope() {
  QFETCH(int, family);
  QFETCH(double, scale);
  QFETCH(int, link);
  FamilyFunctions f{static_cast<Family>(family), 0.7, 0.8, static_cast<BinomialLink>(link)};
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int t = 0; t < 200; ++t) {
    double y = u(rng);
    if (isBinary(f.family)) y = y > 0 ? 1.0 : -1.0;
    if (f.family == Family::Poisson || f.family == Family::NegBin) y = std::floor(3.0 * (y + 2.0));
    if (f.family == Family::Gamma) y = std::abs(y) + 0.1;
    const double x = u(rng);
    if (std::abs(y - x) < 1e-3 || std::abs(std::abs(y - x) - 0.7) < 1e-3) continue;  // kinks
    const double h = 1e-6;
    const double slope = (f.loss(y, x + h) - f.loss(y, x - h)) / (2 * h);
    const double want = -scale * slope;
    QVERIFY2(std::abs(f.ngradient(y, x) - want) <= 1e-6 * (1.0 + std::abs(want)),
             qPrintable(QString("y %1 f %2: %3 vs %4").arg(y).arg(x).arg(f.ngradient(y, x)).arg(want)));
  }
}

void TestFamilies::offsetsAreMboosts() {
  // Where an offset is undefined, the words for it (a fold of such rows is left out of cv): counts of 0, one class;
  // not counts so large that their mean overflows, nor a family whose offset is a median or an optimum.
  ModelSettings counts;
  counts.family = Family::Poisson;
  QVERIFY(undefinedOffsetReason(counts, {0, 0, 0}, {}, {}).rfind("its rows of positive weight all have count 0", 0) ==
          0);
  QVERIFY(undefinedOffsetReason(counts, {1e308, 1e308, 1e308}, {}, {}).empty());
  QVERIFY(undefinedOffsetReason(counts, {0, 4, 0}, {1, 0, 1}, {}).rfind("its rows of positive weight", 0) == 0);
  ModelSettings binary;
  binary.family = Family::Binomial;
  QVERIFY(undefinedOffsetReason(binary, {-1, 1, -1}, {1, 0, 2}, {"no", "yes"}).find("one class ('no')") !=
          std::string::npos);
  QVERIFY(undefinedOffsetReason(binary, {-1, 1, -1}, {}, {"no", "yes"}).empty());
  binary.family = Family::Laplace;
  QVERIFY(undefinedOffsetReason(binary, {1e308, -1e308}, {}, {}).empty());
  const std::vector<double> y{1, 3, 0, 7, 2}, w{1, 2, 0, 1, 3};
  QCOMPARE(FamilyFunctions{Family::Gaussian}.offset(y, w), (1 + 6 + 0 + 7 + 6) / 7.0);
  const std::vector<double> b{1, -1, 1, 1, -1};
  QCOMPARE(FamilyFunctions{Family::Binomial}.offset(b, w), 0.5 * std::log((2.0 / 7) / (5.0 / 7)));
  QCOMPARE(FamilyFunctions{Family::AdaExp}.offset(b, w), 0.5 * std::log((2.0 / 7) / (5.0 / 7)));  // AdaExp: the same
  QCOMPARE(FamilyFunctions{Family::Poisson}.offset(y, {}), std::log(13.0 / 5));
  // Laplace() and Huber() keep mboost's Family() default, optimize(risk, range(y)), which stops within about 1e-4 of
  // the weighted median. The values are mboost 2.9.13's own: `Laplace()@offset(y, w)`, `Huber(d = 1.5)@offset(y, w)`,
  // `Huber()@offset(y, w)` and so on, printed with digits = 17 (a different Brent path would miss them by 1e-5).
  auto near = [](double got, double want) { return std::abs(got - want) <= 1e-13 * std::abs(want); };
  const std::vector<double> y2{1.5, -2, 4, 4, 10, 0.25}, ones(6, 1.0);
  FamilyFunctions fixed{Family::Huber, 1.5}, adaptive{Family::Huber};
  adaptive.adaptiveDelta = true;
  const std::pair<double, double> offsets[] = {
      {FamilyFunctions{Family::Laplace}.offset(y, w), 1.999994756890406},
      {fixed.offset(y, w), 2.4166666666666576},
      {adaptive.offset(y, w), 2.5000000000000013},
      {FamilyFunctions{Family::Laplace}.offset(y, std::vector<double>(5, 1.0)), 2.0000139443397003},
      {FamilyFunctions{Family::Laplace}.offset(y2, ones), 2.3406241483949226},
      {(FamilyFunctions{Family::Huber, 0.7}.offset(y2, ones)), 2.3442446477801568},
      {adaptive.offset(y2, {1, 0, 2, 1, 1, 3}), 2.4642857142857086}};
  for (const auto& [got, want] : offsets)
    QVERIFY2(near(got, want), qPrintable(QString("%1 vs mboost's %2").arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
  // R's type 7 takes (1 - h) x_lo + h x_hi: quantile(c(0.1, 0.7), 0.5) is 0.39999999999999997, where
  // x_lo + h (x_hi - x_lo) would give 0.40000000000000002; the same with rows repeated by integer weights (R:
  // quantile(rep(c(0.7, 0.1, 5), c(3, 3, 0)), 0.5)), formed without repeating them.
  QVERIFY(quantileType7({0.1, 0.7}, 0.5) == 0.39999999999999997);
  // And R's index 1 + (n - 1) p, not (n - 1) p (the fraction rounds differently), without fused multiply-adds: R
  // 4.2.2's quantile(x, p) (73 of 300 random cases differed in the last bit before; the bands' 2.5% and 97.5%).
  QVERIFY(quantileType7({0.48, -0.57, 0.53, 0.87, -1.22, -0.02}, 0.05) == -1.0575);
  QVERIFY(quantileType7({0.03, 0.41, -0.16, 0.97, 0.12, 0.19, -0.56, 0.5, -1.74, 0.98, -0.02, 0.68, -0.71, 2.39, -0.47,
                         -0.08, -0.52, 0.93},
                        0.3) == -0.15200000000000005);
  QVERIFY(replicatedQuantileType7({0.7, 0.1, 5.0}, {3, 3, 0}, 0.5) == 0.39999999999999997);
  std::mt19937 draw(20261128);
  for (int round = 0; round < 200; ++round) {  // against y[rep(1:n, w)] formed: every total, odd and even
    std::vector<double> ys, ws, repeated;
    const int n = 1 + static_cast<int>(draw() % 7);
    for (int i = 0; i < n; ++i) {
      ys.push_back(static_cast<double>(draw() % 5) * 0.3 - 0.4);  // ties too
      ws.push_back(static_cast<double>(draw() % 4));
      repeated.insert(repeated.end(), static_cast<std::size_t>(ws.back()), ys.back());
    }
    if (repeated.empty()) continue;
    QVERIFY(replicatedQuantileType7(ys, ws, 0.5) == quantileType7(repeated, 0.5));
  }
  // Weights of 1e9 take no memory; a total above 2^53 is refused, naming --weights.
  QCOMPARE(replicatedQuantileType7({1.0, 2.0, 3.0}, {1e9, 1.0, 1e9}, 0.5), 2.0);
  const QString total = gbtest::inputErrorOf([] { replicatedQuantileType7({1.0, 2.0}, {1e15, 1e16}, 0.5); });
  QVERIFY2(total.contains("--weights: quantile: its offset is the median of y with each row repeated"),
           qPrintable(total));
  // Weights with decimals are rescaled as mboost's rescale_weights, w / sum(w) * sum(w > 0), with R's sum in long
  // double: a sum in double moved the last bit of every weight, and so Brent's path on the flat risk (-0.08005...).
  // R: glmboost(y ~ x, weights = w, family = Laplace())$offset on these 17 rows.
  {
    const std::vector<double> ys{-0.6, 1.24,  0.58,  1.37,  -0.69, -0.61, -0.08, -0.27, -0.04,
                                 0.67, -0.33, -0.33, -2.01, -0.66, 2.13,  2.29,  -0.23};
    std::vector<double> xs,
        ws{0.36, 1.15, 0.5, 0.65, 1.01, 0.59, 1.68, 1.53, 1.77, 0.2, 0.29, 0.06, 0.13, 1.57, 1.13, 0.25, 1.31};
    for (std::size_t i = 0; i < ys.size(); ++i) xs.push_back(static_cast<double>(i + 1) / 17.0);
    auto weighted = table({"y", "x", "w"}, {ys, xs, ws});
    ModelSettings s;
    s.linears = {"x"};
    s.weights = "w";
    s.family = Family::Laplace;
    const ModelFrame frame = buildModelFrame(weighted, s);
    const double got = FamilyFunctions{Family::Laplace}.offset(frame.response, frame.weights);
    QVERIFY2(got == -0.080025296567233298, qPrintable(QString::number(got, 'g', 17)));
  }
  // GammaReg's interval (0, max(y^2)) overflows above |y| = 1.3e154: a message, not Brent looping on NaN steps.
  const QString huge = gbtest::inputErrorOf([] { FamilyFunctions{Family::Gamma}.offset({1e155, 2.0}, {}); });
  QVERIFY2(huge.contains("--response: gamma: its offset is sought in (0, max(y^2))"), qPrintable(huge));
  QVERIFY(std::isnan(brentMinimum([](double x) { return x * x; }, 0.0, HUGE_VAL, kOptimizeTolerance)));
  // An even count of rows: the risk is flat between the two middle values, and rounding alone steers Brent there.
  // Bit for bit R's, as Brent's arithmetic is (no fused multiply-adds): with them the first gives 0.24754143106484203
  // and the second -0.12472216629373266. R: `Laplace()@offset(y, rep(1, 8))`, y as below.
  const std::pair<std::vector<double>, double> flat[] = {
      {{1.279, -0.699, 0.564, 0.303, 0.215, 0.921, -0.888, -0.003}, 0.27708140226581895},
      {{-0.903, -0.166, -0.065, -0.506, 0.52, 0.036, -0.911, 0.914}, -0.16122921214878858}};
  for (const auto& [values, want] : flat) {
    const double got = FamilyFunctions{Family::Laplace}.offset(values, std::vector<double>(values.size(), 1.0));
    QVERIFY2(got == want, qPrintable(QString("%1 vs mboost's %2").arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
  }
  // QuantReg: the median of y repeated w times, whatever tau: 1, 3, 3, 7, 2, 2, 2 -> sorted 1 2 2 2 3 3 7 -> 2.
  QCOMPARE((FamilyFunctions{Family::Quantile, 0.0, 0.9}.offset(y, w)), 2.0);
  // ExpectReg: mean(y[w == 1]), the rows of weight exactly 1 alone: (1 + 7) / 2; none of weight 1 is an error.
  QCOMPARE((FamilyFunctions{Family::Expectile, 0.0, 0.2}.offset(y, w)), 4.0);
  QCOMPARE((FamilyFunctions{Family::Expectile, 0.0, 0.2}.offset(y, {})), 13.0 / 5);
  const QString none = gbtest::inputErrorOf([&] { FamilyFunctions{Family::Expectile}.offset(y, {2, 2, 0, 3, 0.5}); });
  QVERIFY2(none.contains("--family: expectile: its offset is mboost's mean(y[w == 1]), and no row has weight 1"),
           qPrintable(none));
  // Across processes the sums decide: a process without a row of weight 1 takes the others' mean (here one other
  // process whose rows of weight 1 hold 10 in 4 rows).
  struct OtherProcess final : ShardReducer {
    void sum(std::vector<double>& values) override {
      values[0] += 10.0;
      values[1] += 4.0;
    }
  } other;
  QCOMPARE((FamilyFunctions{Family::Expectile}.offset(y, {2, 2, 0, 3, 0.5}, &other)), 2.5);
  QCOMPARE((FamilyFunctions{Family::Expectile}.offset(y, w, &other)), (1.0 + 7.0 + 10.0) / 6.0);
  // R: quantile(c(3, 1, 2), 0.9) = 2.8 and quantile(1:4, 0.5) = 2.5 (type 7).
  QCOMPARE(quantileType7({3, 1, 2}, 0.9), 2.8);
  QCOMPARE(quantileType7({1, 2, 3, 4}, 0.5), 2.5);
}

void TestFamilies::linksAreRs() {
  // Values printed by R 4.2.2 with 17 digits (an independent implementation: AS241 for qnorm, Cody for pnorm).
  // Tolerance: a few ulps of each value, the rounding of two differently written algorithms.
  auto near = [](double a, double b) {
    return std::abs(a - b) <= 8 * std::numeric_limits<double>::epsilon() * std::abs(b);
  };
  QVERIFY(near(normalQuantile(0.975), 1.9599639845400536));
  QVERIFY(near(normalQuantile(2.0 / 7), -0.56594882193286311));
  QVERIFY(near(normalQuantile(1e-300), -37.047096299361201));
  QVERIFY(near(normalQuantile(0.5 + 1e-12), 2.5065728237018611e-12));
  QVERIFY(near(normalQuantile(1 - 1e-10), 6.3613408896974208));
  QVERIFY(near(normalCdf(-8.0), 6.2209605742717849e-16));
  QVERIFY(near(normalCdf(3.0), 0.99865010196836990));
  // mboost's offset linkfun(weighted.mean(y > 0, w)) = linkfun(2/7) for the data of offsetsAreMboosts
  const std::vector<double> b{1, -1, 1, 1, -1}, w{1, 2, 0, 1, 3};
  auto offset = [&](BinomialLink l) { return FamilyFunctions{Family::Binomial, 0.0, 0.5, l}.offset(b, w); };
  QVERIFY(near(offset(BinomialLink::Probit), -0.56594882193286311));
  QVERIFY(near(offset(BinomialLink::Cloglog), -1.0892396396274506));
  QVERIFY(near(offset(BinomialLink::Cauchit), -0.79747338888240404));
  // linkinv undoes linkfun; the response scale is linkinv; R's clamps hold p inside (0, 1)
  for (BinomialLink l : {BinomialLink::Probit, BinomialLink::Cloglog, BinomialLink::Cauchit}) {
    const FamilyFunctions f{Family::Binomial, 0.0, 0.5, l};
    // cloglog's linkfun log(-log(1 - p)) (R's formula) rounds 1 - p first: an absolute error of a few ulps of 1
    for (double p : {1e-6, 0.01, 0.3, 0.5, 0.9, 0.999})
      QVERIFY2(
          std::abs(linkInverse(l, linkFunction(l, p)) - p) <= 1e-13 * p + 4 * std::numeric_limits<double>::epsilon(),
          qPrintable(QString::number(p)));
    QCOMPARE(f.response(0.4), linkInverse(l, 0.4));
    for (double eta : {-1e300, -40.0, 40.0, 1e300}) {
      const double p = linkInverse(l, eta);
      QVERIFY2(p > 0.0 && p < 1.0 && std::isfinite(f.loss(1, eta)) && std::isfinite(f.loss(-1, eta)) &&
                   std::isfinite(f.ngradient(1, eta)) && std::isfinite(f.ngradient(-1, eta)),
               qPrintable(QString("link %1 eta %2").arg(int(l)).arg(eta)));
    }
  }
  QVERIFY(near(linkInverse(BinomialLink::Cauchit, 0.5), 0.5 + std::atan(0.5) / M_PI));
}

// GammaReg's shape and offset come from R's optimize(): Brent's steps, so the same point R stops at, not just a point
// within tol of the minimum. References printed by R 4.2.2 (17 digits); tolerance a few ulps of the rounding of the
// function values, which are formed in a different order.
void TestFamilies::gammaShapeIsOptimizes() {
  auto near = [](double a, double b) { return std::abs(a - b) <= 1e-13 * std::abs(b); };
  // optimize(function(x) (x - 1/3)^2 + 0.1 * sin(5 * x), c(0, 2))$minimum
  QVERIFY(near(brentMinimum([](double x) { return (x - 1.0 / 3) * (x - 1.0 / 3) + 0.1 * std::sin(5 * x); }, 0, 2,
                            kOptimizeTolerance),
               0.57427326535217382));
  // optimize()$objective: the value at the returned point exactly (the risk reuses it), DBL_MAX where none was finite
  auto bowl = [](double x) { return x < 0.7 ? std::nan("") : (x - 1.5) * (x - 1.5) + 0.25; };
  double objective = 0.0;
  const double at = brentMinimum(bowl, 0, 2, kOptimizeTolerance, &objective);
  QVERIFY(std::abs(at - 1.5) < 1e-3);
  QVERIFY(objective == bowl(at));
  brentMinimum([](double) { return std::numeric_limits<double>::infinity(); }, 0, 1, kOptimizeTolerance, &objective);
  QCOMPARE(objective, std::numeric_limits<double>::max());
  // A risk sum that overflows wherever it is tried (laplace's offset of 60 responses, one of them 9e307): every value
  // is DBL_MAX, and R's optimize() (and so this transcription) never met its stopping test, drifting from x in steps
  // of 1.5e-8 x (a hang, from the CLI too). NaN after the step limit: the caller says the response is too large.
  std::vector<double> huge(60);
  for (std::size_t i = 0; i < huge.size(); ++i) huge[i] = std::sin(double(i));  // within [-1, 1]
  huge[5] = 9e307;
  QVERIFY(std::isnan(FamilyFunctions{Family::Laplace}.offset(huge, {})));
  huge[5] = 1e300;  // a sum that does not overflow: the median's neighbourhood, as before
  QVERIFY(std::abs(FamilyFunctions{Family::Laplace}.offset(huge, {})) <= 1.0);
  // optimize(function(x) exp(-x) * 7 + x * 3, c(0, 49))$minimum: GammaReg's offset for sum(w y) = 7, sum(w) = 3
  QVERIFY(near(brentMinimum([](double x) { return std::exp(-x) * 7 + x * 3; }, 0, 49, kOptimizeTolerance),
               0.84730616494458399));
  // optimize(function(s) 10 * lgamma(s) + s * (25 - 10 * log(s)), c(0, 100))$minimum: the shape for T = 25, W = 10
  QVERIFY(near(FamilyFunctions::nuisanceFrom(25, 10), 0.43314940380307443));
  // The shape at f minimises the risk sum itself (away from optimize's tolerance, a coarse grid cannot do better).
  const std::vector<double> y{0.5, 1.7, 2.2, 0.9, 3.1, 1.2}, f{0.1, 0.4, 0.7, 0.0, 1.0, 0.2};
  FamilyFunctions g{Family::Gamma};
  g.setNuisance(y, f, {});
  auto riskAt = [&](double s) {
    FamilyFunctions h{Family::Gamma};
    h.sigma = s;
    return h.risk(y, f, {});
  };
  for (double s = 0.25; s < 20; s *= 1.1) QVERIFY(riskAt(g.sigma) <= riskAt(s) + 1e-9);
}

void TestFamilies::negbinIsNBinomials() {
  // The loss is -log dnbinom(y, size = s, mu = exp(f)): R 4.2.2's dnbinom (an independent implementation, through
  // dbinom_raw) printed with 17 digits. Tolerance: 1e-14 relative, a few ulps of the lgamma differences' rounding.
  auto close = [](double a, double b, double rel) { return std::abs(a - b) <= rel * std::abs(b); };
  QVERIFY(close(negbinLoss(0, 0.1, 2.5), 0.91519612283237439, 1e-14));
  QVERIFY(close(negbinLoss(7, 1.9, 2.5), 2.59764038057026170, 1e-14));
  QVERIFY(close(negbinLoss(40, 2.5, 0.3), 5.77222010786734163, 1e-14));
  // The size: optimize(function(s) sum(w * plloss(s, y, f)), c(0, 100))$minimum in R. Brent's steps are the same, so
  // only a comparison flipped by the sums' rounding could move the answer, and then by about optimize's tolerance
  // (1e-4): 1e-12 tells the two apart. One underdispersed case ends at the interval's top.
  const std::vector<double> y{0, 3, 1, 7, 2, 0}, f{0.1, 1.2, 0.3, 1.9, 0.8, -0.4}, w{1, 2, 1, 1, 0, 3};
  FamilyFunctions nb{Family::NegBin};
  nb.setNuisance(y, f, w);
  QVERIFY2(close(nb.sigma, 99.999940045860583, 1e-12), qPrintable(QString::number(nb.sigma, 'g', 17)));
  const std::vector<double> y2{0, 1, 0, 2, 5, 0, 1}, f2(7, 0.0);
  nb.setNuisance(y2, f2, {});
  QVERIFY2(close(nb.sigma, 0.9186892512857171, 1e-12), qPrintable(QString::number(nb.sigma, 'g', 17)));
  // NegBinShape's table-driven sums add the same terms in the same order as negbinLoss. The compiler may fuse a
  // product into an add (FMA) in one inlined copy and not in the other, so: within 4 ulps of the terms' magnitude
  // (at s = 99 lgamma(y + s) is about 360 while the loss is about 1).
  NegBinShape shape(y);
  std::vector<double> ef(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) ef[i] = std::exp(f[i]);
  for (double s : {0.01, 0.7, 3.0, 99.0}) {
    shape.prepare(s);
    double plain = 0.0, magnitude = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (w[i] == 0.0) continue;
      plain += w[i] * negbinLoss(y[i], f[i], s);
      const double l = std::log(std::exp(f[i]) + s);
      magnitude += w[i] * (std::abs(std::lgamma(y[i] + s)) + std::abs(std::lgamma(s)) + std::lgamma(y[i] + 1) +
                           std::abs(s * std::log(s)) + std::abs(s * l) + std::abs(y[i] * f[i]) + std::abs(y[i] * l));
    }
    const double table = shape.rowsSum(f.data(), ef.data(), w.data(), 0, y.size());
    QVERIFY2(std::abs(table - plain) <= 4 * std::numeric_limits<double>::epsilon() * magnitude,
             qPrintable(QString("s %1: %2 vs %3").arg(s).arg(table, 0, 'g', 17).arg(plain, 0, 'g', 17)));
  }
  // NBinomial's offset is log(weighted.mean(y, w)), as Poisson's.
  QCOMPARE(nb.offset(y, w), std::log((0 + 6 + 1 + 7 + 0 + 0) / 8.0));
}

void TestFamilies::huberAdaptiveDeltaIsHubers() {
  // R's median: the middle value, or the mean of the two middle ones.
  QCOMPARE(FamilyFunctions::medianAbsResidual({1, -5, 2, 8}, {0, 0, 0, 0}), 3.5);
  QCOMPARE(FamilyFunctions::medianAbsResidual({3, 1, 2}, {1, 1, 1}), 1.0);
  // mboost's Huber(): its closure starts at fit = 0, so the gradient at the offset takes median|y| while the risk
  // there takes median|y - offset|; after each update the gradient takes the d of the f before.
  ModelSettings s;
  s.family = Family::Huber;
  FamilyFunctions h = FamilyFunctions::from(s);
  QVERIFY(h.adaptiveDelta && h.reestimated());
  const std::vector<double> y{1, 4, -2, 7, 3};
  h.startNuisance(y, std::vector<double>(5, 3.0), {});
  QCOMPARE(h.delta, 3.0);                         // |y| = 1 4 2 7 3
  QCOMPARE(h.riskDelta, 2.0);                     // |y - 3| = 2 1 5 4 0
  QCOMPARE(h.ngradient(7.0, 3.0), 3.0);           // |r| = 4 >= d = 3: d sign(r)
  QCOMPARE(h.loss(7.0, 3.0), 2.0 * (4.0 - 1.0));  // d (a - d / 2) with d = 2
  h.advanceNuisance(0.5);
  QCOMPARE(h.delta, 2.0);
  QCOMPARE(h.riskDelta, 0.5);
  QCOMPARE(h.nuisance(), 0.5);
  s.huberDelta = 1.5;  // a fixed d re-estimates nothing
  QVERIFY(!FamilyFunctions::from(s).reestimated());
}

void TestFamilies::gradientPathEqualsTheShortcut() {
  // The same gaussian fit through the cached-residual path and the gradient path: two implementations of c = B'u
  // that share nothing but the learners; and with case weights (1 to 3) through both.
  auto data = gbtest::makeSmoothData(400, 4, kSeed);
  auto weighted = std::make_shared<Dataset>(*data);
  weighted->names.push_back("w");
  weighted->columns.push_back(std::vector<double>(data->rows(), 1.0));
  for (std::size_t i = 0; i < data->rows(); ++i) weighted->columns.back()[i] = 1.0 + static_cast<double>(i % 3);
  ModelSettings s;
  s.spline.knots = 10;
  s.mstop = 60;
  s.learners = {"x1", "x2", "x3", "x4"};
  for (const bool withWeights : {false, true}) {
    s.weights = withWeights ? "w" : "";
    Booster a = fit(withWeights ? weighted : data, s);
    a.run(s.mstop);
    auto backend = std::make_unique<CpuBackend>(1);
    backend->setGradientPath(true);
    Booster b(withWeights ? weighted : data, s, std::move(backend));
    b.run(s.mstop);
    QCOMPARE(b.backendInfo().scheme, std::string("gradient"));
    QCOMPARE(a.backendInfo().scheme, std::string("moments-cached"));
    QCOMPARE(a.path().learner, b.path().learner);
    QVERIFY(gbtest::relativeMaxError(b.fitted(), a.fitted()) < 1e-12);
    QVERIFY(gbtest::relativeMaxError(b.path().risk, a.path().risk) < 1e-12);
  }
}

void TestFamilies::integerWeightsEqualReplicatedRows() {
  // Weights 1..3 (no zero, so the covariate ranges and knots agree) against the data with each row repeated w times.
  auto data = gbtest::makeSmoothData(150, 3, kSeed + 1);
  std::mt19937_64 rng(kSeed + 2);
  std::vector<double> w(data->rows());
  for (double& v : w) v = 1.0 + static_cast<double>(rng() % 3);
  auto weighted = std::make_shared<Dataset>(*data);
  weighted->names.push_back("w");
  weighted->columns.push_back(w);
  auto repeated = std::make_shared<Dataset>(*data);
  for (auto& column : repeated->columns) column.clear();
  for (std::size_t i = 0; i < data->rows(); ++i)
    for (int r = 0; r < static_cast<int>(w[i]); ++r)
      for (std::size_t c = 0; c < data->cols(); ++c) repeated->columns[c].push_back(data->columns[c][i]);
  for (Family family : {Family::Gaussian, Family::Laplace}) {
    ModelSettings s;
    s.spline.knots = 8;
    s.mstop = 50;
    s.family = family;
    s.learners = {"x1", "x2", "x3"};
    // optimize()'s offset stops within its tolerance: fix it for both, inside y's range (y is about 3). An offset
    // below every y gives each row the gradient +1, which every learner fits alike: a tie that rounding breaks.
    s.hasOffset = family == Family::Laplace;
    s.offset = 3.0;
    Booster r = fit(repeated, s);
    r.run(s.mstop);
    s.weights = "w";
    Booster b = fit(weighted, s);
    b.run(s.mstop);
    QCOMPARE(b.path().learner, r.path().learner);
    QVERIFY2(gbtest::relativeMaxError(b.path().risk, r.path().risk) < 1e-11, toString(family).c_str());
    for (std::size_t j = 0; j < b.learners().size(); ++j)
      QVERIFY(std::abs(b.learners()[j].lambda - r.learners()[j].lambda) <= 1e-8 * r.learners()[j].lambda);
  }
}

void TestFamilies::unpenalisedFactorAndLinearAreLeastSquares() {
  // nu = 1 and one unpenalised learner: one step is the least-squares fit (group means; the OLS line).
  std::mt19937_64 rng(kSeed + 3);
  std::normal_distribution<double> e(0.0, 1.0);
  const std::size_t n = 90;
  std::vector<double> y(n), code(n), x(n);
  std::vector<double> sum(3, 0.0), count(3, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    code[i] = static_cast<double>(i % 3);
    x[i] = e(rng);
    y[i] = 2.0 * code[i] + 0.5 * x[i] + e(rng);
    sum[i % 3] += y[i];
    count[i % 3] += 1.0;
  }
  auto d = table({"y", "f", "x"}, {y, code, x});
  makeText(*d, 1, {"a", "b", "c"});
  ModelSettings s;
  s.nu = 1.0;
  s.mstop = 1;
  s.factors = {"f"};
  Booster b = fit(d, s);
  b.run(1);
  QCOMPARE(b.learners()[0].lambda, 0.0);
  for (std::size_t i = 0; i < n; ++i) QVERIFY(std::abs(b.fitted()[i] - sum[i % 3] / count[i % 3]) < 1e-12);
  s.factors.clear();
  s.linears = {"x"};
  Booster l = fit(d, s);
  l.run(1);
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i] / n, my += y[i] / n;
  for (std::size_t i = 0; i < n; ++i) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
  const double slope = sxy / sxx;
  for (std::size_t i = 0; i < n; ++i) QVERIFY(std::abs(l.fitted()[i] - (my + slope * (x[i] - mx))) < 1e-12);
  // The same line where x is a coordinate near 5.4e6 over about 60 (a range 1e-5 of its size): the columns 1 and x
  // are nearly collinear, and the pencil's rank counted from them lost the slope (edf 1, nothing fitted). The fitted
  // values b0 + b1 x cancel about 3e5 to O(1): within 1e-8 of the line.
  std::vector<double> far(n);
  for (std::size_t i = 0; i < n; ++i) far[i] = 5.4e6 + 10.0 * x[i];
  auto shifted = table({"y", "x"}, {y, far});
  Booster f = fit(shifted, s);
  f.run(1);
  QCOMPARE(f.learners()[0].edf, 2.0);
  for (std::size_t i = 0; i < n; ++i) QVERIFY(std::abs(f.fitted()[i] - (my + slope * (x[i] - mx))) < 1e-8);
  // A spread whose squares underflow is refused, naming the learner, not fitted without its slope.
  std::vector<double> tiny(n);
  for (std::size_t i = 0; i < n; ++i) tiny[i] = 1e-160 * x[i];
  const QString message = gbtest::inputErrorOf([&] { fit(table({"y", "x"}, {y, tiny}), s); });
  QVERIFY2(message.startsWith("learner 'x': values too close together for a linear learner"), qPrintable(message));
}

void TestFamilies::frameFollowsGamboostDefaults() {
  auto d = table({"y", "x", "f", "w"}, {{1, 2, 3, 4}, {1, 2, 3, 4}, {0, 1, 0, 1}, {1, 1, 1, 1}});
  makeText(*d, 2, {"p", "q"});
  ModelSettings s;
  s.weights = "w";
  const ModelFrame f = buildModelFrame(d, s);
  QCOMPARE(f.splines, std::vector<std::string>{"x"});
  QCOMPARE(f.factors, std::vector<std::string>{"f"});
  QVERIFY(f.linears.empty());
  s.learners = {"f"};
  // Its first cell that is not a number: row 1, line 2; column 3.
  const QString text = gbtest::inputErrorOf([&] { buildModelFrame(d, s); });
  QVERIFY2(
      text.endsWith(
          ":2:3: --spline: column 'f' holds text ('p'): name it with --factor (a factor learner) if it is categorical"),
      qPrintable(text));
}

void TestFamilies::frameOmitsAndCodes() {
  const double na = std::nan("");
  auto d = table({"y", "x", "f", "unused"},
                 {{1, 0, na, 1, 0, 1}, {1, 2, 3, na, 5, 6}, {0, 2, 1, 1, 2, 2}, {na, na, na, na, na, na}});
  makeText(*d, 2, {"a", "b", "c"});
  ModelSettings s;
  s.family = Family::Binomial;
  s.learners = {"x"};
  s.factors = {"f"};
  const ModelFrame f = buildModelFrame(d, s);
  QCOMPARE(f.keptRows, (std::vector<std::size_t>{0, 1, 4, 5}));
  QCOMPARE(f.response, (std::vector<double>{1, -1, -1, 1}));
  QCOMPARE(f.omissionNote(), QString("2 of 6 rows omitted for missing values ('y' 1, 'x' 1)").toStdString());
  // Level 'b' occurs only in omitted rows: the factor keeps 'a' and 'c', recoded 0 and 1.
  const std::size_t fc = static_cast<std::size_t>(f.data->columnIndex("f"));
  QCOMPARE(f.data->levelsOf(fc), (std::vector<std::string>{"a", "c"}));
  QCOMPARE(f.data->columns[fc], (std::vector<double>{0, 1, 1, 1}));
  s.missing = MissingPolicy::Fail;
  QCOMPARE(gbtest::inputErrorOf([&] { buildModelFrame(d, s); }),
           QString("t.csv:4:1: column 'y': missing value (NA or empty; --missing omit drops such rows)"));
}

void TestFamilies::frameRefusesBadResponses() {
  auto d = table({"y", "x", "w"}, {{0, 1, 2, 1}, {1, 2, 3, 4}, {1, -1, 1, 1}});
  ModelSettings s;
  s.learners = {"x"};
  s.family = Family::Binomial;
  QVERIFY(gbtest::inputErrorOf([&] { buildModelFrame(d, s); }).contains("t.csv:4:1: response 'y'"));
  s.family = Family::Poisson;
  d->columns[0][1] = 1.5;
  QVERIFY(
      gbtest::inputErrorOf([&] { buildModelFrame(d, s); }).contains("t.csv:3:1: response 'y' with --family poisson"));
  d->columns[0][1] = 1;
  s.weights = "w";
  QVERIFY(gbtest::inputErrorOf([&] { buildModelFrame(d, s); }).contains("t.csv:3:3: --weights 'w': weight -1"));
  d->columns[2] = {1e308, 1e308, 1e308, 1e-308};  // each finite, their sum not: it was blamed on the response
  QVERIFY(gbtest::inputErrorOf([&] {
            buildModelFrame(d, s);
          }).startsWith("--weights: the weights add up beyond the double range"));
  auto all = table({"y", "x"}, {{std::nan(""), 1}, {1, std::nan("")}});
  ModelSettings plain;
  QVERIFY(gbtest::inputErrorOf([&] { buildModelFrame(all, plain); }).contains("every one of the 2 rows"));
}

void TestFamilies::nullSpaceIsThePenaltys() {
  // Covariate values bunched at both ends: most basis columns see almost no data, so B'B is badly conditioned; the
  // null space is still the penalty's (2 for second differences, 0 for ridge) and edf 4 is reachable (mboost fits
  // TH.data's bodyfat this way).
  std::vector<double> x;
  for (int i = 0; i < 40; ++i) x.push_back(i < 20 ? 0.001 * i : 1.0 - 0.001 * i);
  x.push_back(0.5);
  const SplineBasis basis(*std::min_element(x.begin(), x.end()), *std::max_element(x.begin(), x.end()), SplineSpec{});
  const Eigen::MatrixXd gram = gramMatrix(basis, x.data(), x.size());
  const EdfFunction pspline(gram, penaltyMatrix(basis.numColumns(), PenaltyKind::PSpline, 2));
  QCOMPARE(pspline.nullSpaceDimension(), 2);
  const LambdaSolution sol = solveLambda(pspline, 4.0, EdfDefinition::Mboost, "x");
  // mboost's df2lambda solves a perturbed equation (B'B + 1e-9 S, then make_psd's shift of about 1.5e-8 I), which on
  // a B'B this ill-conditioned moves the exact edf by up to about 1e-5
  QVERIFY2(sol.lambda > 0.0 && std::abs(sol.edf - 4.0) < 1e-4, qPrintable(QString::number(sol.edf, 'g', 17)));
  const EdfFunction ridge(gram, penaltyMatrix(basis.numColumns(), PenaltyKind::Ridge, 0));
  QCOMPARE(ridge.nullSpaceDimension(), 0);
}

QTEST_GUILESS_MAIN(TestFamilies)
// overshootNote on made-up paths: a path that only falls has no note; one that ends above the offset's names its
// peak; one that ends lower but rose at 1 iteration in 100 or more (at least 2, each above 1e-6 of the path's
// largest |risk|) is counted, but not with riskMayRise (Huber's adaptive d), for laplace and quantile, for a single
// rise, or rises of rounding.
void TestFamilies::riskNotesCountRises() {
  std::vector<double> falling(201);
  for (std::size_t m = 0; m < falling.size(); ++m) falling[m] = 1.0 / (1.0 + 0.01 * static_cast<double>(m));
  QVERIFY(gb::overshootNote(falling, gb::Family::Gamma).empty());
  std::vector<double> path = falling;
  path[7] = path[6] + 0.01;  // rises at 7 and, from below its neighbours, at 50
  path[50] = path[49] + 1e-3;
  const std::string note = gb::overshootNote(path, gb::Family::Gamma);
  QVERIFY2(note.find("the training risk rose at 2 of 200 iterations (the first at iteration 7)") == 0, note.c_str());
  QVERIFY(gb::overshootNote(path, gb::Family::Huber, true).empty());
  // Laplace and quantile fit the residuals' signs: their risk rises near the end at any nu (mboost's too).
  QVERIFY(gb::overshootNote(path, gb::Family::Laplace).empty());
  QVERIFY(gb::overshootNote(path, gb::Family::Quantile).empty());
  QVERIFY(!gb::overshootNote(path, gb::Family::Expectile).empty());
  path[50] = falling[50];  // one rise in 200
  QVERIFY(gb::overshootNote(path, gb::Family::Gamma).empty());
  std::vector<double> jitter = falling;  // float rounding: rises of 5e-8 of the largest |risk|
  for (std::size_t m = 100; m < jitter.size(); m += 2) jitter[m] = jitter[m - 1] + 5e-8;
  QVERIFY(gb::overshootNote(jitter, gb::Family::Gaussian).empty());
  std::vector<double> above = falling;
  above.back() = 1.5;
  QVERIFY(gb::overshootNote(above, gb::Family::Poisson).find("above the offset's") != std::string::npos);
  QVERIFY(gb::overshootNote(above, gb::Family::Huber, true).find("above the offset's") != std::string::npos);
  QVERIFY(gb::overshootNote(above, gb::Family::Laplace).find("above the offset's") != std::string::npos);
}

// A gaussian response near 1e-170: its squared residuals underflow, every risk is 0 and the first learner would win
// every iteration by the tie (exit 0 with a meaningless fit). Refused naming the response; 1e-100 and 1e-145 (risks
// near 1e-290, still normal doubles; refused until 2026-12-02) fit as 1 does.
void TestFamilies::tinyResponseIsRefused() {
  std::vector<double> y(40), x(40);
  for (std::size_t i = 0; i < y.size(); ++i) {
    x[i] = static_cast<double>(i) / 39.0;
    y[i] = std::sin(6.0 * x[i]);
  }
  ModelSettings s;
  s.mstop = 5;
  s.spline.knots = 4;
  Booster one = fit(table({"y", "x"}, {y, x}), s);
  one.run(5);
  for (double scale : {1e-100, 1e-145, 1e-170}) {
    std::vector<double> small = y;
    for (double& v : small) v *= scale;
    if (scale != 1e-170) {
      Booster b = fit(table({"y", "x"}, {small, x}), s);
      b.run(5);
      for (std::size_t i = 0; i < y.size(); ++i)
        QVERIFY(std::abs(b.fitted()[i] / scale - one.fitted()[i]) <= 1e-12 * std::abs(one.fitted()[0]) + 1e-12);
      continue;
    }
    const QString message = gbtest::inputErrorOf([&] { fit(table({"y", "x"}, {small, x}), s); });
    QVERIFY2(message.contains("response 'y': values too small"), qPrintable(message));
  }
}

// Huber's gradient is the residual clipped to +-d. With d = 1e-200 its squares underflow, every learner's reduction is
// 0 and the first won every iteration (exit 0, a meaningless path): refused naming --huber-delta. d = 1e-140 (squares
// 1e-280, normal doubles) fits, its path that of d = 1e-100.
void TestFamilies::tinyHuberDeltaIsRefused() {
  std::vector<double> y(40), x1(40), x2(40);
  for (std::size_t i = 0; i < y.size(); ++i) {
    x1[i] = static_cast<double>(i) / 39.0;
    x2[i] = static_cast<double>((i * 7) % 40) / 39.0;
    y[i] = 3.0 * std::sin(6.0 * x2[i]) + 0.1 * x1[i];
  }
  ModelSettings s;
  s.family = gb::Family::Huber;
  s.mstop = 5;
  s.spline.knots = 4;
  s.huberDelta = 1e-100;
  Booster wide = fit(table({"y", "x1", "x2"}, {y, x1, x2}), s);
  wide.run(5);
  QCOMPARE(wide.path().learner.front(), 1);  // x2 carries the signal: not a tie won by the first
  s.huberDelta = 1e-140;
  Booster narrow = fit(table({"y", "x1", "x2"}, {y, x1, x2}), s);
  narrow.run(5);
  QVERIFY(narrow.path().learner == wide.path().learner);
  s.huberDelta = 1e-200;
  const QString message = gbtest::inputErrorOf([&] { fit(table({"y", "x1", "x2"}, {y, x1, x2}), s); });
  QVERIFY2(message.contains("--huber-delta: 1e-200 is too small for residuals up to"), qPrintable(message));
}

// mboost's gamboost(y ~ bbs(x) + bbs(z), weights = d$x): the weights column named as a learner too (refused until
// 2026-12-02). The fit equals the one with the weights in a column of their own, and a row missing x is omitted once.
void TestFamilies::weightsColumnMayBeALearner() {
  std::vector<double> y(60), x(60), z(60);
  for (std::size_t i = 0; i < y.size(); ++i) {
    x[i] = 0.5 + static_cast<double>((i * 13) % 60) / 20.0;
    z[i] = static_cast<double>(i) / 59.0;
    y[i] = std::sin(2.0 * x[i]) + z[i] * z[i];
  }
  x[7] = std::numeric_limits<double>::quiet_NaN();
  ModelSettings s;
  s.mstop = 20;
  s.spline.knots = 6;
  s.learners = {"x", "z"};
  s.weights = "x";
  Booster shared = fit(table({"y", "x", "z"}, {y, x, z}), s);
  shared.run(20);
  s.weights = "w";
  Booster own = fit(table({"y", "x", "z", "w"}, {y, x, z, x}), s);
  own.run(20);
  QCOMPARE(shared.rows(), std::size_t{59});
  QCOMPARE(shared.frame().omittedByColumn.size(), std::size_t{1});
  QCOMPARE(shared.frame().omittedByColumn.front().second, std::size_t{1});
  QVERIFY(shared.path().learner == own.path().learner);
  QCOMPARE(shared.fitted(), own.fitted());
}

#include "test_families.moc"

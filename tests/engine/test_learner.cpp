// Learner set-up: G from the compact basis equals the dense B'B, the solve/RSS matrices are what they claim,
// and bad covariates are refused with messages that name them.
#include <QtTest>
#include <cmath>
#include <utility>

#include "common/Error.hpp"
#include "common/ShardReducer.hpp"
#include "learner/EdfSolver.hpp"
#include "learner/Learner.hpp"
#include "learner/LearnerSetup.hpp"
#include "learner/ModelFrame.hpp"
#include "support/DenseReference.hpp"
#include "support/TestSupport.hpp"

using namespace gb;
using gbtest::inputErrorOf;

namespace {

double relativeMatrixError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

}  // namespace

class TestLearner : public QObject {
  Q_OBJECT

 private slots:
  void gramMatchesDenseBasis_data();
  void gramMatchesDenseBasis();
  void solveAndRssMatrices();
  void unpenalisedWhenEdfReachesRank();
  void unpenalisedSingularGramUsesPseudoInverse_data();
  void unpenalisedSingularGramUsesPseudoInverse();
  void unpenalisedSingularSplineBendsLeast();
  void keepsLearnerOrder();
  void errorsNameTheLearner();
  void scanFindsNaNAndFirstNonFinite();
  void frameScansStandInForTheLearnersOwn();
  void gramsOfSeveralWeightsAreEachPassGram();
  void identifierFactorIsNoted();
  void nearlyIdentifierFactorIsNoted();
  void linearLearnerOfLargeScaleKeepsItsIntercept_data();
  void linearLearnerOfLargeScaleKeepsItsIntercept();
  void penalisedLinearLearnerOfLargeScaleFindsMboostsLambda();
  void linearEdfOneOfYearsIsReached();
  void unweighedLevelsAndSlopesAreNoted();
  void unpenalisedFactorInClosedForm();
  void factorLevelsAreBounded();
  void zeroWeightsDecideTheRankOnEveryRow();
  void zeroWeightsDecideTheRankOfLinearAndFactorLearners();
};

void TestLearner::gramMatchesDenseBasis_data() {
  QTest::addColumn<bool>("clamped");
  QTest::addColumn<int>("degree");
  QTest::addColumn<int>("knots");
  for (int degree = 1; degree <= 5; ++degree) {
    QTest::addRow("clamped deg %d", degree) << true << degree << 7;
    QTest::addRow("extended deg %d", degree) << false << degree << 11;
  }
}

void TestLearner::gramMatchesDenseBasis() {
  QFETCH(bool, clamped);
  QFETCH(int, degree);
  QFETCH(int, knots);
  const quint64 seed = 101 + degree;
  qInfo("seed %llu", static_cast<unsigned long long>(seed));
  gbtest::TestRng rng(seed);
  std::vector<double> x(500);
  for (auto& v : x) v = rng.uniform(-2.0, 5.0);
  x[0] = -2.5;  // make the ends exact data points, including x = hi (the right end of the last interval)
  x[1] = 5.25;
  const SplineBasis basis(-2.5, 5.25, SplineSpec{knots, degree, clamped ? Boundary::Clamped : Boundary::Extended});
  const Eigen::MatrixXd B = gbtest::denseBasis(gbtest::referenceKnots(-2.5, 5.25, knots, degree, clamped), degree, x);
  const Eigen::MatrixXd G = gramMatrix(basis, x.data(), x.size());
  // Sums of 500 products of values in [0, 1]; only the summation order and polynomial form differ.
  const double err = relativeMatrixError(G, B.transpose() * B);
  QVERIFY2(err <= 1e-12, qPrintable(QString::number(err)));
  QCOMPARE(G, G.transpose());
}

void TestLearner::solveAndRssMatrices() {
  auto data = gbtest::makeSmoothData(400, 3, 7);
  qInfo("seed 7");
  ModelSettings s = ModelSettings::mboostPreset();
  const std::vector<Learner> learners = buildLearners(*data, s);
  QCOMPARE(learners.size(), std::size_t(3));
  for (const Learner& l : learners) {
    const int k = l.numColumns();
    QCOMPARE(k, 24);
    QVERIFY(l.lambda > 0.0);
    QVERIFY(std::abs(l.edf - 4.0) <= 1e-9);
    const Eigen::MatrixXd A = l.gram + l.lambda * l.penalty;
    // P is an inverse of an SPD matrix with condition ~1e6 here: the residual of A P = I sits near 1e-10.
    const double invErr = (A * l.solveMatrix - Eigen::MatrixXd::Identity(k, k)).cwiseAbs().maxCoeff();
    QVERIFY2(invErr <= 1e-8, qPrintable(QString::number(invErr)));
    QCOMPARE(l.solveMatrix, l.solveMatrix.transpose());
    QCOMPARE(l.rssMatrix, l.rssMatrix.transpose());
    const Eigen::MatrixXd Q = 2.0 * l.solveMatrix - l.solveMatrix * l.gram * l.solveMatrix;
    QVERIFY(relativeMatrixError(l.rssMatrix, Q) <= 1e-14);
    // The RSS reduction c'Qc equals g'g - ||g - B delta||^2 for any g.
    const std::vector<double>& x = data->column(l.name);
    const Eigen::MatrixXd B = gbtest::denseBasis(l.basis.knotVector(), l.basis.degree(), x);
    const Eigen::Map<const Eigen::VectorXd> g(data->column("y").data(), 400);
    const Eigen::VectorXd c = B.transpose() * g;
    const Eigen::VectorXd delta = l.solveMatrix * c;
    const double direct = g.squaredNorm() - (g - B * delta).squaredNorm();
    QVERIFY(std::abs(c.dot(l.rssMatrix * c) - direct) <= 1e-10 * g.squaredNorm());
  }
}

void TestLearner::unpenalisedWhenEdfReachesRank() {
  auto data = gbtest::makeSmoothData(300, 1, 8);
  ModelSettings s;
  s.spline = SplineSpec{4, 3, Boundary::Clamped};  // k = 8
  s.penalty = PenaltyKind::Ridge;
  s.edf = 20.0;
  const std::vector<Learner> learners = buildLearners(*data, s);
  QCOMPARE(learners.front().lambda, 0.0);
  QVERIFY(!learners.front().note.empty());
  const Eigen::MatrixXd GP = learners.front().gram * learners.front().solveMatrix;
  QVERIFY((GP - Eigen::MatrixXd::Identity(8, 8)).cwiseAbs().maxCoeff() <= 1e-9);
}

void TestLearner::unpenalisedSingularGramUsesPseudoInverse_data() {
  QTest::addColumn<int>("degree");
  QTest::addColumn<int>("knots");
  QTest::addColumn<int>("distinct");
  // Fewer distinct covariate values than basis columns, each column still seen by some value: B'B is singular
  // without a zero row, and Cholesky "succeeds" on it with a rounding-sized pivot (the old inverse was ~1e16).
  QTest::newRow("degree 2, 3 knots, 4 values") << 2 << 3 << 4;
  QTest::newRow("degree 2, 2 knots, 4 values") << 2 << 2 << 4;
  QTest::newRow("degree 3, 1 knot, 4 values") << 3 << 1 << 4;
  QTest::newRow("degree 1, 2 knots, 3 values") << 1 << 2 << 3;
  // Columns without any value (zero rows in B'B): Cholesky fails outright.
  QTest::newRow("degree 3, 3 knots, 3 values") << 3 << 3 << 3;
}

void TestLearner::unpenalisedSingularGramUsesPseudoInverse() {
  QFETCH(int, degree);
  QFETCH(int, knots);
  QFETCH(int, distinct);
  const auto data = gbtest::makeFewValuesData(40, distinct);
  ModelSettings s;
  s.spline = SplineSpec{knots, degree, Boundary::Extended};
  s.penalty = PenaltyKind::Ridge;
  s.edf = 20.0;  // above the rank: lambda = 0
  const Learner l = buildLearners(*data, s).front();
  QCOMPARE(l.lambda, 0.0);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(l.gram, Eigen::ComputeFullU | Eigen::ComputeFullV);
  svd.setThreshold(1e-12);
  QVERIFY(svd.rank() < l.numColumns());
  const Eigen::MatrixXd pinv = svd.solve(Eigen::MatrixXd::Identity(l.numColumns(), l.numColumns()));
  // The non-zero singular values of G span about 1e4 here; two backward-stable pseudo-inverses (eigen- vs
  // singular-value decomposition) agree to ~1e-12 relative, far inside 1e-8.
  const double err = relativeMatrixError(l.solveMatrix, pinv);
  QVERIFY2(err <= 1e-8, qPrintable(QString::number(err)));
  QVERIFY(relativeMatrixError(l.gram * l.solveMatrix * l.gram, l.gram) <= 1e-10);
}

// A spline of 3 distinct values at edf 4 (ToothGrowth's dose; mboost's bbs() stops there): every b with G b = c fits
// the data alike, and the pseudo-inverse's shortest b fell back to 0 between the values (the offset between doses 1
// and 2). The solve matrix is the lambda -> 0 limit instead: still G P G = G, and no direction in null(G) lowers
// b'Sb (N'S P = 0), which the pseudo-inverse fails by O(1).
void TestLearner::unpenalisedSingularSplineBendsLeast() {
  const auto data = gbtest::makeFewValuesData(40, 3);
  ModelSettings s;  // 20 knots, cubic, second differences
  s.edf = 4.0;
  const Learner l = buildLearners(*data, s).front();
  QCOMPARE(l.lambda, 0.0);
  QVERIFY2(QString::fromStdString(l.note).contains("least bent"), l.note.c_str());
  const Eigen::Index k = l.numColumns();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(l.gram);
  const Eigen::Index nullity = (eig.eigenvalues().array() <= 1e-10 * eig.eigenvalues().maxCoeff()).count();
  QCOMPARE(nullity, k - 3);
  const Eigen::MatrixXd n = eig.eigenvectors().leftCols(nullity);
  QVERIFY(relativeMatrixError(l.gram * l.solveMatrix * l.gram, l.gram) <= 1e-10);
  // Entries of S are O(1), of P at most about 1 / (the smallest non-zero eigenvalue of G); rounding leaves N'S P at
  // about 1e-16 of |S| |P|.
  const double scale = l.penalty.norm() * l.solveMatrix.norm();
  const double bend = (n.transpose() * l.penalty * l.solveMatrix).norm() / scale;
  QVERIFY2(bend <= 1e-10, qPrintable(QString::number(bend)));
  Eigen::MatrixXd pinv = Eigen::MatrixXd::Zero(k, k);
  for (Eigen::Index i = nullity; i < k; ++i)
    pinv += eig.eigenvectors().col(i) * eig.eigenvectors().col(i).transpose() / eig.eigenvalues()[i];
  const double pinvBend = (n.transpose() * l.penalty * pinv).norm() / (l.penalty.norm() * pinv.norm());
  QVERIFY2(pinvBend > 1e-3, qPrintable(QString::number(pinvBend)));  // the test can tell the two apart
}

void TestLearner::keepsLearnerOrder() {
  auto data = gbtest::makeSmoothData(200, 6, 9);
  ModelSettings s;
  s.learners = {"x5", "x2", "x6", "x1"};
  const std::vector<Learner> learners = buildLearners(*data, s);
  QCOMPARE(learners.size(), std::size_t(4));
  for (std::size_t j = 0; j < 4; ++j) {
    QCOMPARE(learners[j].name, s.learners[j]);
    QCOMPARE(data->names[static_cast<std::size_t>(learners[j].column)], s.learners[j]);
  }
}

void TestLearner::errorsNameTheLearner() {
  auto data = gbtest::makeSmoothData(200, 5, 10);
  data->columns[5].assign(200, 0.5);  // x5 constant
  ModelSettings s;
  s.learners = {"x1", "x5"};
  QCOMPARE(inputErrorOf([&] { buildLearners(*data, s); }),
           QStringLiteral("learner 'x5': covariate is constant (all values 0.5)"));

  s.learners = {"x1", "x99"};
  QVERIFY(inputErrorOf([&] { buildLearners(*data, s); }).contains("'x99'"));

  // Fewer rows than basis columns is no error (mboost fits it): G has rank 10 of 24, the penalty fills the rest, and
  // edf 4 is reached with lambda > 0 (tests/reference checks such fits against an R transcription); as mboost's
  // df2lambda reaches it, through B'B + 1e-9 S and make_psd's shift, to about 1e-6 here.
  auto small = gbtest::makeSmoothData(10, 2, 11);
  s.learners = {"x2"};
  const Learner tenRows = buildLearners(*small, s).front();
  QVERIFY2(tenRows.lambda > 0.0 && std::abs(tenRows.edf - 4.0) <= 1e-5,
           qPrintable(QString("lambda %1, edf %2").arg(tenRows.lambda).arg(tenRows.edf, 0, 'g', 17)));

  // A second-order difference penalty leaves 2 directions unpenalised: edf 1.5 cannot be reached.
  s = ModelSettings{};
  s.edf = 1.5;
  const QString edfError = inputErrorOf([&] { buildLearners(*data, s); });
  QVERIFY2(edfError.contains("--edf") && edfError.contains("x1"), qPrintable(edfError));

  s = ModelSettings{};
  s.spline.degree = 7;
  QVERIFY(inputErrorOf([&] { buildLearners(*data, s); }).startsWith("--degree"));

  data->columns[2][17] = std::nan("");
  s = ModelSettings{};
  s.learners = {"x2"};
  QCOMPARE(inputErrorOf([&] { buildLearners(*data, s); }), QStringLiteral("learner 'x2': non-finite value at row 18"));
}

void TestLearner::scanFindsNaNAndFirstNonFinite() {
  const double inf = HUGE_VAL, nan = std::nan("");
  const std::vector<double> clean{3.0, -1.0, 2.0, 7.5, 0.0, 1.0, 2.0, 3.0, 4.0, -2.0};
  CovariateScan s = scanCovariate(clean.data(), clean.size());
  QCOMPARE(s.lo, -2.0);
  QCOMPARE(s.hi, 7.5);
  QCOMPARE(s.firstNonFinite, clean.size());
  QVERIFY(!s.hasNaN);
  // An inf alone is not missing; a NaN anywhere is, whatever comes first (rows past the 8 lanes included).
  std::vector<double> x = clean;
  x[9] = -inf;
  s = scanCovariate(x.data(), x.size());
  QCOMPARE(s.firstNonFinite, std::size_t(9));
  QVERIFY(!s.hasNaN);
  x[2] = inf;
  x[6] = nan;
  s = scanCovariate(x.data(), x.size());
  QCOMPARE(s.firstNonFinite, std::size_t(2));
  QVERIFY(s.hasNaN);
  x = clean;
  x[1] = nan;
  x[4] = inf;
  s = scanCovariate(x.data(), x.size());
  QCOMPARE(s.firstNonFinite, std::size_t(1));
  QVERIFY(s.hasNaN);
}

// The model frame's missing-value pass also scans each column, and the learners take its range instead of reading x
// again: the same knots and Gram as learners that scan for themselves, and the same message for an inf.
void TestLearner::frameScansStandInForTheLearnersOwn() {
  auto data = gbtest::makeSmoothData(300, 4, 12);
  ModelSettings s;
  const ModelFrame frame = buildModelFrame(data, s);
  QCOMPARE(frame.columnScans.size(), std::size_t(5));  // y and x1..x4
  const std::vector<Learner> fromFrame = buildLearners(frame, s, nullptr);
  const std::vector<Learner> own = buildLearners(*data, s);
  QCOMPARE(fromFrame.size(), own.size());
  for (std::size_t j = 0; j < own.size(); ++j) {
    const auto& x = data->columns[static_cast<std::size_t>(own[j].column)];
    QCOMPARE(frame.columnScans.at(own[j].name).lo, *std::min_element(x.begin(), x.end()));
    QCOMPARE(frame.columnScans.at(own[j].name).hi, *std::max_element(x.begin(), x.end()));
    QCOMPARE(fromFrame[j].basis.lo(), own[j].basis.lo());
    QCOMPARE(fromFrame[j].basis.hi(), own[j].basis.hi());
    QCOMPARE(fromFrame[j].gram, own[j].gram);
  }
  // A missing value omits its row: no scans (they would include it), and the learners scan the used rows.
  auto gap = gbtest::makeSmoothData(300, 4, 12);
  gap->columns[3][40] = std::nan("");
  QVERIFY(buildModelFrame(gap, s).columnScans.empty());
  // An inf is not missing: the frame keeps every row, and the learner built from its scan names the row.
  data->columns[2][117] = -HUGE_VAL;
  const ModelFrame withInf = buildModelFrame(data, s);
  QCOMPARE(withInf.columnScans.at("x2").firstNonFinite, std::size_t(117));
  QCOMPARE(inputErrorOf([&] { buildLearners(withInf, s, nullptr); }),
           QStringLiteral("learner 'x2': non-finite value at row 118"));
}

// gramMatrices (the folds' Grams in one pass) gives each weight vector's gramMatrix bit for bit, unweighted included,
// for every degree, and for row counts that end inside a block and inside a pair of rows.
void TestLearner::gramsOfSeveralWeightsAreEachPassGram() {
  const quint64 seed = 131;
  qInfo("seed %llu", static_cast<unsigned long long>(seed));
  gbtest::TestRng rng(seed);
  for (std::size_t n : {std::size_t(7), std::size_t(2049), std::size_t(5001)}) {
    std::vector<double> x(n), w1(n), w2(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = rng.uniform(-1.0, 3.0);
      w1[i] = std::floor(rng.uniform(0.0, 4.0));  // bootstrap-like counts, zeros included
      w2[i] = rng.uniform(0.0, 2.0);
    }
    for (int degree = 1; degree <= 5; ++degree) {
      const SplineBasis basis(-1.0, 3.0, SplineSpec{9, degree, Boundary::Extended});
      const std::vector<Eigen::MatrixXd> grams = gramMatrices(basis, x.data(), n, {w1.data(), nullptr, w2.data()});
      QCOMPARE(grams.size(), std::size_t(3));
      QCOMPARE(grams[0], gramMatrix(basis, x.data(), n, w1.data()));
      QCOMPARE(grams[1], gramMatrix(basis, x.data(), n));
      QCOMPARE(grams[2], gramMatrix(basis, x.data(), n, w2.data()));
    }
  }
}

// A text column with one row for each level (mtcars' car names kept as a column) gets a note; a factor whose levels
// repeat, or whose rows per level differ, gets none.
void TestLearner::identifierFactorIsNoted() {
  const ModelSettings s;
  const std::vector<std::string> levels{"Fiat 128", "Honda Civic", "Mazda RX4", "Valiant"};
  const Learner id = buildFactor("car", 0, {2, 0, 3, 1}, levels, nullptr, s);
  QVERIFY2(id.note.find("learner 'car': each of its 4 levels holds a single row: an identifier?") != std::string::npos,
           id.note.c_str());
  QVERIFY(buildFactor("car", 0, {2, 0, 3, 1, 1}, levels, nullptr, s).note.empty());
  QVERIFY(buildFactor("cyl", 0, {0, 1, 0, 1}, {"4", "6"}, nullptr, s).note.empty());
  QVERIFY(buildFactor("one", 0, {0}, {"a"}, nullptr, s).note.empty());  // one level: nothing to fit by row
}

// Nearly a level a row (R's Date columns as write.csv writes them: 12 days over 15 rows, 9 of them seen once) is
// noted too; as many levels over twice the rows, or fewer than 10 levels, or levels mostly on several rows, are not.
void TestLearner::nearlyIdentifierFactorIsNoted() {
  const ModelSettings s;
  std::vector<std::string> days;
  for (int d = 1; d <= 12; ++d) days.push_back("2020-01-" + std::string(d < 10 ? "0" : "") + std::to_string(d));
  std::vector<double> codes;
  for (int d = 0; d < 12; ++d) codes.push_back(d);
  for (int d = 0; d < 3; ++d) codes.push_back(d);  // days 1-3 twice: 15 rows, 9 single
  const Learner day = buildFactor("day", 0, codes, days, nullptr, s);
  QVERIFY2(day.note.find("learner 'day': 12 levels for 15 rows, 9 of them a single row's: an identifier, or dates "
                         "written as text?") != std::string::npos,
           day.note.c_str());
  std::vector<double> twice = codes;
  twice.resize(24);
  for (int d = 0; d < 24; ++d) twice[static_cast<std::size_t>(d)] = d % 12;  // 12 levels over 24 rows
  QVERIFY2(buildFactor("day", 0, twice, days, nullptr, s).note.empty(), "12 levels over 24 rows");
  const std::vector<std::string> nine(days.begin(), days.begin() + 9);
  QVERIFY2(buildFactor("day", 0, {0, 1, 2, 3, 4, 5, 6, 7, 8, 0}, nine, nullptr, s).note.empty(), "9 levels");
  std::vector<double> pairs;  // 12 levels over 23 rows, 11 of them on two rows: most levels repeat
  for (int d = 0; d < 11; ++d) pairs.insert(pairs.end(), {double(d), double(d)});
  pairs.push_back(11);
  QVERIFY2(buildFactor("day", 0, pairs, days, nullptr, s).note.empty(), "levels mostly on two rows");
}

void TestLearner::linearLearnerOfLargeScaleKeepsItsIntercept_data() {
  QTest::addColumn<double>("centre");
  QTest::addColumn<double>("spread");
  QTest::newRow("x near 5e4 (state.x77's Area)") << 5e4 << 1e4;
  QTest::newRow("dates as days (x near 19000, 30 days)") << 19000.0 << 30.0;
  QTest::newRow("x near 1e-6") << 1e-6 << 2e-7;
  QTest::newRow("x near 1") << 1.0 << 0.5;
}

// bols(x) unpenalised is least squares on [1, x], whatever x's scale. The rank was counted from a pencil whose small
// eigenvalue fell under 1e-10 of its bound for x near 5e4: rank 1, and a pseudo-inverse without the intercept.
// Reference: the centred least-squares fit, b1 = sum (x - xbar)(g - gbar) / sum (x - xbar)^2, formed apart.
void TestLearner::linearLearnerOfLargeScaleKeepsItsIntercept() {
  QFETCH(double, centre);
  QFETCH(double, spread);
  const int n = 100;
  std::vector<double> x(n), g(n);
  for (int i = 0; i < n; ++i) {
    const double u = std::fmod(0.618033988749895 * (i + 1), 1.0);
    x[static_cast<std::size_t>(i)] = centre + spread * u;
    g[static_cast<std::size_t>(i)] = 2.0 * u - 1.0 + 0.3 * std::sin(7.0 * i);
  }
  const Learner l = buildLinear("x", 0, x, nullptr, ModelSettings{});
  QCOMPARE(l.edf, 2.0);
  double xbar = 0.0, gbar = 0.0;
  for (int i = 0; i < n; ++i) {
    xbar += x[static_cast<std::size_t>(i)] / n;
    gbar += g[static_cast<std::size_t>(i)] / n;
  }
  double sxx = 0.0, sxg = 0.0;
  for (int i = 0; i < n; ++i) {
    sxx += (x[static_cast<std::size_t>(i)] - xbar) * (x[static_cast<std::size_t>(i)] - xbar);
    sxg += (x[static_cast<std::size_t>(i)] - xbar) * (g[static_cast<std::size_t>(i)] - gbar);
  }
  Eigen::Vector2d c(0.0, 0.0);
  for (int i = 0; i < n; ++i)
    c += Eigen::Vector2d(1.0, x[static_cast<std::size_t>(i)]) * g[static_cast<std::size_t>(i)];
  const Eigen::Vector2d beta = l.solveMatrix * c;
  // X'X's condition number reaches about 1e12 (dates: x near 19000, spread 30), so the normal equations leave up to
  // about 1e-16 * 1e12 = 1e-4 relative in the coefficients along its small direction, and far less in the fitted
  // values; 1e-6 of g's O(1) scale holds that, where the fit without its intercept was off by O(1).
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    const double xi = x[static_cast<std::size_t>(i)];
    const double reference = gbar + sxg / sxx * (xi - xbar);
    worst = std::max(worst, std::abs(beta[0] + beta[1] * xi - reference));
  }
  QVERIFY2(worst <= 1e-6, qPrintable(QString("max |fitted - least squares| %1").arg(worst)));
}

static std::vector<double> evenlySpaced(double first, double step, int n) {
  std::vector<double> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = first + step * i;
  return x;
}

// bols(x, df = edf) with mboost's edf definition.
static Learner mboostLinear(const std::string& name, const std::vector<double>& x, double edf) {
  ModelSettings settings;
  settings.linearEdf = edf;
  settings.edfDefinition = EdfDefinition::Mboost;
  return buildLinear(name, 0, x, nullptr, settings);
}

// The two eigenvalues of X'X for X = [1, x], the small one from the determinant n sum (x - xbar)^2 (centred sums, no
// cancellation).
static std::pair<double, double> linearGramEigenvalues(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double xbar = 0.0, sum2 = 0.0, sxx = 0.0;
  for (double v : x) xbar += v / n;
  for (double v : x) {
    sum2 += v * v;
    sxx += (v - xbar) * (v - xbar);
  }
  const double trace = n + sum2, det = n * sxx;
  const double large = 0.5 * (trace + std::sqrt(trace * trace - 4.0 * det));
  return {large, det / large};
}

// bols(x, df = 1.5) on days as numbers (x = 19000..19099): mboost's df2lambda finds lambda with
// df(lambda) = sum 2h - h^2, h_i = s_i / (s_i + lambda), s_i the eigenvalues of X'X, to uniroot's tolerance sqrt(eps)
// absolute. Reference: X'X's small eigenvalue from its determinant n sum (x - xbar)^2 (centred sums, no cancellation),
// the root by bisection. Without equilibrating the pencil lambda was 4.611e-4 against 4.6787e-4 (mboost's too).
void TestLearner::penalisedLinearLearnerOfLargeScaleFindsMboostsLambda() {
  const std::vector<double> x = evenlySpaced(19000.0, 1.0, 100);
  const Learner l = mboostLinear("day", x, 1.5);
  const std::pair<double, double> eigenvalues = linearGramEigenvalues(x);
  const double large = eigenvalues.first, small = eigenvalues.second;
  auto df = [&](double lambda) {
    double total = 0.0;
    for (double s : {large, small}) {
      const double h = s / (s + lambda);
      total += 2.0 * h - h * h;
    }
    return total;
  };
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200; ++i) (df(0.5 * (lo + hi)) > 1.5 ? lo : hi) = 0.5 * (lo + hi);
  const double exact = 0.5 * (lo + hi);
  QVERIFY2(std::abs(l.lambda - exact) <= 2e-8,
           qPrintable(QString("lambda %1, exact root %2").arg(l.lambda, 0, 'g', 10).arg(exact, 0, 'g', 10)));
}

// bols(x, df = 1) on years (x = 2010..2020): a ridge penalty has no null space, so edf 1 is reachable (mboost's
// lambda is about 1e5 here). It was refused ("edf 1 must exceed 1, the dimension of the penalty's null space") when
// the null space was counted from the centred pencil's penalty T^-T T^-1, whose small eigenvalue is about 1 / x^2 of
// its large one. Reference: the eigenvalues of X'X as in the test above, df - 1 = 2 h_s - h_s^2 - (lambda / (L +
// lambda))^2 formed without cancellation, the root by bisection in log lambda. mboost adds 1e-9 to X'X's diagonal
// (options("mboost_eps")), which moves the small eigenvalue (about 2e-4) by 5e-6 of itself and the root, which goes as
// its cube root, by about 2e-6: hence 2e-5.
void TestLearner::linearEdfOneOfYearsIsReached() {
  const std::vector<double> x = evenlySpaced(2010.0, 0.1, 101);
  const Learner l = mboostLinear("year", x, 1.0);
  const std::pair<double, double> eigenvalues = linearGramEigenvalues(x);
  const double large = eigenvalues.first, small = eigenvalues.second;
  auto excess = [&](double lambda) {  // df(lambda) - 1
    const double hs = small / (small + lambda), rest = lambda / (large + lambda);
    return 2.0 * hs - hs * hs - rest * rest;
  };
  double lo = 1e-6, hi = 1e12;
  for (int i = 0; i < 200; ++i) {
    const double mid = std::sqrt(lo * hi);
    (excess(mid) > 0.0 ? lo : hi) = mid;
  }
  const double exact = std::sqrt(lo * hi);
  QVERIFY2(std::abs(l.lambda - exact) <= 2e-5 * exact,
           qPrintable(QString("lambda %1, exact root %2").arg(l.lambda, 0, 'g', 10).arg(exact, 0, 'g', 10)));
}

// A factor level, or a linear term's spread, seen only on rows of weight 0: unpenalised, mboost's bols() stops
// ("system is exactly singular") and the engine takes the minimum-norm solution, which the data do not decide, so the
// learner's note says so (result.json's notes). Penalised (--factor-edf), mboost fits too, and there is no note; nor
// is there without weights.
void TestLearner::unweighedLevelsAndSlopesAreNoted() {
  const std::vector<std::string> levels{"a", "b", "c", "q"};
  const std::vector<double> codes{0, 1, 2, 0, 1, 2, 3, 0, 1, 2};
  std::vector<double> w(codes.size(), 1.0);
  w[6] = 0.0;  // the only row of level "q"
  ModelSettings settings;
  const Learner factor = buildFactor("f", 0, codes, levels, w.data(), settings);
  QVERIFY2(QString::fromStdString(factor.note).contains("level 'q' has only rows of weight 0"), factor.note.c_str());
  QVERIFY(buildFactor("f", 0, codes, levels, nullptr, settings).note.empty());
  w[0] = w[3] = w[7] = 0.0;  // the first level too: the general (eigen-solver) path
  const Learner two = buildFactor("f", 0, codes, levels, w.data(), settings);
  QVERIFY2(QString::fromStdString(two.note).contains("2 levels ('a', 'q') have only rows of weight 0"),
           two.note.c_str());
  settings.factorEdf = 2.0;
  QVERIFY2(buildFactor("f", 0, codes, levels, w.data(), settings).note.find("weight 0") == std::string::npos,
           "a penalised factor gets no note");
  std::vector<double> z(codes.size(), 1.0), wz(codes.size(), 1.0);
  z[0] = 5.0;
  wz[0] = 0.0;  // z varies only where the weight is 0
  const Learner linear = buildLinear("z", 0, z, wz.data(), ModelSettings{});
  QVERIFY2(QString::fromStdString(linear.note).contains("every row of positive weight has the same value"),
           linear.note.c_str());
  QCOMPARE(linear.lambda, 0.0);
  wz[0] = 1.0;
  QVERIFY(buildLinear("z", 0, z, wz.data(), ModelSettings{}).note.empty());
}

// The unpenalised factor's P in closed form: against Eigen's complete orthogonal decomposition of G (a Moore-Penrose
// inverse formed apart), with a level of no weight and case weights; edf = the weighted levels; Q = 2P - PGP.
void TestLearner::unpenalisedFactorInClosedForm() {
  const std::vector<std::string> levels{"a", "b", "c", "d", "e"};
  const std::vector<double> codes{0, 1, 1, 2, 4, 4, 4, 0, 2, 1};
  const std::vector<double> w{1.0, 2.5, 0.5, 1.0, 3.0, 1.0, 0.25, 2.0, 1.5, 1.0};
  for (const double* weights : {static_cast<const double*>(nullptr), w.data()}) {
    const Learner l = buildFactor("f", 0, codes, levels, weights, ModelSettings{});
    QCOMPARE(l.lambda, 0.0);
    QCOMPARE(l.edf, 4.0);  // level d has no rows
    const Eigen::MatrixXd pinv = l.gram.completeOrthogonalDecomposition().pseudoInverse();
    const double err = relativeMatrixError(l.solveMatrix, pinv);
    QVERIFY2(err <= 1e-12, qPrintable(QString::number(err)));
    const Eigen::MatrixXd q = 2.0 * l.solveMatrix - l.solveMatrix * l.gram * l.solveMatrix;
    QVERIFY(relativeMatrixError(l.rssMatrix, q) <= 1e-12);
  }
  // A first level without weight: the general path (G is singular along the intercept).
  const std::vector<double> w0{0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0};
  const Learner l = buildFactor("f", 0, codes, levels, w0.data(), ModelSettings{});
  QCOMPARE(l.edf, 3.0);
  QVERIFY(relativeMatrixError(l.gram * l.solveMatrix * l.gram, l.gram) <= 1e-10);
}

// A factor of more levels than its dense L x L matrices allow is refused before they are formed, naming the learner:
// an id column of 10000 rows took minutes and gigabytes (O(L^3) set-up), 4000 levels 50 s.
void TestLearner::factorLevelsAreBounded() {
  for (const std::size_t count : {std::size_t(5001), std::size_t(2001)}) {
    ModelSettings s;
    if (count == 2001) s.factorEdf = 2.0;
    std::vector<std::string> levels(count);
    std::vector<double> codes(count);
    for (std::size_t i = 0; i < count; ++i) {
      levels[i] = "p" + std::to_string(i);
      codes[i] = static_cast<double>(i);
    }
    const QString message = inputErrorOf([&] { buildFactor("id", 0, codes, levels, nullptr, s); });
    QVERIFY2(message.startsWith(
                 QString("learner 'id': %1 levels, more than the %2 a factor learner takes").arg(count).arg(count - 1)),
             qPrintable(message));
    QVERIFY2(message.contains("--factor") && !message.contains("numbers"), qPrintable(message));
  }
  // A column of numbers with one Excel "#N/A": text, so a factor of a level per row; the message says why.
  std::vector<std::string> numbers(6000);
  std::vector<double> rows(numbers.size());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    numbers[i] = std::to_string(0.001 * static_cast<double>(i));
    rows[i] = static_cast<double>(i);
  }
  numbers[17] = "#N/A";
  const QString hint = inputErrorOf([&] { buildFactor("x1", 0, rows, numbers, nullptr, ModelSettings{}); });
  QVERIFY2(hint.endsWith("; all but 1 of its levels are numbers (the first other '#N/A'): a numeric column with text "
                         "cells? Leave those cells empty or NA and it is read as numbers"),
           qPrintable(hint));
  // 1000 single-row levels unpenalised: the closed form, O(L^2) (the general path took 1.4 s here).
  std::vector<std::string> levels(1000);
  std::vector<double> codes(1000);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    levels[i] = "p" + std::to_string(i);
    codes[i] = static_cast<double>(i);
  }
  const Learner id = buildFactor("id", 0, codes, levels, nullptr, ModelSettings{});
  QCOMPARE(id.edf, 1000.0);
  QVERIFY(relativeMatrixError(id.gram * id.solveMatrix, Eigen::MatrixXd::Identity(1000, 1000)) <= 1e-12);
}

// mboost's df2lambda compares df with the rank of the unweighted basis (rankMatrix(X)); zero weights that leave basis
// columns without data lower only the rank of B'WB. With the edf between the two, mboost searches lambda on X'WX +
// 1e-9 S and stops near 0 (3.2e-8 in the finding that brought this: its fold and zero-weight rows then agree with
// mboost to 1e-5, where lambda 0's minimum-norm fit was 0.33 off). The trace definition keeps lambda 0 there.
void TestLearner::zeroWeightsDecideTheRankOnEveryRow() {
  constexpr std::size_t n = 200;
  std::vector<double> x(n), y(n), w(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = (static_cast<double>(i) + 0.5) / n;
    y[i] = std::sin(6.0 * x[i]);
    w[i] = x[i] > 0.75 ? 0.0 : 1.0;  // the last knot intervals without weight
  }
  ModelSettings s;
  s.learners = {"x"};
  s.weights = "w";
  s.spline = SplineSpec{5, 3, Boundary::Extended};  // k = 9
  s.edf = 8.5;
  auto data = std::make_shared<Dataset>(Dataset{"zero weights", {"y", "x", "w"}, {y, x, w}});
  const ModelFrame frame = buildModelFrame(data, s);
  const Learner mboostRule = buildLearners(frame, s, nullptr).front();
  const EdfFunction weighted(mboostRule.gram, mboostRule.penalty);
  QVERIFY2(weighted.rank() < 9 && weighted.rank() < s.edf, "the case needs columns without weight");
  QVERIFY2(mboostRule.lambda > 0.0 && mboostRule.lambda < 1e-5, qPrintable(QString::number(mboostRule.lambda)));
  QVERIFY2(QString::fromStdString(mboostRule.note).contains("leave basis columns without data"),
           mboostRule.note.c_str());
  s.edfDefinition = EdfDefinition::Trace;
  QCOMPARE(buildLearners(frame, s, nullptr).front().lambda, 0.0);
}

// The same rank decision for bols(): a factor level and a linear term's spread seen only on rows of weight 0 leave
// X'WX singular while X has full rank, and with the edf between the two ranks mboost searches lambda (near 0, a
// slight shrinkage) where the weighted rank gave lambda 0. The distributed set-up (one process here, the same code
// path as N) decides the same from its summed statistics, for all three learner types.
void TestLearner::zeroWeightsDecideTheRankOfLinearAndFactorLearners() {
  constexpr std::size_t n = 200;
  std::vector<double> x(n), lin(n), fac(n), y(n), w(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = (static_cast<double>(i) + 0.5) / n;
    w[i] = x[i] > 0.75 ? 0.0 : 1.0;
    lin[i] = w[i] > 0.0 ? 2.0 : x[i];                        // one value where the weight is positive
    fac[i] = w[i] > 0.0 ? static_cast<double>(i % 3) : 3.0;  // level "d" only on rows of weight 0
    y[i] = std::sin(6.0 * x[i]) + 0.3 * fac[i];
  }
  ModelSettings s;
  s.learners = {"x"};
  s.linears = {"lin"};
  s.factors = {"fac"};
  s.weights = "w";
  s.spline = SplineSpec{5, 3, Boundary::Extended};  // k = 9
  s.edf = 8.5;
  s.linearEdf = 1.5;  // between the weighted rank 1 and the rank 2 of [1, lin]
  s.factorEdf = 3.5;  // between the weighted rank 3 and the 4 levels
  auto data = std::make_shared<Dataset>(
      Dataset{"zero weights",
              {"y", "x", "lin", "fac", "w"},
              {y, x, lin, fac, w},
              {ColumnKind::Numeric, ColumnKind::Numeric, ColumnKind::Numeric, ColumnKind::Text, ColumnKind::Numeric},
              {{}, {}, {}, {"a", "b", "c", "d"}, {}}});
  const ModelFrame frame = buildModelFrame(data, s);
  const std::vector<Learner> one = buildLearners(frame, s, nullptr);
  LocalReducer local;
  const std::vector<Learner> together = buildLearners(frame, s, &local);
  QCOMPARE(int(one.size()), 3);
  QCOMPARE(int(together.size()), 3);
  for (std::size_t j = 0; j < one.size(); ++j) {
    const Learner& l = one[j];
    const EdfFunction weighted(l.gram, l.penalty);
    QVERIFY2(weighted.rank() < l.numColumns(), qPrintable(QString::fromStdString(l.name) + ": needs a rank loss"));
    QVERIFY2(l.lambda > 0.0 && l.lambda < 1e-2,
             qPrintable(QString::fromStdString(l.name) + ": lambda " + QString::number(l.lambda)));
    QVERIFY2(QString::fromStdString(l.note).contains("leave basis columns without data"), l.note.c_str());
    // The same statistics summed in the same order: the same lambda to rounding.
    QVERIFY2(
        std::abs(together[j].lambda - l.lambda) <= 1e-12 * l.lambda,
        qPrintable(QString::fromStdString(l.name) + ": distributed lambda " +
                   QString::number(together[j].lambda, 'g', 17) + " against " + QString::number(l.lambda, 'g', 17)));
  }
  s.edfDefinition = EdfDefinition::Trace;  // the paper's definition keeps the weighted rank
  for (const Learner& l : buildLearners(frame, s, nullptr)) QCOMPARE(l.lambda, 0.0);
  for (const Learner& l : buildLearners(frame, s, &local)) QCOMPARE(l.lambda, 0.0);
}

QTEST_APPLESS_MAIN(TestLearner)
#include "test_learner.moc"

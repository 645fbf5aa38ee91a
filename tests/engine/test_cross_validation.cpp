// Resampling folds and the cross-validation driver (compute/CrossValidation.hpp): the folds' structure for every
// generator, their determinism by seed, the folds file's checks, and a fold's out-of-bag risk against a direct sum.
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <thread>

#include "common/Error.hpp"
#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/CrossValidation.hpp"
#include "compute/FoldGrams.hpp"
#include "support/DenseReference.hpp"
#include "support/TestSupport.hpp"

using namespace gb;

namespace {

constexpr std::uint64_t kSeed = 99;

}  // namespace

class TestCrossValidation : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %llu", static_cast<unsigned long long>(kSeed)); }

  void kfoldLeavesEachRowOutOnce() {
    const ResamplingFolds f = kfoldFolds(23, 5, kSeed, {});
    QCOMPARE(f.weights.size(), std::size_t{5});
    std::vector<int> out(23, 0);
    for (const auto& w : f.weights) {
      int left = 0;
      for (std::size_t i = 0; i < 23; ++i) {
        QVERIFY(w[i] == 0.0 || w[i] == 1.0);
        if (w[i] == 0.0) ++out[i], ++left;
      }
      QVERIFY(left == 4 || left == 5);  // 23 rows in 5 folds: as equal as can be
    }
    for (int o : out) QCOMPARE(o, 1);
    QCOMPARE(kfoldFolds(23, 5, kSeed, {}).weights, f.weights);  // the seed decides
    QVERIFY(kfoldFolds(23, 5, kSeed + 1, {}).weights != f.weights);
  }

  void bootstrapAndSubsample() {
    const ResamplingFolds b = bootstrapFolds(40, 6, kSeed, {});
    for (const auto& w : b.weights) {
      double sum = 0.0;
      for (double v : w) {
        QCOMPARE(v, std::floor(v));
        sum += v;
      }
      QCOMPARE(sum, 40.0);
    }
    // Rows of case weight 0 are never drawn.
    std::vector<double> cw(40, 1.0);
    cw[3] = 0.0;
    for (const auto& w : bootstrapFolds(40, 20, kSeed, cw).weights) QCOMPARE(w[3], 0.0);
    // Unit weights take the row as floor(u) without the search; weights all 2 take the search over 2, 4, 6, ..., and
    // u * 2n is exactly twice u * n: the same draws, row for row.
    for (std::size_t n : {std::size_t(1), std::size_t(40), std::size_t(1025), std::size_t(100003)}) {
      const ResamplingFolds unit = bootstrapFolds(n, 3, kSeed, {});
      const ResamplingFolds twos = bootstrapFolds(n, 3, kSeed, std::vector<double>(n, 2.0));
      for (std::size_t f = 0; f < 3; ++f) QVERIFY2(unit.weights[f] == twos.weights[f], qPrintable(QString::number(n)));
    }
    // The folds are drawn a batch of samples at a time (the counting on all cores): sample s is still the s-th
    // sample of one sampler, one at a time.
    std::vector<double> uneven(1001);
    for (std::size_t i = 0; i < uneven.size(); ++i) uneven[i] = static_cast<double>(i % 7);
    for (const std::vector<double>& cw : {std::vector<double>{}, uneven}) {
      const ResamplingFolds batched = bootstrapFolds(1001, 9, kSeed, cw);
      BootstrapSampler one(1001, kSeed, cw, "--bootstrap");
      for (const std::vector<double>& w : batched.weights) QVERIFY(w == one.next());
      BootstrapSampler a(1001, kSeed, cw, "--bootstrap"), b(1001, kSeed, cw, "--bootstrap");
      const std::vector<std::vector<double>> three = a.next(3);
      for (const std::vector<double>& w : three) QVERIFY(w == b.next());
    }
    const ResamplingFolds s = subsampleFolds(41, 4, 0.5, kSeed, {});
    for (const auto& w : s.weights) {
      double sum = 0.0;
      for (double v : w) sum += v;
      QCOMPARE(sum, 20.0);  // floor(41 * 0.5)
    }
    QVERIFY(gbtest::inputErrorOf([] { kfoldFolds(5, 1, 1, {}); }).startsWith("--kfold"));
    QVERIFY(gbtest::inputErrorOf([] { subsampleFolds(5, 2, 1.0, 1, {}); }).startsWith("--prob"));
    // Fold weights beyond the memory there is: refused before a single fold is drawn (1e9 x 1e5 doubles: 800 TB).
    const QString big = gbtest::inputErrorOf([] { bootstrapFolds(100000, 1000000000, 1, {}); });
    QVERIFY2(
        big.startsWith("--bootstrap: 1000000000 folds of 100000 rows need") && big.contains("more than half of the"),
        qPrintable(big));
    QVERIFY(gbtest::inputErrorOf([] { subsampleFolds(100000, 1000000000, 0.5, 1, {}); }).startsWith("--subsample"));
  }

  // Generated folds are drawn over the rows the model uses, as mboost's cv(model.weights(model)) draws over its model
  // frame: the omitted rows are 0 in every fold, a bootstrap sample has exactly as many draws as used rows, each used
  // row is left out by one k-fold fold, and K may be the number of used rows but not more.
  void foldsOverUsedRowsSkipOmittedRows() {
    const std::size_t input = 30;
    std::vector<std::size_t> kept;
    for (std::size_t r = 0; r < input; ++r)
      if (r % 4 != 1) kept.push_back(r);  // 22 used rows
    const std::size_t used = kept.size();
    // The frame of all rows as buildModelFrame leaves it for these rows and case weights (per used row).
    auto frameOf = [&](const std::vector<std::size_t>& rows, const std::vector<double>& caseWeights) {
      ModelFrame frame;
      frame.keptRows = rows;
      frame.weights = caseWeights;
      frame.inputRows = input;
      frame.usedRows = rows.size();
      return frame;
    };
    auto omitted = [&](std::size_t r) { return std::find(kept.begin(), kept.end(), r) == kept.end(); };
    const ResamplingFolds boot = foldsOverUsedRows("bootstrap", 7, 0.5, kSeed, frameOf(kept, {}));
    QCOMPARE(boot.type, std::string("bootstrap"));
    for (const auto& w : boot.weights) {
      QCOMPARE(w.size(), input);
      double sum = 0.0;
      for (std::size_t r = 0; r < input; ++r) {
        if (omitted(r)) QCOMPARE(w[r], 0.0);
        sum += w[r];
      }
      QCOMPARE(sum, static_cast<double>(used));
    }
    const ResamplingFolds k = foldsOverUsedRows("kfold", static_cast<int>(used), 0.5, kSeed, frameOf(kept, {}));
    std::vector<int> out(input, 0);
    for (const auto& w : k.weights)
      for (std::size_t r = 0; r < input; ++r) out[r] += w[r] == 0.0;
    for (std::size_t r = 0; r < input; ++r) QCOMPARE(out[r], omitted(r) ? static_cast<int>(used) : 1);
    QCOMPARE(gbtest::inputErrorOf([&] { foldsOverUsedRows("kfold", 23, 0.5, kSeed, frameOf(kept, {})); }),
             QString("--kfold: must be in 2..22 (the rows used), got 23"));
    // Case weights are per used row; a subsample keeps floor(22 * 0.5) of the used rows at their weights.
    std::vector<double> cw(used);
    for (std::size_t i = 0; i < used; ++i) cw[i] = static_cast<double>(i % 3 + 1);
    for (const auto& w : foldsOverUsedRows("subsample", 5, 0.5, kSeed, frameOf(kept, cw)).weights) {
      int in = 0;
      for (std::size_t i = 0; i < used; ++i)
        if (w[kept[i]] != 0.0) {
          QCOMPARE(w[kept[i]], cw[i]);
          ++in;
        }
      QCOMPARE(in, 11);
    }
    // Without omitted rows: the folds of all rows.
    std::vector<std::size_t> all(input);
    for (std::size_t r = 0; r < input; ++r) all[r] = r;
    QCOMPARE(foldsOverUsedRows("bootstrap", 3, 0.5, kSeed, frameOf(all, {})).weights,
             bootstrapFolds(input, 3, kSeed, {}).weights);
  }

  void foldsFileIsChecked() {
    Dataset t;
    t.source = "w.csv";
    t.names = {"a", "b"};
    t.columns = {{1, 0, 2}, {0, 1.5, 1}};
    QCOMPARE(gbtest::inputErrorOf([&] { foldsFromTable(t, 3); }),
             QString("w.csv:3:2: fold 'b': fold weights must be non-negative integers"));
    t.rowLabelsNote = "row names";  // R's write.csv wrote row names in column 1: fold b is the file's column 3
    QCOMPARE(gbtest::inputErrorOf([&] { foldsFromTable(t, 3); }),
             QString("w.csv:3:3: fold 'b': fold weights must be non-negative integers"));
    t.columns[1][1] = 1;
    QVERIFY(gbtest::inputErrorOf([&] { foldsFromTable(t, 4); }).contains("has 3 rows, the data 4"));
    QCOMPARE(foldsFromTable(t, 3).weights.size(), std::size_t{2});
    // R's cv(model.weights(model)) has one row per used row: with rows 1 and 3 of 5 omitted (0-based), the file's
    // rows go to rows 0, 2 and 4, and the omitted ones get 0.
    const std::vector<std::size_t> used{0, 2, 4};
    const ResamplingFolds spread = foldsFromTable(t, 5, &used);
    QCOMPARE(spread.weights[0], (std::vector<double>{1, 0, 0, 0, 2}));
    QCOMPARE(spread.weights[1], (std::vector<double>{0, 0, 1, 0, 1}));
    // Neither per data row nor per used row: the message says both counts; the line is the file's last + 1.
    const std::vector<std::size_t> four{0, 2, 4, 5};
    const QString both = gbtest::inputErrorOf([&] { foldsFromTable(t, 6, &four); });
    QVERIFY2(both.startsWith("w.csv:4:1: --folds-file has 3 rows, the data 6 of which the model uses 4"),
             qPrintable(both));
    // One row per data row: an omitted row may hold NA (a used row may not).
    const std::vector<std::size_t> first2{0, 1};
    t.columns[0][2] = std::nan("");
    QCOMPARE(foldsFromTable(t, 3, &first2).weights[0], (std::vector<double>{1, 0, 0}));
    const std::vector<std::size_t> usesRow2{0, 2};
    QCOMPARE(gbtest::inputErrorOf([&] { foldsFromTable(t, 3, &usesRow2); }),
             QString("w.csv:4:2: fold 'a': the cell is missing (NA or blank) on a row the model uses; fold weights "
                     "must be non-negative integers"));
    // A fold that leaves no used row out, or keeps none, is named at its column; an omitted row does not count.
    t.columns = {{1, 2, 0}, {0, 0, 0}};
    QCOMPARE(gbtest::inputErrorOf([&] { foldsFromTable(t, 3, &first2); }),
             QString("w.csv:1:2: fold 'a': no used row has weight 0, so the fold leaves no row out (no out-of-bag "
                     "risk)"));
    t.columns[0] = {1, 0, 2};
    QCOMPARE(gbtest::inputErrorOf([&] { foldsFromTable(t, 3); }),
             QString("w.csv:1:3: fold 'b': every used row has weight 0 (nothing to fit)"));
  }

  // With non-integer case weights, R's cv(model.weights(model), "kfold") writes its 0/1 folds times the model's
  // (rescaled) weights, to 15 digits: such a cell is its row's case weight and is taken as written; any other
  // fraction, or a fraction without case weights, is still an error. Data rows 0..3, row 1 omitted.
  void foldsFileTakesTheCaseWeights() {
    Dataset t;
    t.source = "w.csv";
    t.names = {"V1", "V2"};
    const std::vector<double> caseWeights{0.715566714490674 * (1 + 3e-16), 1.25, 1.0};  // per used row
    const double nan = std::nan("");
    t.columns = {{0, nan, 1.25, 1}, {0.715566714490674, nan, 0, 1}};
    const std::vector<std::size_t> used{0, 2, 3};
    const ResamplingFolds f = foldsFromTable(t, 4, &used, &caseWeights);
    QCOMPARE(f.weights[0], (std::vector<double>{0, 0, 1.25, 1}));
    QCOMPARE(f.weights[1], (std::vector<double>{0.715566714490674, 0, 0, 1}));
    // One row per used row, as write.csv(cv(model.weights(model))) writes it for data with NA.
    Dataset perUsed = t;
    perUsed.columns = {{0, 1.25, 1}, {0.715566714490674, 0, 1}};
    QCOMPARE(foldsFromTable(perUsed, 4, &used, &caseWeights).weights[1], f.weights[1]);
    QCOMPARE(gbtest::inputErrorOf([&] { foldsFromTable(t, 4, &used); }),
             QString("w.csv:4:1: fold 'V1': fold weights must be non-negative integers"));
    t.columns[0][2] = 1.25 * (1 + 1e-12);  // not row 2's case weight as written
    QCOMPARE(gbtest::inputErrorOf([&] { foldsFromTable(t, 4, &used, &caseWeights); }),
             QString("w.csv:4:1: fold 'V1': fold weights must be non-negative integers, or the row's case weight as "
                     "R's cv(model.weights(model)) writes it"));
    t.columns[0][2] = 1.25;
    t.columns[0][0] = 0.5;  // row 0's weight is 0.7156: 0.5 is no fold weight
    QVERIFY(gbtest::inputErrorOf([&] { foldsFromTable(t, 4, &used, &caseWeights); }).startsWith("w.csv:2:1: "));
  }

  // A fold whose in-bag rows miss every row of an unpenalised factor level leaves that level's effect undecided
  // (mboost's bols() stops: "system is exactly singular", and cvrisk leaves the fold out of the mean). crossValidate
  // names it in `dropped` and the note, keeps its risk row, and takes the mean and mstop over the other folds; with
  // every fold so, it is an error. Penalised (--factor-edf), mboost fits the fold, and so does crossValidate.
  void foldsLeavingALevelUndecidedAreDropped() {
    const std::size_t n = 60;
    auto smooth = gbtest::makeSmoothData(n, 1, kSeed);
    std::vector<double> f(n);
    for (std::size_t i = 0; i < n; ++i) f[i] = i < 2 ? 2.0 : static_cast<double>(i % 2);  // level "c": rows 0, 1
    auto data = std::make_shared<Dataset>(Dataset{"rare.csv",
                                                  {"y", "x1", "f"},
                                                  {smooth->column("y"), smooth->column("x1"), f},
                                                  {ColumnKind::Numeric, ColumnKind::Numeric, ColumnKind::Text},
                                                  {{}, {}, {"a", "b", "c"}}});
    ModelSettings s;
    s.spline.knots = 6;
    s.mstop = 30;
    s.learners = {"x1"};
    s.factors = {"f"};
    ResamplingFolds folds = kfoldFolds(n, 4, kSeed, {});
    for (auto& w : folds.weights) w[0] = w[1] = 1.0;  // rows 0 and 1 in bag everywhere ...
    folds.weights[2][0] = folds.weights[2][1] = 0.0;  // ... but in fold 3
    auto cpu = [] { return std::make_unique<CpuBackend>(1); };
    const CvResult cv = crossValidate(data, s, folds, cpu, 2);
    QCOMPARE(cv.dropped, std::vector<int>{3});
    QVERIFY2(QString::fromStdString(cv.note).contains("fold 3: level 'c' of learner 'f' has no row of positive weight"),
             cv.note.c_str());
    QCOMPARE(cv.risk.size(), std::size_t{4});
    for (std::size_t m = 0; m < cv.mean.size(); ++m) {
      const double kept = (cv.risk[0][m] + cv.risk[1][m] + cv.risk[3][m]) / 3.0;
      QVERIFY(std::abs(cv.mean[m] - kept) <= 1e-14 * kept);
    }
    QCOMPARE(cv.mstop, static_cast<int>(std::min_element(cv.mean.begin(), cv.mean.end()) - cv.mean.begin()));
    s.factorEdf = 1.5;  // penalised: a ridge solution, as mboost's
    QVERIFY(crossValidate(data, s, folds, cpu, 2).dropped.empty());
    s.factorEdf = 0.0;
    for (auto& w : folds.weights) w[0] = w[1] = 0.0;
    QVERIFY(gbtest::inputErrorOf([&] {
              crossValidate(data, s, folds, cpu, 1);
            }).startsWith("every fold leaves an effect undecided, e.g. fold 1: level 'c' of learner 'f'"));
  }

  // A binomial fold whose in-bag rows are all of one class (a poisson fold of counts 0) has no offset: it is left out
  // of the mean, as mboost's cvrisk leaves out a fold whose fit stops, and the folds kept are those of a run without
  // it.
  void foldsThatCannotBeFittedAreDropped() {
    const std::size_t n = 80;
    auto smooth = gbtest::makeSmoothData(n, 1, kSeed);
    for (const Family family : {Family::Binomial, Family::Poisson}) {
      std::vector<double> y(n, 0.0);
      y[0] = y[1] = y[2] = family == Family::Binomial ? 1.0 : 3.0;  // the only events
      auto data = std::make_shared<Dataset>(Dataset{"events.csv",
                                                    {"y", "x1", "w"},
                                                    {y, smooth->column("x1"), std::vector<double>(n, 1.0)},
                                                    {ColumnKind::Numeric, ColumnKind::Numeric, ColumnKind::Numeric},
                                                    {{}, {}, {}}});
      ModelSettings s;
      s.family = family;
      s.spline.knots = 6;
      s.mstop = 20;
      s.learners = {"x1"};
      ResamplingFolds folds = kfoldFolds(n, 4, kSeed, {});
      for (auto& w : folds.weights) w[0] = w[1] = w[2] = 1.0;                 // the events in bag everywhere ...
      folds.weights[1][0] = folds.weights[1][1] = folds.weights[1][2] = 0.0;  // ... but in fold 2
      auto cpu = [] { return std::make_unique<CpuBackend>(1); };
      const CvResult cv = crossValidate(data, s, folds, cpu, 2);
      QCOMPARE(cv.dropped, std::vector<int>{2});
      const QString why = family == Family::Binomial ? "fold 2: its rows of positive weight are all of one class ('0')"
                                                     : "fold 2: its rows of positive weight all have count 0";
      QVERIFY2(QString::fromStdString(cv.note).contains(why), cv.note.c_str());
      QCOMPARE(cv.risk.size(), std::size_t{4});
      for (double r : cv.risk[1]) QVERIFY(std::isnan(r));  // cv.json: null, as R's NA
      ResamplingFolds others = folds;
      others.weights.erase(others.weights.begin() + 1);
      const CvResult without = crossValidate(data, s, others, cpu, 1);
      QVERIFY(without.dropped.empty());
      QCOMPARE(cv.risk[0], without.risk[0]);
      QCOMPARE(cv.risk[2], without.risk[1]);
      QCOMPARE(cv.risk[3], without.risk[2]);
      for (std::size_t m = 0; m < cv.mean.size(); ++m)
        QVERIFY(std::abs(cv.mean[m] - without.mean[m]) <= 1e-15 * without.mean[m]);
      QCOMPARE(cv.mstop, without.mstop);
      // The same weights as a fit's --weights name the option and the cause (they said the weights overflowed).
      s.weights = "w";
      std::vector<double> w(n, 1.0);
      w[0] = w[1] = w[2] = 0.0;
      auto weighted = std::make_shared<Dataset>(*data);
      weighted->columns[2] = w;
      const QString error = gbtest::inputErrorOf([&] { Booster(weighted, s, std::make_unique<CpuBackend>(1)); });
      QVERIFY2(error.startsWith("--weights: its rows of positive weight "), qPrintable(error));
      s.weights.clear();
      // Every fold of one class: an error that says so.
      for (auto& fw : folds.weights) fw[0] = fw[1] = fw[2] = 0.0;
      const QString none = gbtest::inputErrorOf([&] { crossValidate(data, s, folds, cpu, 1); });
      QVERIFY2(none.startsWith("no fold can be fitted, e.g. fold 1: its rows of positive weight"), qPrintable(none));
    }
  }

  // Folds dropped for both reasons: the note explains each kind by its first fold (it explained only the first
  // fold's kind, so a fold of one class read as a singular factor, or the reverse).
  void foldsDroppedForBothReasonsAreEachExplained() {
    const std::size_t n = 80;
    auto smooth = gbtest::makeSmoothData(n, 1, kSeed);
    std::vector<double> y(n, 0.0), f(n);
    y[0] = y[1] = y[2] = 1.0;                                                                        // the only events
    for (std::size_t i = 0; i < n; ++i) f[i] = i == 3 || i == 4 ? 2.0 : static_cast<double>(i % 2);  // "c": 3, 4
    auto data = std::make_shared<Dataset>(Dataset{"mixed.csv",
                                                  {"y", "x1", "f"},
                                                  {y, smooth->column("x1"), f},
                                                  {ColumnKind::Numeric, ColumnKind::Numeric, ColumnKind::Text},
                                                  {{}, {}, {"a", "b", "c"}}});
    ModelSettings s;
    s.family = Family::Binomial;
    s.spline.knots = 6;
    s.mstop = 10;
    s.learners = {"x1"};
    s.factors = {"f"};
    ResamplingFolds folds = kfoldFolds(n, 4, kSeed, {});
    for (auto& w : folds.weights)
      for (std::size_t i = 0; i < 5; ++i) w[i] = 1.0;                       // events and level c in bag everywhere ...
    folds.weights[1][0] = folds.weights[1][1] = folds.weights[1][2] = 0.0;  // ... but no event in fold 2
    folds.weights[2][3] = folds.weights[2][4] = 0.0;                        // ... and no level c in fold 3
    const CvResult cv = crossValidate(
        data, s, folds, [] { return std::make_unique<CpuBackend>(1); }, 2);
    QCOMPARE(cv.dropped, (std::vector<int>{2, 3}));
    const QString note = QString::fromStdString(cv.note);
    QVERIFY2(note.startsWith("2 of 4 folds left out of the mean, e.g. fold 2: its rows of positive weight are all of "
                             "one class"),
             qPrintable(note));
    QVERIFY2(note.contains("; also fold 3: level 'c' of learner 'f' has no row of positive weight"), qPrintable(note));
    QVERIFY2(note.contains("fit stops with an error") && note.contains("exactly singular"), qPrintable(note));
  }

  // The folds' Grams ask keepGoing before each learner's pass (a cancel in the window acts there: at millions of
  // rows the set-up takes tens of seconds); once it says false the passes left are skipped and no Gram is filled in.
  void foldGramsStopWhenAsked() {
    auto data = gbtest::makeSmoothData(300, 6, kSeed);
    ModelSettings s;
    s.spline.knots = 6;
    s.learners = {"x1", "x2", "x3", "x4", "x5", "x6"};
    const ModelFrame all = buildModelFrame(data, s);
    const ResamplingFolds folds = kfoldFolds(300, 3, kSeed, {});
    auto framesOf = [&] {
      std::vector<ModelFrame> frames(3, all);
      for (std::size_t f = 0; f < 3; ++f) applyFold(frames[f], folds.weights[f], "fold");
      return frames;
    };
    std::vector<ModelFrame> going = framesOf();
    std::atomic<int> asked{0};
    QVERIFY(addFoldGrams(going, s, [&asked] { return ++asked > 0; }));
    QCOMPARE(asked.load(), 6);  // once a learner
    for (const ModelFrame& f : going) QCOMPARE(f.grams.size(), std::size_t{6});
    std::vector<ModelFrame> stopped = framesOf();
    asked = 0;
    // (How many passes ran before the third call said stop depends on the threads: on many cores every pass may have
    // asked already. What holds is the result: false, and no Gram filled in.)
    QVERIFY(!addFoldGrams(stopped, s, [&asked] { return ++asked < 3; }));
    for (const ModelFrame& f : stopped) QVERIFY(f.grams.empty());
  }

  void outOfBagRiskIsTheLeftOutRowsMeanLoss() {
    // A fold's risk at m = 0 is the mean squared distance of the left-out rows to the in-bag mean; after the fit,
    // the Booster's fitted values give the out-of-bag risk directly.
    auto data = gbtest::makeSmoothData(120, 3, kSeed);
    ModelSettings s;
    s.spline.knots = 6;
    s.mstop = 15;
    s.learners = {"x1", "x2", "x3"};
    const ResamplingFolds f = kfoldFolds(120, 4, kSeed, {});
    Booster b(data, s, std::make_unique<CpuBackend>(1), f.weights[2], "fold 3");
    b.run(s.mstop);
    const std::vector<double>& y = data->column("y");
    const std::vector<double> fitted = b.fitted();
    double inSum = 0.0, inCount = 0.0, oob0 = 0.0, oobEnd = 0.0, oobCount = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i)
      if (f.weights[2][i] > 0) inSum += y[i], inCount += 1;
    const double mean = inSum / inCount;
    for (std::size_t i = 0; i < y.size(); ++i)
      if (f.weights[2][i] == 0) {
        oob0 += (y[i] - mean) * (y[i] - mean);
        oobEnd += (y[i] - fitted[i]) * (y[i] - fitted[i]);
        oobCount += 1;
      }
    QVERIFY(std::abs(b.path().risk.front() - oob0 / oobCount) <= 1e-12 * oob0 / oobCount);
    QVERIFY(std::abs(b.path().risk.back() - oobEnd / oobCount) <= 1e-12 * oobEnd / oobCount);
    const CvResult cv = crossValidate(
        data, s, f, [] { return std::make_unique<CpuBackend>(1); }, 2);
    QCOMPARE(cv.risk[2], b.path().risk);  // the same fit, whichever thread ran it
    QCOMPARE(cv.mstop, static_cast<int>(std::min_element(cv.mean.begin(), cv.mean.end()) - cv.mean.begin()));
  }

  // A failed fold stops the others: those running see going() turn false (they stopped as late as 10 s before),
  // those not started never start, and the first fold's error comes back with its number.
  void aFailedFoldStopsTheOthers() {
    for (int parallel : {1, 2}) {
      std::atomic<int> started{0}, sawStop{0};
      bool threw = false;
      try {
        forEachFold(6, parallel, "fold", [&](int b, const std::function<bool()>& going) {
          ++started;
          if (b == 0) throw InputError("no rows");
          const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
          while (going() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
          if (!going()) ++sawStop;
        });
      } catch (const InputError& e) {
        threw = true;
        QCOMPARE(QString(e.what()), QString("fold 1: no rows"));
      }
      QVERIFY(threw);
      QVERIFY2(started.load() <= parallel, qPrintable(QString("%1 folds started").arg(started.load())));
      QCOMPARE(sawStop.load(), started.load() - 1);
    }
  }
};

QTEST_GUILESS_MAIN(TestCrossValidation)
#include "test_cross_validation.moc"

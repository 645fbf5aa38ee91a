// engine/model/ModelSummary: mboost's varimp (each learner's part of the in-bag risk reduction, its selection
// frequency), checked on a path worked out by hand and on a fitted model; the summary lines and the truth check.
#include <QtTest>
#include <cmath>

#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "model/ModelSummary.hpp"
#include "support/DenseReference.hpp"

using namespace gb;

namespace {

constexpr std::uint64_t kSeed = 29;

Model handModel() {
  Model m;
  for (const char* name : {"a", "b", "c"}) {
    LearnerModel l;
    l.name = name;
    m.learners.push_back(l);
  }
  m.pathLearner = {1, 0, 1, 1};
  m.pathRisk = {10.0, 7.0, 6.0, 4.0, 3.5};
  m.learners[0].selected = 1;
  m.learners[1].selected = 3;
  return m;
}

}  // namespace

class TestModelSummary : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qInfo("seed %llu", static_cast<unsigned long long>(kSeed)); }

  // b: (10 - 7) + (6 - 4) + (4 - 3.5) = 5.5; a: 7 - 6 = 1; c: never selected; total 10 - 3.5 = 6.5.
  void varimpOfAPathWorkedOutByHand() {
    const std::vector<LearnerImportance> v = variableImportance(handModel());
    QCOMPARE(v.size(), std::size_t{3});
    QCOMPARE(v[0].name, std::string("b"));
    QCOMPARE(v[1].name, std::string("a"));
    QCOMPARE(v[2].name, std::string("c"));
    QCOMPARE(v[0].learner, std::size_t{1});
    QCOMPARE(v[0].riskReduction, 5.5);
    QCOMPARE(v[1].riskReduction, 1.0);
    QCOMPARE(v[2].riskReduction, 0.0);
    QVERIFY(std::abs(v[0].share - 5.5 / 6.5) < 1e-15);
    QVERIFY(std::abs(v[1].share - 1.0 / 6.5) < 1e-15);
    QCOMPARE(v[0].selected, 3);
    QCOMPARE(v[0].selectionShare, 0.75);
    QCOMPARE(v[1].selectionShare, 0.25);
    QCOMPARE(v[2].selectionShare, 0.0);
  }

  void anEmptyPathHasNoShares() {
    Model m = handModel();
    m.pathLearner.clear();
    m.pathRisk = {10.0};
    for (const LearnerImportance& l : variableImportance(m)) {
      QCOMPARE(l.share, 0.0);
      QCOMPARE(l.selectionShare, 0.0);
    }
  }

  // On a fit: the shares add up to 1 (the reductions to risk[0] - risk[mstop]), sorted, and each learner's
  // count is its count in the path.
  void varimpOfAFit() {
    auto data = gbtest::makeSmoothData(300, 6, kSeed);
    ModelSettings settings;
    settings.mstop = 150;
    Booster booster(data, settings, std::make_unique<CpuBackend>(1));
    booster.run(settings.mstop);
    const Model model = booster.model();
    const std::vector<LearnerImportance> v = variableImportance(model);
    QCOMPARE(v.size(), model.learners.size());
    double shares = 0.0, selection = 0.0, reduction = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      shares += v[i].share;
      selection += v[i].selectionShare;
      reduction += v[i].riskReduction;
      if (i > 0) QVERIFY(v[i - 1].riskReduction >= v[i].riskReduction);
      QCOMPARE(v[i].selected, model.learners[v[i].learner].selected);
    }
    QVERIFY(std::abs(shares - 1.0) < 1e-12);
    QVERIFY(std::abs(selection - 1.0) < 1e-12);
    const double total = model.pathRisk.front() - model.pathRisk.back();
    QVERIFY(std::abs(reduction - total) <= 1e-12 * total);
  }

  void summaryLinesNameTheModel() {
    Model m = handModel();
    m.settings.family = Family::Gaussian;
    const std::vector<SummaryLine> lines = modelSummaryLines(m);
    QCOMPARE(lines.front().label, std::string("family"));
    QCOMPARE(lines.front().value, std::string("gaussian"));
    bool risk = false, selected = false;
    for (const SummaryLine& l : lines) {
      if (l.label == "risk") risk = l.value.find("65% explained") != std::string::npos;
      if (l.label == "selected") selected = l.value == "2 of 3 learners";
    }
    QVERIFY(risk);
    QVERIFY(selected);
  }

  void truthCheckCountsFoundMissedAndFalsePositives() {
    const TruthCheck t = checkTruth({"x1", "x2", "x9"}, {"x1", "x2", "x3"});
    QCOMPARE(t.found, std::size_t{2});
    QCOMPARE(t.falsePositives, std::size_t{1});
    QCOMPARE(t.missed, std::vector<std::string>{"x3"});
    QCOMPARE(t.line(), std::string("2 of 3 informative covariates selected, missed: x3; 1 uninformative selected"));
  }
};

QTEST_APPLESS_MAIN(TestModelSummary)
#include "test_model_summary.moc"

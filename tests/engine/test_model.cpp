// Fitted models: JSON schema, save/load round trip, prediction (with linear extrapolation) and malformed files.
#include <QtTest>
#include <cmath>
#include <fstream>
#include <limits>

#include "common/Error.hpp"
#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "model/Model.hpp"
#include "support/DenseReference.hpp"
#include "support/TestSupport.hpp"

using namespace gb;

namespace {

constexpr quint64 kSeed = 777;

std::string tempPath(const std::string& name) { return gbtest::scratchRoot() + "/test_model_" + name; }

struct Fitted {
  std::shared_ptr<Dataset> data;
  std::unique_ptr<Booster> booster;
};

Fitted fitSmall(Boundary boundary = Boundary::Extended) {
  Fitted f;
  f.data = gbtest::makeSmoothData(300, 4, kSeed);
  ModelSettings s;
  s.spline = SplineSpec{6, 3, boundary};
  f.booster = std::make_unique<Booster>(f.data, s, std::make_unique<CpuBackend>());
  f.booster->run(60);
  return f;
}

QString inputErrorOf(const nlohmann::json& j) {
  return gbtest::inputErrorOf([&] { Model::fromJson(j, "bad.json"); });
}

}  // namespace

class TestModel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { qInfo("seed %llu", static_cast<unsigned long long>(kSeed)); }
  void jsonFollowsTheSchema();
  void saveLoadPredictsBitwise();
  void predictionEqualsFittedValues();
  void extrapolatesLinearly_data();
  void extrapolatesLinearly();
  void acceptsResultFiles();
  void rejectsMalformedFiles();
  void predictNamesMissingColumn();
  void predictSkipsUnselectedLearners();
};

void TestModel::jsonFollowsTheSchema() {
  const Fitted f = fitSmall();
  const nlohmann::json j = f.booster->model().toJson();
  QCOMPARE(j.at("format").get<std::string>(), std::string("gamboost-model"));
  QCOMPARE(j.at("version").get<int>(), 2);
  QCOMPARE(j.at("offset").get<double>(), f.booster->offset());
  const auto& l0 = j.at("learners").at(0);
  for (const char* key : {"name", "lambda", "edf", "k", "knots", "range", "coefficients", "selected"})
    QVERIFY2(l0.contains(key), key);
  QCOMPARE(l0.at("k").get<int>(), 10);
  QCOMPARE(l0.at("knots").size(), std::size_t(14));  // k + degree + 1
  QCOMPARE(l0.at("knots").get<std::vector<double>>(), f.booster->learners()[0].basis.knotVector());
  QCOMPARE(l0.at("range").size(), std::size_t(2));
  QCOMPARE(j.at("path").at("learner").size(), std::size_t(60));
  // Version 2: the path holds indices into "learners", the same as the booster's own path.
  QCOMPARE(j.at("path").at("learner").get<std::vector<int>>(), f.booster->path().learner);
  QCOMPARE(j.at("path").at("risk").size(), std::size_t(61));
  const auto& s = j.at("settings");
  for (const char* key : {"response", "learners", "knots", "degree", "boundary", "penalty", "differences", "edf",
                          "edf_definition", "nu", "mstop"})
    QVERIFY2(s.contains(key), key);
  QCOMPARE(s.at("boundary").get<std::string>(), std::string("extended"));
  QCOMPARE(s.at("edf_definition").get<std::string>(), std::string("mboost"));
}

void TestModel::saveLoadPredictsBitwise() {
  const Fitted f = fitSmall(Boundary::Clamped);
  const Model m = f.booster->model();
  const std::string path = tempPath("roundtrip.json");
  m.save(path);
  const Model back = Model::load(path);
  QCOMPARE(back.offset, m.offset);
  QCOMPARE(back.pathLearner, m.pathLearner);
  QCOMPARE(back.pathRisk, m.pathRisk);
  for (std::size_t j = 0; j < m.learners.size(); ++j) {
    QCOMPARE(back.learners[j].coefficients, m.learners[j].coefficients);  // 17 significant digits: exact
    QCOMPARE(back.learners[j].lo, m.learners[j].lo);
    QCOMPARE(back.learners[j].hi, m.learners[j].hi);
    QCOMPARE(back.learners[j].selected, m.learners[j].selected);
  }
  QCOMPARE(back.predict(*f.data).values, m.predict(*f.data).values);
  std::remove(path.c_str());
  QVERIFY_THROWS_EXCEPTION(Error, m.save(tempPath("no/such/dir/model.json")));
  QVERIFY_THROWS_EXCEPTION(InputError, Model::load(tempPath("missing.json")));
  { std::ofstream(tempPath("garbage.json")) << "{ \"offset\": "; }
  QVERIFY_THROWS_EXCEPTION(InputError, Model::load(tempPath("garbage.json")));
}

void TestModel::predictionEqualsFittedValues() {
  const Fitted f = fitSmall();
  const Prediction p = f.booster->model().predict(*f.data);
  QCOMPARE(p.extrapolatedRows, std::size_t(0));
  // Same model, different summation order (sum of partial effects vs mu accumulated step by step).
  const double err = gbtest::relativeMaxError(p.values, f.booster->fitted());
  QVERIFY2(err <= 1e-12, qPrintable(QString::number(err)));
}

void TestModel::extrapolatesLinearly_data() {
  QTest::addColumn<bool>("clamped");
  QTest::newRow("clamped") << true;
  QTest::newRow("extended") << false;
}

void TestModel::extrapolatesLinearly() {
  QFETCH(bool, clamped);
  const Fitted f = fitSmall(clamped ? Boundary::Clamped : Boundary::Extended);
  const Model m = f.booster->model();
  const int degree = m.settings.spline.degree;
  // The learner selected most often (one never selected adds 0 everywhere, as in mboost, and is not evaluated).
  std::size_t a = 0;
  for (std::size_t j = 1; j < m.learners.size(); ++j)
    if (m.learners[j].selected > m.learners[a].selected) a = j;
  QVERIFY(m.learners[a].selected > 0);
  // New rows: x_a beyond either end (rows 0, 1), everything else at the training rows' values (row 2 inside).
  Dataset fresh = *f.data;
  fresh.source = "fresh.csv";
  for (auto& c : fresh.columns) c.resize(3);
  const LearnerModel& l = m.learners[a];
  const auto column = [&](std::size_t j) { return static_cast<std::size_t>(fresh.columnIndex(m.learners[j].name)); };
  const double width = l.hi - l.lo;
  fresh.columns[column(a)] = {l.hi + 0.3 * width, l.lo - 0.7 * width, 0.5 * (l.lo + l.hi)};
  const Prediction p = m.predict(fresh);
  QCOMPARE(p.extrapolatedRows, std::size_t(2));

  const std::vector<double> t = gbtest::referenceKnots(l.lo, l.hi, m.settings.spline.knots, degree, clamped);
  const Eigen::Map<const Eigen::VectorXd> gamma(l.coefficients.data(),
                                                static_cast<Eigen::Index>(l.coefficients.size()));
  for (int end = 0; end < 2; ++end) {
    const double edge = end == 0 ? l.hi : l.lo;
    const double x = fresh.columns[column(a)][end];
    const double value = gbtest::coxDeBoorRow(t, degree, edge).dot(gamma);
    const double slope = gbtest::coxDeBoorDerivativeRow(t, degree, edge).dot(gamma);
    QVERIFY(slope != 0.0);
    bool outside = false;
    const double fa = m.partialEffect(a, x, &outside);
    QVERIFY(outside);
    const double expected = value + slope * (x - edge);
    QVERIFY2(std::abs(fa - expected) <= 1e-10 * (1.0 + std::abs(expected)),
             qPrintable(QString("%1 vs %2").arg(fa, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    // The row's prediction is the offset plus all partial effects, the extrapolated one included.
    double sum = m.offset;
    for (std::size_t j = 0; j < m.learners.size(); ++j) sum += m.partialEffect(j, fresh.columns[column(j)][end]);
    QVERIFY(std::abs(p.values[end] - sum) <= 1e-12 * std::abs(sum));
  }
  bool outside = true;
  m.partialEffect(a, fresh.columns[column(a)][2], &outside);
  QVERIFY(!outside);
}

void TestModel::acceptsResultFiles() {
  const Fitted f = fitSmall();
  nlohmann::json j = f.booster->model().toJson();
  j["fitted"] = f.booster->fitted();
  j["timing"] = {{"setup_s", 0.1}, {"fit_s", 0.2}, {"backend", "cpu"}};
  const Model m = Model::fromJson(j, "result.json");
  QCOMPARE(m.predict(*f.data).values, f.booster->model().predict(*f.data).values);
}

void TestModel::rejectsMalformedFiles() {
  const Fitted f = fitSmall();
  const nlohmann::json good = f.booster->model().toJson();
  QVERIFY(inputErrorOf(nlohmann::json::array()).startsWith("bad.json: "));

  auto broken = [&](auto&& change) {
    nlohmann::json j = good;
    change(j);
    return inputErrorOf(j);
  };
  QCOMPARE(broken([](auto& j) { j.erase("offset"); }), QStringLiteral("bad.json: offset: missing"));
  QCOMPARE(broken([](auto& j) { j.erase("settings"); }), QStringLiteral("bad.json: settings: missing"));
  QCOMPARE(broken([](auto& j) { j["offset"] = "seven"; }),
           QStringLiteral("bad.json: offset: must be a number, got the string 'seven'"));
  QVERIFY(broken([](auto& j) { j["learners"][1]["coefficients"].erase(0); }).contains("learners[1].coefficients"));
  QVERIFY(broken([](auto& j) { j["learners"][0]["range"] = {2.0, 1.0}; }).contains("learners[0].range"));
  QCOMPARE(broken([](auto& j) { j["learners"][0].erase("name"); }),
           QStringLiteral("bad.json: learners[0].name: missing"));
  QVERIFY(broken([](auto& j) { j["learners"][0]["knots"][3] = 99.0; }).contains("learners[0].knots"));
  QVERIFY(broken([](auto& j) { j["path"]["risk"].erase(0); }).contains("path.risk"));
  QCOMPARE(broken([](auto& j) { j["settings"]["boundary"] = "bouncy"; }),
           QStringLiteral("bad.json: settings.boundary: must be 'clamped' or 'extended', got the string 'bouncy'"));
  QVERIFY(broken([](auto& j) { j["settings"]["knots"] = "many"; }).startsWith("bad.json: settings.knots: "));
  QCOMPARE(broken([](auto& j) { j["settings"]["degree"] = 9; }),
           QStringLiteral("bad.json: settings.degree: must be an integer in 1..5, got 9"));
  QVERIFY(broken([](auto& j) { j["format"] = "something-else"; }).contains("format"));
  QVERIFY(broken([](auto& j) { j["learners"] = nlohmann::json::array(); }).contains("learners"));
}

void TestModel::predictNamesMissingColumn() {
  const Fitted f = fitSmall();
  Dataset missing = *f.data;
  missing.source = "new.csv";
  missing.names[2] = "renamed";
  try {
    f.booster->model().predict(missing);
    QFAIL("prediction without column x2 accepted");
  } catch (const InputError& e) {
    QCOMPARE(QString(e.what()), QStringLiteral("new.csv:1: no column named 'x2' (a learner of the model)"));
  }
}

// mboost's predict evaluates only the selected learners: a learner the fit never selected (all coefficients 0) needs
// no column, and its missing cells do not make a row NA (found by a comparison with mboost: airquality, QuantReg,
// only bbs(Temp) selected; gamboost predicted NA where Solar.R was missing and refused a file without it).
void TestModel::predictSkipsUnselectedLearners() {
  const auto data = gbtest::makeSmoothData(300, 4, kSeed);
  ModelSettings s;
  s.spline = SplineSpec{6, 3, Boundary::Extended};
  Booster booster(data, s, std::make_unique<CpuBackend>());
  booster.run(2);
  const Model model = booster.model();
  std::size_t unused = model.learners.size(), used = model.learners.size();
  for (std::size_t j = 0; j < model.learners.size(); ++j) (model.learners[j].selected == 0 ? unused : used) = j;
  QVERIFY2(unused < model.learners.size() && used < model.learners.size(), "two iterations select 1 or 2 of 4");
  const std::vector<double> expected = model.predict(*data).values;
  Dataset changed = *data;
  const auto unusedColumn = static_cast<std::size_t>(data->columnIndex(model.learners[unused].name));
  const auto usedColumn = static_cast<std::size_t>(data->columnIndex(model.learners[used].name));
  changed.columns[unusedColumn][0] = std::numeric_limits<double>::quiet_NaN();
  changed.columns[usedColumn][1] = std::numeric_limits<double>::quiet_NaN();
  Prediction p = model.predict(changed, MissingPolicy::Omit);
  QCOMPARE(p.values[0], expected[0]);  // the unselected learner's NA changes nothing
  QVERIFY(std::isnan(p.values[1]));    // the selected learner's NA makes the row NA
  QCOMPARE(p.missingRows, std::size_t(1));
  QCOMPARE(p.missingByColumn.size(), std::size_t(1));
  QCOMPARE(p.missingByColumn[0].first, model.learners[used].name);
  changed.names[unusedColumn] = "renamed";  // and no column of that name at all
  p = model.predict(changed);
  for (std::size_t i = 2; i < expected.size(); ++i) QCOMPARE(p.values[i], expected[i]);
}

QTEST_APPLESS_MAIN(TestModel)
#include "test_model.moc"

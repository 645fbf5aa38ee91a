// ModelSettings: validation messages name the option, presets, learner resolution and JSON.
#include <QtTest>
#include <nlohmann/json.hpp>

#include "boost/ModelSettings.hpp"
#include "common/Error.hpp"
#include "support/TestSupport.hpp"

using namespace gb;

namespace {

QString validationError(const ModelSettings& s) {
  return gbtest::inputErrorOf([&] { s.validate(); });
}

Dataset table() {
  Dataset d;
  d.source = "data.csv";
  d.names = {"y", "a", "b", "c"};
  d.columns.assign(4, std::vector<double>{1.0, 2.0});
  return d;
}

}  // namespace

class TestSettings : public QObject {
  Q_OBJECT

 private slots:
  void validationNamesTheOption_data();
  void validationNamesTheOption();
  void defaultsAndPresetsAreValid();
  void resolvesLearners();
  void jsonRoundTrip();
  void jsonRejectsUnknownNames();
};

void TestSettings::validationNamesTheOption_data() {
  QTest::addColumn<QString>("field");
  QTest::addColumn<double>("value");
  QTest::addColumn<QString>("message");
  QTest::newRow("knots 0") << "knots" << 0.0 << "--knots: must be at least 1 (got 0)";
  QTest::newRow("degree 0") << "degree" << 0.0 << "--degree: must be in 1..5 (got 0)";
  QTest::newRow("degree 6") << "degree" << 6.0 << "--degree: must be in 1..5 (got 6)";
  QTest::newRow("differences -1") << "differences" << -1.0 << "--differences: must be in 0..3 (got -1)";
  QTest::newRow("differences 4") << "differences" << 4.0 << "--differences: must be in 0..3 (got 4)";
  QTest::newRow("edf 0") << "edf" << 0.0 << "--edf: must be greater than 0 (got 0)";
  QTest::newRow("edf nan") << "edf" << std::nan("") << "--edf: must be greater than 0 (got nan)";
  QTest::newRow("nu 0") << "nu" << 0.0 << "--nu: must be in (0, 1] (got 0)";
  QTest::newRow("nu 1.5") << "nu" << 1.5 << "--nu: must be in (0, 1] (got 1.5)";
  QTest::newRow("mstop 0") << "mstop" << 0.0 << "--mstop: must be at least 1 (got 0)";
}

void TestSettings::validationNamesTheOption() {
  QFETCH(QString, field);
  QFETCH(double, value);
  QFETCH(QString, message);
  ModelSettings s;
  if (field == "knots") s.spline.knots = static_cast<int>(value);
  if (field == "degree") s.spline.degree = static_cast<int>(value);
  if (field == "differences") s.differences = static_cast<int>(value);
  if (field == "edf") s.edf = value;
  if (field == "nu") s.nu = value;
  if (field == "mstop") s.mstop = static_cast<int>(value);
  QCOMPARE(validationError(s), message);
}

void TestSettings::defaultsAndPresetsAreValid() {
  QCOMPARE(validationError(ModelSettings{}), QStringLiteral("<no InputError>"));
  const ModelSettings paper = ModelSettings::paperPreset();
  QCOMPARE(validationError(paper), QStringLiteral("<no InputError>"));
  QVERIFY(paper.penalty == PenaltyKind::Ridge);
  QVERIFY(paper.spline.boundary == Boundary::Clamped);
  QCOMPARE(paper.spline.knots + paper.spline.degree + 1, 16);  // the paper's 16 basis functions
  QCOMPARE(paper.edf, 1.0);
  QVERIFY(paper.edfDefinition == EdfDefinition::Trace);
  const ModelSettings mb = ModelSettings::mboostPreset();
  QCOMPARE(mb.spline.knots, 20);
  QVERIFY(mb.spline.boundary == Boundary::Extended);
  QVERIFY(mb.penalty == PenaltyKind::PSpline);
  QCOMPARE(mb.differences, 2);
  QCOMPARE(mb.edf, 4.0);
  QVERIFY(mb.edfDefinition == EdfDefinition::Mboost);
  QCOMPARE(mb.nu, 0.1);
  QCOMPARE(mb.mstop, 100);
}

void TestSettings::resolvesLearners() {
  const Dataset d = table();
  ModelSettings s;
  QCOMPARE(s.resolveLearners(d), (std::vector<std::string>{"a", "b", "c"}));
  s.learners = {"c", "a"};
  QCOMPARE(s.resolveLearners(d), (std::vector<std::string>{"c", "a"}));
  auto error = [&](const ModelSettings& bad) { return gbtest::inputErrorOf([&] { bad.resolveLearners(d); }); };
  s.learners = {"a", "zz"};
  QCOMPARE(error(s), QStringLiteral("--learners: no column named 'zz' in data.csv"));
  s.learners = {"a", "y"};
  QCOMPARE(error(s), QStringLiteral("--learners: 'y' is the response, not a covariate"));
  s.learners = {"a", "a"};
  QCOMPARE(error(s), QStringLiteral("--learners: 'a' is listed twice"));
  s.learners.clear();
  s.response = "target";
  QCOMPARE(error(s), QStringLiteral("--response: no column named 'target' in data.csv"));
}

void TestSettings::jsonRoundTrip() {
  ModelSettings s = ModelSettings::paperPreset();
  s.learners = {"x3", "x1"};
  s.response = "label";
  s.nu = 0.25;
  s.mstop = 321;
  const nlohmann::json j = s;
  QCOMPARE(j.at("boundary").get<std::string>(), std::string("clamped"));
  QCOMPARE(j.at("penalty").get<std::string>(), std::string("ridge"));
  QCOMPARE(j.at("edf_definition").get<std::string>(), std::string("trace"));
  const ModelSettings back = j.get<ModelSettings>();
  QCOMPARE(back.response, s.response);
  QCOMPARE(back.learners, s.learners);
  QCOMPARE(back.spline.knots, s.spline.knots);
  QCOMPARE(back.spline.degree, s.spline.degree);
  QVERIFY(back.spline.boundary == s.spline.boundary);
  QVERIFY(back.penalty == s.penalty);
  QCOMPARE(back.differences, s.differences);
  QCOMPARE(back.edf, s.edf);
  QVERIFY(back.edfDefinition == s.edfDefinition);
  QCOMPARE(back.nu, s.nu);
  QCOMPARE(back.mstop, s.mstop);

  ComputeSettings c;
  c.backend = "opencl";
  c.device = "H100";
  c.precision = "float";
  c.kernel = "compact";
  c.threads = 3;
  const nlohmann::json cj = c;
  const ComputeSettings cb = cj.get<ComputeSettings>();
  QCOMPARE(cb.backend, c.backend);
  QCOMPARE(cb.device, c.device);
  QCOMPARE(cb.precision, c.precision);
  QCOMPARE(cb.kernel, c.kernel);
  QCOMPARE(cb.threads, c.threads);
}

void TestSettings::jsonRejectsUnknownNames() {
  nlohmann::json j = ModelSettings{};
  j["penalty"] = "lasso";
  QVERIFY_THROWS_EXCEPTION(InputError, j.get<ModelSettings>());
  j = ModelSettings{};
  j["edf_definition"] = "other";
  QVERIFY_THROWS_EXCEPTION(InputError, j.get<ModelSettings>());
  j = ModelSettings{};
  j["nu"] = "fast";
  QVERIFY_THROWS_EXCEPTION(nlohmann::json::exception, j.get<ModelSettings>());
}

QTEST_APPLESS_MAIN(TestSettings)
#include "test_settings.moc"

// ModelSettings: validation messages name the option, presets, learner resolution and JSON.
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/Error.hpp"
#include "learner/LearnerColumns.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"
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
  void jsonFieldsAreTypedAndBounded_data();
  void jsonFieldsAreTypedAndBounded();
  void jsonAcceptsIntegralFloats();
};

void TestSettings::validationNamesTheOption_data() {
  QTest::addColumn<QString>("field");
  QTest::addColumn<double>("value");
  QTest::addColumn<QString>("message");
  QTest::newRow("knots 0") << "knots" << 0.0 << "--knots: must be in 1..1000000 (got 0)";
  // INT_MAX knots overflowed knots + 1 / + 2 in SplineBasis and knots + degree + 1 in the model reader.
  QTest::newRow("knots INT_MAX") << "knots" << 2147483647.0 << "--knots: must be in 1..1000000 (got 2147483647)";
  QTest::newRow("knots 1e6 + 1") << "knots" << 1000001.0 << "--knots: must be in 1..1000000 (got 1000001)";
  QTest::newRow("degree 0") << "degree" << 0.0 << "--degree: must be in 1..5 (got 0)";
  QTest::newRow("degree 6") << "degree" << 6.0 << "--degree: must be in 1..5 (got 6)";
  QTest::newRow("differences -1") << "differences" << -1.0 << "--differences: must be in 0..3 (got -1)";
  QTest::newRow("differences 4") << "differences" << 4.0 << "--differences: must be in 0..3 (got 4)";
  QTest::newRow("edf 0") << "edf" << 0.0 << "--edf: must be a finite number greater than 0 (got 0)";
  QTest::newRow("edf nan") << "edf" << std::nan("") << "--edf: must be a finite number greater than 0 (got nan)";
  QTest::newRow("edf inf") << "edf" << HUGE_VAL << "--edf: must be a finite number greater than 0 (got inf)";
  QTest::newRow("nu 0") << "nu" << 0.0 << "--nu: must be in (0, 1] (got 0)";
  QTest::newRow("nu 1.5") << "nu" << 1.5 << "--nu: must be in (0, 1] (got 1.5)";
  QTest::newRow("nu nan") << "nu" << std::nan("") << "--nu: must be in (0, 1] (got nan)";
  QTest::newRow("mstop 0") << "mstop" << 0.0 << "--mstop: must be in 1..10000000 (got 0)";
  QTest::newRow("mstop 1e7 + 1") << "mstop" << 10000001.0 << "--mstop: must be in 1..10000000 (got 10000001)";
  QTest::newRow("mstop INT_MAX") << "mstop" << 2147483647.0 << "--mstop: must be in 1..10000000 (got 2147483647)";
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
  QCOMPARE(resolveLearners(s, d), (std::vector<std::string>{"a", "b", "c"}));
  s.learners = {"c", "a"};
  QCOMPARE(resolveLearners(s, d), (std::vector<std::string>{"c", "a"}));
  auto error = [&](const ModelSettings& bad) { return gbtest::inputErrorOf([&] { resolveLearners(bad, d); }); };
  s.learners = {"a", "zz"};
  QCOMPARE(error(s), QStringLiteral("--learners: no column named 'zz' in data.csv; its columns: 'y', 'a', 'b', 'c'"));
  s.learners = {"a", "y"};
  QCOMPARE(error(s), QStringLiteral("--learners: 'y' is the response, not a covariate"));
  s.learners = {"a", "a"};
  QCOMPARE(error(s), QStringLiteral("--learners: 'a' is listed twice"));
  s.learners.clear();
  s.response = "target";
  QCOMPARE(error(s),
           QStringLiteral("--response: no column named 'target' in data.csv; its columns: 'y', 'a', 'b', 'c'"));
  // A name that differs in case or by a typo is suggested; a long list of columns is cut after 12.
  Dataset named = d;
  named.names = {"Ozone", "Solar.R", "Wind", "Temp"};
  auto hint = [&](const std::string& name) { return QString::fromStdString(named.nameHint(name)); };
  QCOMPARE(hint("ozone"), QStringLiteral("; did you mean 'Ozone'? (names are case-sensitive)"));
  QCOMPARE(hint("Ozne"), QStringLiteral("; did you mean 'Ozone'?"));
  QCOMPARE(hint("solar_r"), QStringLiteral("; did you mean 'Solar.R'?"));
  QCOMPARE(hint("Wnd"), QStringLiteral("; did you mean 'Wind'?"));
  QCOMPARE(hint("Tmpx"), QStringLiteral("; its columns: 'Ozone', 'Solar.R', 'Wind', 'Temp'"));  // two edits, 4 letters
  QCOMPARE(hint("W"), QStringLiteral("; its columns: 'Ozone', 'Solar.R', 'Wind', 'Temp'"));
  // "größe" typed (ö one character) against a header in decomposed form (o and U+0308): the same to the eye, so
  // the hint says why they differ (it listed 'y', 'größe' as if the name were there).
  const std::string sharpS = "\xc3\x9f", typed = "gr\xc3\xb6" + sharpS + "e", decomposed = "gro\xcc\x88" + sharpS + "e";
  named.names = {"y", decomposed};
  QVERIFY2(hint(typed).startsWith(" (a name here spells an accented letter as a letter and a combining mark"),
           qPrintable(hint(typed)));
  named.names.clear();
  for (int c = 0; c < 20; ++c) named.names.push_back("x" + std::to_string(c + 1));
  QCOMPARE(hint("y"), QStringLiteral("; its columns: 'x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'x10', "
                                     "'x11', 'x12', ... (20 in all)"));
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
  c.backend = gb::BackendKind::OpenCl;
  c.device = "H100";
  c.precision = gb::Precision::Float;
  c.kernel = "compact";
  c.threads = 3;
  const nlohmann::json cj = c;
  const ComputeSettings cb = cj.get<ComputeSettings>();
  QVERIFY(cb.backend == c.backend);
  QCOMPARE(cb.device, c.device);
  QVERIFY(cb.precision == c.precision);
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
  QCOMPARE(gbtest::inputErrorOf([&] { j.get<ModelSettings>(); }),
           QStringLiteral("settings.nu: must be a number, got the string 'fast'"));
}

void TestSettings::jsonFieldsAreTypedAndBounded_data() {
  QTest::addColumn<QString>("key");
  QTest::addColumn<QString>("value");  // JSON text
  QTest::addColumn<QString>("message");
  // Integers must be integers: 2.5 was truncated to 2 by get_to<int>; 1e300 in get_to<int> is undefined.
  QTest::newRow("knots 2.5") << "knots"
                             << "2.5"
                             << "settings.knots: must be an integer, got 2.5";
  QTest::newRow("differences 2.5") << "differences"
                                   << "2.5"
                                   << "settings.differences: must be an integer, got 2.5";
  QTest::newRow("knots 1e300") << "knots"
                               << "1e300"
                               << "settings.knots: must be an integer in 1..1000000, got 1.0000000000000001e+300";
  QTest::newRow("knots 1e400") << "knots"
                               << "1e400"
                               << "settings.knots: must be an integer, got a number beyond the double range";
  QTest::newRow("knots INT_MAX") << "knots"
                                 << "2147483647"
                                 << "settings.knots: must be an integer in 1..1000000, got 2147483647";
  QTest::newRow("knots 2^64") << "knots"
                              << "18446744073709551615"
                              << "settings.knots: must be an integer in 1..1000000, got 18446744073709551615";
  QTest::newRow("degree -1") << "degree"
                             << "-1"
                             << "settings.degree: must be an integer in 1..5, got -1";
  QTest::newRow("degree string") << "degree"
                                 << R"("3")"
                                 << "settings.degree: must be an integer in 1..5, got the string '3'";
  QTest::newRow("mstop 1e7+1") << "mstop"
                               << "10000001"
                               << "settings.mstop: must be an integer in 1..10000000, got 10000001";
  QTest::newRow("mstop array") << "mstop"
                               << "[1]"
                               << "settings.mstop: must be an integer in 1..10000000, got an array";
  QTest::newRow("edf 1e400") << "edf"
                             << "1e400"
                             << "settings.edf: must be a finite number, got a number beyond the double range";
  QTest::newRow("edf -1") << "edf"
                          << "-1"
                          << "settings.edf: must be a finite number greater than 0 (got -1)";
  QTest::newRow("nu 2") << "nu"
                        << "2"
                        << "settings.nu: must be in (0, 1] (got 2)";
  QTest::newRow("nu object") << "nu"
                             << R"({"a": 1})"
                             << "settings.nu: must be a number, got an object";
  QTest::newRow("response number") << "response"
                                   << "7"
                                   << "settings.response: must be a string, got 7";
  QTest::newRow("response empty") << "response"
                                  << R"("")"
                                  << "settings.response: must name a column";
  QTest::newRow("learners string") << "learners"
                                   << R"("x1")"
                                   << "settings.learners: must be an array of names, got the string 'x1'";
  QTest::newRow("learners[1] null") << "learners"
                                    << R"(["x1", null])"
                                    << "settings.learners[1]: must be a string, got null";
  QTest::newRow("boundary number") << "boundary"
                                   << "1"
                                   << "settings.boundary: must be a string, got 1";
}

void TestSettings::jsonFieldsAreTypedAndBounded() {
  QFETCH(QString, key);
  QFETCH(QString, value);
  QFETCH(QString, message);
  nlohmann::json j = ModelSettings{};
  // nlohmann's parser refuses the literal 1e400 itself (out_of_range 406; Model::load names the field then):
  // inf is what a caller building the JSON in memory can still pass.
  j[key.toStdString()] = value == "1e400" ? nlohmann::json(HUGE_VAL) : nlohmann::json::parse(value.toStdString());
  QCOMPARE(gbtest::inputErrorOf([&] { j.get<ModelSettings>(); }), message);
}

void TestSettings::jsonAcceptsIntegralFloats() {
  // 20.0 is an integer written by a tool that has only doubles (R's jsonlite can): accepted as 20.
  nlohmann::json j = ModelSettings{};
  j["knots"] = 20.0;
  j["mstop"] = 1e7;
  const ModelSettings s = j.get<ModelSettings>();
  QCOMPARE(s.spline.knots, 20);
  QCOMPARE(s.mstop, 10000000);
  nlohmann::json c = ComputeSettings{};
  c["threads"] = 1e300;
  QCOMPARE(gbtest::inputErrorOf([&] { c.get<ComputeSettings>(); }),
           QStringLiteral("compute.threads: must be an integer in 0..65536, got 1.0000000000000001e+300"));
}

QTEST_APPLESS_MAIN(TestSettings)
#include "test_settings.moc"

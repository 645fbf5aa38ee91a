// The strict model reader (engine/model/ModelReader.cpp): every field typed and bounded, format and version
// first, deep nesting refused without recursion, files that are not regular files, the version 2 path of
// learner indices (and reading version 1 names), ranges that cannot carry a basis, and predictions that would
// not be finite.
#include <sys/stat.h>

#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "common/Error.hpp"
#include "learner/Learner.hpp"
#include "learner/ModelFrame.hpp"
#include "model/Model.hpp"
#include "support/TestSupport.hpp"

using namespace gb;
using nlohmann::json;

namespace {

std::string tempPath(const std::string& name) { return gbtest::scratchRoot() + "/test_model_inputs_" + name; }

// A small valid model written by hand: two learners of a linear spline with 2 interior knots (k = 4).
Model handModel() {
  Model m;
  m.settings.spline = SplineSpec{2, 1, Boundary::Extended};
  m.settings.learners = {"x1", "x2"};
  m.settings.mstop = 5;
  m.offset = 1.5;
  for (const char* name : {"x1", "x2"}) {
    LearnerModel l;
    l.name = name;
    l.lo = 0.0;
    l.hi = 1.0;
    l.lambda = 2.0;
    l.edf = 3.0;
    l.coefficients = {0.5, -1.0, 0.25, 2.0};
    m.learners.push_back(l);
  }
  m.pathLearner = {1, 0, 1, 1, 0};
  m.pathRisk = {6.0, 5.0, 4.0, 3.5, 3.0, 2.9};
  m.learners[0].selected = 2;
  m.learners[1].selected = 3;
  return m;
}

QString errorOf(const json& j) {
  return gbtest::inputErrorOf([&] { Model::fromJson(j, "m.json"); });
}

QString loadErrorOf(const std::string& path) {
  return gbtest::inputErrorOf([&] { Model::load(path); });
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// `levels` nested arrays around 0, built without recursion (the text form is a flat string).
std::string nestedText(std::size_t levels) { return std::string(levels, '[') + "0" + std::string(levels, ']'); }

// The same as a json value, built iteratively (moves only: a copy of a deep value would recurse).
json nestedValue(std::size_t levels) {
  json v = 0;
  for (std::size_t i = 0; i < levels; ++i) {
    json outer = json::array();
    outer.push_back(std::move(v));
    v = std::move(outer);
  }
  return v;
}

// The model's JSON text with the value of one field replaced by raw text (e.g. a million nested arrays).
std::string withRawField(const std::string& field, const std::string& raw) {
  json j = handModel().toJson();
  j[field] = "@@RAW@@";
  std::string text = j.dump();
  const std::size_t at = text.find("\"@@RAW@@\"");
  return text.replace(at, 9, raw);
}

Dataset table(std::vector<double> x1, std::vector<double> x2) {
  Dataset d;
  d.source = "new.csv";
  d.names = {"x1", "x2"};
  d.columns = {std::move(x1), std::move(x2)};
  return d;
}

}  // namespace

class TestModelInputs : public QObject {
  Q_OBJECT

 private slots:
  void handModelIsValid();
  void rejectsBadFields_data();
  void rejectsBadFields();
  void formatAndVersionComeFirst();
  void deepNestingInMemory_data();
  void deepNestingInMemory();
  void deepNestingInFiles_data();
  void deepNestingInFiles();
  void nlohmannParsesAndDestroysDeepValuesIteratively();
  void loadRefusesWhatIsNoRegularFile();
  void notJsonNamesLineAndColumn();
  void numbersBeyondDoubleInFiles_data();
  void numbersBeyondDoubleInFiles();
  void pathRoundTripVersion2();
  void readsVersion1Names();
  void learnerRangeTooNarrowAtFit();
  void linearLearnerOnHugeValues();
  void predictNeverWritesNonFinite();
};

void TestModelInputs::handModelIsValid() {
  const Model m = Model::fromJson(handModel().toJson(), "m.json");
  QCOMPARE(m.learners.size(), std::size_t(2));
  QCOMPARE(m.pathLearner, handModel().pathLearner);
}

void TestModelInputs::rejectsBadFields_data() {
  QTest::addColumn<QString>("pointer");  // JSON pointer of the field to change
  QTest::addColumn<QString>("value");    // its new JSON text ("" = remove it)
  QTest::addColumn<QString>("message");  // the whole expected message
  // Integers must be integers, in range; 1e300 and 1e400 never reach a cast.
  QTest::newRow("differences 2.5") << "/settings/differences"
                                   << "2.5"
                                   << "m.json: settings.differences: must be an integer, got 2.5";
  QTest::newRow("knots 2147483647") << "/settings/knots"
                                    << "2147483647"
                                    << "m.json: settings.knots: must be an integer in 1..1000000, got 2147483647";
  QTest::newRow("selected 1e300") << "/learners/1/selected"
                                  << "1e300"
                                  << "m.json: learners[1].selected: must be an integer in 0..10000000, got "
                                     "1.0000000000000001e+300";
  QTest::newRow("selected 1e400") << "/learners/1/selected"
                                  << "1e400"
                                  << "m.json: learners[1].selected: must be an integer, got a number beyond the "
                                     "double range";
  QTest::newRow("mstop 1e400") << "/settings/mstop"
                               << "-1e400"
                               << "m.json: settings.mstop: must be an integer, got a number beyond the double range";
  QTest::newRow("offset 1e400") << "/offset"
                                << "1e400"
                                << "m.json: offset: must be a finite number, got a number beyond the double range";
  QTest::newRow("coefficient 1e400") << "/learners/0/coefficients/2"
                                     << "1e400"
                                     << "m.json: learners[0].coefficients[2]: must be a finite number, got a number "
                                        "beyond the double range";
  QTest::newRow("risk 1e400") << "/path/risk/3"
                              << "1e400"
                              << "m.json: path.risk[3]: must be a finite number, got a number beyond the double "
                                 "range";
  QTest::newRow("nu 1e400") << "/settings/nu"
                            << "1e400"
                            << "m.json: settings.nu: must be a finite number, got a number beyond the double range";
  QTest::newRow("lambda negative") << "/learners/0/lambda"
                                   << "-1"
                                   << "m.json: learners[0].lambda: must be at least 0, got -1";
  QTest::newRow("k wrong") << "/learners/0/k"
                           << "5"
                           << "m.json: learners[0].k: does not match the learner (4), got 5";
  QTest::newRow("k 2.5") << "/learners/0/k"
                         << "2.5"
                         << "m.json: learners[0].k: must be an integer, got 2.5";
  QTest::newRow("name number") << "/learners/1/name"
                               << "3"
                               << "m.json: learners[1].name: must be a string, got 3";
  QTest::newRow("name repeated") << "/learners/1/name"
                                 << R"("x1")"
                                 << "m.json: learners[1].name: 'x1' is also the name of learners[0]";
  QTest::newRow("learner not an object") << "/learners/1"
                                         << "[]"
                                         << "m.json: learners[1]: must be a JSON object, got an array";
  QTest::newRow("range of 3") << "/learners/0/range"
                              << "[0, 0.5, 1]"
                              << "m.json: learners[0].range: must be [lo, hi], got 3 numbers";
  // A model with range [0, 1e-320] predicted NaN for every row.
  QTest::newRow("range subnormal") << "/learners/1/range"
                                   << "[0, 1e-320]"
                                   << "m.json: learners[1].range: [0, 9.9998886718268301e-321]: too narrow a range "
                                      "for a spline basis";
  QTest::newRow("range reversed") << "/learners/0/range"
                                  << "[1, 0]"
                                  << "m.json: learners[0].range: [1, 0]: the range must satisfy lo < hi";
  QTest::newRow("range too wide") << "/learners/0/range"
                                  << "[-1e308, 1e308]"
                                  << "m.json: learners[0].range: [-1e+308, 1e+308]: too wide a range for a spline "
                                     "basis";
  QTest::newRow("path index out of range") << "/path/learner/3"
                                           << "2"
                                           << "m.json: path.learner[3]: must be an integer in 0..1, got 2";
  QTest::newRow("path index negative") << "/path/learner/0"
                                       << "-1"
                                       << "m.json: path.learner[0]: must be an integer in 0..1, got -1";
  QTest::newRow("path name in version 2") << "/path/learner/0"
                                          << R"("x1")"
                                          << "m.json: path.learner[0]: must be an integer in 0..1, got the string "
                                             "'x1'";
  // Either array cut: the message names both counts rather than blaming the one left whole.
  QTest::newRow("path risk short") << "/path/risk/5"
                                   << ""
                                   << "m.json: path: path.risk has 5 values and path.learner 5 iterations; the risk "
                                      "needs one value more than the iterations (the offset's, then one per "
                                      "iteration), so one of the two was cut or edited";
  QTest::newRow("path learner short") << "/path/learner/4"
                                      << ""
                                      << "m.json: path: path.risk has 6 values and path.learner 4 iterations; the "
                                         "risk needs one value more than the iterations (the offset's, then one "
                                         "per iteration), so one of the two was cut or edited";
  // Unknown keys are mistakes (a misspelt setting would silently take its default).
  QTest::newRow("unknown top-level key") << "/offfset"
                                         << "1"
                                         << "m.json: unknown key 'offfset'";
  QTest::newRow("unknown settings key") << "/settings/degre"
                                        << "2"
                                        << "m.json: settings: unknown key 'degre'";
  QTest::newRow("unknown learner key") << "/learners/0/colour"
                                       << "2"
                                       << "m.json: learners[0]: unknown key 'colour'";
  QTest::newRow("missing coefficients") << "/learners/0/coefficients"
                                        << ""
                                        << "m.json: learners[0].coefficients: missing";
  QTest::newRow("empty learners") << "/learners"
                                  << "[]"
                                  << "m.json: learners: must be a non-empty array of learners, got an array";
  QTest::newRow("timing not an object") << "/timing"
                                        << "3"
                                        << "m.json: timing: must be a JSON object, got 3";
  QTest::newRow("compute threads 2.5") << "/settings/compute"
                                       << R"({"threads": 2.5})"
                                       << "m.json: compute.threads: must be an integer, got 2.5";
}

void TestModelInputs::rejectsBadFields() {
  QFETCH(QString, pointer);
  QFETCH(QString, value);
  QFETCH(QString, message);
  json j = handModel().toJson();
  const json::json_pointer at(pointer.toStdString());
  if (value.isEmpty()) {
    json& parent = j[at.parent_pointer()];
    if (parent.is_array())
      parent.erase(std::stoul(at.back()));
    else
      parent.erase(at.back());
  } else {
    // nlohmann's parser refuses the literal 1e400 (out_of_range 406: see numbersBeyondDoubleInFiles); a value
    // built in memory can still be inf, and the reader must name it just the same.
    const std::string text = value.toStdString();
    j[at] = text == "1e400" ? json(HUGE_VAL) : text == "-1e400" ? json(-HUGE_VAL) : json::parse(text);
  }
  QCOMPARE(errorOf(j), message);
}

void TestModelInputs::formatAndVersionComeFirst() {
  // Everything else is wrong too: the format or version must be what the message names.
  json j = handModel().toJson();
  j.erase("offset");
  j["settings"]["knots"] = 2.5;
  j["format"] = "gamboost-result";
  QCOMPARE(errorOf(j), QStringLiteral("m.json: format: must be 'gamboost-model', got the string 'gamboost-result'"));
  j["format"] = "gamboost-model";
  for (const char* v : {"3", "0", "2.0", "\"2\"", "null", "{}", "[2]", "1e300", "-1"}) {
    j["version"] = json::parse(v);
    QVERIFY2(errorOf(j).startsWith("m.json: version: this build reads versions 1 and 2, got "), qPrintable(errorOf(j)));
  }
  j["version"] = HUGE_VAL;
  QCOMPARE(errorOf(j),
           QStringLiteral("m.json: version: this build reads versions 1 and 2, got a number beyond the double range"));
  j.erase("version");
  QCOMPARE(errorOf(j), QStringLiteral("m.json: version: missing"));
  j = handModel().toJson();
  j.erase("format");
  QCOMPARE(errorOf(j), QStringLiteral("m.json: format: missing"));
  QCOMPARE(errorOf(json::array()), QStringLiteral("m.json: must be a JSON object, got an array"));
  QCOMPARE(errorOf(json("text")), QStringLiteral("m.json: must be a JSON object, got the string 'text'"));
}

void TestModelInputs::deepNestingInMemory_data() {
  QTest::addColumn<QString>("pointer");
  QTest::addColumn<QString>("message");
  QTest::newRow("version") << "/version"
                           << "m.json: version: this build reads versions 1 and 2, got an array";
  QTest::newRow("settings") << "/settings"
                            << "m.json: settings: must be a JSON object, got an array";
  QTest::newRow("settings.knots") << "/settings/knots"
                                  << "m.json: settings.knots: must be an integer in 1..1000000, got an array";
  QTest::newRow("learners") << "/learners/0"
                            << "m.json: learners[0]: must be a JSON object, got an array";
  QTest::newRow("coefficient") << "/learners/0/coefficients/1"
                               << "m.json: learners[0].coefficients[1]: must be a number, got an array";
  QTest::newRow("path") << "/path/learner"
                        << "m.json: path.learner: must be an array of learner indices, got an array"
                           "";
  QTest::newRow("fitted") << "/fitted"
                          << "m.json: fitted[0]: must be a number, got an array";
}

void TestModelInputs::deepNestingInMemory() {
  // A value a million levels deep, given to fromJson directly (no parse): the reader must describe it without
  // dump() and never recurse into it.
  QFETCH(QString, pointer);
  QFETCH(QString, message);
  json j = handModel().toJson();
  j[json::json_pointer(pointer.toStdString())] = nestedValue(1000000);
  QString got = errorOf(j);
  if (pointer == "/path/learner") {  // an array of one (deep) element: its element is what is wrong
    QCOMPARE(got, QStringLiteral("m.json: path.learner[0]: must be an integer in 0..1, got an array"));
    return;
  }
  QCOMPARE(got, message);
}

void TestModelInputs::deepNestingInFiles_data() {
  QTest::addColumn<QString>("field");
  QTest::addColumn<int>("levels");
  for (const char* field : {"version", "learners", "settings", "path", "offset"})
    for (int levels : {100000, 1000000})
      QTest::newRow(qPrintable(QString("%1 %2").arg(field).arg(levels))) << field << levels;
}

void TestModelInputs::deepNestingInFiles() {
  // Model::load of such a file segfaulted in predict: the version message dumped the nested value recursively.
  QFETCH(QString, field);
  QFETCH(int, levels);
  const std::string path = tempPath("deep.json");
  writeText(path, withRawField(field.toStdString(), nestedText(static_cast<std::size_t>(levels))));
  QCOMPARE(
      loadErrorOf(path),
      QString("%1: %2: nested deeper than 16 levels (a model file needs 3)").arg(QString::fromStdString(path), field));
  // The root itself nested deeply: no field to name.
  writeText(path, nestedText(static_cast<std::size_t>(levels)));
  QCOMPARE(loadErrorOf(path), QString::fromStdString(path) + ": nested deeper than 16 levels (a model file needs 3)");
  std::remove(path.c_str());
}

void TestModelInputs::nlohmannParsesAndDestroysDeepValuesIteratively() {
  // Why a depth limit at parse time is enough: nlohmann 3.11 parses and destroys with heap stacks, so a million
  // levels cost neither (a recursion this deep would overflow the 8 MB stack and crash this test).
  json deep = json::parse(nestedText(1000000));
  QVERIFY(deep.is_array());
  deep = nullptr;  // destroys the million levels
  json built = nestedValue(1000000);
  QVERIFY(built.is_array());
}

void TestModelInputs::loadRefusesWhatIsNoRegularFile() {
  const std::string dir = tempPath("dir.json");
  std::filesystem::create_directories(dir);
  QCOMPARE(loadErrorOf(dir), QString::fromStdString(dir) + ": is a directory, not a model file");
  std::filesystem::remove(dir);
  const std::string fifo = tempPath("fifo.json");
  std::remove(fifo.c_str());
  QVERIFY(mkfifo(fifo.c_str(), 0600) == 0);
  // Opening a FIFO without a writer would block forever: it is refused by type, before any open.
  QCOMPARE(loadErrorOf(fifo), QString::fromStdString(fifo) + ": is not a regular file (a FIFO, socket or device)");
  std::remove(fifo.c_str());
  QCOMPARE(loadErrorOf(tempPath("missing.json")),
           QString::fromStdString(tempPath("missing.json")) + ": cannot open for reading (no such file)");
  QVERIFY(loadErrorOf("/dev/null").endsWith(": is not a regular file (a FIFO, socket or device)"));
}

void TestModelInputs::notJsonNamesLineAndColumn() {
  const std::string path = tempPath("broken.json");
  writeText(path, "{\n  \"format\": \"gamboost-model\",\n  \"version\": 2,,\n}");  // 2nd comma: column 16
  const QString e = loadErrorOf(path);
  QVERIFY2(e.startsWith(QString::fromStdString(path) + ":3:16: not valid JSON: "), qPrintable(e));
  // What nlohmann echoes of a broken token is shortened and escaped: one line, whatever the file holds.
  writeText(path, "{\"format\": \"" + std::string(1000000, 'x') + "\n\"}");
  const QString long1 = loadErrorOf(path);
  QVERIFY2(long1.size() < 400 && !long1.contains('\n'), qPrintable(long1.left(400)));
  std::remove(path.c_str());
}

void TestModelInputs::numbersBeyondDoubleInFiles_data() {
  QTest::addColumn<QString>("pointer");
  QTest::addColumn<QString>("field");  // as the message names it
  QTest::newRow("version") << "/version"
                           << "version";
  QTest::newRow("offset") << "/offset"
                          << "offset";
  QTest::newRow("settings.knots") << "/settings/knots"
                                  << "settings.knots";
  QTest::newRow("settings.edf") << "/settings/edf"
                                << "settings.edf";
  QTest::newRow("selected") << "/learners/1/selected"
                            << "learners[1].selected";
  QTest::newRow("coefficient") << "/learners/0/coefficients/2"
                               << "learners[0].coefficients[2]";
  QTest::newRow("range") << "/learners/1/range/1"
                         << "learners[1].range[1]";
  QTest::newRow("path index") << "/path/learner/4"
                              << "path.learner[4]";
  QTest::newRow("risk") << "/path/risk/0"
                        << "path.risk[0]";
}

void TestModelInputs::numbersBeyondDoubleInFiles() {
  // The literal 1e400 in a file: nlohmann's parser throws out_of_range (not parse_error), which escaped
  // Model::load as a library message; now the field is named.
  QFETCH(QString, pointer);
  QFETCH(QString, field);
  json j = handModel().toJson();
  j[json::json_pointer(pointer.toStdString())] = "@@RAW@@";
  std::string text = j.dump(1);
  text.replace(text.find("\"@@RAW@@\""), 9, "1e400");
  const std::string path = tempPath("huge.json");
  writeText(path, text);
  QCOMPARE(loadErrorOf(path),
           QString("%1: %2: a number beyond the double range").arg(QString::fromStdString(path), field));
  std::remove(path.c_str());
}

void TestModelInputs::pathRoundTripVersion2() {
  const Model m = handModel();
  const std::string path = tempPath("v2.json");
  m.save(path);
  std::ifstream in(path);
  const json j = json::parse(in);
  QCOMPARE(j.at("version").get<int>(), 2);
  QCOMPARE(j.at("path").at("learner").get<std::vector<int>>(), m.pathLearner);  // indices, not names
  const Model back = Model::load(path);
  QCOMPARE(back.pathLearner, m.pathLearner);
  QCOMPARE(back.pathRisk, m.pathRisk);
  std::remove(path.c_str());
}

void TestModelInputs::readsVersion1Names() {
  json j = handModel().toJson();
  j["version"] = 1;
  j["path"]["learner"] = {"x2", "x1", "x2", "x2", "x1"};
  const Model m = Model::fromJson(j, "old.json");
  QCOMPARE(m.pathLearner, handModel().pathLearner);
  j["path"]["learner"][2] = "x9";
  QCOMPARE(errorOf(j), QStringLiteral("m.json: path.learner[2]: the string 'x9' is not the name of a learner"));
  j["path"]["learner"][2] = 1;
  QCOMPARE(errorOf(j), QStringLiteral("m.json: path.learner[2]: must be a string, got 1"));
  j["path"]["learner"] = "x1";
  QCOMPARE(errorOf(j), QStringLiteral("m.json: path.learner: must be an array of learner names, got the string 'x1'"));
}

void TestModelInputs::learnerRangeTooNarrowAtFit() {
  // Covariates near 1e-321 failed inside the eigen-solver, naming neither file nor column.
  Dataset d;
  d.source = "tiny.csv";
  d.names = {"y", "x1", "x3"};
  std::vector<double> y, x1, x3;
  for (int i = 0; i < 50; ++i) {
    y.push_back(std::sin(i * 0.3));
    x1.push_back(i / 49.0);
    x3.push_back(i % 2 == 0 ? 0.0 : 1e-321);
  }
  d.columns = {y, x1, x3};
  ModelSettings s;
  s.spline.knots = 6;
  QCOMPARE(gbtest::inputErrorOf([&] { buildLearners(d, s); }),
           QString("column 'x3': values span [0, %1], too narrow a range for a spline basis")
               .arg(QString::number(1e-321, 'g', 17)));
}

void TestModelInputs::linearLearnerOnHugeValues() {
  // sum x^2 beyond the double range failed in the eigen-solver of the lambda ("generalised eigen-solver failed"),
  // naming neither column nor cause, with exit status 1; the spline learner of the same column fits.
  Dataset d;
  d.source = "huge.csv";
  d.names = {"y", "x"};
  std::vector<double> y, x;
  for (int i = 0; i < 40; ++i) {
    y.push_back(std::sin(i * 0.3));
    x.push_back((i + 1) * 1e299);
  }
  d.columns = {y, x};
  auto data = std::make_shared<const Dataset>(d);
  ModelSettings s;
  s.linears = {"x"};
  const QString e = gbtest::inputErrorOf([&] { buildLearners(buildModelFrame(data, s), s); });
  QVERIFY2(e.contains("learner 'x': values too large for a linear learner (sum w x^2 overflows a double"),
           qPrintable(e));
  s.linears = {};
  s.learners = {"x"};
  s.spline.knots = 6;
  QCOMPARE(buildLearners(buildModelFrame(data, s), s).size(), std::size_t(1));
  // A learner's name in a message is escaped and cut as every name is (a tab, a 300-byte name were printed raw).
  Dataset odd = d;
  odd.names = {"y", "x\tz"};
  odd.columns[1].assign(40, 5.0);
  s.learners = {"x\tz"};
  QCOMPARE(gbtest::inputErrorOf([&] { buildLearners(buildModelFrame(std::make_shared<const Dataset>(odd), s), s); }),
           QString("learner 'x\\x09z': covariate is constant (all values 5)"));
  odd.names[1] = std::string(300, 'L');
  s.learners = {odd.names[1]};
  const QString cut =
      gbtest::inputErrorOf([&] { buildLearners(buildModelFrame(std::make_shared<const Dataset>(odd), s), s); });
  QVERIFY2(cut.size() < 150 && cut.contains("LLL...'"), qPrintable(cut));
}

void TestModelInputs::predictNeverWritesNonFinite() {
  const Model m = handModel();
  // Inside the range and moderately outside: finite values.
  const Prediction ok = m.predict(table({0.5, 3.0}, {0.25, -2.0}));
  for (double v : ok.values) QVERIFY(std::isfinite(v));
  QCOMPARE(ok.extrapolatedRows, std::size_t(1));
  // x2 = -1e308 in row 2 extrapolates (slope ~ -4.5 per unit) past the double range: named by file:line:column
  // (above the range this degree-1 basis stays flat, as mboost's).
  const QString e = gbtest::inputErrorOf([&] { m.predict(table({0.5, 0.5}, {0.25, -1e308})); });
  QCOMPARE(e, QStringLiteral("new.csv:3:2: the prediction is not a finite number ('x2' = -1e+308 lies too far outside "
                             "its training range [0, 1])"));
  // inf from x1 and -inf from x2 would sum to NaN: the first learner that overflowed is named.
  const QString both = gbtest::inputErrorOf([&] { m.predict(table({-1e308}, {-1e308})); });
  QVERIFY2(both.startsWith("new.csv:2:1: the prediction is not a finite number ('x1'"), qPrintable(both));
  // Finite coefficients whose sum overflows inside the range.
  Model huge = handModel();
  huge.learners[0].coefficients = {1.7e308, 1.7e308, 1.7e308, 1.7e308};
  huge.offset = 1.7e308;
  QCOMPARE(gbtest::inputErrorOf([&] { huge.predict(table({0.5}, {0.5})); }),
           QStringLiteral("new.csv:2:1: the prediction is not a finite number (the model's coefficients of 'x1' "
                          "overflow)"));
}

QTEST_APPLESS_MAIN(TestModelInputs)
#include "test_model_inputs.moc"

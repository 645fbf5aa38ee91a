// Hardened model inputs through the command line: every malformed model given to `predict --model` (and a
// directory or FIFO in its place), `fit --knots 2147483647`, a covariate spanning [0, 1e-321] and a prediction
// that overflows all end with exit status 2, one stderr line naming the file (and field) or the --option, no
// output and no temporary file left.
#include <sys/stat.h>

#include <QDir>
#include <QFileInfo>
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

using namespace gbtest;
using nlohmann::json;

namespace {

// A valid model written by hand: linear splines with 2 interior knots on [0, 1] (k = 4); x1's steep
// coefficients make its linear extension grow by about 600 per unit below the range (above it a degree-1 spline stays
// flat, as mboost's bbs).
json handModel() {
  return json::parse(R"({
    "format": "gamboost-model", "version": 2, "offset": 1.5,
    "settings": {"response": "y", "learners": ["x1", "x2"], "knots": 2, "degree": 1, "boundary": "extended",
                 "penalty": "pspline", "differences": 2, "edf": 3, "edf_definition": "mboost", "nu": 0.1,
                 "mstop": 3},
    "learners": [
      {"name": "x1", "range": [0, 1], "coefficients": [100, -100, 100, 0], "lambda": 1, "edf": 3, "selected": 2},
      {"name": "x2", "range": [0, 1], "coefficients": [0.5, -1, 0.25, 2], "lambda": 1, "edf": 3, "selected": 1}
    ],
    "path": {"learner": [0, 1, 0], "risk": [4, 3, 2, 1]}
  })");
}

// The model's text with the value at `pointer` replaced by raw text (numbers nlohmann would not write, or
// nesting a million levels deep that is cheaper to write as text).
QByteArray withRaw(const std::string& pointer, const std::string& raw) {
  json j = handModel();
  j[json::json_pointer(pointer)] = "@@RAW@@";
  std::string text = j.dump(1);
  text.replace(text.find("\"@@RAW@@\""), 9, raw);
  return QByteArray::fromStdString(text);
}

QByteArray withValue(const std::string& pointer, const json& value) {
  json j = handModel();
  j[json::json_pointer(pointer)] = value;
  return QByteArray::fromStdString(j.dump(1));
}

std::string nested(std::size_t levels) { return std::string(levels, '[') + "1" + std::string(levels, ']'); }

const QByteArray kNewData = "x1,x2\n0.5,0.5\n0.2,0.9\n";

// The rejection contract plus: nothing in the scratch folder but the inputs.
void expectRejected(const CliResult& r, const QString& pattern, const Scratch& scratch, const QStringList& inputs) {
  verifyRejected(r, pattern);
  if (QTest::currentTestFailed()) return;
  const QStringList left = QDir(scratch.root()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
  for (const QString& name : left) QVERIFY2(inputs.contains(name), qPrintable("unexpected file left behind: " + name));
}

// The hand model as a poisson model in scratch's model.json.
void writePoissonModel(const Scratch& scratch) {
  json poisson = handModel();
  poisson["settings"]["family"] = "poisson";
  writeFile(scratch.path("model.json"), QByteArray::fromStdString(poisson.dump()));
}

// `predict` of scratch's model.json on csv (written as new.csv) into pred.csv, with more options.
CliResult predictOn(const Scratch& scratch, const QByteArray& csv, const QStringList& more) {
  writeFile(scratch.path("new.csv"), csv);
  return runGamboost(QStringList{"predict", "--model", scratch.path("model.json"), "--data", scratch.path("new.csv"),
                                 "--out", scratch.path("pred.csv")} +
                     more);
}

}  // namespace

class CliModelInputsTest : public QObject {
  Q_OBJECT

 private slots:
  void handModelPredicts();
  void predictRejectsModel_data();
  void predictRejectsModel();
  void predictRejectsDirectoryAndFifo();
  void predictRejectsOverflow();
  void predictNamesBadCells();
  void predictMissingCellsGiveNA();
  void fitRejectsHugeKnots();
  void fitRejectsTooNarrowRange();
};

void CliModelInputsTest::handModelPredicts() {
  // The control: the unchanged hand model is accepted, so each rejection below is its change's doing.
  Scratch scratch;
  writeFile(scratch.path("model.json"), QByteArray::fromStdString(handModel().dump()));
  writeFile(scratch.path("new.csv"), kNewData);
  const CliResult r = runGamboost({"predict", "--model", scratch.path("model.json"), "--data", scratch.path("new.csv"),
                                   "--out", scratch.path("pred.csv")});
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  QCOMPARE(readColumn(scratch.path("pred.csv")).size(), std::size_t(2));
}

void CliModelInputsTest::predictRejectsModel_data() {
  QTest::addColumn<QByteArray>("model");
  QTest::addColumn<QString>("pattern");  // what the one stderr line must say
  QTest::newRow("not an object") << QByteArray("[1, 2]") << R"(model\.json: must be a JSON object, got an array$)";
  QTest::newRow("wrong format") << withValue("/format", "gamboost-result")
                                << R"(model\.json: format: must be 'gamboost-model')";
  QTest::newRow("version 3") << withValue("/version", 3)
                             << R"(model\.json: version: this build reads versions 1 and 2, got 3$)";
  QTest::newRow("version a string")
      << withValue("/version", "2")
      << R"(model\.json: version: this build reads versions 1 and 2, got the string '2'$)";
  // This one segfaulted: the message dumped the 100000 nested arrays recursively.
  QTest::newRow("version nested 1e5") << withRaw("/version", nested(100000))
                                      << R"(model\.json: version: nested deeper than 16 levels)";
  QTest::newRow("learners nested 1e6") << withRaw("/learners/0", nested(1000000))
                                       << R"(model\.json: learners: nested deeper than 16 levels)";
  QTest::newRow("settings nested 1e6") << withRaw("/settings/knots", nested(1000000))
                                       << R"(model\.json: settings: nested deeper than 16 levels)";
  QTest::newRow("path nested 1e5") << withRaw("/path/learner", nested(100000))
                                   << R"(model\.json: path: nested deeper than 16 levels)";
  QTest::newRow("version nested 3") << withRaw("/version", nested(3))
                                    << R"(model\.json: version: this build reads versions 1 and 2, got an array$)";
  QTest::newRow("differences 2.5") << withValue("/settings/differences", 2.5)
                                   << R"(model\.json: settings\.differences: must be an integer, got 2\.5$)";
  QTest::newRow("knots 2147483647")
      << withValue("/settings/knots", 2147483647)
      << R"(model\.json: settings\.knots: must be an integer in 1\.\.1000000, got 2147483647$)";
  QTest::newRow("selected 1e300") << withRaw("/learners/1/selected", "1e300")
                                  << R"(model\.json: learners\[1\]\.selected: must be an integer in 0\.\.10000000)";
  QTest::newRow("coefficient 1e400")
      << withRaw("/learners/0/coefficients/1", "1e400")
      << R"(model\.json: learners\[0\]\.coefficients\[1\]: a number beyond the double range$)";
  QTest::newRow("settings.edf 1e400") << withRaw("/settings/edf", "1e400")
                                      << R"(model\.json: settings\.edf: a number beyond the double range$)";
  // Settings the model's family does not use are still checked: a gaussian model with tau 2 was read.
  QTest::newRow("unused tau 2") << withValue("/settings/tau", 2)
                                << R"(model\.json: settings\.tau: must be in \(0, 1\) \(got 2\)$)";
  QTest::newRow("unused huber_delta -1") << withValue("/settings/huber_delta", -1)
                                         << R"(model\.json: settings\.huber_delta: must be a finite number)";
  QTest::newRow("range [0, 1e-320]")
      << withRaw("/learners/1/range", "[0, 1e-320]")
      << R"(model\.json: learners\[1\]\.range: \[0, [0-9.e+-]+\]: too narrow a range for a spline basis$)";
  QTest::newRow("path index out of range")
      << withValue("/path/learner/1", 2) << R"(model\.json: path\.learner\[1\]: must be an integer in 0\.\.1, got 2$)";
  QTest::newRow("version as a real number")
      << withRaw("/version", "2.0")
      << R"(model\.json: version: .*got 2 written as a real number \(write it without a fraction\)$)";
  QTest::newRow("version 1 path of indices")
      << withValue("/version", 1) << R"(model\.json: path\.learner\[0\]: must be a string, got 0$)";
  QTest::newRow("unknown key") << withValue("/settings/knotz", 3) << R"(model\.json: settings: unknown key 'knotz'$)";
  // nlohmann keeps the last of two equal keys; a model edited by hand that says the offset twice is refused.
  QTest::newRow("duplicate key") << withRaw("/offset", "1.5, \"offset\": 99")
                                 << R"(model\.json: offset: appears twice \(a JSON object's keys must differ\)$)";
  QTest::newRow("duplicate key in a learner")
      << withRaw("/learners/0/lambda", "1, \"lambda\": 2")
      << R"(model\.json: learners\[0\]\.lambda: appears twice \(a JSON object's keys must differ\)$)";
  QTest::newRow("not JSON") << QByteArray("{\"format\": \"gamboost-model\",\n \"version\": }")
                            << R"(model\.json:2:13: not valid JSON: )";
}

void CliModelInputsTest::predictRejectsModel() {
  QFETCH(QByteArray, model);
  QFETCH(QString, pattern);
  Scratch scratch;
  QVERIFY(scratch.isValid());
  writeFile(scratch.path("model.json"), model);
  writeFile(scratch.path("new.csv"), kNewData);
  const CliResult r = runGamboost({"predict", "--model", scratch.path("model.json"), "--data", scratch.path("new.csv"),
                                   "--out", scratch.path("pred.csv")});
  expectRejected(r, pattern, scratch, {"model.json", "new.csv"});
}

void CliModelInputsTest::predictRejectsDirectoryAndFifo() {
  Scratch scratch;
  writeFile(scratch.path("new.csv"), kNewData);
  QVERIFY(QDir(scratch.root()).mkdir("model.json"));
  CliResult r = runGamboost({"predict", "--model", scratch.path("model.json"), "--data", scratch.path("new.csv"),
                             "--out", scratch.path("pred.csv")});
  expectRejected(r, R"(model\.json: is a directory, not a model file$)", scratch, {"model.json", "new.csv"});
  // A FIFO without a writer: opening it would block forever (the runner would time out).
  QVERIFY(mkfifo(scratch.path("fifo.json").toLocal8Bit().constData(), 0600) == 0);
  r = runGamboost({"predict", "--model", scratch.path("fifo.json"), "--data", scratch.path("new.csv"), "--out",
                   scratch.path("pred.csv")},
                  20000);
  expectRejected(r, R"(fifo\.json: is not a regular file)", scratch, {"model.json", "fifo.json", "new.csv"});
}

void CliModelInputsTest::predictRejectsOverflow() {
  // x1 = -1e307 extrapolates (slope ~-600) beyond the double range in row 2 of the data (line 3, column 1).
  Scratch scratch;
  writeFile(scratch.path("model.json"), QByteArray::fromStdString(handModel().dump()));
  writeFile(scratch.path("new.csv"), "x1,x2\n0.5,0.5\n-1e307,0.5\n");
  const CliResult r = runGamboost({"predict", "--model", scratch.path("model.json"), "--data", scratch.path("new.csv"),
                                   "--out", scratch.path("pred.csv")});
  expectRejected(r, R"(new\.csv:3:1: the prediction is not a finite number \('x1' = -1e\+307 lies too far outside)",
                 scratch, {"model.json", "new.csv"});
}

// Cells a prediction cannot use, each named by file:line(:column), nothing written: a rate exp(f) beyond the double
// range although f is finite (poisson, --type response; --type link writes f), a cell that strtod reads as hex but
// the CSV reader takes for text, and a missing cell.
void CliModelInputsTest::predictNamesBadCells() {
  Scratch scratch;
  writePoissonModel(scratch);
  auto predict = [&](const QByteArray& csv, const QString& type) { return predictOn(scratch, csv, {"--type", type}); };
  // x1 = -2: f = 1.5 + about 100 + 2 x 600, finite, and exp(f) is inf.
  const QByteArray far = "x1,x2\n0.5,0.5\n-2,0.5\n";
  const CliResult link = predict(far, "link");
  QVERIFY2(link.finished && link.exitCode == 0, qPrintable(link.describe()));
  QVERIFY(QFile::remove(scratch.path("pred.csv")));
  expectRejected(
      predict(far, "response"),
      R"(new\.csv:3: the prediction on the response scale is not a finite number \(f = 1\d{3}\.\d+ on the link)",
      scratch, {"model.json", "new.csv"});
  expectRejected(predict("x1,x2\n0.5,0.5\n0x10,0.5\n", "link"), R"(new\.csv:3:1: 'x1' holds text \('0x10'\))", scratch,
                 {"model.json", "new.csv"});
  // A quoted number with a space is a number to the reader (and here): the text cell is the word after it.
  expectRejected(predict("x1,x2\n0.5,0.5\n\" 3\",0.5\nabc,0.5\n", "link"), R"(new\.csv:4:1: 'x1' holds text \('abc'\))",
                 scratch, {"model.json", "new.csv"});
}

// mboost's predict gives NA for a row with a missing covariate; so does predict's default --missing omit, saying how
// many rows per column, on either scale. A missing cell in a column the model does not use changes nothing.
// --missing fail names the first such row's cell, its column counted in the file (R's row names are column 1).
void CliModelInputsTest::predictMissingCellsGiveNA() {
  Scratch scratch;
  writePoissonModel(scratch);
  auto predict = [&](const QByteArray& csv, const QStringList& more) { return predictOn(scratch, csv, more); };

  const CliResult complete = predict("x1,x2\n0.5,0.5\n0.9,0.1\n", {});
  QVERIFY2(complete.exitCode == 0, qPrintable(complete.describe()));
  const std::vector<double> expected = readColumn(scratch.path("pred.csv"));
  QCOMPARE(expected.size(), std::size_t(2));
  // As R's write.csv writes it: quoted names, row names in column 1, NA and empty cells.
  const QByteArray withMissing =
      "\"\",\"x1\",\"x2\",\"z\"\n\"1\",0.5,0.5,NA\n\"2\",0.2,NA,1\n\"3\",,NA,2\n\"4\",0.9,0.1,3\n";
  for (const QString type : {"link", "response"}) {
    const CliResult r = predict(withMissing, {"--type", type});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(
        r.err.contains("2 of 4 rows have a missing value (NA; also NaN or empty in a numeric column) in a selected "
                       "learner's column ('x1' 1, "
                       "'x2' 2): their prediction is NA"),
        qPrintable(r.describe()));
    const QList<QByteArray> lines = readFile(scratch.path("pred.csv")).split('\n');
    QCOMPARE(lines.size(), 6);  // header, 4 rows, the empty text after the last line end
    QCOMPARE(lines[2], QByteArray("NA"));
    QCOMPARE(lines[3], QByteArray("NA"));
    const std::vector<double> got = readColumn(scratch.path("pred.csv"));
    const double first = type == "link" ? expected[0] : std::exp(expected[0]);
    const double last = type == "link" ? expected[1] : std::exp(expected[1]);
    QVERIFY2(std::abs(got[0] - first) <= 1e-15 * std::abs(first), qPrintable(QString::number(got[0], 'g', 17)));
    QVERIFY2(std::abs(got[3] - last) <= 1e-15 * std::abs(last), qPrintable(QString::number(got[3], 'g', 17)));
  }
  QVERIFY(QFile::remove(scratch.path("pred.csv")));
  expectRejected(predict(withMissing, {"--missing", "fail"}),
                 R"(new\.csv:3:3: 'x2' is missing \(NA, NaN or empty\); --missing omit predicts NA for such rows)",
                 scratch, {"model.json", "new.csv"});
  // A word that is not one of the option's says which are, as fit's --missing does.
  expectRejected(predict(withMissing, {"--missing", "skip"}), R"(--missing: must be 'omit' or 'fail' \(got 'skip'\)$)",
                 scratch, {"model.json", "new.csv"});
  expectRejected(predict(withMissing, {"--type", "resp"}), R"(--type: must be 'link' or 'response' \(got 'resp'\)$)",
                 scratch, {"model.json", "new.csv"});
}

void CliModelInputsTest::fitRejectsHugeKnots() {
  Scratch scratch;
  writeFile(scratch.path("data.csv"), smallCsv(40));
  const CliResult r = runGamboost({"fit", "--data", scratch.path("data.csv"), "--knots", "2147483647", "--out",
                                   scratch.path("out.json"), "--model", scratch.path("model.json"), "--quiet"});
  expectRejected(r, R"(--knots: must be in 1\.\.1000000 \(got 2147483647\)$)", scratch, {"data.csv"});
}

void CliModelInputsTest::fitRejectsTooNarrowRange() {
  // Covariates near 1e-321 failed inside the eigen-solver, naming neither the file nor the column.
  QByteArray csv = "y,x1,x2\n";
  for (int i = 0; i < 40; ++i)
    csv += QByteArray::number(i % 7) + "," + QByteArray::number(i * 0.025) + "," + (i % 2 ? "1e-321" : "0") + "\n";
  Scratch scratch;
  writeFile(scratch.path("tiny.csv"), csv);
  const CliResult r = runGamboost({"fit", "--data", scratch.path("tiny.csv"), "--knots", "6", "--out",
                                   scratch.path("out.json"), "--model", scratch.path("model.json"), "--quiet"});
  expectRejected(r, R"(tiny\.csv: column 'x2': values span \[0, [0-9.e+-]+\], too narrow a range for a spline basis$)",
                 scratch, {"tiny.csv"});
}

QTEST_GUILESS_MAIN(CliModelInputsTest)
#include "test_cli_model_inputs.moc"

// Hostile CSV inputs through `gamboost fit`: files in other encodings, odd line endings, names and cells that are
// not clean text. A bad file ends with exit status 2, one printable stderr line naming file:line:column, and
// nothing left behind; a file that is only written differently (bare CR line ends, a BOM) fits like the plain one.
#include <QDir>
#include <QFileInfo>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

using namespace gbtest;
using namespace Qt::Literals::StringLiterals;

namespace {

QByteArray utf16le(const QByteArray& ascii) {
  QByteArray out;
  for (const char ch : ascii) out += QByteArray(1, ch) + QByteArray(1, '\0');
  return out;
}

QByteArray withLineEnds(QByteArray csv, const QByteArray& lineEnd) { return csv.replace("\n", lineEnd); }

QStringList fitArgs(const Scratch& scratch, const QString& data) {
  return {"fit",
          "--data",
          data,
          "--knots",
          "6",
          "--mstop",
          "10",
          "--out",
          scratch.path("result.json"),
          "--model",
          scratch.path("model.json"),
          "--quiet"};
}

}  // namespace

class CliCsvInputsTest : public QObject {
  Q_OBJECT

 private slots:
  void rejects_data();
  void rejects();
  void fitsLikePlainText_data();
  void fitsLikePlainText();
  void namesWithCommasAreQuoted();
};

void CliCsvInputsTest::rejects_data() {
  QTest::addColumn<QByteArray>("contents");
  QTest::addColumn<QString>("pattern");  // after "gamboost: .../data.csv"
  const QByteArray good = smallCsv(40);
  const QByteArray bigName(4'600'000, 'n');
  QTest::newRow("UTF-16 LE with BOM") << "\xFF\xFE"_ba + utf16le(good)
                                      << R"(:1:1: the file is UTF-16 \(little-endian\) text; save it as UTF-8$)";
  QTest::newRow("UTF-16 LE without BOM") << utf16le(good) << R"(:1:1: the file is UTF-16 \(little-endian\) text)";
  QTest::newRow("UTF-32 BE with BOM") << "\0\0\xFE\xFF\0\0\0y"_ba
                                      << R"(:1:1: the file is UTF-32 \(big-endian\))";
  QTest::newRow("quoted inf") << "y,x1,x2,x3\n1,2,3,4\n5,6,\"inf\",8\n"_ba
                              << R"(:3:3: column 3 \('x2'\): value 'inf' is not finite \(infinite.*NA$)";
  QTest::newRow("quoted 1e400") << "y,x1,x2,x3\n1,2,3,4\n\"1e400\",6,7,8\n"_ba
                                << R"(:3:1: .*'1e400' is not finite)";
  QTest::newRow("-Inf") << "y,x1,x2,x3\n1,2,3,4\n5,-Inf,7,8\n"_ba
                        << R"(:3:2: column 2 \('x1'\): value '-Inf' is not finite)";
  QTest::newRow("Latin-1 name") << "y,x1,caf\xE9,x3\n1,2,3,4\n"_ba
                                << R"(:1:3: column 3 \('caf\\xE9'\): the name is not valid UTF-8 \(byte 0xE9\))";
  QTest::newRow("NUL in a name") << "y,x1,x\0"
                                    "2,x3\n1,2,3,4\n"_ba
                                 << R"(:1:3: .*control character \(byte 0x00\))";
  QTest::newRow("line break in a name") << "y,\"x\n1\",x2,x3\n1,2,3,4\n"_ba
                                        << R"(:1:2: .*line break)";
  QTest::newRow("huge duplicate name") << "y," + bigName + "," + bigName + "\n1,2,3\n"
                                       << R"(:1:3: duplicate column name 'n{60}\.\.\.' in columns 2 and 3$)";
  QTest::newRow("NUL in a cell") << "y,x1,x2,x3\n1,2,3\0,4\n"_ba
                                 << R"(:2:3: column 3 \('x2'\): '3\\x00': the text contains a control character)";
  QTest::newRow("bare CR, bad cell") << withLineEnds("y,x1,x2,x3\n1,2,3,4\n5,6,\"x,8\n", "\r")
                                     << R"(:3:3: column 3 \('x2'\): unterminated quote)";
  QTest::newRow("ZIP") << "PK\x03\x04\x14\0\0\0"_ba
                       << R"(:1:1: the file is a ZIP archive)";
}

void CliCsvInputsTest::rejects() {
  QFETCH(QByteArray, contents);
  QFETCH(QString, pattern);
  Scratch scratch;
  QVERIFY(scratch.isValid());
  writeFile(scratch.path("data.csv"), contents);
  const CliResult r = runGamboost(fitArgs(scratch, scratch.path("data.csv")));
  verifyRejected(r, QRegularExpression::escape(scratch.path("data.csv")) + pattern);
  if (QTest::currentTestFailed()) return;
  const QString line = r.errLines().front();
  QVERIFY2(line.size() < 400, qPrintable(line.left(400)));
  for (const QChar ch : line) QVERIFY2(ch.unicode() >= 0x20 && ch.unicode() != 0x7F, qPrintable(line));
  // No result, no model, no temporary file: only the data file remains.
  const QStringList left = QDir(scratch.root()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
  QCOMPARE(left, QStringList{"data.csv"});
}

void CliCsvInputsTest::fitsLikePlainText_data() {
  QTest::addColumn<QByteArray>("contents");
  const QByteArray plain = smallCsv(60);
  QTest::newRow("bare CR") << withLineEnds(plain, "\r");
  QTest::newRow("CRLF") << withLineEnds(plain, "\r\n");
  QTest::newRow("UTF-8 BOM") << "\xEF\xBB\xBF"_ba + plain;
  QTest::newRow("UTF-8 BOM, bare CR") << "\xEF\xBB\xBF"_ba + withLineEnds(plain, "\r");
  QByteArray mixed;
  int i = 0;
  for (const QByteArray& line : plain.split('\n')) mixed += line + (++i % 3 == 0 ? "\r" : i % 3 == 1 ? "\n" : "\r\n");
  QTest::newRow("mixed line ends") << mixed;
}

void CliCsvInputsTest::fitsLikePlainText() {
  QFETCH(QByteArray, contents);
  Scratch scratch;
  QVERIFY(scratch.isValid());
  writeFile(scratch.path("plain.csv"), smallCsv(60));
  writeFile(scratch.path("data.csv"), contents);
  const CliResult plainFit = runGamboost(fitArgs(scratch, scratch.path("plain.csv")));
  QVERIFY2(plainFit.exitCode == 0, qPrintable(plainFit.describe()));
  const nlohmann::json expected = readJsonFile(scratch.path("result.json"));
  const CliResult fit = runGamboost(fitArgs(scratch, scratch.path("data.csv")));
  QVERIFY2(fit.exitCode == 0 && fit.err.isEmpty(), qPrintable(fit.describe()));
  const nlohmann::json got = readJsonFile(scratch.path("result.json"));
  QCOMPARE(got["fitted"].size(), std::size_t{60});
  for (const char* key : {"fitted", "offset", "path", "learners"}) QVERIFY2(got[key] == expected[key], key);
}

// A header "a,b" (R's write.csv of a data frame with check.names = FALSE) could be fitted by default but never
// named: the lists split at every comma. A quoted name keeps its comma, as in the CSV; an open quote is an error.
void CliCsvInputsTest::namesWithCommasAreQuoted() {
  Scratch scratch;
  QByteArray csv = "y,\"a,b\",\"say \"\"hi\"\"\",x\n";
  for (int i = 0; i < 40; ++i)
    csv += QByteArray::number(i % 7) + "," + QByteArray::number(i * 0.025) + "," + QByteArray::number((i * 7) % 11) +
           "," + QByteArray::number(i % 5) + "\n";
  writeFile(scratch.path("d.csv"), csv);
  const QStringList base{"fit", "--data", scratch.path("d.csv"), "--knots", "4", "--out", scratch.path("r.json")};
  const CliResult fit = runGamboost(base + QStringList{"--spline", R"("a,b",x)", "--linear", R"("say ""hi""")"});
  QVERIFY2(fit.exitCode == 0, qPrintable(fit.describe()));
  std::vector<std::string> names;
  const nlohmann::json result = readJsonFile(scratch.path("r.json"));
  for (const auto& learner : result["learners"]) names.push_back(learner["name"]);
  const std::vector<std::string> expected{"a,b", "x", "say \"hi\""};
  QVERIFY(names == expected);
  verifyRejected(runGamboost(base + QStringList{"--spline", R"("a,b)"}), R"(--spline: '"a,b' opens a double quote)");
  // One name is written the same way: quoted or not, "a,b" names the column a,b as the response or the weights.
  for (const QString& response : {QString("a,b"), QString(R"("a,b")")}) {
    const CliResult named = runGamboost(
        base + QStringList{"--response", response, "--weights", R"("say ""hi""")", "--spline", "x", "--mstop", "5"});
    QVERIFY2(named.exitCode == 0, qPrintable(named.describe()));
    QCOMPARE(QString::fromStdString(readJsonFile(scratch.path("r.json"))["settings"]["response"]), QString("a,b"));
  }
}

QTEST_GUILESS_MAIN(CliCsvInputsTest)
#include "test_cli_csv_inputs.moc"

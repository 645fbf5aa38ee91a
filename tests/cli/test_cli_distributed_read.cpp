// `mpirun -np N gamboost fit --distributed` where each rank reads only its part of the CSV (data/CsvPart.hpp) and the
// set-up (levels, knots, Gram matrices, offsets, counts) comes from the ranks' reduced statistics: 2 and 3 ranks equal
// one process in double (identical selection path, fitted values and risk within 1e-12 normwise) on an R-style file
// (write.csv's quoted "" row-name column, NA cells dropped by --missing omit, text factors whose levels the ranks see
// differently, a linear learner), Gaussian and Binomial; an error anywhere (in a later rank's part too) is the one
// line one process gives, with its global file:line:column; and where a quote makes splitting by bytes unsafe, every
// rank reads the whole file (result.json says so) and the fit still equals one process.
#include <QFileInfo>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "support/CliRunner.hpp"
#include "support/MpiRunner.hpp"

using namespace gbtest;
using nlohmann::json;

#define SKIP_WITHOUT_MPI_OR_DEVICE()                                                           \
  do {                                                                                         \
    if (mpirun_.isEmpty()) QSKIP("mpirun is missing (scripts/setup.sh installs openmpi-bin)"); \
    if (address_.isEmpty()) QSKIP("no OpenCL device");                                         \
  } while (false)

namespace {

constexpr int kRows = 1500;
constexpr std::uint64_t kSeed = 20261127;

struct Row {
  double y, x1, x2, z;
  QByteArray g, h;  // g: text (quoted); h: quoted numbers early, a text late
  bool x2Missing, gMissing;
};

// The rows of the R-style file: y = 2 + sin(2 pi x1) + x2^2 + effect(g) + 0.1 z + 0.2 [h] + noise. Level "a" of g
// occurs only in the first 100 rows and "d" only in the last 100, so the ranks see different levels; h holds "1".."3"
// (numbers, quoted as write.csv quotes a factor) in every row but the last 50, which hold "x": a text column that is
// numeric in the earlier ranks' parts.
std::vector<Row> makeRows() {
  std::mt19937_64 random(kSeed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> noise(0.0, 0.3);
  std::vector<Row> rows;
  for (int i = 0; i < kRows; ++i) {
    Row r{};
    r.x1 = unit(random);
    r.x2 = 2.0 * unit(random) - 1.0;
    r.z = 10.0 * unit(random);
    const int level = i < 100 ? 0 : (i >= kRows - 100 ? 3 : 1 + static_cast<int>(unit(random) * 2.0));
    r.g = QByteArray(1, static_cast<char>('a' + level));
    const int h = 1 + static_cast<int>(unit(random) * 3.0);
    r.h = i >= kRows - 50 ? "x" : QByteArray::number(h);
    r.x2Missing = unit(random) < 0.03;
    r.gMissing = unit(random) < 0.02;
    r.y = 2.0 + std::sin(2.0 * M_PI * r.x1) + r.x2 * r.x2 + 0.5 * level + 0.1 * r.z + 0.2 * h + noise(random);
    rows.push_back(r);
  }
  return rows;
}

QByteArray number(double v) { return QByteArray::number(v, 'g', 15); }

// As R's write.csv writes it: quoted header with "" for the row names, quoted row names and texts, NA unquoted.
// binary: y replaced by 1 where above its median, else 0.
QByteArray rStyleCsv(const std::vector<Row>& rows, bool binary) {
  std::vector<double> y;
  for (const Row& r : rows) y.push_back(r.y);
  std::nth_element(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(y.size() / 2), y.end());
  const double median = y[y.size() / 2];
  QByteArray csv = "\"\",\"y\",\"x1\",\"x2\",\"g\",\"h\",\"z\"\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    csv += "\"" + QByteArray::number(static_cast<int>(i) + 1) + "\"," +
           (binary ? QByteArray(r.y > median ? "1" : "0") : number(r.y)) + "," + number(r.x1) + "," +
           (r.x2Missing ? QByteArray("NA") : number(r.x2)) + "," + (r.gMissing ? QByteArray("NA") : "\"" + r.g + "\"") +
           ",\"" + r.h + "\"," + number(r.z) + "\n";
  }
  return csv;
}

// The file's line holding data row `row` (0-based) replaced by `line`.
QByteArray withLine(const QByteArray& csv, int row, const QByteArray& line) {
  QList<QByteArray> lines = csv.split('\n');
  lines[row + 1] = line;
  return lines.join('\n');
}

}  // namespace

class CliDistributedReadTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void ranksEqualOneProcess_data();
  void ranksEqualOneProcess();
  void errorsAsOneProcess_data();
  void errorsAsOneProcess();
  void strayQuoteReadsWholeFile();
  void lineBreakInQuotesReadsWholeFile();

 private:
  QStringList fitOptions(const QString& data, const QString& family) const;
  QString mpirun_, address_;
  Scratch scratch_;
};

void CliDistributedReadTest::initTestCase() {
  mpirun_ = findMpirun();
  address_ = defaultOpenClAddress();
  QVERIFY(scratch_.isValid());
  qInfo("data seed %llu, %d rows", static_cast<unsigned long long>(kSeed), kRows);
  const std::vector<Row> rows = makeRows();
  writeFile(scratch_.path("gaussian.csv"), rStyleCsv(rows, false));
  writeFile(scratch_.path("binomial.csv"), rStyleCsv(rows, true));
}

QStringList CliDistributedReadTest::fitOptions(const QString& data, const QString& family) const {
  return {"fit",   "--data",      data,     "--family", family,   "--response", "y", "--spline",
          "x1,x2", "--linear",    "z",      "--factor", "g,h",    "--knots",    "8", "--mstop",
          "100",   "--precision", "double", "--device", address_, "--quiet"};
}

void CliDistributedReadTest::ranksEqualOneProcess_data() {
  QTest::addColumn<QString>("family");
  QTest::addColumn<int>("ranks");
  QTest::newRow("gaussian, 2 ranks") << "gaussian" << 2;
  QTest::newRow("gaussian, 3 ranks") << "gaussian" << 3;
  QTest::newRow("binomial, 2 ranks") << "binomial" << 2;
  QTest::newRow("binomial, 3 ranks") << "binomial" << 3;
}

void CliDistributedReadTest::ranksEqualOneProcess() {
  QFETCH(QString, family);
  QFETCH(int, ranks);
  SKIP_WITHOUT_MPI_OR_DEVICE();
  const QString data = scratch_.path(family + ".csv");
  const QString one = scratch_.path(family + "-one.json");
  if (!QFileInfo::exists(one)) {
    const CliResult r =
        runGamboost(fitOptions(data, family) + QStringList{"--backend", "opencl", "--out", one}, 300000);
    if (r.exitCode == 2 && r.err.contains("fp64")) QSKIP("device has no fp64");
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  }
  const QString out = scratch_.path(family + "-" + QString::number(ranks) + ".json");
  const CliResult r = runRanks(mpirun_, ranks, fitOptions(data, family) + QStringList{"--distributed", "--out", out});
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  const json a = readJson(one), b = readJson(out);
  QCOMPARE(b["path"]["learner"], a["path"]["learner"]);
  QCOMPARE(b["rows_used"], a["rows_used"]);
  QCOMPARE(b["rows_omitted_by_column"], a["rows_omitted_by_column"]);
  QVERIFY(a["rows_omitted"].get<int>() > 0);
  QCOMPARE(b["learners"].size(), a["learners"].size());
  for (std::size_t j = 0; j < a["learners"].size(); ++j) {
    const json& x = a["learners"][j];
    const json& y = b["learners"][j];
    QVERIFY2(x.value("levels", json()) == y.value("levels", json()), y.dump().c_str());
    QCOMPARE(y.value("knots", json()).size(), x.value("knots", json()).size());
    // lambda solves edf(lambda) = omega on G summed in another order: equal to a few units in the last place.
    const double lambda = x["lambda"], other = y["lambda"];
    QVERIFY2(std::abs(lambda - other) <= 1e-8 * std::max(1.0, std::abs(lambda)), qPrintable(QString::number(other)));
  }
  QCOMPARE(a["learners"][3]["levels"], json({"a", "b", "c", "d"}));  // g: levels from the first and the last rank
  QCOMPARE(a["learners"][4]["levels"], json({"1", "2", "3", "x"}));  // h: numbers as texts, "x" from the last
  const double fitted = relativeDifference(a["fitted"], b["fitted"]);
  const double risk = relativeDifference(a["path"]["risk"], b["path"]["risk"]);
  const double offset = std::abs(a["offset"].get<double>() - b["offset"].get<double>());
  qInfo("%s, %d ranks: fitted values %.3g, risk %.3g normwise, offset %.3g", qPrintable(family), ranks, fitted, risk,
        offset);
  QVERIFY2(fitted <= 1e-12, qPrintable(QString::number(fitted)));
  QVERIFY2(risk <= 1e-12, qPrintable(QString::number(risk)));
  verifyPartsRead(b["distributed"], ranks, QFileInfo(data).size(), kRows);
}

void CliDistributedReadTest::errorsAsOneProcess_data() {
  QTest::addColumn<QByteArray>("csv");
  QTest::addColumn<QString>("family");
  QTest::addColumn<QStringList>("options");
  const std::vector<Row> rows = makeRows();
  const QByteArray csv = rStyleCsv(rows, false), binary = rStyleCsv(rows, true);
  std::vector<Row> complete = rows;  // one missing value, late in the file
  for (Row& r : complete) r.x2Missing = r.gMissing = false;
  complete[1250].x2Missing = true;
  const QStringList none;
  QTest::newRow("too few fields, row 1200") << withLine(csv, 1200, "\"1201\",1,0.5,0.5,\"b\"") << "gaussian" << none;
  QTest::newRow("blank line, row 700") << withLine(csv, 700, "") << "gaussian" << none;
  QTest::newRow("infinite x1, row 1400") << withLine(csv, 1400, "\"1401\",1,1e999,0.5,\"b\",\"1\",3") << "gaussian"
                                         << none;
  // "b"x reads as bx, as R's read.csv reads it; a quote reopened after it and left open on its line is an error.
  QTest::newRow("bad quote, row 1300") << withLine(csv, 1300, "\"1301\",1,0.5,0.5,\"b\"x\",\"1\",3") << "gaussian"
                                       << none;
  QTest::newRow("--missing fail, row 1250")
      << rStyleCsv(complete, false) << "gaussian" << QStringList{"--missing", "fail"};
  QTest::newRow("binomial response 2, row 1100")
      << withLine(binary, 1100, "\"1101\",2,0.5,0.5,\"b\",\"1\",3") << "binomial" << none;
  QTest::newRow("text in a spline, row 1450")
      << withLine(csv, 1450, "\"1451\",1,abc,0.5,\"b\",\"1\",3") << "gaussian" << none;
}

// The same one line as one process (its global line and column), a non-zero status, no result file.
void CliDistributedReadTest::errorsAsOneProcess() {
  QFETCH(QByteArray, csv);
  QFETCH(QString, family);
  QFETCH(QStringList, options);
  SKIP_WITHOUT_MPI_OR_DEVICE();
  const QString data = scratch_.path("bad.csv");
  writeFile(data, csv);
  const QStringList fit = fitOptions(data, family) + options;
  const CliResult one = runGamboost(fit + QStringList{"--backend", "opencl", "--out", scratch_.path("bad-1.json")});
  QVERIFY2(one.exitCode == 2 && one.errLines().size() == 1, qPrintable(one.describe()));
  for (int ranks : {2, 3}) {
    const QString out = scratch_.path("bad-n.json");
    const CliResult r = runRanks(mpirun_, ranks, fit + QStringList{"--distributed", "--out", out});
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe()));
    QCOMPARE(gamboostLines(r), QStringList{one.errLines().front()});
    QVERIFY(!QFileInfo::exists(out));
  }
  qInfo("%s", qPrintable(one.errLines().front()));
}

// A text cell holding a quote (12" as inches) makes the quotes' parity odd at every later part's start: a part could
// start inside a quoted field for all the ranks know, so every rank reads the whole file and keeps its rows.
void CliDistributedReadTest::strayQuoteReadsWholeFile() {
  SKIP_WITHOUT_MPI_OR_DEVICE();
  const QString data = scratch_.path("quote.csv");
  writeFile(data, withLine(rStyleCsv(makeRows(), false), 10, "\"11\",3,0.5,0.5,b\",\"1\",3"));
  const QString one = scratch_.path("quote-1.json"), out = scratch_.path("quote-2.json");
  const CliResult a = runGamboost(fitOptions(data, "gaussian") + QStringList{"--backend", "opencl", "--out", one});
  QVERIFY2(a.exitCode == 0, qPrintable(a.describe()));
  const CliResult r = runRanks(mpirun_, 2, fitOptions(data, "gaussian") + QStringList{"--distributed", "--out", out});
  QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
  const json x = readJson(one), y = readJson(out);
  QCOMPARE(y["path"]["learner"], x["path"]["learner"]);
  QVERIFY(relativeDifference(x["fitted"], y["fitted"]) <= 1e-12);
  QVERIFY2(y["distributed"]["read"].get<std::string>().rfind("whole file: a quoted field", 0) == 0,
           y["distributed"].dump().c_str());
  for (const json& p : y["distributed"]["parts"]) QCOMPARE(p["rows_read"], json(kRows));
  QVERIFY2(r.err.contains("gamboost: note: --distributed: every rank reads the whole file"), qPrintable(r.err));
}

// A quoted cell spanning lines across a part's start: the ranks fall back to the whole file, whose reader rejects it
// as one process does (a data cell cannot span lines), with the same line.
void CliDistributedReadTest::lineBreakInQuotesReadsWholeFile() {
  SKIP_WITHOUT_MPI_OR_DEVICE();
  const QString data = scratch_.path("spans.csv");
  const QByteArray csv = rStyleCsv(makeRows(), false);
  writeFile(data, withLine(withLine(csv, 100, "\"101\",3,0.5,0.5,\"b"), kRows - 5, "c\",\"1\",3"));
  const CliResult one =
      runGamboost(fitOptions(data, "gaussian") + QStringList{"--backend", "opencl", "--out", scratch_.path("s.json")});
  QVERIFY2(one.exitCode == 2 && one.errLines().size() == 1, qPrintable(one.describe()));
  QVERIFY2(one.err.contains(":102:") && one.err.contains("span"), qPrintable(one.describe()));
  const CliResult r = runRanks(
      mpirun_, 2, fitOptions(data, "gaussian") + QStringList{"--distributed", "--out", scratch_.path("s2.json")});
  QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe()));
  QVERIFY2(r.err.contains("gamboost: note: --distributed: every rank reads the whole file (a quoted field"),
           qPrintable(r.err));
  QVERIFY2(r.errLines().contains(one.errLines().front()), qPrintable(r.describe()));
}

QTEST_GUILESS_MAIN(CliDistributedReadTest)
#include "test_cli_distributed_read.moc"

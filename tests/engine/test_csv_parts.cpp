// readCsvPart (data/CsvPart.hpp), the read of `fit --distributed`, without MPI: N threads stand for N processes, joined
// by an in-process ShardReducer. For 1 to 6 parts, the parts laid end to end must be the table readCsv gives (names,
// kinds, levels, every value, NaN where missing) and each part must have parsed only its own bytes; a file readCsv
// rejects must give every part readCsv's very message (file:line:column), wherever the split falls; and a quote that
// makes splitting unsafe must send every part to the whole file.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

#include "data/CsvPart.hpp"
#include "support/TestSupport.hpp"

namespace {

// N "processes" as threads: every collective waits for all N, then each reads every part's contribution.
class ThreadGroup {
 public:
  explicit ThreadGroup(int n) : n_(n), slots_(static_cast<std::size_t>(n)), texts_(static_cast<std::size_t>(n)) {}

  class Member final : public gb::ShardReducer {
   public:
    Member(ThreadGroup& g, int p) : g_(g), p_(p) {}
    void sum(std::vector<double>& values) override {
      const std::vector<std::vector<double>> all = allGather(values);
      for (std::size_t i = 0; i < values.size(); ++i) {
        double total = all[0].at(i);
        for (std::size_t r = 1; r < all.size(); ++r) total += all[r].at(i);
        values[i] = total;
      }
    }
    int processes() const override { return g_.n_; }
    int process() const override { return p_; }
    std::vector<std::vector<double>> allGather(const std::vector<double>& local) override {
      return g_.exchange(g_.slots_, p_, local);
    }
    std::vector<std::string> allGatherText(const std::string& local) override {
      return g_.exchange(g_.texts_, p_, local);
    }
    std::vector<double> gather(const std::vector<double>& local) override {
      std::vector<double> out;
      for (const auto& part : allGather(local)) out.insert(out.end(), part.begin(), part.end());
      return out;
    }

   private:
    ThreadGroup& g_;
    int p_;
  };

 private:
  template <typename T>
  std::vector<T> exchange(std::vector<T>& cells, int p, const T& local) {
    cells[static_cast<std::size_t>(p)] = local;
    barrier();
    std::vector<T> all = cells;
    barrier();  // nobody writes the next round before everyone has read this one
    return all;
  }
  void barrier() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long generation = generation_;
    if (++waiting_ == n_) {
      waiting_ = 0;
      ++generation_;
      wake_.notify_all();
      return;
    }
    wake_.wait(lock, [&] { return generation_ != generation; });
  }

  int n_;
  std::vector<std::vector<double>> slots_;
  std::vector<std::string> texts_;
  std::mutex mutex_;
  std::condition_variable wake_;
  int waiting_ = 0;
  long generation_ = 0;
};

struct PartResult {
  gb::Dataset data;
  gb::CsvPartInfo info;
  QString error;  // the InputError's message, "" when none
};

std::vector<PartResult> readParts(const std::string& path, int n) {
  ThreadGroup group(n);
  std::vector<PartResult> out(static_cast<std::size_t>(n));
  std::vector<std::thread> threads;
  for (int p = 0; p < n; ++p)
    threads.emplace_back([&, p] {
      ThreadGroup::Member member(group, p);
      PartResult& r = out[static_cast<std::size_t>(p)];
      gb::CsvOptions options;
      options.blockBytes = 64;  // small blocks: rows cross block edges, the range's end included
      options.threads = 1;
      try {
        r.data = gb::readCsvPart(path, member, options, &r.info);
      } catch (const gb::InputError& e) {
        r.error = QString::fromStdString(e.what());
      }
    });
  for (std::thread& t : threads) t.join();
  return out;
}

bool sameValue(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// The parts laid end to end against readCsv's table.
void verifyParts(const std::vector<PartResult>& parts, const gb::Dataset& whole, bool wholeFile) {
  std::size_t row = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const PartResult& r = parts[p];
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.data.names, whole.names);
    QCOMPARE(r.data.levels, whole.levels);
    QVERIFY(r.data.kinds == whole.kinds);
    QCOMPARE(r.data.rowLabelsNote, whole.rowLabelsNote);
    QCOMPARE(r.data.firstRow, row);
    QCOMPARE(r.info.wholeFile.empty(), !wholeFile);
    QCOMPARE(r.info.rowsRead, wholeFile ? whole.rows() : r.data.rows());
    for (std::size_t c = 0; c < whole.cols(); ++c)
      for (std::size_t i = 0; i < r.data.rows(); ++i)
        QVERIFY2(sameValue(r.data.columns[c][i], whole.columns[c][row + i]),
                 qPrintable(QString("part %1, column %2, row %3").arg(p).arg(c).arg(row + i)));
    if (!wholeFile && p > 0) QCOMPARE(r.info.begin, parts[p - 1].info.end);
    row += r.data.rows();
  }
  QCOMPARE(row, whole.rows());
}

QByteArray rStyle(int rows) {
  QByteArray csv = "\"\",\"y\",\"x\",\"f\",\"h\"\n";
  for (int i = 0; i < rows; ++i) {
    const QByteArray f = i < 3 ? "early" : (i >= rows - 3 ? "late" : (i % 2 ? "odd" : "even"));
    const QByteArray h = i >= rows - 2 ? "word" : QByteArray::number(i % 4);  // text only at the very end
    csv += "\"" + QByteArray::number(i + 1) + "\"," + QByteArray::number(0.5 * i - 3) + "," +
           (i % 7 == 3 ? QByteArray("NA") : QByteArray::number(i * 0.25)) + "," +
           (i % 11 == 5 ? QByteArray("NA") : "\"" + f + "\"") + ",\"" + h + "\"\n";
  }
  return csv;
}

QByteArray numeric(int rows, const QByteArray& lineEnd) {
  QByteArray csv = "y,x1,x2" + lineEnd;
  for (int i = 0; i < rows; ++i)
    csv += QByteArray::number(i) + "," + QByteArray::number(i * 0.5) + "," + (i % 5 == 2 ? "" : "7") + lineEnd;
  return csv;
}

QByteArray replaceLine(const QByteArray& csv, int line, const QByteArray& text) {  // line 1 is the header
  QList<QByteArray> lines = csv.split('\n');
  lines[line - 1] = text;
  return lines.join('\n');
}

}  // namespace

class CsvPartsTest : public QObject {
  Q_OBJECT

 private slots:
  void partsMakeTheTable_data();
  void partsMakeTheTable();
  void errorsAsOneReader_data();
  void errorsAsOneReader();
  void strayQuoteReadsWholeFile();

 private:
  std::string write(const QByteArray& csv) {
    const std::string path = dir_.filePath(QString("f%1.csv").arg(++files_)).toStdString();
    std::ofstream(path, std::ios::binary).write(csv.constData(), csv.size());
    return path;
  }
  QTemporaryDir dir_{QString::fromStdString(gbtest::scratchRoot()) + "/csv-parts-XXXXXX"};
  int files_ = 0;
};

void CsvPartsTest::partsMakeTheTable_data() {
  QTest::addColumn<QByteArray>("csv");
  QTest::newRow("R-style: row names, NA, text levels seen by some parts") << rStyle(40);
  QTest::newRow("numeric, LF") << numeric(30, "\n");
  QTest::newRow("numeric, CRLF") << numeric(30, "\r\n");
  QTest::newRow("numeric, lone CR") << numeric(30, "\r");
  QTest::newRow("no line break at the end") << numeric(12, "\n").chopped(1);
  QTest::newRow("blank lines at the end") << numeric(12, "\n") + "\n\n\n";
  QTest::newRow("BOM, quoted header") << "\xEF\xBB\xBF\"y\",\"x, 1\",\"z\"\n" + numeric(20, "\n").mid(8);
  QTest::newRow("two rows") << QByteArray("y,x\n1,2\n3,4\n");
  QTest::newRow("tabs, a comma in a name") << QByteArray("y\ta,b\n1\t2\n3\t4\n5\t6\n7\t8\n");
  QTest::newRow("quoted texts with delimiters") << QByteArray("y,t\n1,\"a,b\"\n2,\"c\"\"d\"\n3,e\n4,\"a,b\"\n5,f\n");
  // R's logical spellings, decided over the whole file: a column that is logical in its early parts only (a later
  // part holds x), one whose blanks come first (missing, as the whole file is logical), and one logical throughout.
  QByteArray logical = "y,a,b,c\n";
  for (int i = 0; i < 30; ++i)
    logical += QByteArray::number(i) + "," + (i < 25 ? (i % 2 ? "T" : "FALSE") : "x") + "," +
               (i < 10 ? " " : (i % 3 ? "T" : "F")) + "," + (i % 4 ? "TRUE" : "FALSE") + "\n";
  QTest::newRow("logical spellings across parts") << logical;
}

void CsvPartsTest::partsMakeTheTable() {
  QFETCH(QByteArray, csv);
  const std::string path = write(csv);
  const gb::Dataset whole = gb::readCsv(path);
  for (int n = 1; n <= 6; ++n) {
    verifyParts(readParts(path, n), whole, false);
    if (QTest::currentTestFailed()) qInfo("with %d parts", n);
  }
}

void CsvPartsTest::errorsAsOneReader_data() {
  QTest::addColumn<QByteArray>("csv");
  const QByteArray r = rStyle(40);
  QTest::newRow("too few fields, line 30") << replaceLine(r, 30, "\"29\",1,2");
  QTest::newRow("too many fields, line 8") << replaceLine(r, 8, "\"7\",1,2,\"a\",\"b\",9");
  QTest::newRow("blank line, line 21") << replaceLine(r, 21, "");
  QTest::newRow("blank lines, lines 12 to 14") << replaceLine(replaceLine(replaceLine(r, 12, ""), 13, ""), 14, "");
  QTest::newRow("infinite x, line 35") << replaceLine(r, 35, "\"34\",1,1e999,\"a\",\"1\"");
  QTest::newRow("Inf in a text column is a level") << replaceLine(r, 35, "\"34\",1,2,Inf,\"1\"");
  QTest::newRow("unterminated quote, line 40") << replaceLine(r, 40, "\"39\",1,2,\"a,\"1\"");
  QTest::newRow("control character, line 26") << replaceLine(r, 26, "\"25\",1,2,\"a\x01\",\"1\"");
  QTest::newRow("decimal commas") << QByteArray("y;x\n1;2,5\n2;3,5\n3;4,5\n4;5,5\n5;6,5\n6;7,5\n");
  QTest::newRow("CRLF converted twice") << numeric(30, "\r\r\n");
  QTest::newRow("unterminated quote at the end") << rStyle(40) + "\"41\",1,2,\"abc";
  QTest::newRow("header only") << QByteArray("y,x\n");
  QTest::newRow("header and blank lines") << QByteArray("y,x\n\n\n\n");
}

// Every part gets readCsv's message.
void CsvPartsTest::errorsAsOneReader() {
  QFETCH(QByteArray, csv);
  const std::string path = write(csv);
  const QString expected = gbtest::inputErrorOf([&] { gb::readCsv(path); });
  for (int n = 1; n <= 6; ++n) {
    const std::vector<PartResult> parts = readParts(path, n);
    if (expected == "<no InputError>") {
      verifyParts(parts, gb::readCsv(path), false);
      continue;
    }
    for (const PartResult& part : parts)
      QVERIFY2(part.error == expected,
               qPrintable(QString("%1 parts: %2\nexpected %3").arg(n).arg(part.error, expected)));
  }
  qInfo("%s", qPrintable(expected));
}

// A text holding a quote (12" as inches) makes every later part's start possibly inside quotes: whole file.
void CsvPartsTest::strayQuoteReadsWholeFile() {
  const std::string path = write(replaceLine(rStyle(40), 5, "\"4\",1,2,12\",\"1\""));
  const gb::Dataset whole = gb::readCsv(path);
  for (int n = 2; n <= 4; ++n) {
    const std::vector<PartResult> parts = readParts(path, n);
    verifyParts(parts, whole, true);
    QCOMPARE(QString::fromStdString(parts[0].info.wholeFile),
             QString("a quoted field may span a part's start (an odd number of quotes before it)"));
  }
}

QTEST_GUILESS_MAIN(CsvPartsTest)
#include "test_csv_parts.moc"

// Every malformed-CSV case must be one InputError line "path:line:column: message" that names the problem,
// where line counts the header as 1 and column is the 1-based field number.
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "common/Error.hpp"
#include "data/CsvReader.hpp"
#include "support/TestSupport.hpp"

class TestCsvErrors : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_{QString::fromStdString(gbtest::scratchRoot() + "/csv-errors-XXXXXX")};
  int fileCounter_ = 0;

  std::string writeFile(const QByteArray& content) {
    const std::string path = dir_.path().toStdString() + "/bad" + std::to_string(fileCounter_++) + ".csv";
    std::ofstream(path, std::ios::binary).write(content.data(), content.size());
    return path;
  }

  // Reads `path` expecting an InputError; returns its message.
  static QString readError(const std::string& path, std::size_t blockBytes = gb::CsvOptions{}.blockBytes) {
    gb::CsvOptions options;
    options.blockBytes = blockBytes;
    try {
      gb::readCsv(path, options);
    } catch (const gb::InputError& e) {
      return QString::fromStdString(e.what());
    }
    return {};
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void missingFile() {
    const std::string path = dir_.path().toStdString() + "/no-such-file.csv";
    QCOMPARE(readError(path), QString::fromStdString(path + ": cannot open: No such file or directory"));
    QVERIFY_THROWS_EXCEPTION(gb::InputError, gb::readCsvHead(path, 5));
  }

  void directoryIsNotAFile() { QVERIFY(readError(dir_.path().toStdString()).contains("cannot open: Is a directory")); }

  void malformed_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("where");  // ":line:column:"
    QTest::addColumn<QStringList>("says");
    QTest::newRow("empty file") << QByteArray() << ":1:1:" << QStringList{"empty file"};
    QTest::newRow("only blank lines") << QByteArray("\n \r\n\n") << ":1:1:" << QStringList{"empty file"};
    QTest::newRow("BOM only") << QByteArray("\xEF\xBB\xBF") << ":1:1:" << QStringList{"empty file"};
    QTest::newRow("header only") << QByteArray("y,x1\n") << ":2:1:" << QStringList{"no data rows"};
    QTest::newRow("header only, no newline") << QByteArray("y,x1") << ":2:1:" << QStringList{"no data rows"};
    QTest::newRow("too many fields") << QByteArray("y,x1\n1,2\n3,4,5,6\n")
                                     << ":3:3:" << QStringList{"too many fields", "4 in this row", "2 in the header"};
    QTest::newRow("too few fields") << QByteArray("y,x1,x2\n1,2,3\n4,5\n") << ":3:3:"
                                    << QStringList{"too few fields", "2 in this row", "3 in the header", "'x2'"};
    QTest::newRow("too few fields, last row without newline")
        << QByteArray("y,x1,x2\n1,2,3\n4") << ":3:2:" << QStringList{"too few fields", "1 in this row"};
    QTest::newRow("non-numeric") << QByteArray("y,x1,x2\n1,2,3\n4,abc,6\n")
                                 << ":3:2:" << QStringList{"column 2 ('x1')", "not a number", "'abc'"};
    QTest::newRow("number then text") << QByteArray("y,x1\n1.5x,2\n")
                                      << ":2:1:" << QStringList{"column 1 ('y')", "not a number", "'1.5x'"};
    QTest::newRow("decimal comma") << QByteArray("y;x1\n1;2,5\n")
                                   << ":2:2:" << QStringList{"column 2 ('x1')", "not a number", "'2,5'"};
    QTest::newRow("quoted text") << QByteArray("y,x1\n1,\"two\"\n") << ":2:2:" << QStringList{"not a number", "'two'"};
    QTest::newRow("long text is truncated") << (QByteArray("y,x1\n1,") + QByteArray(200, 'a') + "\n")
                                            << ":2:2:" << QStringList{"not a number", "'" + QString(40, 'a') + "...'"};
    for (const char* token : {"NaN", "nan", "Inf", "inf", "-inf", "Infinity", "1e999", "-1e400"})
      QTest::newRow(token) << (QByteArray("y,x1,x2\n1,2,3\n4,5,") + token + "\n")
                           << ":3:3:" << QStringList{"column 3 ('x2')", "not finite", QString("'%1'").arg(token)};
    QTest::newRow("empty last cell") << QByteArray("y,x1\n1,\n")
                                     << ":2:2:" << QStringList{"column 2 ('x1')", "empty cell"};
    QTest::newRow("empty first cell") << QByteArray("y,x1\n,2\n") << ":2:1:" << QStringList{"empty cell"};
    QTest::newRow("empty middle cell") << QByteArray("y,x1,x2\n1,2,3\n1,,3\n") << ":3:2:" << QStringList{"empty cell"};
    QTest::newRow("blank cell") << QByteArray("y,x1\n1,   \r\n") << ":2:2:" << QStringList{"empty cell"};
    QTest::newRow("empty quoted cell") << QByteArray("y,x1\n1,\"\"\n") << ":2:2:" << QStringList{"empty cell"};
    QTest::newRow("empty cell at end of file") << QByteArray("y,x1\n1,") << ":2:2:" << QStringList{"empty cell"};
    QTest::newRow("duplicate names") << QByteArray("y,x1,x2,x1\n1,2,3,4\n")
                                     << ":1:4:" << QStringList{"duplicate column name 'x1'", "columns 2 and 4"};
    QTest::newRow("empty column name") << QByteArray("y,,x2\n1,2,3\n")
                                       << ":1:2:" << QStringList{"empty column name", "column 2"};
    QTest::newRow("trailing delimiter in header")
        << QByteArray("y,x1,\n1,2,3\n") << ":1:3:" << QStringList{"empty column name"};
    QTest::newRow("unterminated quote in a cell")
        << QByteArray("y,x1\n1,2\n3,\"4\n5,6\n") << ":3:2:" << QStringList{"column 2 ('x1')", "unterminated quote"};
    QTest::newRow("unterminated quote at end")
        << QByteArray("y,x1\n1,\"2") << ":2:2:" << QStringList{"unterminated quote"};
    QTest::newRow("unterminated quote in header")
        << QByteArray("y,\"x1\n1,2\n") << ":1:2:" << QStringList{"unterminated quote"};
    QTest::newRow("text after closing quote")
        << QByteArray("y,x1\n\"1\"2,3\n") << ":2:1:" << QStringList{"after the closing quote"};
    QTest::newRow("blank line inside the data")
        << QByteArray("y,x1\n1,2\n\n3,4\n") << ":3:1:" << QStringList{"empty line"};
    // Line numbers stay physical: a quoted header name spanning two lines, CRLF endings.
    QTest::newRow("line count after a two-line header")
        << QByteArray("y,\"x\r\n1\"\r\n1,2\r\nabc,3\r\n") << ":4:1:" << QStringList{"'abc'"};
  }

  void malformed() {
    QFETCH(QByteArray, content);
    QFETCH(QString, where);
    QFETCH(QStringList, says);
    const std::string path = writeFile(content);
    // The same message whether the file arrives in one block or in tiny ones (errors are judged on whole fields).
    for (const std::size_t block : {std::size_t{1} << 20, std::size_t{16}, std::size_t{21}}) {
      const QString message = readError(path, block);
      QVERIFY2(!message.isEmpty(), "no InputError thrown");
      QVERIFY2(message.startsWith(QString::fromStdString(path) + where), qPrintable(message));
      QVERIFY2(!message.contains('\n'), qPrintable(message));
      for (const QString& part : says) QVERIFY2(message.contains(part), qPrintable(message + "  <- wants: " + part));
    }
    QVERIFY_THROWS_EXCEPTION(gb::InputError, gb::readCsvHead(path, 1000));
  }

  void errorsFarIntoALargeFile() {
    QByteArray content = "y,x1\n";
    for (int r = 0; r < 20000; ++r) content += QByteArray::number(r) + ",0.25\n";
    content += "1,2,3\n";
    const QString message = readError(writeFile(content), 4096);
    QVERIFY2(message.contains(":20002:3: too many fields"), qPrintable(message));
  }

  void badDelimiterOption() {
    gb::CsvOptions options;
    options.delimiter = '"';
    try {
      gb::readCsv(writeFile("y,x\n1,2\n"), options);
      QFAIL("no error");
    } catch (const gb::InputError& e) {
      QVERIFY2(QString(e.what()).startsWith("--delimiter: "), e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestCsvErrors)
#include "test_csv_errors.moc"

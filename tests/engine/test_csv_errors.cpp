// Every malformed-CSV case must be one InputError line "path:line:column: message" that names the problem,
// where line counts the header as 1 and column is the 1-based field number.
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "common/Error.hpp"
#include "data/CsvReader.hpp"
#include "support/TestSupport.hpp"

namespace {

// Text that is not UTF-8 is named, by its byte order mark or by the NUL bytes of an ASCII header.
void encodingRows() {
  using namespace Qt::Literals::StringLiterals;
  const QByteArray ascii = "y,x1\n1,2\n";
  QByteArray le16, be16, le32, be32;
  for (const char ch : ascii) {
    le16 += QByteArray(1, ch) + QByteArray(1, '\0');
    be16 += QByteArray(1, '\0') + QByteArray(1, ch);
    le32 += QByteArray(1, ch) + QByteArray(3, '\0');
    be32 += QByteArray(3, '\0') + QByteArray(1, ch);
  }
  const QString le16Says = "the file is UTF-16 (little-endian) text; save it as UTF-8";
  const QString be16Says = "the file is UTF-16 (big-endian) text; save it as UTF-8";
  QTest::newRow("UTF-16 LE with BOM") << "\xFF\xFE"_ba + le16 << ":1:1:" << QStringList{le16Says};
  QTest::newRow("UTF-16 BE with BOM") << "\xFE\xFF"_ba + be16 << ":1:1:" << QStringList{be16Says};
  QTest::newRow("UTF-16 LE without BOM") << le16 << ":1:1:" << QStringList{le16Says};
  QTest::newRow("UTF-16 BE without BOM") << be16 << ":1:1:" << QStringList{be16Says};
  // CJK names have no NUL byte in UTF-16; the ASCII digits and delimiters after them do.
  const QString cjk = QString::fromUtf8("\xE5\x90\x8C,\xE5\xB9\xB4\xE9\xBD\xA2\n1,2\n3,4\n");
  QByteArray cjkLe, cjkBe;
  for (const QChar ch : cjk) {
    cjkLe +=
        QByteArray(1, static_cast<char>(ch.unicode() & 0xFF)) + QByteArray(1, static_cast<char>(ch.unicode() >> 8));
    cjkBe +=
        QByteArray(1, static_cast<char>(ch.unicode() >> 8)) + QByteArray(1, static_cast<char>(ch.unicode() & 0xFF));
  }
  QTest::newRow("UTF-16 LE without BOM, CJK header") << cjkLe << ":1:1:" << QStringList{le16Says};
  QTest::newRow("UTF-16 BE without BOM, CJK header") << cjkBe << ":1:1:" << QStringList{be16Says};
  QTest::newRow("UTF-16 LE, one character") << "y\0"_ba
                                            << ":1:1:" << QStringList{le16Says};
  QTest::newRow("UTF-32 LE with BOM") << "\xFF\xFE\0\0"_ba + le32 << ":1:1:" << QStringList{"UTF-32 (little-endian)"};
  QTest::newRow("UTF-32 BE with BOM") << "\0\0\xFE\xFF"_ba + be32 << ":1:1:" << QStringList{"UTF-32 (big-endian)"};
  QTest::newRow("UTF-32 LE without BOM") << le32 << ":1:1:" << QStringList{"UTF-32 (little-endian) text"};
  QTest::newRow("UTF-32 BE without BOM") << be32 << ":1:1:" << QStringList{"UTF-32 (big-endian) text"};
  QTest::newRow("ZIP (a workbook)") << "PK\x03\x04\x14\0\0\0"_ba
                                    << ":1:1:" << QStringList{"ZIP archive", ".xlsx"};
  QTest::newRow("gzip") << "\x1F\x8B\x08\0"_ba
                        << ":1:1:" << QStringList{"gzip-compressed"};
  QTest::newRow("NUL bytes") << QByteArray(64, '\0') << ":1:1:" << QStringList{"not text", "NUL byte"};
}

// Column names must be UTF-8 without control characters; a message shows them escaped.
void nameRows() {
  using namespace Qt::Literals::StringLiterals;
  const QString notUtf8 = "the name is not valid UTF-8 (byte 0x%1); save the file as UTF-8";
  QTest::newRow("Latin-1 name") << "y,x1,caf\xE9\n1,2,3\n"_ba
                                << ":1:3:" << QStringList{R"(column 3 ('caf\xE9'))", notUtf8.arg("E9")};
  QTest::newRow("Latin-1 quoted name") << "y,\"\xFC\"\n1,2\n"_ba
                                       << ":1:2:" << QStringList{notUtf8.arg("FC")};
  QTest::newRow("cut UTF-8 sequence") << "y,x\xC3\n1,2\n"_ba
                                      << ":1:2:" << QStringList{notUtf8.arg("C3")};
  QTest::newRow("overlong UTF-8") << "\xC0\xAFy,x\n1,2\n"_ba
                                  << ":1:1:" << QStringList{notUtf8.arg("C0")};
  QTest::newRow("UTF-16 surrogate in UTF-8") << "y,\xED\xA0\x80\n1,2\n"_ba
                                             << ":1:2:" << QStringList{notUtf8.arg("ED")};
  QTest::newRow("NUL in a name") << "y,a\0b\n1,2\n"_ba
                                 << ":1:2:" << QStringList{R"(column 2 ('a\x00b'))", "control character (byte 0x00)"};
  QTest::newRow("DEL in a name") << "y,a\x7F\n1,2\n"_ba
                                 << ":1:2:" << QStringList{"control character (byte 0x7F)"};
  QTest::newRow("escape in a name") << "\x1B[31my,x\n1,2\n"_ba
                                    << ":1:1:" << QStringList{"(byte 0x1B)"};
  QTest::newRow("line break in a quoted name")
      << "y,\"x\r\n1\"\r\n1,2\r\n"_ba
      << ":1:2:" << QStringList{R"(column 2 ('x\x0D\x0A1'))", "line break (byte 0x0D)"};
  QTest::newRow("bare CR in a quoted name") << "y,\"x\r1\"\n1,2\n"_ba
                                            << ":1:2:" << QStringList{"(byte 0x0D)"};
  QTest::newRow("C1 control in a name") << "y,a\xC2\x85\n1,2\n"_ba
                                        << ":1:2:" << QStringList{"control character (U+0085)"};
  QTest::newRow("BOM inside a name") << "\xEF\xBB\xBF\xEF\xBB\xBFy,x\n1,2\n"_ba
                                     << ":1:1:" << QStringList{"U+FEFF", "byte order mark"};
  QTest::newRow("blank line before the header")
      << "\r\ny,x\n1,2\n"_ba
      << ":1:1:" << QStringList{"no column names on line 1", "must be the first line"};
  QTest::newRow("duplicate names, escaped") << "y,\"a\tb\",\"a\tb\"\n1,2,3\n"_ba
                                            << ":1:3:" << QStringList{R"(duplicate column name 'a\x09b')"};
  // Cell text in messages is escaped too.
  QTest::newRow("control byte in a cell") << "y,x\n1,a\x01"
                                             "b\n"_ba
                                          << ":2:2:" << QStringList{R"('a\x01b')"};
  QTest::newRow("NUL after a number") << "y,x\n1,2\0\n"_ba
                                      << ":2:2:" << QStringList{R"('2\x00')"};
  QTest::newRow("NUL in a quoted cell") << "y,x\n1,\"2\0\"\n"_ba
                                        << ":2:2:" << QStringList{R"('2\x00')"};
  QTest::newRow("Latin-1 cell") << "y,x\n1,\xE9\n"_ba
                                << ":2:2:" << QStringList{R"('\xE9')"};
}

}  // namespace

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
    // A quote inside a cell is a character of it (the cell a"b is read so): the count must not pair it with
    // another one further on ("2 in this row" for 4 fields).
    QTest::newRow("too many fields, a quote inside a cell")
        << QByteArray("y,x1,x2\n1,2,3\n4,a\"b,5,6\n")
        << ":3:4:" << QStringList{"too many fields", "4 in this row", "3 in the header"};
    QTest::newRow("too many fields, a doubled quote in a quoted cell")
        << QByteArray("y,x1\n1,2\n\"a\"\",b\",4,5\n")
        << ":3:3:" << QStringList{"too many fields", "3 in this row", "2 in the header"};
    QTest::newRow("too few fields") << QByteArray("y,x1,x2\n1,2,3\n4,5\n") << ":3:3:"
                                    << QStringList{"too few fields", "2 in this row", "3 in the header", "'x2'"};
    QTest::newRow("too few fields, last row without newline")
        << QByteArray("y,x1,x2\n1,2,3\n4") << ":3:2:" << QStringList{"too few fields", "1 in this row"};
    QTest::newRow("quoted decimal comma")
        << QByteArray("y,x1\n1,\"-0,5e3\"\n") << ":2:2:" << QStringList{"'-0,5e3'", "a decimal comma?"};
    // Quoted or not, an infinite number in a numeric column is reported at its own cell (NaN and NA are missing).
    for (const char* token : {"Inf", "inf", "-Inf", "-inf", "Infinity", "1e999", "-1e400", "+inf"}) {
      QTest::newRow(token) << (QByteArray("y,x1,x2\n1,2,3\n4,5,") + token + "\n") << ":3:3:"
                           << QStringList{"column 3 ('x2')", "not finite", "infinite", "write a missing value as NA",
                                          QString("'%1'").arg(token)};
      QTest::newRow(qPrintable(QString("quoted %1").arg(token)))
          << (QByteArray("y,x1,x2\n1,2,3\n4,\" ") + token + " \",6\nNA,7,8\n")
          << ":3:2:" << QStringList{"column 2 ('x1')", "not finite", QString("'%1'").arg(token)};
    }
    // The first infinite cell is reported, whichever column it is in.
    QTest::newRow("first infinite cell") << QByteArray("y,x1,x2\n1,2,3\n4,5,-Inf\n1e400,2,3\n")
                                         << ":3:3:" << QStringList{"'-Inf'"};
    QTest::newRow("infinite after text") << QByteArray("y,x1\n1,a\nInf,b\n")
                                         << ":3:1:" << QStringList{"column 1 ('y')", "'Inf'"};
    // Text in a cell must be clean UTF-8 text, as a name must.
    QTest::newRow("long text is truncated")
        << (QByteArray("y,x1\n1,") + QByteArray(200, 'a') + "\x01\n")
        << ":2:2:" << QStringList{"'" + QString(60, 'a') + "...'", "the text contains a control character"};
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
    QTest::newRow("text after closing quote, space-separated")
        << QByteArray("y x1\n\"1\"2 3\n") << ":2:1:" << QStringList{"after the closing quote"};
    QTest::newRow("blank line inside the data")
        << QByteArray("y,x1\n1,2\n\n3,4\n") << ":3:1:" << QStringList{"empty line"};
    // Line numbers stay physical with every line ending: "\r\n" is one break, a lone '\r' one too (old Mac
    // files), mixed in one file as well. The small blocks of malformed() cut "\r\n" pairs at block edges.
    QTest::newRow("CRLF line count") << QByteArray("y,x1\r\n1,2\r\n3,4\r\nInf,3\r\n")
                                     << ":4:1:" << QStringList{"'Inf'"};
    QTest::newRow("bare CR line count") << QByteArray("y,x1\r1,2\r3,4\rInf,3\r") << ":4:1:" << QStringList{"'Inf'"};
    QTest::newRow("bare CR, ragged row") << QByteArray("y,x1\r1,2\r3,4\r5,6,7\r")
                                         << ":4:3:" << QStringList{"too many fields"};
    QTest::newRow("mixed line ends") << QByteArray("y,x1\r\n1,2\r3,4\n5,6\r\r\n7,8\n")
                                     << ":5:1:" << QStringList{"empty line"};
    QTest::newRow("mixed line ends, bad cell")
        << QByteArray("y,x1\r1,2\r\n3,4\n5,6\r7,\x01\r\n8,9") << ":5:2:" << QStringList{"column 2 ('x1')", "'\\x01'"};
    QTest::newRow("bare CR, header only") << QByteArray("y,x1\r") << ":2:1:" << QStringList{"no data rows"};
    QTest::newRow("bare CR, too few fields")
        << QByteArray("y,x1,x2\r1,2,3\r4,5\r") << ":3:3:" << QStringList{"too few fields"};
    QTest::newRow("CR CR LF line ends") << QByteArray("y,x1\r\r\n1,2\r\r\n")
                                        << ":2:1:" << QStringList{"empty line", R"(lines end in "\r\r\n")"};
    QTest::newRow("CR CR LF after a row")
        << QByteArray("y,x1\n1,2\r\r\n3,4\n") << ":3:1:" << QStringList{"empty line", R"("\r\r\n")"};
    QTest::newRow("bare CR inside a quoted cell")
        << QByteArray("y,x1\r1,\"2\r3\"\r")
        << ":2:2:" << QStringList{"unterminated quote on its line", "cells across lines are not read"};
    QTest::newRow("bare CR, blank line inside")
        << QByteArray("y,x1\r1,2\r\r3,4\r") << ":3:1:" << QStringList{"empty line"};
    QTest::newRow("line count after a three-line quoted name")
        << QByteArray("y,\"a\r\nb\rc\"x\n1,2\n") << ":3:2:" << QStringList{"after the closing quote"};
    encodingRows();
    nameRows();
  }

  // The encoding check weighs the first 512 bytes whatever the block size: a first line of ASCII, then NUL bytes
  // (in R's row names column here) was UTF-32 to 16-byte blocks and text to the default ones (fuzz_csv). Dozens of
  // NUL bytes now make it binary at every block size; one NUL byte is named where it is.
  void encodingVerdictIgnoresBlockSize() {
    using namespace Qt::Literals::StringLiterals;
    const QByteArray content = "x\nn"_ba + QByteArray(52, '\0') + "d \0\0\0\x03 1 , 2 \n3,4\n"_ba;
    const std::string path = writeFile(content);
    const QString first = readError(path, 16);
    QVERIFY2(first.contains(":1:1: the file is not text (NUL bytes from byte 4"), qPrintable(first));
    for (const std::size_t block : {std::size_t{21}, gb::CsvOptions{}.blockBytes})
      QCOMPARE(readError(path, block), first);
    const std::string one = writeFile("x\nn\0d,2\n,4\n"_ba);  // in R's row names, dropped: read at every size
    for (const std::size_t block : {std::size_t{16}, std::size_t{21}, gb::CsvOptions{}.blockBytes})
      QVERIFY2(readError(one, block).isEmpty(), qPrintable(readError(one, block)));
  }

  // NUL bytes after the first 512 are not weighed by the encoding check at any block size (fuzz_csv: 127 rows of
  // "1,2", then four NULs, were refused as binary with the default blocks and read with 64-byte ones). They are a
  // cell's control characters, named at their line and column.
  void nulBytesAfterTheCheckedHeadAreACell() {
    QByteArray content = "y,x\n";
    for (int i = 0; i < 127; ++i) content += "1,2\n";
    content += QByteArray(4, '\0');
    const std::string path = writeFile(content);
    const QString first = readError(path, 64);
    QVERIFY2(first.contains(":129:1: column 1 ('y'): ") && first.contains("control character (byte 0x00)"),
             qPrintable(first));
    for (const std::size_t block : {std::size_t{16}, std::size_t{513}, gb::CsvOptions{}.blockBytes})
      QCOMPARE(readError(path, block), first);
  }

  // A program picked by mistake (the first bytes of an ELF executable): said to be binary, not a column name of
  // escaped bytes as wide as the window's dialog.
  void programIsNotText() {
    using namespace Qt::Literals::StringLiterals;
    const QByteArray elf =
        "\x7F"
        "ELF\x02\x01\x01\x03"_ba +
        QByteArray(8, '\0') + "\x03\0>\0\x01\0\0\0pH\x08\0"_ba;
    const QString message = readError(writeFile(elf + QByteArray(200, 'A')), gb::CsvOptions{}.blockBytes);
    QVERIFY2(message.contains(":1:1: the file is not text (NUL bytes from byte 9: a program"), qPrintable(message));
    QVERIFY(!message.contains("\\x"));
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
      for (const QChar ch : message)  // one printable line, whatever bytes the file holds
        QVERIFY2(ch.unicode() >= 0x20 && ch.unicode() != 0x7F, qPrintable(message));
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

  // User text of any size gives a short message: a 4.6 MB name repeated, a 4.6 MB cell.
  void hugeTextGivesAShortMessage() {
    const QByteArray name(4'600'000, 'n');
    for (const QByteArray& content : {"y," + name + "," + name + "\n1,2,3\n", "y,x\n1," + name + "\x7F\n",
                                      "y," + name + "\n1,\"" + name + "\x01\"\n"}) {
      for (const std::size_t block : {std::size_t{1} << 20, std::size_t{4096}}) {
        const QString message = readError(writeFile(content), block);
        QVERIFY2(!message.isEmpty(), "no InputError thrown");
        QVERIFY2(message.size() < 400, qPrintable(message.left(400)));
        QVERIFY2(message.contains(QString(60, 'n') + "...'"), qPrintable(message));
      }
    }
  }

  // A data line with no end (a file without the line breaks the reader expects) stops at a limit instead of
  // buffering the whole file; the limit grows with the header, so wide tables still read.
  void endlessLineStops() {
    QByteArray content = "y,x\n1,2\n";
    content += QByteArray((std::size_t{65} << 20), '7');
    const QString message = readError(writeFile(content));
    QVERIFY2(message.contains(":3:1: line longer than 64 MiB"), qPrintable(message));
  }

  // /dev/zero never ends: it must be rejected at once, not read up to a size limit (or forever).
  void endlessZeroDevice() {
    if (!QFile::exists("/dev/zero")) QSKIP("no /dev/zero here");
    QElapsedTimer clock;
    clock.start();
    const QString message = readError("/dev/zero");
    QVERIFY2(message.startsWith("/dev/zero:1:1: the file is not text"), qPrintable(message));
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
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

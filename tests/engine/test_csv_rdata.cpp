// CSV files as R writes them (write.csv): quoted header and texts, an unnamed row-name column, NA cells, factors.
// (a) files committed under tests/data, written by R from its datasets; (b) a file R writes now, from random
// numbers, NA cells and a text column, with R's own sorted levels and numbers beside it to compare with.
#include <sys/stat.h>

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

#include "common/Error.hpp"
#include "data/CsvReader.hpp"
#include "support/TestSupport.hpp"

namespace {

const std::string kRowNamesNote = "column 1 has no name: taken as R's row names and ignored";

std::string dataFile(const char* name) { return std::string(GB_SOURCE_DIR) + "/tests/data/" + name; }

std::size_t col(const gb::Dataset& d, const std::string& name) {
  const int c = d.columnIndex(name);
  if (c < 0) throw std::runtime_error("no column " + name);
  return static_cast<std::size_t>(c);
}

std::vector<std::string> readLines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The level text of column c in row r, or "<NA>".
std::string levelAt(const gb::Dataset& d, std::size_t c, std::size_t r) {
  const double code = d.columns[c][r];
  return std::isnan(code) ? std::string("<NA>") : d.levels[c].at(static_cast<std::size_t>(code));
}

}  // namespace

class TestCsvRData : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_{QString::fromStdString(gbtest::scratchRoot() + "/csv-rdata-XXXXXX")};
  int fileCounter_ = 0;

  std::string writeFile(const std::string& content) {
    const std::string path = dir_.path().toStdString() + "/in" + std::to_string(fileCounter_++) + ".csv";
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  // Compares with a file R wrote: the values R reads back (to its rounding), within write.csv's 15 digits of R's.
  static void compareNumbers(const std::vector<double>& got, const std::vector<std::string>& written,
                             const std::vector<std::string>& readBack, const std::vector<std::string>& original,
                             const char* name) {
    QCOMPARE(got.size(), readBack.size());
    QCOMPARE(got.size(), written.size());
    for (std::size_t r = 0; r < got.size(); ++r) {
      const std::string where = std::string(name) + " row " + std::to_string(r + 1) + ": " + readBack[r];
      if (readBack[r] == "NA") {
        QVERIFY2(std::isnan(got[r]) && written[r] == "NA", where.c_str());
        continue;
      }
      QVERIFY2(got[r] == std::strtod(written[r].c_str(), nullptr), (where + ", in the file " + written[r]).c_str());
      const double back = std::strtod(readBack[r].c_str(), nullptr);
      const double wrote = std::strtod(original[r].c_str(), nullptr);
      // R's read.csv is not correctly rounded: about one value in 5000 comes back one unit in the last place off
      // (R 4.2, measured on 200000 values); our parser is.
      const bool sameOrNext =
          got[r] == back || got[r] == std::nextafter(back, HUGE_VAL) || got[r] == std::nextafter(back, -HUGE_VAL);
      QVERIFY2(sameOrNext, (where + " got " + std::to_string(got[r])).c_str());
      QVERIFY2(std::abs(got[r] - wrote) <= 1e-14 * std::abs(wrote), where.c_str());
    }
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void airquality() {
    const gb::Dataset d = gb::readCsv(dataFile("airquality.csv"));
    QCOMPARE(d.names, (std::vector<std::string>{"Ozone", "Solar.R", "Wind", "Temp", "Month", "Day"}));
    QCOMPARE(d.rows(), std::size_t{153});
    QCOMPARE(d.rowLabelsNote, kRowNamesNote);
    QCOMPARE(d.fileColumn(col(d, "Solar.R")), 3L);  // messages count the dropped row names' column
    for (std::size_t c = 0; c < d.cols(); ++c) QVERIFY(!d.isText(c));
    QCOMPARE(d.missingCount(col(d, "Ozone")), std::size_t{37});
    QCOMPARE(d.missingCount(col(d, "Solar.R")), std::size_t{7});
    QCOMPARE(d.missingCount(col(d, "Wind")), std::size_t{0});
    QCOMPARE(d.column("Ozone")[0], 41.0);
    QVERIFY(std::isnan(d.column("Ozone")[4]));  // row 5: NA,NA
    QVERIFY(std::isnan(d.column("Solar.R")[4]));
    QCOMPARE(d.column("Wind")[0], 7.4);
    QCOMPARE(d.column("Day")[152], 30.0);
  }

  void iris() {
    const gb::Dataset d = gb::readCsv(dataFile("iris.csv"));
    QCOMPARE(d.cols(), std::size_t{5});
    QCOMPARE(d.rows(), std::size_t{150});
    QCOMPARE(d.rowLabelsNote, kRowNamesNote);
    const std::size_t species = col(d, "Species");
    QVERIFY(d.isText(species));
    QCOMPARE(d.kinds[species], gb::ColumnKind::Text);
    QCOMPARE(d.levels[species], (std::vector<std::string>{"setosa", "versicolor", "virginica"}));
    QCOMPARE(d.columns[species][0], 0.0);
    QCOMPARE(d.columns[species][50], 1.0);
    QCOMPARE(d.columns[species][149], 2.0);
    QCOMPARE(d.missingCount(species), std::size_t{0});
    QVERIFY(!d.isText(col(d, "Sepal.Length")));
    QCOMPARE(d.column("Sepal.Length")[0], 5.1);
    QCOMPARE(d.column("Petal.Width")[149], 1.8);
    // The preview reads the same way what it reads: 60 rows hold two species.
    const gb::Dataset head = gb::readCsvHead(dataFile("iris.csv"), 60);
    QCOMPARE(head.rows(), std::size_t{60});
    QCOMPARE(head.names, d.names);
    QCOMPARE(head.rowLabelsNote, kRowNamesNote);
    QCOMPARE(head.levels[species], (std::vector<std::string>{"setosa", "versicolor"}));
    QCOMPARE(head.columns[species][55], 1.0);
  }

  void mtcarsHasTextRowNames() {
    const gb::Dataset d = gb::readCsv(dataFile("mtcars.csv"));
    QCOMPARE(d.names,
             (std::vector<std::string>{"mpg", "cyl", "disp", "hp", "drat", "wt", "qsec", "vs", "am", "gear", "carb"}));
    QCOMPARE(d.rows(), std::size_t{32});
    QCOMPARE(d.rowLabelsNote, kRowNamesNote);
    for (std::size_t c = 0; c < d.cols(); ++c) QVERIFY(!d.isText(c) && d.missingCount(c) == 0);
    QCOMPARE(d.column("mpg")[0], 21.0);
    QCOMPARE(d.column("wt")[1], 2.875);
    QCOMPARE(d.column("carb")[31], 2.0);
  }

  void quakes() {
    const gb::Dataset d = gb::readCsv(dataFile("quakes.csv"));
    QCOMPARE(d.names, (std::vector<std::string>{"lat", "long", "depth", "mag", "stations"}));
    QCOMPARE(d.rows(), std::size_t{1000});
    QCOMPARE(d.column("lat")[0], -20.42);
    QCOMPARE(d.column("long")[1], 181.03);
    QCOMPARE(d.column("stations")[999], 119.0);
  }

  // TH.data's bodyfat (mboost's example): row names are the original case numbers, "47", "48", ...
  void bodyfat() {
    const gb::Dataset d = gb::readCsv(dataFile("bodyfat.csv"));
    QCOMPARE(d.rows(), std::size_t{71});
    QCOMPARE(d.cols(), std::size_t{10});
    QCOMPARE(d.names[1], std::string("DEXfat"));
    QCOMPARE(d.rowLabelsNote, kRowNamesNote);
    QCOMPARE(d.column("DEXfat")[0], 41.68);
    QCOMPARE(d.column("age")[0], 57.0);
  }

  // Hand-made in R: a factor with NA and mixed case, text with quotes, a comma and "", logicals, integers with NA.
  void mixed() {
    const gb::Dataset d = gb::readCsv(dataFile("mixed.csv"));
    QCOMPARE(d.names, (std::vector<std::string>{"y", "group", "note", "flag", "n"}));
    QCOMPARE(d.rows(), std::size_t{6});
    QCOMPARE(d.kinds, (std::vector<gb::ColumnKind>{gb::ColumnKind::Numeric, gb::ColumnKind::Text, gb::ColumnKind::Text,
                                                   gb::ColumnKind::Text, gb::ColumnKind::Numeric}));
    QCOMPARE(d.levels[1], (std::vector<std::string>{"B", "a", "b", "\xC3\xA4"}));
    QCOMPARE(d.levels[2], (std::vector<std::string>{"", "has, comma", "say \"hi\"", "x"}));
    QCOMPARE(d.levels[3], (std::vector<std::string>{"FALSE", "TRUE"}));
    QVERIFY(d.levels[0].empty() && d.levels[4].empty());
    const std::vector<std::size_t> missing{1, 1, 1, 1, 1};  // note's "" is a level, as read.csv reads it
    for (std::size_t c = 0; c < d.cols(); ++c) QCOMPARE(d.missingCount(c), missing[c]);
    QCOMPARE(d.columns[0][3], -4.25);
    QCOMPARE(d.columns[0][4], 0.005);
    QVERIFY(std::isnan(d.columns[0][1]));
    for (std::size_t r = 0; r < 6; ++r)
      QCOMPARE(levelAt(d, 1, r), (std::vector<std::string>{"b", "a", "<NA>", "B", "a", "\xC3\xA4"})[r]);
    QCOMPARE(levelAt(d, 2, 1), std::string("say \"hi\""));
    QCOMPARE(levelAt(d, 2, 2), std::string(""));
    QCOMPARE(d.columns[4][5], 6.0);
  }

  void quotedNumbersAreNumbers() {
    const gb::Dataset d = gb::readCsv(writeFile("\"\",\"y\",\"x\"\n\"1\",\"1.5\",\" -2e3 \"\n\"2\",\"NA\",\"\"\n"));
    QCOMPARE(d.names, (std::vector<std::string>{"y", "x"}));
    QVERIFY(!d.isText(0) && !d.isText(1));
    QCOMPARE(d.columns[0][0], 1.5);
    QCOMPARE(d.columns[1][0], -2000.0);
    QVERIFY(std::isnan(d.columns[0][1]) && std::isnan(d.columns[1][1]));
    // write.table at its defaults (spaces between fields) quotes format()ed numbers with their padding:
    // write.table(data.frame(y = c(1.5, 2, 3.5), x = format(c(4, 10, 7))), f) and read.table(f)$x is integer.
    // They were levels (" 4", "10", " 7") in a space-separated file, where blanks delimit.
    for (const char* text : {"\"y\" \"x\"\n\"1\" 1.5 \" 4\"\n\"2\" 2 \"10\"\n\"3\" 3.5 \" 7\"\n",
                             "\"y\"\t\"x\"\n1.5\t\" 4\"\n2\t\"10\"\n3.5\t\"\t7 \"\n"}) {
      const gb::Dataset padded = gb::readCsv(writeFile(text));
      QVERIFY2(!padded.isText(1), text);
      QCOMPARE(padded.columns[1], (std::vector<double>{4, 10, 7}));
    }
  }

  // One stray cell in a column of numbers makes it text, as R's read.csv does; the reader says which cell, for the
  // column's every use (a note in the default model, file:line:column in an error for a numeric role).
  void strayTextCellIsNamed() {
    std::string csv = "\"\",\"y\",\"x\",\"g\"\n";
    for (int i = 1; i <= 30; ++i)
      csv += "\"" + std::to_string(i) + "\"," + std::to_string(i) + "," +
             (i == 17 ? "1.2.3" : std::to_string(i * 0.5)) + "," + (i % 2 ? "a" : "b") + "\n";
    const std::string path = writeFile(csv);
    const gb::Dataset d = gb::readCsv(path);
    QVERIFY(d.isText(1) && d.isText(2));
    const auto cell = gb::firstTextCell(d, 1);
    QVERIFY(cell && cell->row == 16 && cell->text == "1.2.3" && cell->numberCells == 29 && cell->presentCells == 30);
    // Line 18 (header, then rows 1..17), file column 3 (row names first); g, all text, has no note.
    QCOMPARE(d.textColumnsNote,
             "column 'x' is text (a factor, as R's read.csv reads it) for 1 of its 30 cells, the "
             "first '1.2.3' at " +
                 path + ":18:3");
    QVERIFY(!gb::firstTextCell(d, 0));  // y: numbers
    QCOMPARE(gb::firstTextCell(d, 2)->row, std::size_t(0));
  }

  // Missing cells in every spelling, quoted or not, with spaces: quiet NaN, counted.
  void missingSpellings() {
    const gb::Dataset d = gb::readCsv(writeFile("a,b\n1,NA\n NA ,\" NaN \"\nnan,\n\"\",  \n\"NA\",5\n"));
    QVERIFY(!d.isText(0) && !d.isText(1));
    QCOMPARE(d.missingCount(0), std::size_t{4});
    QCOMPARE(d.missingCount(1), std::size_t{4});
    QCOMPARE(d.columns[1][4], 5.0);
    for (double v : d.columns[0])
      if (std::isnan(v)) QVERIFY(!std::signbit(v));
  }

  // R's read.csv keeps the blanks inside quotes: "NA ", " NA", "NaN ", " " and "" are levels of a text column, not
  // missing values (they were, and their rows were omitted). In a numeric column " NaN " and " "
  // are missing and " 2 " a number, as R's type.convert reads them (R: NaN, NA, 2). Serial and chunked readers alike.
  void quotedBlanksAreLevelsOfTextColumns() {
    const std::string path = writeFile(
        "\"\",\"g\",\"x\"\n\"1\",\"NA \",\" NaN \"\n\"2\",\" NA\",\" \"\n\"3\",\"NaN \",\" 2 \"\n\"4\",\" \",3\n"
        "\"5\",\"\",4\n\"6\",\"a\",NA\n");
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{16}}) {
      gb::CsvOptions options;
      options.threads = 2;
      options.chunkBytes = chunk;
      const gb::Dataset d = gb::readCsv(path, options);
      QVERIFY(d.isText(0) && !d.isText(1));
      QCOMPARE(d.levels[0], (std::vector<std::string>{"", " ", " NA", "NA ", "NaN ", "a"}));  // byte order
      const std::vector<std::string> g{"NA ", " NA", "NaN ", " ", "", "a"};
      for (std::size_t r = 0; r < g.size(); ++r) QCOMPARE(levelAt(d, 0, r), g[r]);
      QVERIFY(std::isnan(d.columns[1][0]) && std::isnan(d.columns[1][1]) && std::isnan(d.columns[1][5]));
      QCOMPARE(d.columns[1][2], 2.0);
      QCOMPARE(d.columns[1][3], 3.0);
    }
  }

  // R's read.csv (strip.white = FALSE) on unquoted cells, as write.table(quote = FALSE) writes them: a text column
  // keeps the blanks of its cells (" a", "a " and "a" are three levels) and takes "" and "NaN" as levels, NA alone
  // as missing; h's "NaN" came before its first text, as a missing number, and is read again as a level. The
  // expected values are R 4.2's read.csv(stringsAsFactors = TRUE) of this file. Tab-separated alike (read.delim).
  void unquotedCellsKeepTheirBlanks() {
    for (const char sep : {',', '\t'}) {
      std::string content = "y,g,h,x\n1,,NaN,1\n2, a,b,\n3,a ,NA,NaN\n4,a,c, 5\n5,NA,,6\n";
      if (sep == '\t') std::replace(content.begin(), content.end(), ',', '\t');
      const std::string path = writeFile(content);
      for (const std::size_t block : {std::size_t{1} << 20, std::size_t{7}}) {
        gb::CsvOptions options;
        options.blockBytes = block;
        const gb::Dataset d = gb::readCsv(path, options);
        QVERIFY(d.isText(1) && d.isText(2) && !d.isText(3));
        QCOMPARE(d.levels[1], (std::vector<std::string>{"", " a", "a", "a "}));
        QCOMPARE(d.levels[2], (std::vector<std::string>{"", "NaN", "b", "c"}));  // byte order (R: "", b, c, NaN)
        const std::vector<std::string> g{"", " a", "a ", "a", "<NA>"}, h{"NaN", "b", "<NA>", "c", ""};
        for (std::size_t r = 0; r < g.size(); ++r) {
          QCOMPARE(levelAt(d, 1, r), g[r]);
          QCOMPARE(levelAt(d, 2, r), h[r]);
        }
        QCOMPARE(d.columns[3][0], 1.0);
        QVERIFY(std::isnan(d.columns[3][1]) && std::isnan(d.columns[3][2]));
        QCOMPARE(d.columns[3][3], 5.0);
      }
    }
  }

  // 100k numeric rows, then text: the numbers' own texts ("1.50", "007") become levels, across block edges.
  void columnTurnsTextLate() {
    std::string content = "y,x\n";
    const std::size_t rows = 100'000;
    for (std::size_t r = 0; r < rows; ++r)
      content += std::to_string(r) + "," + (r % 9 == 4 ? std::string("NA") : (r % 2 ? "1.50" : "007")) + "\n";
    content += "0.5,late text\n";
    const std::string path = writeFile(content);
    std::vector<std::uint64_t> done;
    gb::CsvOptions options;
    options.blockBytes = 1000;
    const gb::Dataset d = gb::readCsv(path, options, [&](std::uint64_t bytes, std::uint64_t) {
      done.push_back(bytes);
      return true;
    });
    QVERIFY(std::is_sorted(done.begin(), done.end()));  // the second pass does not move progress back
    QCOMPARE(d.rows(), rows + 1);
    QVERIFY(!d.isText(0) && d.isText(1));
    QCOMPARE(d.levels[1], (std::vector<std::string>{"007", "1.50", "late text"}));
    for (std::size_t r = 0; r < rows; ++r)
      QCOMPARE(levelAt(d, 1, r), std::string(r % 9 == 4 ? "<NA>" : (r % 2 ? "1.50" : "007")));
    QCOMPARE(levelAt(d, 1, rows), std::string("late text"));
    QCOMPARE(d.columns[0][rows - 1], static_cast<double>(rows - 1));
    const gb::Dataset whole = gb::readCsv(path);
    QCOMPARE(whole.levels, d.levels);
    QVERIFY(whole.columns[1][rows] == d.columns[1][rows] && whole.columns[1][1] == d.columns[1][1]);
  }

  void onlyNaIsNumeric() {
    const gb::Dataset d = gb::readCsv(writeFile("y,gone\n1,NA\n2,NA\n3,\n"));
    QVERIFY(!d.isText(1));
    QCOMPARE(d.missingCount(1), std::size_t{3});
    QCOMPARE(d.missingCount(0), std::size_t{0});
  }

  // Text cells that look like numbers with a sign, "Inf" among texts: all levels of a text column.
  void textColumnTakesAnyText() {
    const gb::Dataset d = gb::readCsv(writeFile("y,t\n1,abc\n2,+-1\n3,Inf\n4,1.5x\n5,2\n"));
    QVERIFY(d.isText(1));
    QCOMPARE(d.levels[1], (std::vector<std::string>{"+-1", "1.5x", "2", "Inf", "abc"}));
  }

  void windowsLineEnds() {
    const gb::Dataset d =
        gb::readCsv(writeFile("\"\",\"y\",\"g\"\r\n\"1\",1,\"a\"\r\n\"2\",NA,\"b\"\r\n\"3\",3,NA\r\n"));
    QCOMPARE(d.names, (std::vector<std::string>{"y", "g"}));
    QCOMPARE(d.levels[1], (std::vector<std::string>{"a", "b"}));
    QCOMPARE(d.missingCount(0), std::size_t{1});
    QCOMPARE(d.missingCount(1), std::size_t{1});
    QCOMPARE(d.columns[1][1], 1.0);
  }

  // R's write.csv2 (a locale with a decimal comma): ';' between fields and 2,62 for 2.62, read as read.csv2 reads
  // it. A text with a comma stays text, and so does a cell with a comma and a point.
  void writeCsv2DecimalCommas() {
    const gb::Dataset d =
        gb::readCsv(writeFile("\"\";\"mpg\";\"wt\";\"g\"\n\"Mazda RX4\";21;2,62;\"a,b\"\n"
                              "\"Datsun 710\";22,8;-2,32e-1;1,5\n\"Valiant\";NA;3,46;1.5,5\n"));
    QCOMPARE(d.names, (std::vector<std::string>{"mpg", "wt", "g"}));
    QCOMPARE(d.columns[0][1], 22.8);
    QCOMPARE(d.columns[1][0], 2.62);
    QCOMPARE(d.columns[1][1], -0.232);
    QCOMPARE(d.columns[1][2], 3.46);
    QCOMPARE(d.missingCount(0), std::size_t{1});
    QCOMPARE(d.levels[2], (std::vector<std::string>{"1,5", "1.5,5", "a,b"}));
  }

  // A write.csv2 column made text by one typo: its decimal commas are numbers there, so the note names the typo, not
  // the first "0,03" (which a ',' file would hold as text).
  void writeCsv2TypoIsTheCellNamed() {
    QByteArray text = "y;x1\n";
    for (int i = 1; i <= 20; ++i) text += QByteArray::number(i) + ",5;0," + QByteArray::number(10 + i) + "\n";
    text += "3,5;abc\n";
    const gb::Dataset d = gb::readCsv(writeFile(text.toStdString()));
    QVERIFY(d.isText(1));
    QCOMPARE(d.columns[0][0], 1.5);
    const QString note = QString::fromStdString(d.textColumnsNote);
    QVERIFY2(note.contains("column 'x1' is text (a factor, as R's read.csv reads it) for 1 of its 21 cells, the first "
                           "'abc' at ") &&
                 note.endsWith(":22:2"),
             qPrintable(note));
  }

  // R's write.table(x, sep = ",") and write.table(x, sep = "\t", quote = FALSE) write row names without naming them:
  // the header has one field fewer than the rows, and read.table takes column 1 as the row names. Read as the same
  // data as write.csv's. A first row with one field more because it ends in a stray delimiter is still an error.
  void writeTableRowNames() {
    const gb::Dataset csv = gb::readCsv(writeFile("\"\",\"y\",\"x\"\n\"a\",1,2\n\"b\",3,4\n"));
    const gb::Dataset table = gb::readCsv(writeFile("\"y\",\"x\"\n\"a\",1,2\n\"b\",3,4\n"));
    const gb::Dataset tabs = gb::readCsv(writeFile("y\tx\na\t1\t2\nb\t3\t4\n"));
    for (const gb::Dataset* d : {&table, &tabs}) {
      QCOMPARE(d->names, csv.names);
      QCOMPARE(d->columns, csv.columns);
      QVERIFY2(QString::fromStdString(d->rowLabelsNote).contains("one column fewer than the rows hold"),
               d->rowLabelsNote.c_str());
    }
    // A later row with only the header's fields: the message says what the rows hold, not the header's count.
    const QString shortRow = gbtest::inputErrorOf([&] { gb::readCsv(writeFile("y,x\n\"a\",1,2\n3,4\n")); });
    QVERIFY2(shortRow.contains(":3:3: too few fields: 2 in this row, 3 in each row, as in the first (R's row names"),
             qPrintable(shortRow));
    const QString stray = gbtest::inputErrorOf([&] { gb::readCsv(writeFile("y,x\n1,2,\n3,4,\n")); });
    QVERIFY2(stray.contains(":2:3: too many fields: 3 in this row, 2 in the header"), qPrintable(stray));
    // write.table(quote = FALSE) of a text column whose first rows are "": those rows end in a delimiter, a later row
    // does not, so column 1 holds the row names (R's read.csv / read.delim: g has the levels "", a, b).
    for (const char* text :
         {"y,g\n1,1.2,\n2,2.3,\n3,3.1,b\n4,4.8,a\n", "y\tg\n1\t1.2\t\n2\t2.3\t\n3\t3.1\tb\n4\t4.8\ta\n"}) {
      const gb::Dataset d = gb::readCsv(writeFile(text));
      QCOMPARE(d.names, (std::vector<std::string>{"y", "g"}));
      QCOMPARE(d.levels[1], (std::vector<std::string>{"", "a", "b"}));
      QCOMPARE(d.columns[1], (std::vector<double>{0, 0, 2, 1}));
      QCOMPARE(d.columns[0][3], 4.8);
    }
    // The verdict does not depend on the block size, nor on reading only a preview: 60 rows end in "" first.
    std::string late = "y,g\n";
    for (int r = 1; r <= 60; ++r) late += std::to_string(r) + "," + std::to_string(r) + ".5,\n";
    const std::string latePath = writeFile(late + "61,7.5,a\n");
    for (const std::size_t block : {std::size_t{1} << 20, std::size_t{16}}) {
      gb::CsvOptions options;
      options.blockBytes = block;
      QCOMPARE(gb::readCsv(latePath, options).levels[1], (std::vector<std::string>{"", "a"}));
      QCOMPARE(gb::readCsvHead(latePath, 3, options).names, (std::vector<std::string>{"y", "g"}));
    }
  }

  // R's write.table at its defaults: single spaces between fields, names and text quoted, row names without a name
  // (the header one field short), NA for a missing value. Read as the same data as write.csv's, as read.table reads
  // it; with row.names = FALSE too. Rows that do not split at spaces as the header does keep the comma and its
  // message.
  void writeTableDefault() {
    const gb::Dataset csv = gb::readCsv(writeFile(
        "\"\",\"mpg\",\"g\"\n\"Mazda RX4\",21,\"a b\"\n\"Mazda RX4 Wag\",NA,NA\n\"Datsun 710\",22.8,\"c\"\n"));
    const gb::Dataset table = gb::readCsv(
        writeFile("\"mpg\" \"g\"\n\"Mazda RX4\" 21 \"a b\"\n\"Mazda RX4 Wag\" NA NA\n\"Datsun 710\" 22.8 \"c\"\n"));
    QCOMPARE(table.names, (std::vector<std::string>{"mpg", "g"}));
    QCOMPARE(table.rows(), csv.rows());
    for (std::size_t c = 0; c < 2; ++c)
      for (std::size_t r = 0; r < 3; ++r)  // NaN (missing) equal to NaN
        QVERIFY(table.columns[c][r] == csv.columns[c][r] ||
                (std::isnan(table.columns[c][r]) && std::isnan(csv.columns[c][r])));
    QCOMPARE(table.levels[1], (std::vector<std::string>{"a b", "c"}));
    QCOMPARE(table.missingCount(0), std::size_t{1});
    QVERIFY2(QString::fromStdString(table.rowLabelsNote).contains("one column fewer than the rows hold"),
             table.rowLabelsNote.c_str());
    QCOMPARE(table.fileColumn(1), 3L);
    // write.table writes a quote inside a text as \" and keeps other backslashes; read.table reads them back so,
    // across the reader's block edges too (16-byte blocks).
    const std::string escapes =
        writeFile("\"y\" \"g\"\n\"1\" 1 \"a\\b\"\n\"2\" 2 \"c\\\"d\"\n\"3\" 3 \"\\\"q\\\" r\"\n");
    for (std::size_t block : {std::size_t{16}, gb::CsvOptions{}.blockBytes}) {
      gb::CsvOptions options;
      options.blockBytes = block;
      const gb::Dataset d = gb::readCsv(escapes, options);
      QCOMPARE(d.levels[1], (std::vector<std::string>{"\"q\" r", "a\\b", "c\"d"}));
      QCOMPARE(levelAt(d, 1, 1), std::string("c\"d"));
    }
    // A comma or semicolon inside a quoted name or text (make.names was not asked for): not a delimiter. The header
    // "y" "x,2" was taken as comma-separated and refused at its closing quote.
    const gb::Dataset commas =
        gb::readCsv(writeFile("\"y\" \"x,2\" \"f\"\n\"1\" 1 2 \"c,d\"\n\"2\" 2 3 \"e;f\"\n\"3\" 3 1 \"c,d\"\n"));
    QCOMPARE(commas.names, (std::vector<std::string>{"y", "x,2", "f"}));
    QCOMPARE(commas.columns[1], (std::vector<double>{2, 3, 1}));
    QCOMPARE(commas.levels[2], (std::vector<std::string>{"c,d", "e;f"}));
    const gb::Dataset noNames = gb::readCsv(writeFile("\"y\" \"x\"\n1 2\n3 4e-1\n"));
    QCOMPARE(noNames.columns, (std::vector<std::vector<double>>{{1, 3}, {2, 0.4}}));
    QVERIFY(noNames.rowLabelsNote.empty());
    const QString bare = gbtest::inputErrorOf([&] { gb::readCsv(writeFile("mpg wt\nMazda 21 2.62 1\n")); });
    QVERIFY2(bare.contains(":1:1: line 1 is one column name, 'mpg wt'") && bare.contains("line 2 holds 4 fields"),
             qPrintable(bare));
  }

  // write.table(sep = ",") (or "\t", ";") escapes a quote inside a text as \" too, but read.csv and read.table(sep =
  // ",") do not unescape it: a quote after a cell's closing quote opens quoting again and the backslashes stay, so
  // "say \"hi\"" reads as say \hi\ (R 4.2: nchar 8). The reader reads it as R does, where it refused the cell.
  // Transcribed from R: "a"b"c" is abc, "c\"\",d" is c\\,d, "p""q" is p"q (values checked with read.csv).
  void writeTableEscapesWithDelimiters() {
    for (const char* delimiter : {",", "\t", ";"}) {
      const std::string text = std::string("y") + delimiter + "g\n1" + delimiter + "\"say \\\"hi\\\"\"\n2" + delimiter +
                               "\"a\"b\"c\"\n3" + delimiter + "\"c\\\"\\\"" + delimiter + "d\" \n4" + delimiter +
                               "\"p\"\"q\"\n5" + delimiter + "\"12\"3\n";
      for (std::size_t block : {std::size_t{16}, gb::CsvOptions{}.blockBytes}) {
        gb::CsvOptions options;
        options.blockBytes = block;
        const gb::Dataset d = gb::readCsv(writeFile(text), options);
        QVERIFY(d.isText(1));
        QCOMPARE(levelAt(d, 1, 0), std::string("say \\hi\\"));
        QCOMPARE(levelAt(d, 1, 1), std::string("abc"));
        QCOMPARE(levelAt(d, 1, 2), std::string("c\\\\") + delimiter + "d ");  // the blank after the quote stays
        QCOMPARE(levelAt(d, 1, 3), std::string("p\"q"));
        QCOMPARE(levelAt(d, 1, 4), std::string("123"));
      }
    }
    // A quote reopened and never closed on its line is still an error at its cell.
    const QString open = gbtest::inputErrorOf([&] { gb::readCsv(writeFile("y,g\n1,\"a\"b\"c\n2,d\n")); });
    QVERIFY2(open.contains(":2:2: column 2 ('g'): unterminated quote on its line"), qPrintable(open));
    // Numbers: "1"2 is 12, as R's read.csv reads it.
    const gb::Dataset numbers = gb::readCsv(writeFile("y,x\n\"1\"2,3\n4,5\n"));
    QCOMPARE(numbers.columns[0], (std::vector<double>{12, 4}));
  }

  // A character vector of T, F, TRUE and FALSE that write.csv wrote is logical to read.csv (type.convert), with blank
  // cells missing: a factor of the levels FALSE and TRUE, not one level per spelling. One spelling R 4.2 does not
  // take (tRUE, true, True, False), or blanks around one, leave the column text with its own levels (a blank cell
  // is then a level too, as in any text column).
  void logicalSpellingsAreOneFactor() {
    const gb::Dataset d = gb::readCsv(writeFile(
        "y,f,g,h,k,m\n1,T,T,T,\"\",true\n2,FALSE,\" \",tRUE,\"\",false\n3,\"TRUE\",TRUE,F,\"\",True\n4,F,NA,\" "
        "TRUE\",\"\",False\n5,F,T,F,\"\",\n"));
    QCOMPARE(d.levels[1], (std::vector<std::string>{"FALSE", "TRUE"}));
    QCOMPARE(d.columns[1], (std::vector<double>{1, 0, 1, 0, 0}));
    QCOMPARE(d.levels[2], (std::vector<std::string>{"TRUE"}));  // only TRUE present: one level, as factor(TRUE)
    QCOMPARE(d.columns[2][0], 0.0);
    QVERIFY(std::isnan(d.columns[2][1]) && std::isnan(d.columns[2][3]));  // " " and NA missing
    QCOMPARE(d.columns[2][4], 0.0);
    QCOMPARE(d.levels[3], (std::vector<std::string>{" TRUE", "F", "T", "tRUE"}));
    QVERIFY(!d.isText(4));  // blanks only: missing numbers, as before (R: a logical column of NA)
    QCOMPARE(d.missingCount(4), std::size_t{5});
    // R 4.2: read.csv(text = "m\ntrue\nfalse\nTrue\nFalse\n\n")$m is character, "" a value of its own.
    QCOMPARE(d.levels[5], (std::vector<std::string>{"", "False", "True", "false", "true"}));
    QCOMPARE(d.missingCount(5), std::size_t{0});
  }

  // write.table(sep = "\t", quote = FALSE) writes a name with a comma unquoted ("a,b"): the header holds a tab and a
  // comma, and the first row's tab decides, as read.delim reads it (the comma won the tie and every row fell short).
  // The same for a ';' file, and a comma file with a ';' in a name.
  void aDelimiterInsideANameIsNotTheDelimiter() {
    const gb::Dataset tab = gb::readCsv(writeFile("y\ta,b\n1\tp\n2\tq\n3\tp\n"));
    QCOMPARE(tab.names, (std::vector<std::string>{"y", "a,b"}));
    QCOMPARE(tab.levels[1], (std::vector<std::string>{"p", "q"}));
    const gb::Dataset semicolon = gb::readCsv(writeFile("y;a,b\n1;2\n2;3\n"));
    QCOMPARE(semicolon.names, (std::vector<std::string>{"y", "a,b"}));
    QCOMPARE(semicolon.columns[1], (std::vector<double>{2, 3}));
    const gb::Dataset comma = gb::readCsv(writeFile("y,a;b\n1,2\n2,3\n"));
    QCOMPARE(comma.names, (std::vector<std::string>{"y", "a;b"}));
    const gb::Dataset rowNames = gb::readCsv(writeFile("y\ta,b\nr1\t1\t5\nr2\t2\t6\n"));  // one field more
    QCOMPARE(rowNames.names, (std::vector<std::string>{"y", "a,b"}));
    QCOMPARE(rowNames.columns[1], (std::vector<double>{5, 6}));
  }

  // A table aligned by hand, or as R prints a data frame: runs of spaces and tabs between fields, blanks at the
  // ends of lines, row names under no name. read.table's default sep = "" reads it as one delimiter a run, and so
  // does the reader, in one thread and in chunks alike. A blank cell leaves a row short: an error naming the line.
  void alignedTables() {
    const gb::Dataset csv =
        gb::readCsv(writeFile("\"\",\"Ozone\",\"Solar.R\",\"Wind\",\"g\"\n\"1\",41,190,7.4,\"a b\"\n"
                              "\"2\",36,118,8,\"c\"\n\"3\",NA,NA,14.3,\"a b\"\n"));
    const std::string printed = writeFile(
        "  Ozone Solar.R Wind     g\n1    41     190  7.4 \"a b\"\n2    36     118  8.0   c  \n"
        "3    NA      NA\t14.3 \"a b\"\n");
    for (int threads : {1, 2}) {
      gb::CsvOptions options;
      options.threads = threads;
      options.chunkBytes = 16;
      const gb::Dataset d = gb::readCsv(printed, options);
      QCOMPARE(d.names, csv.names);
      QCOMPARE(d.levels, csv.levels);
      for (std::size_t c = 0; c < d.cols(); ++c)
        for (std::size_t r = 0; r < d.rows(); ++r)
          QVERIFY(d.columns[c][r] == csv.columns[c][r] ||
                  (std::isnan(d.columns[c][r]) && std::isnan(csv.columns[c][r])));
      QCOMPARE(d.fileColumn(1), 3L);
    }
    const gb::Dataset runs = gb::readCsv(writeFile("y   x\n \t1  \t 2\n3 4   \n"));
    QCOMPARE(runs.columns, (std::vector<std::vector<double>>{{1, 3}, {2, 4}}));
    const QString blank = gbtest::inputErrorOf([&] { gb::readCsv(writeFile("  y  x  z\n  1  2  3\n  4     6\n")); });
    QVERIFY2(blank.contains(":3:3: too few fields: 2 in this row, 3 in the header"), qPrintable(blank));
    // print(mtcars): row names with spaces split into more fields than the header has names, as read.table finds.
    const QString printedNames = gbtest::inputErrorOf(
        [&] { gb::readCsv(writeFile("              mpg cyl\nMazda RX4    21.0   6\nDatsun 710   22.8   4\n")); });
    QVERIFY2(printedNames.contains(":1:1: line 1 is one column name, 'mpg cyl'; split at spaces, it holds 2 names and "
                                   "line 2 holds 4 fields: a row name or text with spaces in it must be quoted"),
             qPrintable(printedNames));
    // write.table quotes the names and text but not a date with a time, whose space then splits it in two: the
    // message counts the fields of line 2 (R's read.table(f, header = TRUE) refuses the file too: "more columns than
    // column names").
    const QString dated = gbtest::inputErrorOf([&] {
      gb::readCsv(
          writeFile("\"y\" \"x\" \"when\"\n\"1\" 0.5 0.25 2024-01-01 10:00:00\n\"2\" 1.5 0.75 2024-01-01 "
                    "11:00:00\n"));
    });
    QVERIFY2(dated.contains(":1:1: unexpected text after the closing quote of the header's column 1; split at spaces, "
                            "it holds 3 names and line 2 holds 5 fields") &&
                 dated.contains("it does not quote a date with a time"),
             qPrintable(dated));
    const QString extra = gbtest::inputErrorOf([&] { gb::readCsv(writeFile("y x\n1 2\n3 4  5 \n")); });
    QVERIFY2(extra.contains(":3:3: too many fields: 3 in this row, 2 in the header"), qPrintable(extra));
    // write.table(sep = "|"): the delimiter is named.
    const QString piped = gbtest::inputErrorOf([&] { gb::readCsv(writeFile("\"\"|\"y\"|\"x\"\n\"1\"|1|2\n")); });
    QVERIFY2(piped.endsWith(":1:1: unexpected text after the closing quote of the header's column 1 ('|': the "
                            "delimiter must be ',', ';', a tab or spaces, as R's write.csv, write.csv2 and write.table "
                            "write them)"),
             qPrintable(piped));
  }

  // write.csv2 style: ';' with NA and text.
  void semicolonsWithNa() {
    const gb::Dataset d = gb::readCsv(writeFile("\"\";\"y\";\"g\"\n\"1\";1.5;\"a,b\"\n\"2\";NA;NA\n\"3\";;\"c\"\n"));
    QCOMPARE(d.names, (std::vector<std::string>{"y", "g"}));
    QCOMPARE(d.missingCount(0), std::size_t{2});
    QCOMPARE(d.levels[1], (std::vector<std::string>{"a,b", "c"}));
  }

  // A pipe cannot be read twice: its bytes are spooled as they are read, so that a column turning text after rows of
  // numbers gets its first rows' texts back, as from a file (the read of the same bytes from a file is the reference).
  void pipes() {
    const auto readPipe = [&](const std::string& content) {
      const std::string path = dir_.path().toStdString() + "/pipe" + std::to_string(fileCounter_++);
      if (::mkfifo(path.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
      std::thread writer([&] { std::ofstream(path, std::ios::binary) << content; });
      try {
        gb::Dataset d = gb::readCsv(path);
        writer.join();
        return d;
      } catch (...) {
        writer.join();
        throw;
      }
    };
    const gb::Dataset d = readPipe("y,g\n1,a\n2,1.5\n3,NA\n");
    QCOMPARE(d.levels[1], (std::vector<std::string>{"1.5", "a"}));
    const gb::Dataset late = readPipe("y,g\n1,NA\n2,1.5\n3,a\n");
    QCOMPARE(late.levels[1], (std::vector<std::string>{"1.5", "a"}));
    QVERIFY(std::isnan(late.columns[1][0]));
    QCOMPARE(late.columns[1][1], 0.0);
    QCOMPARE(late.columns[1][2], 1.0);
    // Many blocks of the reader before the text, and row names (written by R): every cell as from the file.
    std::string big = "\"\",\"y\",\"g\",\"x\"\n";
    for (int i = 0; i < 60000; ++i)
      big += "\"" + std::to_string(i + 1) + "\"," + std::to_string(i % 7) + "," +
             (i < 59990 ? std::to_string(i % 13) : "\"t" + std::to_string(i % 3) + "\"") + "," +
             (i % 11 == 0 ? "NA" : std::to_string(0.5 * i)) + "\n";
    const gb::Dataset piped = readPipe(big);
    const gb::Dataset filed = gb::readCsv(writeFile(big));
    QCOMPARE(piped.names, filed.names);
    QCOMPARE(piped.levels, filed.levels);
    QCOMPARE(piped.levels[1].size(), std::size_t{16});
    QCOMPARE(piped.columns.size(), filed.columns.size());
    for (std::size_t c = 0; c < filed.columns.size(); ++c) {
      QCOMPARE(piped.columns[c].size(), filed.columns[c].size());
      for (std::size_t r = 0; r < filed.columns[c].size(); ++r) {
        const double a = piped.columns[c][r], b = filed.columns[c][r];
        QVERIFY2(a == b || (std::isnan(a) && std::isnan(b)), qPrintable(QString("column %1 row %2").arg(c).arg(r)));
      }
    }
  }

  // Only the first column may be unnamed (row names); the header-only name check still applies elsewhere.
  void emptyNameElsewhereIsAnError() {
    const QString message = gbtest::inputErrorOf([&] { gb::readCsv(writeFile("\"\",\"y\",\"\"\n1,2,3\n")); });
    QVERIFY2(message.contains(":1:3: empty column name in column 3"), qPrintable(message));
  }

  // R writes a file now; everything we read must match what R says about it.
  void fileWrittenByRNow() {
    const QString rscript = QStandardPaths::findExecutable("Rscript");
    QVERIFY2(!rscript.isEmpty(), "Rscript not found (scripts/setup.sh installs r-base-core)");
    const char* fixed = std::getenv("GB_TEST_SEED");
    const unsigned seed = fixed ? static_cast<unsigned>(std::strtoul(fixed, nullptr, 10))
                                : std::random_device{}() % 2147483647u;  // R's set.seed takes an int
    qInfo("random seed %u (set GB_TEST_SEED to repeat)", seed);
    const std::string dir = dir_.path().toStdString() + "/r" + std::to_string(seed);
    QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
    QProcess r;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LC_ALL", "C.UTF-8");
    r.setProcessEnvironment(env);
    r.start(rscript,
            {QString::fromStdString(dataFile("write_random.R")), QString::number(seed), QString::fromStdString(dir)});
    QVERIFY(r.waitForFinished(120'000));
    QVERIFY2(r.exitCode() == 0, r.readAllStandardError().constData());

    gb::CsvOptions options;
    options.blockBytes = 4096;  // the f column turns text after the first rows: the second pass crosses blocks
    const gb::Dataset d = gb::readCsv(dir + "/random.csv", options);
    QCOMPARE(d.names, (std::vector<std::string>{"x", "z", "f"}));
    QCOMPARE(d.rowLabelsNote, kRowNamesNote);
    QCOMPARE(d.rows(), std::size_t{3000});
    QVERIFY(!d.isText(0) && !d.isText(1) && d.isText(2));
    QCOMPARE(d.levels[2], readLines(dir + "/levels.txt"));
    const std::vector<std::string> f = readLines(dir + "/f.txt");
    QCOMPARE(f.size(), d.rows());
    std::size_t fMissing = 0;
    for (std::size_t r = 0; r < d.rows(); ++r) {
      QCOMPARE(levelAt(d, 2, r), f[r]);
      fMissing += f[r] == "<NA>";
    }
    QCOMPARE(d.missingCount(2), fMissing);
    const std::vector<std::string> numbers = readLines(dir + "/numbers.txt");
    QCOMPARE(numbers.size(), 4 * d.rows());
    const auto part = [&](std::size_t k) {
      return std::vector<std::string>(numbers.begin() + static_cast<long>(k * d.rows()),
                                      numbers.begin() + static_cast<long>((k + 1) * d.rows()));
    };
    // The cells of x and z as written (they come before f, whose texts may hold commas): glibc's strtod, correctly
    // rounded, must agree exactly.
    std::vector<std::string> xText, zText;
    const std::vector<std::string> lines = readLines(dir + "/random.csv");
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const std::size_t a = lines[i].find(','), b = lines[i].find(',', a + 1), c = lines[i].find(',', b + 1);
      xText.push_back(lines[i].substr(a + 1, b - a - 1));
      zText.push_back(lines[i].substr(b + 1, c - b - 1));
    }
    compareNumbers(d.columns[0], xText, part(0), part(2), "x");
    compareNumbers(d.columns[1], zText, part(1), part(3), "z");
    QCOMPARE(d.missingCount(0), std::size_t{150});
    QCOMPARE(d.missingCount(1), std::size_t{40});
    // One block or many, and the preview: the same table.
    const gb::Dataset whole = gb::readCsv(dir + "/random.csv");
    QCOMPARE(whole.levels, d.levels);
    for (std::size_t c = 0; c < d.cols(); ++c)
      for (std::size_t r = 0; r < d.rows(); ++r)
        QVERIFY(whole.columns[c][r] == d.columns[c][r] ||
                (std::isnan(whole.columns[c][r]) && std::isnan(d.columns[c][r])));
    const gb::Dataset head = gb::readCsvHead(dir + "/random.csv", 500);
    QCOMPARE(head.rows(), std::size_t{500});
    for (std::size_t r = 0; r < 500; ++r) QCOMPARE(levelAt(head, 2, r), f[r]);
  }
};

QTEST_APPLESS_MAIN(TestCsvRData)
#include "test_csv_rdata.moc"

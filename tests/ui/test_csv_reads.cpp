// Issue 14, ingestion: the window reads a CSV once, when it is opened; fitting it again (and again after a
// change of settings) uses the table the window holds and does not read the file again.
#include <QFile>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include "common/MessageSink.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "data/DataPanel.hpp"
#include "data/PaperData.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

class TestCsvReads : public QObject {
  Q_OBJECT

 private slots:
  void secondFitDoesNotReadTheFileAgain() {
    auto w = gbtest::makeWindow(50, 2, 20, 1, "csv-reads");
    const QString path = gbtest::scratchPath("reads.csv");
    gb::writeCsv(path.toStdString(), gb::generatePaperData(gbtest::paperSpec(600, 4, 2, 3)).data);

    const std::uint64_t beforeOpen = gb::csvReadCount();
    QSignalSpy loaded(w->dataPanel(), &DataPanel::loadFinished);
    QVERIFY(w->dataPanel()->openCsv(path));
    QVERIFY(loaded.wait(10000));
    QVERIFY(loaded.takeFirst().at(0).toBool());
    QCOMPARE(gb::csvReadCount(), beforeOpen + 1);  // opening reads it, once

    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
    // The file is gone: a fit that needed it again would fail.
    QVERIFY(QFile::remove(path));
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
    QCOMPARE(w->dataPanel()->dataset()->rows(), std::size_t{600});
    QCOMPARE(gb::csvReadCount(), beforeOpen + 1);
  }

  // A new file's preview opens at its first row and column, not where the previous file's was scrolled to.
  void previewOfANewFileStartsAtTheTop() {
    auto w = gbtest::emptyWindow("csv-preview-scroll");
    w->resize(1280, 820);
    w->show();
    QByteArray wide = "y";
    for (int c = 0; c < 30; ++c) wide += ",column_with_a_long_name_" + QByteArray::number(c);
    wide += "\n";
    for (int r = 0; r < 100; ++r) {
      wide += QByteArray::number(r);
      for (int c = 0; c < 30; ++c) wide += "," + QByteArray::number(r * c);
      wide += "\n";
    }
    QVERIFY(gbtest::openCsvText(*w, "first.csv", wide));
    QTableWidget* preview = w->dataPanel()->previewTable();
    preview->scrollToBottom();
    preview->horizontalScrollBar()->setValue(preview->horizontalScrollBar()->maximum());
    QVERIFY(preview->verticalScrollBar()->value() > 0);
    QVERIFY(preview->horizontalScrollBar()->value() > 0);
    QVERIFY(gbtest::openCsvText(*w, "second.csv", wide));
    QCOMPARE(preview->verticalScrollBar()->value(), 0);
    QCOMPARE(preview->horizontalScrollBar()->value(), 0);
  }

  // What the reader decided about the header is said in the log: R's row names dropped (info), a header of numbers
  // alone (a warning: R's write.table(col.names = FALSE) drops the header, and its first row became the names).
  void headerDecisionsAreSaid() {
    auto w = gbtest::emptyWindow("csv-header");
    QStringList infos, warnings;
    connect(w->messages(), &MessageSink::posted, this, [&](Severity s, const QString& text, const QString&) {
      (s == Severity::Warning ? warnings : infos) << text;
    });
    QVERIFY(gbtest::openCsvText(*w, "named.csv", "\"\",\"y\",\"x\"\n\"1\",1.5,2\n\"2\",2.5,3\n\"3\",0.5,1\n"));
    QVERIFY2(infos.join("|").contains("R's row names"), qPrintable(infos.join("|")));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join("|")));

    QVERIFY(gbtest::openCsvText(*w, "headerless.csv", "1.5,2,7\n2.5,3,8\n0.5,1,9\n"));
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.front().contains("headerless.csv") && warnings.front().contains("header row missing"),
             qPrintable(warnings.front()));

    QVERIFY(gbtest::openCsvText(*w, "words.csv", "y,x,2\n2.5,3,8\n0.5,1,9\n"));  // one name a number: fine
    QCOMPARE(warnings.size(), 1);
  }
};

QTEST_MAIN(TestCsvReads)
#include "test_csv_reads.moc"

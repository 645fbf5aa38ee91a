// gamboost cv through the CLI: cv.json's shape and its chosen mstop, --refit's model, and the rejection contract
// (exit 2, one line naming the file:line:column or the option, nothing written) for bad fold options and files.
#include <QtTest>

#include "support/CliRunner.hpp"

using namespace gbtest;

class TestCliCv : public QObject {
  Q_OBJECT
 private slots:
  void writesCvJsonAndRefits() {
    Scratch s;
    writeFile(s.path("d.csv"), smallCsv(60));
    const CliResult r =
        runGamboost({"cv", "--data", s.path("d.csv"), "--out", s.path("cv.json"), "--kfold", "4", "--knots", "4",
                     "--mstop", "40", "--nu", "0.3", "--seed", "7", "--refit", s.path("m.json"), "--quiet"});
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject j = QJsonDocument::fromJson(readFile(s.path("cv.json"))).object();
    QCOMPARE(j["type"].toString(), QString("kfold"));
    QCOMPARE(j["folds"].toInt(), 4);
    const QJsonArray risk = j["risk"].toArray(), mean = j["mean"].toArray();
    QCOMPARE(risk.size(), 4);
    QCOMPARE(risk[0].toArray().size(), 41);
    // mean = the folds' average; mstop = its first minimum.
    int best = 0;
    for (int m = 0; m <= 40; ++m) {
      double sum = 0.0;
      for (const auto& fold : risk) sum += fold.toArray()[m].toDouble();
      QVERIFY(std::abs(sum / 4 - mean[m].toDouble()) <= 1e-12 * std::abs(sum / 4));
      if (mean[m].toDouble() < mean[best].toDouble()) best = m;
    }
    QCOMPARE(j["mstop"].toInt(), best);
    const QJsonObject timing = j["timing"].toObject();
    for (const char* key : {"read_s", "folds_s", "cv_s"})  // the folds' drawing is timed apart from their fits
      QVERIFY2(timing[key].isDouble() && timing[key].toDouble() >= 0.0, key);
    const QJsonObject model = QJsonDocument::fromJson(readFile(s.path("m.json"))).object();
    QCOMPARE(model["path"].toObject()["learner"].toArray().size(), std::max(1, best));
  }

  // Fold weights of 1e15 put each fold's lambda at its cap (1e15) where the fit on all rows has none: said, as a fit
  // with those weights would say it, and not for the same folds as 0/1 weights.
  void foldNotesAreSaid() {
    Scratch s;
    writeFile(s.path("d.csv"), smallCsv(60));
    QByteArray ones = "a,b,c\n", huge = ones;
    for (int i = 0; i < 60; ++i)
      for (QByteArray* f : {&ones, &huge}) {
        const QByteArray in = f == &ones ? "1" : "1000000000000000";
        *f += (i % 3 == 0 ? "0," : in + ",") + (i % 3 == 1 ? "0," : in + ",") + (i % 3 == 2 ? "0" : in) + "\n";
      }
    for (const QByteArray* folds : {&ones, &huge}) {
      writeFile(s.path("w.csv"), *folds);
      const CliResult r = runGamboost({"cv", "--data", s.path("d.csv"), "--out", s.path("cv.json"), "--folds-file",
                                       s.path("w.csv"), "--knots", "4", "--mstop", "10", "--quiet"});
      QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
      const QJsonArray notes = QJsonDocument::fromJson(readFile(s.path("cv.json"))).object()["notes"].toArray();
      const bool said =
          !notes.isEmpty() &&
          notes.last().toString().contains(QRegularExpression("^3 of 3 folds' fits have a learner note .* e\\.g\\. "
                                                              "fold 1: learner 'x1': edf .* lambda stops at"));
      QVERIFY2(said == (folds == &huge), qPrintable(r.err));
    }
  }

  // Rows omitted for missing values: R's cv(model.weights(model)) writes one row per used row, a file per data row
  // may hold NA on the omitted rows; both give the risks of the file with 0 there (the fold weights of a row that no
  // fit sees do not matter).
  void foldsFilePerUsedRow() {
    Scratch s;
    QList<QByteArray> lines = smallCsv(40).split('\n');
    for (int row : {3, 17, 30}) lines[row + 1] = lines[row + 1].left(lines[row + 1].indexOf(',')) + ",NA,0.5,0.5";
    writeFile(s.path("d.csv"), lines.join('\n'));
    QByteArray perData = "a,b\n", withNa = "a,b\n", perUsed = "a,b\n";
    for (int row = 0; row < 40; ++row) {
      const bool omitted = row == 3 || row == 17 || row == 30;
      const QByteArray cells =
          QByteArray::number(row % 3 == 0 ? 0 : 1) + "," + QByteArray::number(row % 3 == 1 ? 0 : 2);
      perData += (omitted ? QByteArray("0,0") : cells) + "\n";
      withNa += (omitted ? QByteArray("NA,NA") : cells) + "\n";
      if (!omitted) perUsed += cells + "\n";
    }
    QJsonArray reference;
    for (const auto& [name, text] :
         {std::pair<QString, QByteArray>{"perData", perData}, {"withNa", withNa}, {"perUsed", perUsed}}) {
      writeFile(s.path(name + ".csv"), text);
      const CliResult r = runGamboost({"cv", "--data", s.path("d.csv"), "--out", s.path(name + ".json"), "--folds-file",
                                       s.path(name + ".csv"), "--knots", "4", "--mstop", "20", "--quiet"});
      QVERIFY2(r.finished && r.exitCode == 0, qPrintable(name + ": " + r.describe()));
      const QJsonArray risk = QJsonDocument::fromJson(readFile(s.path(name + ".json"))).object()["risk"].toArray();
      QCOMPARE(risk.size(), 2);
      if (reference.isEmpty())
        reference = risk;
      else
        QCOMPARE(risk, reference);
    }
  }

  // Generated folds are drawn over the used rows (mboost's cv(model.weights(model))): K may be as large as the rows
  // used and no larger, and no fold leaves out only omitted rows.
  void generatedFoldsOverUsedRows() {
    Scratch s;
    QList<QByteArray> lines = smallCsv(40).split('\n');
    for (int row : {3, 17, 30}) lines[row + 1] = lines[row + 1].left(lines[row + 1].indexOf(',')) + ",NA,0.5,0.5";
    writeFile(s.path("d.csv"), lines.join('\n'));
    const QStringList common{"cv",      "--data", s.path("d.csv"), "--out",  s.path("cv.json"), "--knots", "4",
                             "--mstop", "10",     "--quiet",       "--kfold"};
    const CliResult ok = runGamboost(common + QStringList{"37"});
    QVERIFY2(ok.finished && ok.exitCode == 0, qPrintable(ok.describe()));
    const QJsonObject cv = QJsonDocument::fromJson(readFile(s.path("cv.json"))).object();
    QCOMPARE(cv["risk"].toArray().size(), 37);
    // The omitted rows are said and recorded as fit says and records them (cv said nothing, even without --quiet).
    QCOMPARE(cv["rows_used"].toInt(), 37);
    QCOMPARE(cv["rows_omitted"].toInt(), 3);
    QCOMPARE(cv["rows_omitted_by_column"].toObject().size(), 1);
    QVERIFY2(cv["notes"].toArray().size() == 1 && cv["notes"].toArray()[0].toString().contains("3 of 40 rows omitted"),
             qPrintable(QJsonDocument(cv["notes"].toArray()).toJson()));
    QVERIFY2(ok.err.contains("gamboost: note: 3 of 40 rows omitted"), qPrintable(ok.describe()));
    QFile::remove(s.path("cv.json"));
    const CliResult over = runGamboost(common + QStringList{"38"});
    // One line, not the omitted rows' note before it (cv printed its notes before checking the folds).
    verifyRejected(over, "^gamboost: --kfold: must be in 2\\.\\.37 \\(the rows used\\), got 38$");
    QVERIFY(!QFile::exists(s.path("cv.json")));
  }

  void fitMstopCv() {
    Scratch s;
    writeFile(s.path("d.csv"), smallCsv(60));
    const QStringList common{"fit", "--data", s.path("d.csv"), "--knots", "4", "--nu", "0.3", "--quiet"};
    CliResult r = runGamboost(common + QStringList{"--out", s.path("r.json"), "--mstop", "cv", "--kfold", "4", "--seed",
                                                   "7", "--cv-grid", "40"});
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject j = QJsonDocument::fromJson(readFile(s.path("r.json"))).object();
    const int chosen = j["cv"].toObject()["mstop"].toInt();
    QCOMPARE(j["path"].toObject()["learner"].toArray().size(), std::max(1, chosen));
    // The same folds through gamboost cv choose the same mstop.
    r = runGamboost({"cv", "--data", s.path("d.csv"), "--knots", "4", "--nu", "0.3", "--quiet", "--out",
                     s.path("cv.json"), "--mstop", "40", "--kfold", "4", "--seed", "7"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QCOMPARE(QJsonDocument::fromJson(readFile(s.path("cv.json"))).object()["mstop"].toInt(), chosen);
    verifyRejected(runGamboost(common + QStringList{"--out", s.path("x.json"), "--mstop", "cvx"}),
                   "--mstop: 'cvx' is not an integer");
  }

  // A fold whose steps overshoot (poisson counts of 0 and 80 at nu 0.1: exp(f) grows past double) is exit 2 naming
  // the fold and --nu, for cv and for fit --mstop cv, and nothing is written (it was a cv.json of nulls, mstop 0).
  void divergedFoldIsAnError() {
    Scratch s;
    QByteArray csv = "y,x\n";
    for (int i = 0; i < 60; ++i) csv += QByteArray(i > 30 ? "80," : "0,") + QByteArray::number(i / 60.0) + "\n";
    writeFile(s.path("d.csv"), csv);
    const QStringList common{"--data", s.path("d.csv"), "--family", "poisson", "--knots", "4", "--kfold", "3"};
    const QString pattern = "fold \\d diverged: its out-of-bag risk is no longer finite after iteration \\d+ \\(.*--nu";
    verifyRejected(runGamboost(QStringList{"cv"} + common + QStringList{"--mstop", "40", "--out", s.path("cv.json")}),
                   pattern);
    QVERIFY(!QFileInfo::exists(s.path("cv.json")));
    verifyRejected(runGamboost(QStringList{"fit"} + common +
                               QStringList{"--mstop", "cv", "--cv-grid", "40", "--out", s.path("r.json")}),
                   pattern);
    QVERIFY(!QFileInfo::exists(s.path("r.json")));
  }

  void rejects_data() {
    QTest::addColumn<QByteArray>("folds");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("pattern");
    QByteArray good = "a,b\n";
    for (int i = 0; i < 30; ++i) good += QByteArray::number(i % 2) + "," + QByteArray::number((i + 1) % 2) + "\n";
    QByteArray negative = good;
    negative.replace("a,b\n0,1\n", "a,b\n0,-1\n");
    QByteArray shortFile = "a\n1\n0\n";
    QTest::newRow("negative fold weight") << negative << QStringList{} << "w.csv:2:2: fold 'b'";
    // Each weight a valid integer, their sum beyond double: the fold's offset was inf and the response was blamed.
    QByteArray huge = good;
    huge.replace("a,b\n0,1\n1,0\n", "a,b\n0,1e308\n1,1e308\n");
    QTest::newRow("fold weights' sum overflows")
        << huge << QStringList{} << "w.csv:3:2: fold 'b': the fold weights add up beyond the double range";
    QTest::newRow("too few rows") << shortFile << QStringList{} << "w.csv:3:1: --folds-file has 2 rows, the data 30";
    // Weights without a header row (R's write.table(col.names = FALSE)): the first row is taken for the names. With
    // two folds of 0/1 whose first row is "1,1" a name repeats; otherwise the file is a row short. Both say the header
    // looks missing, the latter at line 1.
    QByteArray repeated = "1,1\n" + good.mid(good.indexOf("\n0,1\n") + 5);  // 30 rows, the first "1,1"
    QTest::newRow("no header, a name repeats")
        << repeated << QStringList{} << "w.csv:1:2: duplicate column name .*is the header row missing";
    QByteArray headerless = good.mid(good.indexOf('\n') + 1);  // the 30 rows of `good`, the first "0,1"
    QTest::newRow("no header, two folds")
        << headerless << QStringList{} << "w.csv:1:1: --folds-file has 29 rows, the data 30, .*header row";
    QByteArray oneFold;
    for (int i = 0; i < 30; ++i) oneFold += QByteArray::number(i % 2) + "\n";
    QTest::newRow("no header, one fold") << oneFold << QStringList{}
                                         << "w.csv:1:1: --folds-file has 29 rows, the data 30, .*header row";
    QTest::newRow("two fold options") << good << QStringList{"--kfold", "3"}
                                      << "--kfold and --folds-file: give only one of";
    QTest::newRow("bootstrap and subsample") << QByteArray() << QStringList{"--bootstrap", "3", "--subsample", "3"}
                                             << "gamboost: --bootstrap and --subsample: give only one of";
    QTest::newRow("kfold 1") << QByteArray() << QStringList{"--kfold", "1"} << "--kfold: must be in 2..30";
    // 0 is not "not given": it must not fall back to the default 25 bootstraps
    QTest::newRow("kfold 0") << QByteArray() << QStringList{"--kfold", "0"}
                             << "--kfold: must be in 2..30 \\(the rows used\\), got 0";
    QTest::newRow("bootstrap 0") << QByteArray() << QStringList{"--bootstrap", "0"}
                                 << "--bootstrap: must be at least 1, got 0";
    QTest::newRow("subsample -2") << QByteArray() << QStringList{"--subsample", "-2"}
                                  << "--subsample: must be at least 1, got -2";
    QTest::newRow("prob 1") << QByteArray() << QStringList{"--subsample", "3", "--prob", "1"} << "--prob: must be in";
    // 1000 folds of 1e7 iterations: about 500 GB of risk curves, refused before any fold runs (100000 folds of
    // 100000 iterations ran until the memory ran out)
    QTest::newRow("risk curves beyond memory")
        << QByteArray() << QStringList{"--bootstrap", "1000", "--mstop", "10000000"}
        << "^gamboost: --mstop: 1000 folds \\(--bootstrap\\) of 10000000 iterations need about .* for their risk "
           "curves, more than half of the .* available \\(the fits need the rest\\): fewer folds or iterations$";
    // Huber() with its adaptive d carries state from the fit before into each fold in mboost's cvrisk
    QTest::newRow("huber adaptive d") << QByteArray() << QStringList{"--kfold", "3", "--family", "huber"}
                                      << "--family: huber without --huber-delta \\(mboost's adaptive d\\) cannot be "
                                         "resampled";
  }

  void rejects() {
    QFETCH(QByteArray, folds);
    QFETCH(QStringList, options);
    QFETCH(QString, pattern);
    Scratch s;
    writeFile(s.path("d.csv"), smallCsv(30));
    QStringList args{"cv", "--data", s.path("d.csv"), "--out", s.path("cv.json"), "--knots", "3"};
    if (!options.contains("--mstop"))
      args << "--mstop"
           << "5";
    if (!folds.isEmpty()) {
      writeFile(s.path("w.csv"), folds);
      args << "--folds-file" << s.path("w.csv");
    }
    verifyRejected(runGamboost(args + options), pattern);
    QVERIFY(!QFileInfo::exists(s.path("cv.json")));
  }
};

QTEST_GUILESS_MAIN(TestCliCv)
#include "test_cli_cv.moc"

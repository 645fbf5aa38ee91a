// gamboost fit --holdout through the CLI. The held-out risk curve is checked against a computation that shares none
// of its code: plain fits with --weights 0 on the held-out rows (the same fit, by mboost's semantics) at several
// mstop, whose fitted values give the held-out loss computed here from the family's definition. Also: the training
// risk stays the fit's own, the rows follow the seed and skip omitted rows, the summary line, and the rejection
// contract (exit 2, one line naming --holdout, nothing written).
#include <QtTest>
#include <cmath>
#include <set>

#include "support/CliRunner.hpp"

using namespace gbtest;

namespace {

QJsonObject readJson(const QString& path) { return QJsonDocument::fromJson(readFile(path)).object(); }

// Rows of a CSV (header skipped) as cells.
QList<QByteArrayList> csvRows(const QByteArray& csv) {
  QList<QByteArrayList> rows;
  const QByteArrayList lines = csv.trimmed().split('\n');
  for (qsizetype i = 1; i < lines.size(); ++i) rows.push_back(lines[i].split(','));
  return rows;
}

// A 0/1 response that no covariate separates: y = 1 where sin(2 pi x1) + x2 + a deterministic wiggle > 0.6.
QByteArray binomialCsv(int rows) {
  QByteArray csv = "y,x1,x2\n";
  for (int i = 0; i < rows; ++i) {
    const double x1 = static_cast<double>(i) / (rows - 1);
    const double x2 = std::fmod(i * 0.6180339887498949, 1.0);
    const int y = std::sin(2.0 * M_PI * x1) + x2 + 0.8 * std::sin(17.0 * i) > 0.6 ? 1 : 0;
    csv += QByteArray::number(y) + ',' + QByteArray::number(x1, 'g', 17) + ',' + QByteArray::number(x2, 'g', 17) + '\n';
  }
  return csv;
}

// mboost's losses (family.R): gaussian (y - f)^2; Binomial with f half the log-odds, y in {0, 1}:
// log(1 + exp(-2 (2y - 1) f)) with f clipped to [-36, 36].
double loss(const QString& family, double y, double f) {
  if (family == "gaussian") return (y - f) * (y - f);
  const double clipped = std::clamp(f, -36.0, 36.0);
  return std::log1p(std::exp(-2.0 * (2.0 * y - 1.0) * clipped));
}

// smallCsv with a factor column f (levels a, b, c) and a case-weight column cw (0.5, 1.5 or 2.5: rescaled as
// mboost rescales non-integer weights).
QByteArray mixedCsv(int rows) {
  const QByteArrayList lines = smallCsv(rows).trimmed().split('\n');
  QByteArray csv = lines[0] + ",f,cw\n";
  for (int i = 1; i < lines.size(); ++i)
    csv += lines[i] + ',' + QByteArray(1, char('a' + (i * 7) % 3)) + ',' + QByteArray::number(0.5 + (i % 3)) + '\n';
  return csv;
}

bool near(double a, double b, double tol) { return std::abs(a - b) <= tol * std::max(1.0, std::abs(b)); }

}  // namespace

class TestCliHoldout : public QObject {
  Q_OBJECT
 private slots:
  void curveEqualsWeightedFits_data() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<QByteArray>("csv");
    QTest::addColumn<QStringList>("learners");
    QTest::addColumn<bool>("caseWeights");  // the CSV's column cw holds case weights
    QTest::newRow("gaussian") << "gaussian" << smallCsv(80) << QStringList{} << false;
    QTest::newRow("binomial") << "binomial" << binomialCsv(80) << QStringList{} << false;
    QTest::newRow("linear, factor, case weights")
        << "gaussian" << mixedCsv(80) << QStringList{"--spline", "x1,x2", "--linear", "x3", "--factor", "f"} << true;
  }

  void curveEqualsWeightedFits() {
    QFETCH(QString, family);
    QFETCH(QByteArray, csv);
    QFETCH(QStringList, learners);
    QFETCH(bool, caseWeights);
    Scratch s;
    writeFile(s.path("d.csv"), csv);
    const QStringList common =
        QStringList{"fit", "--family", family, "--knots", "4", "--nu", "0.3", "--quiet"} + learners;
    const int mstop = 30;
    CliResult r = runGamboost(common +
                              QStringList{"--data", s.path("d.csv"), "--out", s.path("h.json"), "--holdout", "0.25",
                                          "--seed", "3", "--mstop", QString::number(mstop)} +
                              (caseWeights ? QStringList{"--weights", "cw"} : QStringList{}));
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject result = readJson(s.path("h.json"));
    const QJsonObject holdout = result["holdout"].toObject();
    QCOMPARE(holdout["fraction"].toDouble(), 0.25);
    QCOMPARE(holdout["seed"].toInt(), 3);
    QCOMPARE(holdout["rows"].toInt(), 20);  // round(0.25 x 80)
    const QJsonArray heldRows = holdout["held_out"].toArray(), heldRisk = holdout["risk"].toArray();
    QCOMPARE(heldRows.size(), 20);
    QCOMPARE(heldRisk.size(), mstop + 1);
    std::set<int> held;
    for (const auto& v : heldRows) held.insert(v.toInt());
    QCOMPARE(static_cast<int>(held.size()), 20);
    QVERIFY(*held.begin() >= 0 && *held.rbegin() < 80);
    int best = 0;
    for (int m = 0; m <= mstop; ++m)
      if (heldRisk[m].toDouble() < heldRisk[best].toDouble()) best = m;
    QCOMPARE(holdout["mstop"].toInt(), best);

    // The same fit as a weighted one: weight 0 on the held-out rows, the case weight (or 1) elsewhere.
    QByteArray weighted = csv.left(csv.indexOf('\n')) + ",w\n";
    const QList<QByteArrayList> rows = csvRows(csv);
    auto caseWeight = [&](int i) { return caseWeights ? rows[i].back().toDouble() : 1.0; };
    for (int i = 0; i < rows.size(); ++i)
      weighted += rows[i].join(',') + ',' + QByteArray::number(held.count(i) ? 0.0 : caseWeight(i), 'g', 17) + '\n';
    writeFile(s.path("w.csv"), weighted);
    const QJsonArray trainRisk = result["path"].toObject()["risk"].toArray();
    for (int m : {1, 9, mstop}) {
      r = runGamboost(common + QStringList{"--data", s.path("w.csv"), "--out", s.path("w.json"), "--weights", "w",
                                           "--mstop", QString::number(m)});
      QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
      const QJsonObject plain = readJson(s.path("w.json"));
      const QJsonArray fitted = plain["fitted"].toArray();
      double sum = 0.0, sum0 = 0.0, weights = 0.0;
      for (int i : held) {
        const double y = rows[i][0].toDouble(), w = caseWeight(i);
        sum += w * loss(family, y, fitted[i].toDouble());
        sum0 += w * loss(family, y, plain["offset"].toDouble());
        weights += w;
      }
      QVERIFY2(near(heldRisk[m].toDouble(), sum / weights, 1e-9),
               qPrintable(QString("m = %1: %2 vs %3").arg(m).arg(heldRisk[m].toDouble()).arg(sum / weights)));
      QVERIFY(near(heldRisk[0].toDouble(), sum0 / weights, 1e-10));
      // "risk" stays the training risk: the weighted fit's own, over the rows it was fitted on.
      const QJsonArray plainRisk = plain["path"].toObject()["risk"].toArray();
      if (m == mstop)  // and the fitted values, held-out rows included, are that fit's
        for (int i = 0; i < rows.size(); ++i)
          QVERIFY(near(result["fitted"].toArray()[i].toDouble(), fitted[i].toDouble(), 1e-10));
      for (int k = 0; k <= m; ++k) QVERIFY(near(trainRisk[k].toDouble(), plainRisk[k].toDouble(), 1e-10));
    }
    // Two different curves (the held-out rows are not fitted), not one written twice.
    double apart = 0.0;
    for (int m = 1; m <= mstop; ++m)
      apart = std::max(apart, std::abs(heldRisk[m].toDouble() / trainRisk[m].toDouble() - 1.0));
    QVERIFY2(apart > 1e-6, qPrintable(QString::number(apart)));
  }

  void rowsFollowSeedAndSkipOmitted() {
    Scratch s;
    QByteArray csv = smallCsv(40);
    csv.replace("\n2,", "\nNA,");  // row 1 (0-based 0): y = 2 + sin(0) + 0 = 2
    QVERIFY(csv.contains("\nNA,"));
    writeFile(s.path("d.csv"), csv);
    auto heldOut = [&](const QString& seed, const QString& out) {
      const CliResult r = runGamboost({"fit", "--data", s.path("d.csv"), "--out", s.path(out), "--knots", "4",
                                       "--mstop", "5", "--holdout", "0.5", "--seed", seed, "--quiet"});
      if (r.exitCode != 0) qWarning() << r.describe();
      const QJsonObject h = readJson(s.path(out))["holdout"].toObject();
      std::set<int> rows;
      for (const auto& v : h["held_out"].toArray()) rows.insert(v.toInt());
      if (h["rows"].toInt() != static_cast<int>(rows.size())) rows.clear();
      return rows;
    };
    const std::set<int> a = heldOut("1", "a.json"), b = heldOut("1", "b.json"), c = heldOut("2", "c.json");
    QCOMPARE(static_cast<int>(a.size()), 20);  // round(0.5 x 39 used rows), half away from zero
    QVERIFY(a == b);
    QVERIFY(a != c);
    QVERIFY(!a.count(0) && !c.count(0));  // the omitted row is never held out
  }

  void summaryNamesHeldOutMinimumAndCvChoice() {
    Scratch s;
    writeFile(s.path("d.csv"), smallCsv(60));
    CliResult r = runGamboost({"fit", "--data", s.path("d.csv"), "--out", s.path("r.json"), "--knots", "4", "--mstop",
                               "20", "--holdout", "0.3", "--summary", "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject h = readJson(s.path("r.json"))["holdout"].toObject();
    QVERIFY2(r.out.contains(QRegularExpression(
                 QString("held out +18 rows: risk .* minimum .* at mstop %1").arg(h["mstop"].toInt()))),
             qPrintable(r.out));
    r = runGamboost({"fit", "--data", s.path("d.csv"), "--out", s.path("c.json"), "--knots", "4", "--mstop", "cv",
                     "--kfold", "3", "--cv-grid", "20", "--summary", "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const int chosen = readJson(s.path("c.json"))["cv"].toObject()["mstop"].toInt();
    QVERIFY2(r.out.contains(QRegularExpression(QString("mstop +%1, chosen by 3 kfold folds").arg(std::max(1, chosen)))),
             qPrintable(r.out));
  }

  void rejects_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("pattern");
    QTest::newRow("zero") << QStringList{"--holdout", "0"} << "--holdout: must be in \\(0, 1\\)";
    QTest::newRow("one") << QStringList{"--holdout", "1"} << "--holdout: must be in \\(0, 1\\)";
    QTest::newRow("negative") << QStringList{"--holdout", "-0.2"} << "--holdout: must be in \\(0, 1\\)";
    QTest::newRow("not a number") << QStringList{"--holdout", "half"} << "--holdout: 'half' is not a number";
    QTest::newRow("none out") << QStringList{"--holdout", "0.01"} << "--holdout: .*leaves no row out";
    QTest::newRow("none in") << QStringList{"--holdout", "0.99"} << "--holdout: .*leaves no row in";
    // One row kept: the learners cannot be fitted on it, and the message says that the holdout is why.
    QTest::newRow("too few in") << QStringList{"--holdout", "0.95"}
                                << "--holdout: the fit on the 1 used rows it keeps fails: .*d\\.csv: learner 'x1': ";
    QTest::newRow("with mstop cv") << QStringList{"--holdout", "0.2", "--mstop", "cv"}
                                   << "--holdout: cannot be combined with --mstop cv";
  }

  void rejects() {
    QFETCH(QStringList, options);
    QFETCH(QString, pattern);
    Scratch s;
    writeFile(s.path("d.csv"), smallCsv(30));
    verifyRejected(runGamboost(QStringList{"fit", "--data", s.path("d.csv"), "--out", s.path("r.json"), "--knots", "3",
                                           "--model", s.path("m.json")} +
                               options),
                   pattern);
    QVERIFY(!QFileInfo::exists(s.path("r.json")));
    QVERIFY(!QFileInfo::exists(s.path("m.json")));
  }
};

QTEST_GUILESS_MAIN(TestCliHoldout)
#include "test_cli_holdout.moc"

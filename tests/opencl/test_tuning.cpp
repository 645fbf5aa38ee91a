// The OpenCL backend's experiment switches are read in one place, validated (a bad value names its variable),
// and recorded in result.json, so a run made with them can be repeated.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "common/Error.hpp"
#include "opencl/Tuning.hpp"

using gb::ocl::openClTuningFromEnvironment;

namespace {

// gamboost with one more environment variable; returns the exit code and stderr.
int runWith(const QString& variable, const QString& value, const QStringList& args, QString* err) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(variable, value);
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(GB_CLI_PATH), args);
  if (!p.waitForFinished(120000)) return -1;
  *err = QString::fromUtf8(p.readAllStandardError());
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

QByteArray smallCsv() {
  QByteArray csv = "y,x1,x2\n";
  for (int i = 0; i < 60; ++i)
    csv += QByteArray::number(std::sin(i * 0.2) + 0.01 * i) + "," + QByteArray::number(i) + "," +
           QByteArray::number((i * 37) % 60) + "\n";
  return csv;
}

}  // namespace

class TuningTest : public QObject {
  Q_OBJECT

 private slots:
  void cleanup() {
    qunsetenv("GAMBOOST_OPENCL_REFRESH");
    qunsetenv("GAMBOOST_COMPACT_LANES");
    qunsetenv("GAMBOOST_KERNEL_DEFINES");
    qunsetenv("GAMBOOST_CROSS_FILL");
    qunsetenv("GAMBOOST_SHARD_ROWS");
    qunsetenv("GAMBOOST_PACKED_BTG");
    qunsetenv("GAMBOOST_PACK_SHAPE");
    qunsetenv("GAMBOOST_PACK_GROUPS");
  }

  void nothingSetMeansDefaults() {
    const gb::ocl::OpenClTuning t = openClTuningFromEnvironment();
    QCOMPARE(t.refreshInterval, -1);
    QCOMPARE(t.compactLanes, -1);
    QCOMPARE(t.shardRows, -1LL);
    QCOMPARE(t.packedBtg, -1);  // unset: the device's tuning entry decides
    QCOMPARE(t.packWarps, 0);
    QVERIFY(t.describe().empty());
  }

  void packedShapeIsRead() {
    qputenv("GAMBOOST_PACKED_BTG", "1");
    qputenv("GAMBOOST_PACK_SHAPE", "4,20,8");
    qputenv("GAMBOOST_PACK_GROUPS", "8");
    const gb::ocl::OpenClTuning t = openClTuningFromEnvironment();
    QCOMPARE(t.packedBtg, 1);
    QCOMPARE(t.packWarps, 4);
    QCOMPARE(t.packLearners, 20);
    QCOMPARE(t.packSlots, 8);
    QCOMPARE(t.packGroups, 8);
    QCOMPARE(t.describe(), std::string("GAMBOOST_PACKED_BTG=1 GAMBOOST_PACK_SHAPE=4,20,8 GAMBOOST_PACK_GROUPS=8"));
    qputenv("GAMBOOST_PACKED_BTG", "0");  // off even where the device's tuning entry says packed
    QCOMPARE(openClTuningFromEnvironment().packedBtg, 0);
    QVERIFY(openClTuningFromEnvironment().describe().find("GAMBOOST_PACKED_BTG=0") != std::string::npos);
  }

  void validValuesAreReadAndDescribed() {
    qputenv("GAMBOOST_OPENCL_REFRESH", "0");
    qputenv("GAMBOOST_COMPACT_LANES", "16");
    qputenv("GAMBOOST_KERNEL_DEFINES", "-DLANE_ROWS=16 -DFOO");
    qputenv("GAMBOOST_CROSS_FILL", "atomics");
    qputenv("GAMBOOST_SHARD_ROWS", "14000000");
    const gb::ocl::OpenClTuning t = openClTuningFromEnvironment();
    QCOMPARE(t.shardRows, 14000000LL);
    QCOMPARE(t.refreshInterval, 0);
    QCOMPARE(t.compactLanes, 16);
    QCOMPARE(t.crossFill, std::string("atomics"));
    QCOMPARE(t.describe(), std::string("GAMBOOST_OPENCL_REFRESH=0 GAMBOOST_COMPACT_LANES=16 "
                                       "GAMBOOST_KERNEL_DEFINES=-DLANE_ROWS=16 -DFOO GAMBOOST_CROSS_FILL=atomics "
                                       "GAMBOOST_SHARD_ROWS=14000000"));
  }

  void badValuesNameTheirVariable_data() {
    QTest::addColumn<QByteArray>("variable");
    QTest::addColumn<QByteArray>("value");
    QTest::newRow("refresh text") << QByteArray("GAMBOOST_OPENCL_REFRESH") << QByteArray("abc");
    QTest::newRow("refresh negative") << QByteArray("GAMBOOST_OPENCL_REFRESH") << QByteArray("-5");
    QTest::newRow("refresh trailing") << QByteArray("GAMBOOST_OPENCL_REFRESH") << QByteArray("50x");
    QTest::newRow("lanes 24") << QByteArray("GAMBOOST_COMPACT_LANES") << QByteArray("24");
    QTest::newRow("lanes 1e9") << QByteArray("GAMBOOST_COMPACT_LANES") << QByteArray("1000000000");
    QTest::newRow("defines: other option")
        << QByteArray("GAMBOOST_KERNEL_DEFINES") << QByteArray("-cl-fast-relaxed-math");
    QTest::newRow("defines: quote") << QByteArray("GAMBOOST_KERNEL_DEFINES") << QByteArray("-DX=\"a\"");
    QTest::newRow("cross fill name") << QByteArray("GAMBOOST_CROSS_FILL") << QByteArray("fast");
    QTest::newRow("shard rows 0") << QByteArray("GAMBOOST_SHARD_ROWS") << QByteArray("0");
    QTest::newRow("shard rows text") << QByteArray("GAMBOOST_SHARD_ROWS") << QByteArray("many");
    QTest::newRow("packed 2") << QByteArray("GAMBOOST_PACKED_BTG") << QByteArray("2");
    QTest::newRow("pack shape two parts") << QByteArray("GAMBOOST_PACK_SHAPE") << QByteArray("4,20");
    QTest::newRow("pack shape 9 warps") << QByteArray("GAMBOOST_PACK_SHAPE") << QByteArray("9,20,8");
    QTest::newRow("pack shape 3 slots") << QByteArray("GAMBOOST_PACK_SHAPE") << QByteArray("4,20,3");
    QTest::newRow("pack shape text") << QByteArray("GAMBOOST_PACK_SHAPE") << QByteArray("4,x,8");
    QTest::newRow("pack groups 0") << QByteArray("GAMBOOST_PACK_GROUPS") << QByteArray("0");
    QTest::newRow("pack groups 65") << QByteArray("GAMBOOST_PACK_GROUPS") << QByteArray("65");
  }

  void badValuesNameTheirVariable() {
    QFETCH(QByteArray, variable);
    QFETCH(QByteArray, value);
    qputenv(variable.constData(), value);
    try {
      openClTuningFromEnvironment();
      QFAIL("accepted");
    } catch (const gb::InputError& e) {
      QVERIFY2(QString(e.what()).startsWith(QString(variable) + ": "), e.what());
    }
  }

  // Through the CLI: a bad value is exit 2 naming the variable; a good one is recorded in result.json.
  void theCliRecordsAndRejects() {
    QTemporaryDir dir;
    QFile data(dir.filePath("d.csv"));
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write(smallCsv());
    data.close();
    const QStringList fit{"fit",
                          "--data",
                          dir.filePath("d.csv"),
                          "--out",
                          dir.filePath("r.json"),
                          "--backend",
                          "opencl",
                          "--knots",
                          "4",
                          "--mstop",
                          "10",
                          "--quiet"};
    QString err;
    QCOMPARE(runWith("GAMBOOST_COMPACT_LANES", "abc", fit, &err), 2);
    QVERIFY2(err.startsWith("gamboost: GAMBOOST_COMPACT_LANES: 'abc'") && err.trimmed().count('\n') == 0,
             qPrintable(err));
    QVERIFY(!QFile::exists(dir.filePath("r.json")));
    QCOMPARE(runWith("GAMBOOST_OPENCL_REFRESH", "0", fit, &err), 0);
    QFile result(dir.filePath("r.json"));
    QVERIFY(result.open(QIODevice::ReadOnly));
    const QJsonObject timing = QJsonDocument::fromJson(result.readAll()).object()["timing"].toObject();
    QCOMPARE(timing["tuning"].toString(), QString("GAMBOOST_OPENCL_REFRESH=0"));
  }
};

QTEST_GUILESS_MAIN(TuningTest)
#include "test_tuning.moc"

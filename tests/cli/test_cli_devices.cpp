// Device addresses and `fit --devices` (issue 15): `gamboost devices` gives every OpenCL device an address P:D;
// `fit --devices P:D/2` (two sub-devices of the default OpenCL device, PoCL's CPU device in CI) fits the same model
// as `fit --device P:D` in double (identical path, fitted values within 1e-12 normwise) and records the sharded
// backend; bad addresses and combinations exit 2 with one line naming the option, writing nothing.
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

using namespace gbtest;
using nlohmann::json;

class CliDevicesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void devicesShowAddresses();
  void fitOnTwoSubDevicesEqualsOneDevice();
  void benchFitTakesDevices();
  void badDevicesRejected_data();
  void badDevicesRejected();

 private:
  QString address_;  // the default OpenCL device's address, "" when there is none
};

void CliDevicesTest::initTestCase() {
  const CliResult r = runGamboost({"devices", "--json"});
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  const QByteArray text = r.out.toUtf8();
  const json list = json::parse(text.constData(), text.constData() + text.size());
  for (const json& d : list["devices"])
    if (d["backend"] == "opencl" && d["default"].get<bool>()) address_ = QString::fromStdString(d["address"]);
  qInfo("default OpenCL device: %s", qPrintable(address_.isEmpty() ? QString("none") : address_));
}

void CliDevicesTest::devicesShowAddresses() {
  const CliResult r = runGamboost({"devices", "--json"});
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  const QByteArray text = r.out.toUtf8();
  const json list = json::parse(text.constData(), text.constData() + text.size());
  const QRegularExpression form("^[0-9]+:[0-9]+$");
  for (const json& d : list["devices"]) {
    const QString a = QString::fromStdString(d["address"]);
    QVERIFY2(d["backend"] == "opencl" ? form.match(a).hasMatch() : a.isEmpty(), qPrintable(a));
  }
  const CliResult table = runGamboost({"devices"});
  QVERIFY(table.out.contains("address"));
  if (!address_.isEmpty()) QVERIFY(table.out.contains(address_));
}

void CliDevicesTest::fitOnTwoSubDevicesEqualsOneDevice() {
  if (address_.isEmpty()) QSKIP("no OpenCL device");
  Scratch scratch;
  QVERIFY(scratch.isValid());
  writeFile(scratch.path("d.csv"), smallCsv(600));
  const QStringList common{"fit",     "--data", scratch.path("d.csv"), "--knots", "8",
                           "--mstop", "60",     "--precision",         "double",  "--quiet"};
  const CliResult one =
      runGamboost(common + QStringList{"--backend", "opencl", "--device", address_, "--out", scratch.path("1.json")});
  if (one.exitCode == 2 && one.err.contains("fp64")) QSKIP("device has no fp64");
  QVERIFY2(one.exitCode == 0, qPrintable(one.describe()));
  const CliResult two =
      runGamboost(common + QStringList{"--devices", address_ + "/2", "--out", scratch.path("2.json")});
  if (two.exitCode == 2 && two.err.contains("cannot be split")) QSKIP(qPrintable(two.err));
  QVERIFY2(two.exitCode == 0, qPrintable(two.describe()));
  const json a = readJsonFile(scratch.path("1.json")), b = readJsonFile(scratch.path("2.json"));
  QCOMPARE(b["path"]["learner"], a["path"]["learner"]);
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a["fitted"].size(); ++i) {
    const double x = a["fitted"][i].get<double>(), y = b["fitted"][i].get<double>();
    diff += (x - y) * (x - y);
    norm += x * x;
  }
  QVERIFY2(std::sqrt(diff / norm) <= 1e-12, qPrintable(QString::number(std::sqrt(diff / norm))));
  QCOMPARE(b["timing"]["backend"].get<std::string>(), std::string("sharded"));
  QVERIFY(QString::fromStdString(b["timing"]["device"]).startsWith("2 shards: " + address_ + "/2.0"));
  QCOMPARE(b["settings"]["compute"]["devices"], json::array({(address_ + "/2").toStdString()}));
}

void CliDevicesTest::benchFitTakesDevices() {
  if (address_.isEmpty()) QSKIP("no OpenCL device");
  Scratch scratch;
  QVERIFY(scratch.isValid());
  const QString prefix = scratch.path("fb");
  const CliResult r = runGamboost({"bench", "fit", "--rows", "400", "--covariates", "4", "--informative", "2",
                                   "--knots", "6", "--mstop", "8", "--configs", "opencl:compact_x:double", "--devices",
                                   address_ + "/2", "--out", prefix});
  if (r.exitCode == 2 && r.err.contains("cannot be split")) QSKIP(qPrintable(r.err));
  QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
  const json report = readJsonFile(prefix + ".json");
  QCOMPARE(report["timings"].size(), std::size_t(1));
  QCOMPARE(report["timings"][0]["backend"].get<std::string>(), std::string("sharded"));
}

void CliDevicesTest::badDevicesRejected_data() {
  QTest::addColumn<QStringList>("options");
  QTest::addColumn<QString>("pattern");
  QTest::newRow("unknown address") << QStringList{"--devices", "97:0"} << "--devices: no OpenCL device at 97:0";
  QTest::newRow("one part") << QStringList{"--devices", "0:0/1"} << "--devices: .*fewer than 2 parts";
  QTest::newRow("cpu backend") << QStringList{"--devices", "0:0", "--backend", "cpu"}
                               << "--devices: the sharded backend runs on OpenCL devices";
  QTest::newRow("with --device") << QStringList{"--devices", "0:0", "--device", "0:0"} << "--devices: give either";
  QTest::newRow("empty item") << QStringList{"--devices", "0:0,"} << "--devices: an empty entry in the list";
  QTest::newRow("empty list") << QStringList{"--devices", ""} << "--devices: an empty entry in the list";
  QTest::newRow("--device with parts") << QStringList{"--backend", "opencl", "--device", "0:0/2"}
                                       << "--device: 0:0/2 names sub-devices";
  QTest::newRow("--device unknown address")
      << QStringList{"--backend", "opencl", "--device", "97:3"} << "--device: no OpenCL device at 97:3";
}

void CliDevicesTest::badDevicesRejected() {
  QFETCH(QStringList, options);
  QFETCH(QString, pattern);
  if (address_.isEmpty()) QSKIP("no OpenCL device");
  Scratch scratch;
  QVERIFY(scratch.isValid());
  writeFile(scratch.path("d.csv"), smallCsv(100));
  const QString out = scratch.path("r.json");
  const CliResult r =
      runGamboost(QStringList{"fit", "--data", scratch.path("d.csv"), "--mstop", "5", "--out", out} + options);
  verifyRejected(r, pattern);
  if (QTest::currentTestFailed()) return;
  QVERIFY(!QFileInfo::exists(out));
}

QTEST_GUILESS_MAIN(CliDevicesTest)
#include "test_cli_devices.moc"

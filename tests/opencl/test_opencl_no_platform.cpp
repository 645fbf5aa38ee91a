// No OpenCL platform at all: OCL_ICD_VENDORS points at an empty directory, set before this process's first
// OpenCL call (hence a test executable of its own). The factory and the device list say why; the CLI exits 2
// with one line saying so, and the CPU backend still fits.
#include <QtTest>

#include "common/Error.hpp"
#include "compute/Backend.hpp"
#include "compute/ComputeDevices.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

using namespace gb;

class TestOpenClNoPlatform : public QObject {
  Q_OBJECT

  QTemporaryDir vendors_;
  QTemporaryDir work_{QString(qEnvironmentVariable("GB_TEST_TMP", QDir::tempPath())) + "/no-platform-XXXXXX"};

 private slots:
  void initTestCase() {
    QVERIFY(vendors_.isValid() && work_.isValid());
    qputenv("OCL_ICD_VENDORS", vendors_.path().toUtf8());
  }

  void factorySaysNoPlatform() {
    ComputeSettings c;
    c.backend = gb::BackendKind::OpenCl;
    try {
      makeBackend(c);
      QFAIL("an OpenCL backend was made without any platform");
    } catch (const InputError& e) {
      const QString m = e.what();
      QVERIFY2(m.startsWith("--backend opencl: no OpenCL platform found") && m.contains("--backend cpu"),
               qPrintable(m));
    }
    c.backend = gb::BackendKind::Cpu;
    QVERIFY(makeBackend(c) != nullptr);
  }

  void deviceListKeepsCpu() {
    const ComputeDeviceList list = listComputeDevices();
    QCOMPARE(list.devices.size(), std::size_t(1));
    QCOMPARE(list.devices.front().backend, std::string("cpu"));
    QVERIFY(list.devices.front().computeUnits >= 1);
    QVERIFY2(QString::fromStdString(list.openClStatus).startsWith("no OpenCL platform found"),
             list.openClStatus.c_str());
  }

  void cliExitsTwoAndCpuStillWorks() {
    const QString data = work_.filePath("data.csv");
    auto run = [&](const QStringList& args, QString* err) {
      QProcess p;
      p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());  // carries OCL_ICD_VENDORS
      p.start(GB_CLI_PATH, args);
      if (!p.waitForFinished(120000)) return -1;
      *err = QString::fromUtf8(p.readAllStandardError());
      return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    };
    QString err;
    QCOMPARE(run({"generate", "--rows", "300", "--covariates", "4", "--informative", "2", "--seed", "3", "--out", data},
                 &err),
             0);
    const QString out = work_.filePath("fit.json");
    QCOMPARE(run({"fit", "--data", data, "--mstop", "5", "--backend", "opencl", "--out", out}, &err), 2);
    QVERIFY2(err.contains("--backend opencl: no OpenCL platform found") && err.trimmed().count('\n') == 0,
             qPrintable(err));
    QVERIFY(!QFile::exists(out));
    QCOMPARE(run({"fit", "--data", data, "--mstop", "5", "--backend", "cpu", "--out", out}, &err), 0);
    QVERIFY(QFile::exists(out));
  }
};

QTEST_APPLESS_MAIN(TestOpenClNoPlatform)
#include "test_opencl_no_platform.moc"

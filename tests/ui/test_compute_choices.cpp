// The window offers only what the engine accepts: its kernel and precision choices come from the engine
// (kernelChoices / precisionChoices), and a choice the backend would silently ignore (float on the CPU backend)
// is refused by the engine's one validation, as in the CLI.
#include <QComboBox>
#include <QSignalSpy>
#include <QtTest>

#include "common/MessageSink.hpp"
#include "compute/Backend.hpp"
#include "fit/FitController.hpp"
#include "model/ModelPanel.hpp"
#include "support/StudioFixture.hpp"
#include "window/MainWindow.hpp"

using namespace gbui;

namespace {

QStringList values(const QComboBox* box) {
  QStringList out;
  for (int i = 0; i < box->count(); ++i) out << box->itemData(i).toString();
  return out;
}

QStringList expected(const std::vector<std::string>& engine) {
  QStringList out{""};  // "default": the backend's own choice
  for (const std::string& s : engine) out << QString::fromStdString(s);
  return out;
}

QStringList expected(const std::vector<gb::Precision>& engine) {
  std::vector<std::string> words;
  for (gb::Precision p : engine) words.push_back(gb::toString(p));
  return expected(words);
}

}  // namespace

class ComputeChoicesTest : public QObject {
  Q_OBJECT

 private slots:
  void choicesComeFromTheEngine() {
    ModelPanel panel;
    gb::ComputeDeviceList devices;
    gb::ComputeDeviceInfo host;
    host.backend = "cpu";
    host.name = "CPU";
    host.type = "host";
    devices.devices.push_back(host);
    gb::ComputeDeviceInfo gpu;
    gpu.backend = "opencl";
    gpu.name = "a device";
    gpu.type = "GPU";
    gpu.fp64 = true;  // double is offered only where the device has cl_khr_fp64 (test_controls)
    devices.devices.push_back(gpu);
    panel.setDevices(devices);
    QCOMPARE(values(panel.kernelBox()), expected(gb::kernelChoices(gb::BackendKind::OpenCl)));

    gb::ComputeSettings c;
    c.backend = gb::BackendKind::Cpu;
    panel.setCompute(c);
    QCOMPARE(values(panel.precisionBox()), expected(gb::precisionChoices(gb::BackendKind::Cpu)));
    QVERIFY(!values(panel.precisionBox()).contains("float"));  // the CPU backend computes in double only

    c.backend = gb::BackendKind::OpenCl;
    c.precision = gb::Precision::Float;
    panel.setCompute(c);
    QCOMPARE(values(panel.precisionBox()), expected(gb::precisionChoices(gb::BackendKind::OpenCl)));
    QVERIFY(panel.compute().precision == gb::Precision::Float);
  }

  // A restored session sets its compute settings before the device query answers; the OpenCL choice then waits
  // for the device list instead of falling back to the CPU (a restart turned OpenCL into CPU, silently).
  void openClChosenBeforeTheDeviceListIsKept() {
    ModelPanel panel;
    gb::ComputeSettings c;
    c.backend = gb::BackendKind::OpenCl;
    c.precision = gb::Precision::Float;
    panel.setCompute(c);
    QVERIFY(panel.compute().backend == gb::BackendKind::Cpu);  // nothing else to choose yet
    gb::ComputeDeviceList devices;
    devices.devices.push_back({"cpu", "", "CPU", "host"});
    gb::ComputeDeviceInfo gpu;
    gpu.backend = "opencl";
    gpu.name = "a device";
    gpu.type = "GPU";
    devices.devices.push_back(gpu);
    panel.setDevices(devices);
    QVERIFY(panel.compute().backend == gb::BackendKind::OpenCl);
    QVERIFY(panel.compute().precision == gb::Precision::Float);
    // Once the devices are known, a later list (a new query) keeps what the user chose since.
    c.backend = gb::BackendKind::Cpu;
    c.precision = gb::Precision::Default;
    panel.setCompute(c);
    panel.setDevices(devices);
    QVERIFY(panel.compute().backend == gb::BackendKind::Cpu);
  }

  void floatOnTheCpuIsRefusedNotIgnored() {
    auto w = gbtest::makeWindow(300, 3, 5, 1, "choices");
    gb::ComputeSettings c;
    c.backend = gb::BackendKind::Cpu;
    c.precision = gb::Precision::Float;
    w->controller()->setSettings(w->modelPanel()->settings(), c);
    const int errorsBefore = w->messages()->errorCount();
    QSignalSpy finished(w->controller(), &FitController::jobFinished);
    QVERIFY(w->controller()->fit());
    QVERIFY(finished.wait(30000));
    QCOMPARE(w->controller()->state(), FitState::Failed);
    QCOMPARE(w->messages()->errorCount(), errorsBefore + 1);
    QVERIFY2(w->messages()->lastError().contains("double"), qPrintable(w->messages()->lastError()));
  }
};

QTEST_MAIN(ComputeChoicesTest)
#include "test_compute_choices.moc"

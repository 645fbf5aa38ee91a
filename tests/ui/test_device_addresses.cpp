// The window's device choice tells two OpenCL devices of one name apart by their address P:D (issue 15: two H200s
// both listed as "NVIDIA H200"): the choice is the address, the precision offered follows the device chosen, the list
// shows the addresses, and settings saved before addresses (a device name) still select that device.
#include <QComboBox>
#include <QtTest>

#include "model/ModelPanel.hpp"

using namespace gbui;

namespace {

gb::ComputeDeviceList twoOfOneName() {
  gb::ComputeDeviceList list;
  list.devices.push_back({"cpu", "", "CPU", "host"});
  for (int d = 0; d < 2; ++d) {
    gb::ComputeDeviceInfo gpu;
    gpu.backend = "opencl";
    gpu.platform = "NVIDIA CUDA";
    gpu.name = "NVIDIA H200";
    gpu.type = "GPU";
    gpu.address = "0:" + std::to_string(d);
    gpu.fp64 = d == 0;  // only the first offers double, so the panel must know which one is chosen
    gpu.isDefault = d == 0;
    list.devices.push_back(gpu);
  }
  return list;
}

QStringList values(const QComboBox* box) {
  QStringList out;
  for (int i = 0; i < box->count(); ++i) out << box->itemData(i).toString();
  return out;
}

}  // namespace

class TestDeviceAddresses : public QObject {
  Q_OBJECT

 private slots:
  void devicesOfOneNameAreToldApart() {
    ModelPanel panel;
    panel.setDevices(twoOfOneName());
    gb::ComputeSettings c;
    c.backend = gb::BackendKind::OpenCl;
    c.device = "0:1";
    panel.setCompute(c);
    QCOMPARE(panel.compute().device, std::string("0:1"));
    QCOMPARE(values(panel.precisionBox()), QStringList({"", "float"}));  // the second device has no fp64
    c.device = "0:0";
    panel.setCompute(c);
    QCOMPARE(panel.compute().device, std::string("0:0"));
    QCOMPARE(values(panel.precisionBox()), QStringList({"", "double", "float"}));
    // The list shows each device's address beside its name.
    QComboBox* devices = nullptr;
    for (QComboBox* box : panel.findChildren<QComboBox*>())
      if (values(box) == QStringList({"0:0", "0:1"})) devices = box;
    QVERIFY(devices != nullptr);
    QVERIFY(devices->itemText(1).startsWith("0:1"));
    QVERIFY(devices->itemText(1).contains("NVIDIA H200"));
  }

  void savedNameSelectsThatDevice() {
    ModelPanel panel;
    panel.setDevices(twoOfOneName());
    gb::ComputeSettings c;
    c.backend = gb::BackendKind::OpenCl;
    c.device = "NVIDIA H200";  // a session saved before addresses
    panel.setCompute(c);
    QCOMPARE(panel.compute().device, std::string("0:0"));
  }
};

QTEST_MAIN(TestDeviceAddresses)
#include "test_device_addresses.moc"

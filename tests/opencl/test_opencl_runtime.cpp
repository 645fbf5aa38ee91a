// The thin OpenCL layer: status checks, device listing and choice, the program cache, buffers and event timing.
#include <QtTest>

#include "OpenClTestUtil.hpp"
#include "common/Error.hpp"
#include "compute/ComputeDevices.hpp"
#include "opencl/KernelParameters.hpp"

using namespace gb;
using namespace gb::ocl;
using gbocltest::testDevice;

namespace {
std::string optionsFor(bool isDouble) {
  ComputeDeviceInfo cpu;
  cpu.type = "CPU";
  return buildOptions(kernelParameters(cpu, 1000, 2), SplineSpec{4, 3}, isDouble);
}
}  // namespace

class TestOpenClRuntime : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testDevice(); }

  void checkNamesCallAndStatus() {
    QCOMPARE(QString(statusName(CL_INVALID_WORK_GROUP_SIZE)), QString("CL_INVALID_WORK_GROUP_SIZE"));
    check(CL_SUCCESS, "clNothing");
    try {
      check(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel");
      QFAIL("check did not throw");
    } catch (const ComputeError& e) {
      QCOMPARE(QString(e.what()), QString("OpenCL call clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5)"));
    }
  }

  void listsDevicesWithOneDefault() {
    std::string why = "untouched";
    const std::vector<Device> devices = listDevices(&why);
    QVERIFY(!devices.empty());
    QCOMPARE(why, std::string("untouched"));
    int defaults = 0;
    for (const Device& d : devices) {
      defaults += d.info.isDefault;
      QCOMPARE(d.info.backend, std::string("opencl"));
      QVERIFY(!d.info.name.empty() && d.info.computeUnits > 0 && d.info.maxAllocationBytes > 0);
    }
    QCOMPARE(defaults, 1);
    const ComputeDeviceList all = listComputeDevices();
    QCOMPARE(all.devices.front().backend, std::string("cpu"));
    QCOMPARE(all.devices.size(), devices.size() + 1);
    QVERIFY(all.openClStatus.empty());
  }

  void choosesBySubstringAndEnvironment() {
    const Device d = testDevice();
    // Case-insensitive substring of "platform / device".
    QString name = QString::fromStdString(d.info.name).toUpper();
    QCOMPARE(chooseDevice(name.toStdString()).info.name, d.info.name);
    qputenv("GAMBOOST_DEVICE", d.info.name.c_str());
    QCOMPARE(chooseDevice("").info.name, d.info.name);
    qputenv("GAMBOOST_DEVICE", "zz-no-such-device");
    try {
      chooseDevice("");
      QFAIL("GAMBOOST_DEVICE naming nothing was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).startsWith("GAMBOOST_DEVICE: no OpenCL device matches 'zz-no-such-device'"), e.what());
    }
    // An explicit --device wins over the environment.
    QCOMPARE(chooseDevice(d.info.name).info.name, d.info.name);
    qunsetenv("GAMBOOST_DEVICE");
  }

  void programCacheKeysOnOptions() {
    Context ctx(testDevice());
    const cl_program a = ctx.program("learner_select", optionsFor(false));
    QCOMPARE(ctx.program("learner_select", optionsFor(false)), a);
    if (testDevice().info.fp64) QVERIFY(ctx.program("learner_select", optionsFor(true)) != a);
    Context other(testDevice());  // the cache belongs to the process: a second fit builds nothing
    QCOMPARE(other.program("learner_select", optionsFor(false)), a);
    try {
      ctx.program("no_such_kernel_file", "");
      QFAIL("a missing kernel file built");
    } catch (const ComputeError& e) {
      QVERIFY(QString(e.what()).contains("kernels/no_such_kernel_file.cl"));
    }
  }

  void buffersRoundTripAndCountBytes() {
    Context ctx(testDevice());
    const std::uint64_t before = liveBufferBytes();
    {
      Buffer b(ctx, 4099 * sizeof(float));
      QCOMPARE(liveBufferBytes(), before + 4099 * sizeof(float));
      const float seven = 7.0f;
      b.fill(ctx, &seven, sizeof seven);
      std::vector<float> host(4099, 0.0f);
      b.read(ctx, host.data(), host.size() * sizeof(float));
      QCOMPARE(host[4098], 7.0f);
      const float two[2] = {1.5f, -2.5f};
      b.write(ctx, two, sizeof two, 100 * sizeof(float));
      b.read(ctx, host.data(), host.size() * sizeof(float));
      QCOMPARE(host[100], 1.5f);
      QCOMPARE(host[101], -2.5f);
      QVERIFY_THROWS_EXCEPTION(ComputeError, b.write(ctx, two, sizeof two, 4098 * sizeof(float)));
      Buffer moved = std::move(b);
      QCOMPARE(liveBufferBytes(), before + 4099 * sizeof(float));
    }
    QCOMPARE(liveBufferBytes(), before);
    QVERIFY_THROWS_EXCEPTION(ComputeError, Buffer(ctx, testDevice().info.maxAllocationBytes + 1));
  }

  void eventsTimeLaunches() {
    Context ctx(testDevice());
    Kernel k(ctx.kernel("learner_select", "learner_solve", optionsFor(false)));
    const int K = 4 + 3 + 1;
    Buffer c(ctx, 2 * K * 4), P(ctx, 2 * K * K * 4), Q(ctx, 2 * K * K * 4), d(ctx, 2 * K * 4), r(ctx, 2 * 4);
    const float zero = 0.0f;
    for (Buffer* b : {&c, &P, &Q}) b->fill(ctx, &zero, sizeof zero);
    k.arg(0, c);
    k.arg(1, P);
    k.arg(2, Q);
    k.arg(3, d);
    k.arg(4, r);
    std::vector<cl_event> events(2);
    k.launch(ctx, {2}, {1}, &events[0]);
    k.launch(ctx, {2}, {1}, &events[1]);
    const double seconds = eventsSeconds(events);
    QVERIFY(events.empty());
    QVERIFY(seconds > 0.0 && seconds < 10.0);
  }
};

QTEST_APPLESS_MAIN(TestOpenClRuntime)
#include "test_opencl_runtime.moc"

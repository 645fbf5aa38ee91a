// Kernel parameters per device (opencl/TuningTable.hpp): the built-in table, the user's tuning file that
// `gamboost bench tune` writes, the process override, and that a tuned lane shape reaches the kernel's build and
// still gives the CPU backend's fit.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>

#include "OpenClTestUtil.hpp"
#include "common/Error.hpp"
#include "compute/Booster.hpp"
#include "compute/CpuBackend.hpp"
#include "data/PaperData.hpp"
#include "opencl/KernelParameters.hpp"
#include "opencl/OpenClBackend.hpp"
#include "opencl/TuningTable.hpp"

using namespace gb;
using gb::ocl::TuningEntry;

namespace {

ComputeDeviceInfo gpuNamed(const std::string& name, int units = 100) {
  ComputeDeviceInfo d;
  d.backend = "opencl";
  d.platform = "Test platform";
  d.name = name;
  d.type = "GPU";
  d.computeUnits = units;
  d.globalMemoryBytes = std::uint64_t(1) << 34;
  d.localMemoryBytes = 48 << 10;
  return d;
}

void writeFile(const QString& path, const std::string& text) {
  std::ofstream out(path.toStdString(), std::ios::binary);
  out << text;
}

}  // namespace

class TuningTableTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private slots:
  void init() { qputenv("GAMBOOST_TUNING_FILE", (dir_.path() + "/tuning.json").toUtf8()); }
  void cleanup() {
    QFile::remove(dir_.path() + "/tuning.json");
    qunsetenv("GAMBOOST_TUNING_FILE");
    qunsetenv("GAMBOOST_PACKED_BTG");  // set by builtInEntriesAreTheH100sAndH200s
  }

  void builtInEntriesAreTheH100sAndH200s() {
    ComputeDeviceInfo h100 = gpuNamed("NVIDIA H100 80GB HBM3", 132);
    const auto entry = ocl::tuningFor(h100);
    QVERIFY(entry.has_value());
    QVERIFY(entry->lanes == LaneTuning{});  // the defaults were tuned there
    QVERIFY(!ocl::kernelParameters(h100, 10000000, 100).packedBtg);
    h100.computeUnits = 114;  // a PCIe H100 is another device
    QVERIFY(!ocl::tuningFor(h100).has_value());
    QVERIFY(!ocl::tuningFor(gpuNamed("Some GPU")).has_value());
    // The H200's batched B'g reads the packed copy unless GAMBOOST_PACKED_BTG says otherwise.
    const ComputeDeviceInfo h200 = gpuNamed("NVIDIA H200", 132);
    const auto h200Entry = ocl::tuningFor(h200);
    QVERIFY(h200Entry.has_value() && h200Entry->lanes.packed);
    QVERIFY(ocl::kernelParameters(h200, 10000000, 100).packedBtg);
    qputenv("GAMBOOST_PACKED_BTG", "0");
    QVERIFY(!ocl::kernelParameters(h200, 10000000, 100).packedBtg);
    qputenv("GAMBOOST_PACKED_BTG", "1");
    QVERIFY(ocl::kernelParameters(gpuNamed("NVIDIA H100 80GB HBM3", 132), 10000000, 100).packedBtg);
    qunsetenv("GAMBOOST_PACKED_BTG");
  }

  // packed_btg round-trips through the file; an entry written before it existed reads as not packed.
  void packedChoiceIsStoredAndOptional() {
    const ComputeDeviceInfo d = gpuNamed("Test GPU");
    LaneTuning packed;
    packed.packed = true;
    ocl::storeTuningEntry(ocl::userTuningFile(), TuningEntry{d.name, 0, 0, packed, ""});
    QVERIFY(ocl::tuningFor(d)->lanes.packed);
    QVERIFY(ocl::kernelParameters(d, 1000000, 10).packedBtg);
    QCOMPARE(QString::fromStdString(laneShapeLabel(packed)), QStringLiteral("lanes32-rows8-red0-groups16-packed"));
    const QString path = dir_.path() + "/tuning.json";
    writeFile(path, R"({"devices": [{"device": "Test GPU", "compute_units": 0, "global_memory_bytes": 0, "lanes": 32,)"
                    R"( "lane_rows": 8, "lane_red": false, "groups_per_unit": 16}]})");
    QVERIFY(!ocl::tuningFor(d)->lanes.packed);
    writeFile(path, R"({"devices": [{"device": "Test GPU", "compute_units": 0, "global_memory_bytes": 0, "lanes": 32,)"
                    R"( "lane_rows": 8, "lane_red": false, "groups_per_unit": 16, "packed_btg": 1}]})");
    try {
      ocl::readTuningFile(path.toStdString());
      QFAIL("packed_btg 1 was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains("devices[0].packed_btg"), e.what());
    }
  }

  void storedEntryIsFoundAndReplaced() {
    const std::string file = ocl::userTuningFile();
    QCOMPARE(QString::fromStdString(file), dir_.path() + "/tuning.json");
    const ComputeDeviceInfo d = gpuNamed("Test GPU");
    TuningEntry e{d.name, d.computeUnits, d.globalMemoryBytes, LaneTuning{64, 16, true, 32}, "first"};
    ocl::storeTuningEntry(file, e);
    e.lanes.laneRows = 4;
    e.measured = "second";
    ocl::storeTuningEntry(file, e);  // same device: replaces
    TuningEntry other{d.name, 7, 0, LaneTuning{16, 4, false, 8}, "other units"};
    ocl::storeTuningEntry(file, other);  // another device: appended
    const std::vector<TuningEntry> all = ocl::readTuningFile(file);
    QCOMPARE(all.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(all[0].measured), QStringLiteral("second"));
    const auto found = ocl::tuningFor(d);
    QVERIFY(found.has_value());
    QVERIFY(found->lanes == (LaneTuning{64, 4, true, 32}));
  }

  void tunedShapeReachesTheParametersAndBuildOptions() {
    const ComputeDeviceInfo d = gpuNamed("Test GPU");
    const ocl::KernelParameters before = ocl::kernelParameters(d, 1000000, 10);
    ocl::storeTuningEntry(ocl::userTuningFile(), TuningEntry{d.name, 0, 0, LaneTuning{64, 16, true, 8}, ""});
    const ocl::KernelParameters p = ocl::kernelParameters(d, 1000000, 10);
    QCOMPARE(p.lanes, 64);
    QCOMPARE(p.laneRows, 16);
    QVERIFY(!p.laneRed);  // red.shared is NVIDIA PTX: never on another platform
    QVERIFY2(p.laneChunkRows > before.laneChunkRows, "half the groups per unit: larger chunks");
    const SplineSpec spec;
    const std::string options = ocl::buildOptions(p, spec, false);
    QVERIFY2(options.find("-DLANE_ROWS=16") != std::string::npos, options.c_str());
    QVERIFY(ocl::buildOptions(before, spec, false).find("LANE_ROWS") == std::string::npos);
  }

  void overrideWinsOverTheFile() {
    const ComputeDeviceInfo d = gpuNamed("Test GPU");
    ocl::storeTuningEntry(ocl::userTuningFile(), TuningEntry{d.name, 0, 0, LaneTuning{64, 16, false, 8}, ""});
    {
      ocl::ScopedTuningOverride scoped(TuningEntry{d.name, 0, 0, LaneTuning{16, 4, false, 32}, ""});
      QCOMPARE(ocl::kernelParameters(d, 1000000, 10).laneRows, 4);
    }
    QCOMPARE(ocl::kernelParameters(d, 1000000, 10).laneRows, 16);
  }

  void malformedFileNamesFileAndField() {
    const QString path = dir_.path() + "/tuning.json";
    writeFile(path, R"({"devices": [{"device": "G", "compute_units": 0, "global_memory_bytes": 0, "lanes": 48,)"
                    R"( "lane_rows": 8, "lane_red": false, "groups_per_unit": 16}]})");
    try {
      ocl::readTuningFile(path.toStdString());
      QFAIL("a lane count of 48 was accepted");
    } catch (const InputError& e) {
      const QString what = QString::fromUtf8(e.what());
      QVERIFY2(what.contains(path) && what.contains("devices[0].lanes") && what.contains("power of two"), e.what());
    }
    writeFile(path, "{\"devices\": [");
    QVERIFY_THROWS_EXCEPTION(InputError, ocl::readTuningFile(path.toStdString()));
    writeFile(path, R"({"devices": [{"device": "G"}]})");
    QVERIFY_THROWS_EXCEPTION(InputError, ocl::readTuningFile(path.toStdString()));
  }

  // The lane kernel (run on this machine's device through the forced GPU variants) with a tuned shape: the fit in
  // double selects the CPU backend's learners, fitted values within 1e-9 normwise (cached cross-products and the
  // fill's atomics sum in other orders than the CPU backend).
  void tunedShapeFitsLikeTheCpuBackend() {
    const ocl::Device device = gbocltest::testDevice();
    if (!device.info.fp64) QSKIP("the device has no double precision");
    PaperDataSpec spec;
    spec.rows = 3001;
    spec.covariates = 12;
    spec.informative = 6;
    spec.seed = 21;
    qInfo("paper data: 3001 rows, 12 covariates, seed 21");
    const auto data = std::make_shared<const Dataset>(generatePaperData(spec).data);
    const ModelSettings settings = ModelSettings::paperPreset();
    Booster cpu(data, settings, std::make_unique<CpuBackend>());
    cpu.run(150);
    ComputeDeviceInfo asGpu = device.info;
    asGpu.type = "GPU";
    ocl::ScopedTuningOverride scoped(TuningEntry{device.info.name, 0, 0, LaneTuning{16, 4, false, 8}, ""});
    QCOMPARE(ocl::kernelParameters(asGpu, spec.rows, spec.covariates).laneRows, 4);
    ComputeSettings c;
    c.backend = BackendKind::OpenCl;
    c.precision = Precision::Double;
    c.kernel = "compact_x";
    auto backend = std::make_unique<OpenClBackend>(c);
    backend->setForceGpuKernels(true);
    Booster gpu(data, settings, std::move(backend));
    QCOMPARE(gpu.run(150), 150);
    QCOMPARE(gpu.path().learner, cpu.path().learner);
    const std::vector<double> a = gpu.fitted(), b = cpu.fitted();
    double diff = 0.0, norm = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      diff += (a[i] - b[i]) * (a[i] - b[i]);
      norm += b[i] * b[i];
    }
    QVERIFY2(std::sqrt(diff / norm) < 1e-9, qPrintable(QString::number(std::sqrt(diff / norm))));
  }
};

QTEST_GUILESS_MAIN(TuningTableTest)
#include "test_tuning_table.moc"

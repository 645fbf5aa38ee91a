// gamboost fit --profile: the time budget on stderr and as result.json's "profile" (OpenCL on PoCL here: every
// kernel by name with its count; the CPU backend: stages only). No timing is asserted, only the report's content.
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

using namespace gbtest;
using nlohmann::json;

namespace {

constexpr int kMstop = 25;
constexpr int kSeed = 5;

const json* stageNamed(const json& profile, const std::string& name) {
  for (const json& s : profile["stages"])
    if (s["name"] == name) return &s;
  return nullptr;
}

}  // namespace

class CliProfileTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(scratch_.isValid());
    data_ = scratch_.path("paper.csv");
    qInfo("generate seed %d", kSeed);
    const CliResult gen = runGamboost({"generate", "--rows", "300", "--covariates", "4", "--informative", "2", "--seed",
                                       QString::number(kSeed), "--out", data_});
    QVERIFY2(gen.exitCode == 0, qPrintable(gen.describe()));
  }

  void openClProfileCountsKernelsPerIteration() {
    const QString out = scratch_.path("opencl.json");
    const CliResult r = runGamboost({"fit", "--data", data_, "--knots", "6", "--mstop", QString::number(kMstop),
                                     "--backend", "opencl", "--profile", "--quiet", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const json result = readJsonFile(out);
    QVERIFY(result.contains("profile"));
    const json& profile = result["profile"];
    QCOMPARE(profile["iterations"].get<int>(), kMstop);
    QVERIFY(profile["host_copy_gb_per_s"].get<double>() > 0.0);
    QVERIFY(profile["device_copy_gb_per_s"].get<double>() > 0.0);
    QVERIFY(!profile["kernels"].empty());
    // Some kernel runs once per iteration; its row on stderr shows the same count.
    bool oncePerIteration = false;
    for (const json& k : profile["kernels"]) {
      QVERIFY(k["count"].get<int>() > 0 && k["total_s"].get<double>() > 0.0);
      if (k["count"].get<int>() != kMstop) continue;
      oncePerIteration = true;
      const QString row =
          QString::fromStdString(k["name"].get<std::string>()) + "\\s+" + QString::number(kMstop) + "\\s";
      QVERIFY2(QRegularExpression(row).match(r.err).hasMatch(), qPrintable(r.err));
    }
    QVERIFY2(oncePerIteration, qPrintable(QString::fromStdString(profile["kernels"].dump())));
    // The B'g kernel declares its fewest bytes (at least g's 300 floats per launch): it has a floor on the device.
    bool withFloor = false;
    for (const json& k : profile["kernels"])
      if (!k["floor_s"].is_null()) {
        withFloor = true;
        QVERIFY(k["bytes"].get<std::uint64_t>() >= k["count"].get<std::uint64_t>() * 300 * sizeof(float));
        QVERIFY(k["fraction_of_floor"].get<double>() > 0.0);
      }
    QVERIFY2(withFloor, qPrintable(QString::fromStdString(profile["kernels"].dump())));
    for (const char* name : {"read and parse CSV", "learners (wall)", "backend set-up", "iterations", "upload"})
      QVERIFY2(stageNamed(profile, name) != nullptr, name);
    // Uploads are set against the host-to-device rate measured in the run (bytes once), not the host copy.
    const double transfer = profile["transfer_gb_per_s"].get<double>();
    QVERIFY(transfer > 0.0);
    const json& upload = *stageNamed(profile, "upload");
    QVERIFY(std::abs(upload["floor_s"].get<double>() - upload["bytes"].get<double>() / (transfer * 1e9)) <=
            1e-12 * upload["floor_s"].get<double>());
    const json* read = stageNamed(profile, "read and parse CSV");
    QVERIFY((*read)["bytes"].get<qint64>() > QFileInfo(data_).size());  // the file + the doubles it becomes
    QVERIFY(!(*read)["floor_s"].is_null());
    QVERIFY2(r.err.contains("write result"), qPrintable(r.err));  // timed after result.json is written: stderr only
    QVERIFY2(r.err.contains("device kernels over 25 iterations"), qPrintable(r.err));
  }

  void cpuProfileHasStagesAndNoKernels() {
    const QString out = scratch_.path("cpu.json");
    const CliResult r =
        runGamboost({"fit", "--data", data_, "--knots", "6", "--mstop", "10", "--profile", "--quiet", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const json profile = readJsonFile(out)["profile"];
    QVERIFY(profile["kernels"].empty());
    QCOMPARE(profile["device_copy_gb_per_s"].get<double>(), 0.0);
    QVERIFY(stageNamed(profile, "basis and Gram") != nullptr);
    const json& gram = *stageNamed(profile, "basis and Gram");
    QCOMPARE(gram["calls"].get<int>(), 4);  // one per covariate
    // Built across the cores: its seconds are summed over the threads that ran it, and its fraction sets their
    // seconds / threads against the all-core floor (it was seconds, capping it at 1 / threads).
    const int threads = gram["threads"].get<int>();
    QVERIFY(threads >= 1 && threads <= 4);
    const double together = gram["seconds"].get<double>() / threads;
    QVERIFY(std::abs(gram["fraction_of_floor"].get<double>() - gram["floor_s"].get<double>() / together) <=
            1e-12 * gram["fraction_of_floor"].get<double>());
    QVERIFY2(r.err.contains("threads"), qPrintable(r.err));
    QCOMPARE((*stageNamed(profile, "lambda solves and k x k factors"))["calls"].get<int>(), 4);
    QVERIFY(!r.err.contains("device kernels"));
  }

  void withoutProfileNoReport() {
    const QString out = scratch_.path("plain.json");
    const CliResult r = runGamboost({"fit", "--data", data_, "--knots", "6", "--mstop", "10", "--quiet", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY(!readJsonFile(out).contains("profile"));
    QVERIFY(r.err.isEmpty());
  }

 private:
  Scratch scratch_;
  QString data_;
};

QTEST_GUILESS_MAIN(CliProfileTest)
#include "test_cli_profile.moc"

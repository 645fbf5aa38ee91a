// The kernel benchmark end to end on a tiny case (n = 1000, k = 5, 2 learners, 3 repetitions): every kernel's
// output passes its check against the CPU reference, the report round-trips through JSON, and cancelling works.
// Speed is not asserted here (design.md section 5: benchmarks stay out of the tests).
#include <QtTest>

#include "OpenClTestUtil.hpp"
#include "bench/KernelBenchmark.hpp"
#include "common/Error.hpp"
#include "opencl/ClRuntime.hpp"

using namespace gb;

class TestKernelBench : public QObject {
  Q_OBJECT

  static KernelBenchOptions tiny() {
    KernelBenchOptions o;
    o.rows = {1000};
    o.columns = {5};
    o.covariates = 2;
    o.repetitions = 3;
    o.seed = 7;
    return o;
  }

 private slots:
  void initTestCase() {
    ocl::ensureWritablePoclCache();
    gbocltest::testDevice();
    qInfo("seed %llu", static_cast<unsigned long long>(tiny().seed));
  }

  void tinyRunRoundTrips() {
    std::vector<double> fractions;
    KernelBenchOptions o = tiny();
    o.progress = [&](double f, const std::string&) {
      fractions.push_back(f);
      return true;
    };
    const KernelBenchReport r = runKernelBenchmark(o);
    QVERIFY2(r.failures.empty(), r.failures.empty() ? "" : r.failures.front().c_str());
    QVERIFY(!r.cancelled);
    QVERIFY(r.copyGigabytesPerSecond > 0);
    QVERIFY(!fractions.empty());
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));

    // Every kernel of the contract shows up, checked and timed 3 times (nothing this small is skipped).
    for (const char* kernel : {"eigen", "compact", "compact_x", "compact_sorted", "naive", "v1", "v2", "splitk"}) {
      int rows = 0;
      for (const KernelTiming& t : r.timings) {
        if (t.kernel != kernel) continue;
        ++rows;
        QVERIFY2(t.skipped.empty(), (t.kernel + ": " + t.skipped).c_str());
        QCOMPARE(t.repetitions, 3);
        QVERIFY(t.medianSeconds > 0 && t.minSeconds <= t.medianSeconds);
        QVERIFY(t.bytes > 0 && t.gigabytesPerSecond > 0);
        QVERIFY(t.maxRelativeError < 1e-3);  // the benchmark's own float tolerance
      }
      QVERIFY2(rows >= 3, kernel);
    }

    // n = 1000 is far within the caches: no row is set against a memory copy (they read 100s of % of it), Eigen's
    // are the host's, and compact_sorted off a GPU moves compact_x's bytes (it runs compact_x's kernel there).
    QVERIFY(r.hostCopyGigabytesPerSecond > 0 && r.deviceCacheBytes > 0 && r.hostCacheBytes > 0);
    for (const KernelTiming& t : r.timings) {
      QVERIFY2(t.inCache && t.fractionOfCopy == 0.0, (t.kernel + " " + t.operation).c_str());
      QCOMPARE(t.onHost, t.kernel == "eigen");
      if (t.kernel != "compact_sorted" || gbocltest::testDevice().info.type == "GPU") continue;
      for (const KernelTiming& x : r.timings)
        if (x.kernel == "compact_x" && x.operation == t.operation && x.granularity == t.granularity)
          QCOMPARE(t.bytes, x.bytes);
    }
    const nlohmann::json j = r.toJson();
    QVERIFY(j["timings"][0]["fraction_of_copy"].is_null());
    QCOMPARE(j["timings"][0]["floor"].get<std::string>(), std::string("none: in cache"));
    const KernelBenchReport back = KernelBenchReport::fromJson(nlohmann::json::parse(j.dump()));
    QCOMPARE(back.toJson(), j);
    QCOMPARE(back.timings.size(), r.timings.size());
    const std::string csv = r.toCsv();
    QCOMPARE(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), r.timings.size() + 1);
  }

  void malformedReport() {
    nlohmann::json j = {{"platform", "p"},
                        {"device", "d"},
                        {"precision", "float"},
                        {"copy_gb_per_s", 1.0},
                        {"timings", nlohmann::json::array({{{"kernel", "v1"}}})}};
    QVERIFY_THROWS_EXCEPTION(InputError, KernelBenchReport::fromJson(j));
    j.erase("timings");
    QVERIFY_THROWS_EXCEPTION(InputError, KernelBenchReport::fromJson(j));
  }

  void badOptions() {
    KernelBenchOptions o = tiny();
    o.kernels = {"nope"};
    QVERIFY_THROWS_EXCEPTION(InputError, runKernelBenchmark(o));
    o = tiny();
    o.columns = {4};
    QVERIFY_THROWS_EXCEPTION(InputError, runKernelBenchmark(o));
  }

  void cancel() {
    KernelBenchOptions o = tiny();
    o.kernels = {"eigen"};
    o.progress = [](double, const std::string&) { return false; };
    const KernelBenchReport r = runKernelBenchmark(o);
    QVERIFY(r.cancelled);
    QVERIFY(r.timings.empty());
  }

  // A Cancel is heard before the next row is timed, not at the next section (the window's Cancel waited 104 s for a
  // section of dense kernels on PoCL); one that comes when every row has run cuts nothing, so the run is complete,
  // not "cancelled".
  void cancelStopsBeforeTheNextRow() {
    KernelBenchOptions o = tiny();
    std::size_t rowsAtCancel = 0;
    bool cancelling = false;
    o.partial = [&](const KernelBenchReport& sofar) {
      if (!cancelling && !sofar.timings.empty()) {
        cancelling = true;
        rowsAtCancel = sofar.timings.size();
      }
    };
    o.progress = [&](double, const std::string&) { return !cancelling; };
    const KernelBenchReport r = runKernelBenchmark(o);
    QVERIFY(r.cancelled);
    // Cancelled after the first of the eigen section's rows (the old code timed the whole section first).
    QCOMPARE(rowsAtCancel, std::size_t(1));
    QCOMPARE(r.timings.size(), std::size_t(1));

    KernelBenchOptions late = tiny();
    late.kernels = {"eigen"};
    late.progress = [](double, const std::string& what) { return what != "done"; };
    const KernelBenchReport complete = runKernelBenchmark(late);
    QVERIFY(!complete.cancelled);
    QVERIFY(!complete.timings.empty());
  }

  // The window copies and redraws the report at each partial call: it comes when a row has been added, not at each
  // of the before-every-row polls, and the last one holds every row.
  void partialComesOncePerNewRow() {
    KernelBenchOptions o = tiny();
    o.kernels = {"eigen", "compact"};
    std::vector<std::size_t> sizes;
    o.partial = [&](const KernelBenchReport& sofar) { sizes.push_back(sofar.timings.size()); };
    o.progress = [](double, const std::string&) { return true; };
    const KernelBenchReport r = runKernelBenchmark(o);
    QVERIFY(!r.cancelled);
    QVERIFY(r.timings.size() > 2);
    QVERIFY(!sizes.empty());
    for (std::size_t i = 1; i < sizes.size(); ++i)
      QVERIFY2(sizes[i] > sizes[i - 1], qPrintable(QString("call %1 repeats %2 rows").arg(i).arg(sizes[i])));
    QCOMPARE(sizes.back(), r.timings.size());
  }
};

QTEST_APPLESS_MAIN(TestKernelBench)
#include "test_kernel_bench.moc"

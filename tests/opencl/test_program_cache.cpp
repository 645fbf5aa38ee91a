// Program builds outlive a fit (one context per device for the process) and a process (binaries on disk, keyed
// by device, driver, source and options); a corrupt disk entry is rebuilt, never trusted; a failed build is
// never cached.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "OpenClTestUtil.hpp"
#include "common/Error.hpp"
#include "opencl/ProgramCache.hpp"

using namespace gb::ocl;
using gbocltest::testDevice;

namespace {

const std::string kOptions = "-DREAL=float";

// Sets the environment variable back to `value` as qgetenv gave it (a null array: unset).
void restoreEnv(const char* name, const QByteArray& value) {
  if (value.isNull())
    qunsetenv(name);
  else
    qputenv(name, value);
}

QStringList cacheFiles(const QTemporaryDir& dir) {
  return QDir(dir.path()).entryList({"*.bin"}, QDir::Files, QDir::Name);
}

}  // namespace

class ProgramCacheTest : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    qputenv("GAMBOOST_CACHE_DIR", cacheDir_.path().toLocal8Bit());
    QCOMPARE(QString::fromStdString(programCacheDirectory()), cacheDir_.path());
  }

  void secondContextBuildsNothing() {
    const ProgramCacheStats before = programCacheStats();
    Context first(testDevice());
    const cl_program a = first.program("gemv_naive", kOptions);
    Context second(testDevice());
    QCOMPARE(second.program("gemv_naive", kOptions), a);
    const ProgramCacheStats after = programCacheStats();
    QCOMPARE(after.sourceBuilds + after.binaryLoads, before.sourceBuilds + before.binaryLoads + 1);
    QVERIFY(after.memoryHits >= before.memoryHits + 1);
  }

  void secondProcessLoadsTheBinary() {
    Context ctx(testDevice());
    ctx.program("gemv_naive", "-DREAL=float -DGB_TEST_KEY=1");  // a key no other test uses
    QVERIFY(!cacheFiles(cacheDir_).isEmpty());
    DeviceContext::forgetBuiltPrograms();  // as if a new process started
    const ProgramCacheStats before = programCacheStats();
    Context again(testDevice());
    QVERIFY(again.program("gemv_naive", "-DREAL=float -DGB_TEST_KEY=1") != nullptr);
    const ProgramCacheStats after = programCacheStats();
    QCOMPARE(after.sourceBuilds, before.sourceBuilds);
    QCOMPARE(after.binaryLoads, before.binaryLoads + 1);
    // The loaded program runs: a kernel object can be made from it.
    Kernel k(again.kernel("gemv_naive", "gemv_naive", "-DREAL=float -DGB_TEST_KEY=1"));
    QVERIFY(k.get() != nullptr);
  }

  void corruptEntriesAreRebuilt_data() {
    QTest::addColumn<int>("damage");  // 0: flip a byte of the binary, 1: truncate, 2: garbage header
    QTest::newRow("flipped byte") << 0;
    QTest::newRow("truncated") << 1;
    QTest::newRow("garbage") << 2;
  }

  void corruptEntriesAreRebuilt() {
    QFETCH(int, damage);
    const std::string options = "-DREAL=float -DGB_TEST_DAMAGE=" + std::to_string(damage);
    const QStringList before = cacheFiles(cacheDir_);
    {
      Context ctx(testDevice());
      ctx.program("gemv_naive", options);
    }
    QStringList added = cacheFiles(cacheDir_);
    for (const QString& f : before) added.removeAll(f);
    QCOMPARE(added.size(), 1);
    QFile file(cacheDir_.filePath(added.front()));
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    const QByteArray intact = bytes;
    if (damage == 0) bytes[bytes.size() - 1] = static_cast<char>(bytes[bytes.size() - 1] ^ 0x5A);
    if (damage == 1) bytes.truncate(bytes.size() / 2);
    if (damage == 2) bytes = QByteArray("not a program binary at all");
    QVERIFY(file.resize(0) && file.seek(0) && file.write(bytes) == bytes.size());
    file.close();

    DeviceContext::forgetBuiltPrograms();
    const ProgramCacheStats s0 = programCacheStats();
    Context ctx(testDevice());
    QVERIFY(ctx.program("gemv_naive", options) != nullptr);
    const ProgramCacheStats s1 = programCacheStats();
    QCOMPARE(s1.rejectedEntries, s0.rejectedEntries + 1);
    QCOMPARE(s1.sourceBuilds, s0.sourceBuilds + 1);
    QCOMPARE(s1.binaryLoads, s0.binaryLoads);
    // The entry was written anew and is whole again.
    QFile rewritten(cacheDir_.filePath(added.front()));
    QVERIFY(rewritten.open(QIODevice::ReadOnly));
    QCOMPARE(rewritten.size(), intact.size());
  }

  void failedBuildsAreNotCached() {
    const ProgramCacheStats s0 = programCacheStats();
    Context ctx(testDevice());
    for (int attempt = 0; attempt < 2; ++attempt) {
      try {
        ctx.program("gemv_naive", "-DREAL=not_a_type");
        QFAIL("a broken build succeeded");
      } catch (const gb::ComputeError& e) {
        QVERIFY(!e.details().empty());
      }
    }
    QCOMPARE(programCacheStats().sourceBuilds, s0.sourceBuilds + 2);
  }

  // PoCL keeps its own kernel cache, and its binary of a program holds every kernel compiled: the default disk
  // cache is skipped there; a directory named by GAMBOOST_CACHE_DIR, or PoCL's cache turned off, keeps it.
  void poclSkipsTheDefaultDiskCache() {
    const QByteArray pocl = qgetenv("POCL_KERNEL_CACHE");
    qunsetenv("POCL_KERNEL_CACHE");
    QVERIFY(!skipsDiskCache(kPoclPlatformName));  // GAMBOOST_CACHE_DIR names cacheDir_
    QVERIFY(!skipsDiskCache("NVIDIA CUDA"));
    qunsetenv("GAMBOOST_CACHE_DIR");
    QVERIFY(skipsDiskCache(kPoclPlatformName));
    QVERIFY(!skipsDiskCache("NVIDIA CUDA"));
    qputenv("GAMBOOST_CACHE_DIR", "off");
    QVERIFY(skipsDiskCache(kPoclPlatformName));
    qputenv("POCL_KERNEL_CACHE", "0");
    QVERIFY(!skipsDiskCache(kPoclPlatformName));
    qputenv("GAMBOOST_CACHE_DIR", cacheDir_.path().toLocal8Bit());
    restoreEnv("POCL_KERNEL_CACHE", pocl);
  }

  // With the default place, a new program is built from source; on PoCL nothing is written there, on other
  // drivers its entry is.
  void defaultPlaceOnTheTestDevice() {
    const bool pocl = testDevice().info.platform == kPoclPlatformName;
    QTemporaryDir home;
    QVERIFY(home.isValid());
    qunsetenv("GAMBOOST_CACHE_DIR");
    const QByteArray xdg = qgetenv("XDG_CACHE_HOME");
    qputenv("XDG_CACHE_HOME", home.path().toLocal8Bit());
    DeviceContext::forgetBuiltPrograms();
    const ProgramCacheStats s0 = programCacheStats();
    {
      Context ctx(testDevice());
      QVERIFY(ctx.program("gemv_naive", "-DREAL=float -DGB_TEST_DEFAULT_PLACE=1") != nullptr);
    }
    const ProgramCacheStats s1 = programCacheStats();
    QCOMPARE(s1.sourceBuilds, s0.sourceBuilds + 1);
    QCOMPARE(s1.binaryLoads, s0.binaryLoads);
    const QDir place(home.filePath("gamboost/kernels"));
    QCOMPARE(place.entryList({"*.bin"}, QDir::Files).size(), pocl ? 0 : 1);
    restoreEnv("XDG_CACHE_HOME", xdg);
    qputenv("GAMBOOST_CACHE_DIR", cacheDir_.path().toLocal8Bit());
  }

  void cacheCanBeTurnedOff() {
    qputenv("GAMBOOST_CACHE_DIR", "off");
    QVERIFY(programCacheDirectory().empty());
    qputenv("GAMBOOST_CACHE_DIR", cacheDir_.path().toLocal8Bit());
  }
};

QTEST_GUILESS_MAIN(ProgramCacheTest)
#include "test_program_cache.moc"

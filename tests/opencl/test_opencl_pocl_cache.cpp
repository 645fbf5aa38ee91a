// PoCL reports zero devices when its cache directory is not writable. ensureWritablePoclCache() (run before the
// first clGetPlatformIDs) must repair an unwritable POCL_CACHE_DIR, so this test sets one before any OpenCL call.
#include <unistd.h>

#include <QtTest>

#include "opencl/ClRuntime.hpp"

class TestOpenClPoclCache : public QObject {
  Q_OBJECT

 private slots:
  void unwritableCacheIsRepaired() {
    // Nothing can be created under /proc, not even by root.
    qputenv("POCL_CACHE_DIR", "/proc/gamboost-unwritable-cache");
    std::string why;
    const auto devices = gb::ocl::listDevices(&why);
    const QByteArray now = qgetenv("POCL_CACHE_DIR");
    QVERIFY2(now != "/proc/gamboost-unwritable-cache", now.constData());
    QVERIFY2(::access(now.constData(), W_OK) == 0, now.constData());
    QVERIFY2(!devices.empty(), why.c_str());
  }
};

QTEST_APPLESS_MAIN(TestOpenClPoclCache)
#include "test_opencl_pocl_cache.moc"

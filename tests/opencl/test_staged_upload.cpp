// The staged upload (opencl/StagedUpload.hpp): columns converted on all cores into two pinned buffers in turn
// arrive on the device exactly, for transfers of one chunk and of several with chunk edges inside a column.
#include <QtTest>

#include "OpenClTestUtil.hpp"
#include "common/Error.hpp"
#include "opencl/StagedUpload.hpp"

using namespace gb::ocl;

class StagedUploadTest : public QObject {
  Q_OBJECT

  static void roundTrip(std::size_t rows, int columns, bool isDouble, std::size_t offset) {
    Context ctx(gbocltest::testDevice());
    if (isDouble && !ctx.hasFp64()) QSKIP("no double precision on this device");
    const std::uint64_t seed = 7 + rows;
    qInfo("rows %zu, columns %d, %s, offset %zu, seed %llu", rows, columns, isDouble ? "double" : "float", offset,
          static_cast<unsigned long long>(seed));
    std::vector<std::vector<double>> x;
    std::vector<const double*> pointers;
    for (int j = 0; j < columns; ++j) {
      x.push_back(gbocltest::uniform(rows, -1e3, 1e3, seed + static_cast<std::uint64_t>(j)));
      pointers.push_back(x.back().data());
    }
    const std::size_t total = offset + rows * static_cast<std::size_t>(columns);
    Buffer buffer(ctx, total * (isDouble ? 8 : 4));
    gbocltest::poison(ctx, buffer, isDouble);
    uploadColumns(ctx, buffer, pointers, rows, isDouble, offset);
    const std::vector<double> back = gbocltest::download(ctx, buffer, total, isDouble);
    for (std::size_t i = 0; i < offset; ++i) QVERIFY2(std::isnan(back[i]), "a value before the offset was written");
    for (int j = 0; j < columns; ++j)
      for (std::size_t i = 0; i < rows; ++i) {
        const double want = isDouble ? x[j][i] : static_cast<double>(static_cast<float>(x[j][i]));
        if (back[offset + static_cast<std::size_t>(j) * rows + i] != want)
          QFAIL(qPrintable(QString("column %1 row %2 differs").arg(j).arg(i)));
      }
  }

 private slots:
  void smallTransferIsOneChunk() { roundTrip(1001, 3, false, 0); }
  void doubleWithOffset() { roundTrip(777, 4, true, 5); }
  // 3 x 5.7e6 floats are 68 MB: more than one 64 MB staging buffer, the edge inside the third column.
  void chunkEdgesInsideColumns() { roundTrip(5700001, 3, false, 3); }
  void zeroColumnsWriteNothing() {
    Context ctx(gbocltest::testDevice());
    Buffer buffer(ctx, 16);
    uploadColumns(ctx, buffer, {}, 10, false);
  }
  void overflowIsRefused() {
    Context ctx(gbocltest::testDevice());
    Buffer buffer(ctx, 16);
    const std::vector<double> x(5, 1.0);
    const std::vector<const double*> columns{x.data()};
    QVERIFY_THROWS_EXCEPTION(gb::ComputeError, uploadColumns(ctx, buffer, columns, 5, false));
  }
};

QTEST_GUILESS_MAIN(StagedUploadTest)
#include "test_staged_upload.moc"

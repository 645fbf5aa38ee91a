// Dataset: column kinds, levels, missing counts and complete cases (R's na.omit over the used columns).
#include <QtTest>
#include <cmath>
#include <limits>

#include "common/Error.hpp"
#include "data/Dataset.hpp"

namespace {
constexpr double NA = std::numeric_limits<double>::quiet_NaN();
}

class TestDataset : public QObject {
  Q_OBJECT

 private slots:
  void kindsDefaultToNumeric() {
    gb::Dataset d{"f.csv", {"y", "x"}, {{1, 2}, {3, 4}}};
    QVERIFY(!d.isText(0));
    QVERIFY(!d.isText(1));
    QVERIFY(d.levelsOf(1).empty());
    QCOMPARE(d.missingCount(0), std::size_t{0});
  }

  void completeCasesOmitOnlyOverUsedColumns() {
    gb::Dataset d;
    d.source = "f.csv";
    d.names = {"y", "x", "f", "unused"};
    d.columns = {{1, NA, 3, 4, 5}, {10, 20, NA, NA, 50}, {0, 1, 1, NA, 0}, {NA, NA, NA, NA, NA}};
    d.kinds = {gb::ColumnKind::Numeric, gb::ColumnKind::Numeric, gb::ColumnKind::Text, gb::ColumnKind::Numeric};
    d.levels = {{}, {}, {"a", "b"}, {}};
    QCOMPARE(d.missingCount(1), std::size_t{2});
    const gb::CompleteCases cc = gb::completeCases(d, {"y", "x", "f"});
    QCOMPARE(cc.keptRows, (std::vector<std::size_t>{0, 4}));
    QCOMPARE(cc.omittedPerColumn, (std::vector<std::size_t>{1, 2, 1}));
    QCOMPARE(cc.inputRows, std::size_t{5});
    QCOMPARE(cc.omittedRows(), std::size_t{3});
    QCOMPARE(cc.data.rows(), std::size_t{2});
    QCOMPARE(cc.data.columns[1], (std::vector<double>{10, 50}));
    QVERIFY(cc.data.isText(2));
    QCOMPARE(cc.data.levelsOf(2), (std::vector<std::string>{"a", "b"}));
    QVERIFY(std::isnan(cc.data.columns[3][0]));  // unused columns keep their missing cells
  }

  void completeCasesNamesAnUnknownColumn() {
    gb::Dataset d{"f.csv", {"y"}, {{1.0}}};
    try {
      gb::completeCases(d, {"y", "z"});
      QFAIL("no error for an unknown column");
    } catch (const gb::InputError& e) {
      QVERIFY2(std::string(e.what()).find("'z'") != std::string::npos, e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestDataset)
#include "test_dataset.moc"

// The column-roles table: types and missing counts as read, roles detected as gamboost's y ~ . does (numeric ->
// spline, text -> factor), one response and at most one weights column, and roles a text column cannot take.
#include <QComboBox>
#include <QStandardItemModel>
#include <QtTest>
#include <cmath>
#include <limits>

#include "data/ColumnRolesTable.hpp"

using gbui::ColumnRolesTable;

namespace {

gb::Dataset irisLike() {
  const double na = std::numeric_limits<double>::quiet_NaN();
  gb::Dataset d;
  d.source = "iris.csv";
  d.names = {"Sepal.Length", "Sepal.Width", "Species", "w"};
  d.columns = {{5.1, 4.9, na, 6.3}, {3.5, na, na, 3.3}, {0, 1, 2, na}, {1, 1, 2, 1}};
  d.kinds = {gb::ColumnKind::Numeric, gb::ColumnKind::Numeric, gb::ColumnKind::Text, gb::ColumnKind::Numeric};
  d.levels = {{}, {}, {"setosa", "versicolor", "virginica"}, {}};
  return d;
}

QComboBox* combo(ColumnRolesTable& t, int row) {
  return qobject_cast<QComboBox*>(t.cellWidget(row, ColumnRolesTable::RoleColumn));
}

}  // namespace

class TestColumnRoles : public QObject {
  Q_OBJECT

 private slots:
  void detectsTypesMissingAndRoles() {
    ColumnRolesTable t;
    t.setColumns(irisLike());
    QCOMPARE(t.rowCount(), 4);
    QCOMPARE(t.item(2, ColumnRolesTable::TypeColumn)->text(), QString("text (3 levels)"));
    QCOMPARE(t.item(0, ColumnRolesTable::TypeColumn)->text(), QString("numeric"));
    QCOMPARE(t.item(0, ColumnRolesTable::MissingColumn)->text(), QString("1"));
    QCOMPARE(t.item(1, ColumnRolesTable::MissingColumn)->text(), QString("2"));
    QCOMPARE(t.item(3, ColumnRolesTable::MissingColumn)->text(), QString("0"));
    const gbui::ColumnRoles r = t.roles();
    QCOMPARE(r.response, QString("Sepal.Length"));  // no "y": the first column
    QCOMPARE(r.learners, QStringList({"Sepal.Width", "w"}));
    QCOMPARE(r.factors, QStringList({"Species"}));
    QVERIFY(r.linears.isEmpty());
    QVERIFY(r.weights.isEmpty());
  }

  // A narrow panel cuts long names: in the middle, so that names alike at their start stay apart (esoph's ncases
  // and ncontrols were both "nc..."), and each name's tooltip holds it whole.
  void longNamesStayApart() {
    ColumnRolesTable t;
    t.setColumns(irisLike());
    QCOMPARE(t.textElideMode(), Qt::ElideMiddle);
    for (int r = 0; r < t.rowCount(); ++r)
      QCOMPARE(t.item(r, ColumnRolesTable::NameColumn)->toolTip(), t.item(r, ColumnRolesTable::NameColumn)->text());
  }

  // R's data sets that lead with their factors (MASS's quine: Eth, Sex, Age, Lrn, then the count Days): the first
  // numeric column is the response, not a text column the default gaussian family cannot take.
  void theResponseIsTheFirstNumericColumn() {
    gb::Dataset d;
    d.source = "quine.csv";
    d.names = {"Eth", "Sex", "Days", "Other"};
    d.columns = {{0, 1, 0}, {1, 0, 0}, {2, 11, 14}, {1, 2, 3}};
    d.kinds = {gb::ColumnKind::Text, gb::ColumnKind::Text, gb::ColumnKind::Numeric, gb::ColumnKind::Numeric};
    d.levels = {{"A", "N"}, {"F", "M"}, {}, {}};
    ColumnRolesTable t;
    t.setColumns(d);
    QCOMPARE(t.roles().response, QString("Days"));
    QCOMPARE(t.roles().factors, QStringList({"Eth", "Sex"}));
    QCOMPARE(t.roles().learners, QStringList({"Other"}));
    d.kinds = {gb::ColumnKind::Text, gb::ColumnKind::Text, gb::ColumnKind::Text, gb::ColumnKind::Text};  // no number
    d.levels = {{"A", "N"}, {"F", "M"}, {"a", "b", "c"}, {"u", "v", "w"}};
    t.setColumns(d);
    QCOMPARE(t.roles().response, QString("Eth"));
  }

  void textColumnsCannotBeNumericLearnersOrWeights() {
    ColumnRolesTable t;
    t.setColumns(irisLike());
    auto* model = qobject_cast<QStandardItemModel*>(combo(t, 2)->model());
    QVERIFY(!model->item(ColumnRolesTable::Spline)->isEnabled());
    QVERIFY(!model->item(ColumnRolesTable::Linear)->isEnabled());
    QVERIFY(!model->item(ColumnRolesTable::Weights)->isEnabled());
    QVERIFY(model->item(ColumnRolesTable::Factor)->isEnabled());
    QVERIFY(model->item(ColumnRolesTable::Response)->isEnabled());  // a two-level text response: binomial
    gbui::ColumnRoles wanted = t.roles();
    wanted.factors.clear();
    wanted.learners << "Species";  // asked to be a spline: refused, it stays a factor
    t.setRoles(wanted);
    QCOMPARE(t.roleOf("Species"), int(ColumnRolesTable::Factor));
  }

  void oneResponseAndOneWeightsColumn() {
    ColumnRolesTable t;
    t.setColumns(irisLike());
    QSignalSpy changed(&t, &ColumnRolesTable::rolesChanged);
    combo(t, 3)->setCurrentIndex(ColumnRolesTable::Weights);
    QCOMPARE(t.roles().weights, QString("w"));
    combo(t, 1)->setCurrentIndex(ColumnRolesTable::Weights);  // the old weights column becomes a learner again
    QCOMPARE(t.roles().weights, QString("Sepal.Width"));
    QCOMPARE(t.roleOf("w"), int(ColumnRolesTable::Spline));
    combo(t, 2)->setCurrentIndex(ColumnRolesTable::Response);  // the old response (numeric) becomes a spline
    QCOMPARE(t.roles().response, QString("Species"));
    QCOMPARE(t.roleOf("Sepal.Length"), int(ColumnRolesTable::Spline));
    QCOMPARE(changed.count(), 3);
  }

  void rolesRoundTrip() {
    ColumnRolesTable t;
    t.setColumns(irisLike());
    gbui::ColumnRoles r;
    r.response = "Sepal.Width";
    r.linears = {"Sepal.Length"};
    r.factors = {"Species"};
    r.weights = "w";
    t.setRoles(r);
    QVERIFY(t.roles() == r);
  }
};

QTEST_MAIN(TestColumnRoles)
#include "test_column_roles.moc"

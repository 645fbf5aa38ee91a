#include "data/ColumnRolesTable.hpp"

#include <QComboBox>
#include <QHeaderView>

#include "common/QtConvert.hpp"

namespace gbui {

namespace {
enum Role { Response = 0, LearnerRole = 1, Ignored = 2 };
}

ColumnRolesTable::ColumnRolesTable(QWidget* parent) : QTableWidget(0, 2, parent) {
  setHorizontalHeaderLabels({tr("Column"), tr("Role")});
  horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  verticalHeader()->setVisible(false);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setToolTip(tr("Column roles: one response, any number of learners (one penalised B-spline each), the rest ignored"));
}

void ColumnRolesTable::setColumns(const gb::Dataset& data) {
  setRowCount(0);
  setRowCount(static_cast<int>(data.cols()));
  const int responseIndex = data.columnIndex("y") >= 0 ? data.columnIndex("y") : 0;
  for (int r = 0; r < static_cast<int>(data.cols()); ++r) {
    auto* name = new QTableWidgetItem(qs(data.names[r]));
    setItem(r, 0, name);
    auto* combo = new QComboBox;
    combo->addItems({tr("response"), tr("learner"), tr("ignored")});
    combo->setCurrentIndex(r == responseIndex ? Response : LearnerRole);
    combo->setToolTip(tr("Role of column %1 in the model").arg(qs(data.names[r])));
    connect(combo, &QComboBox::currentIndexChanged, this, [this, r](int role) { onRoleChanged(r, role); });
    setCellWidget(r, 1, combo);
  }
}

void ColumnRolesTable::onRoleChanged(int row, int role) {
  // Exactly one response: choosing a new one turns the old one into a learner.
  if (role == Response)
    for (int r = 0; r < rowCount(); ++r) {
      auto* c = qobject_cast<QComboBox*>(cellWidget(r, 1));
      if (r != row && c->currentIndex() == Response) {
        QSignalBlocker block(c);
        c->setCurrentIndex(LearnerRole);
      }
    }
  emit rolesChanged();
}

ColumnRoles ColumnRolesTable::roles() const {
  ColumnRoles out;
  for (int r = 0; r < rowCount(); ++r) {
    const QString name = item(r, 0)->text();
    switch (qobject_cast<QComboBox*>(cellWidget(r, 1))->currentIndex()) {
      case Response:
        out.response = name;
        break;
      case LearnerRole:
        out.learners << name;
        break;
      default:
        out.ignored << name;
        break;
    }
  }
  return out;
}

void ColumnRolesTable::setRoles(const ColumnRoles& roles) {
  for (int r = 0; r < rowCount(); ++r) {
    const QString name = item(r, 0)->text();
    auto* c = qobject_cast<QComboBox*>(cellWidget(r, 1));
    QSignalBlocker block(c);
    c->setCurrentIndex(name == roles.response ? Response : roles.ignored.contains(name) ? Ignored : LearnerRole);
  }
  emit rolesChanged();
}

}  // namespace gbui

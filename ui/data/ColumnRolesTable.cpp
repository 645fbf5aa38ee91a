#include "data/ColumnRolesTable.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QStandardItemModel>

#include "common/QtConvert.hpp"

namespace gbui {

namespace {

QComboBox* comboAt(const QTableWidget* table, int row) {
  return qobject_cast<QComboBox*>(table->cellWidget(row, ColumnRolesTable::RoleColumn));
}

// Roles a text column cannot take (a spline or line needs numbers; weights too) are shown but disabled.
void disableNumericRoles(QComboBox* combo) {
  auto* model = qobject_cast<QStandardItemModel*>(combo->model());
  for (int role : {ColumnRolesTable::Spline, ColumnRolesTable::Linear, ColumnRolesTable::Weights})
    model->item(role)->setEnabled(false);
}

}  // namespace

ColumnRolesTable::ColumnRolesTable(QWidget* parent) : QTableWidget(0, 4, parent) {
  setHorizontalHeaderLabels({tr("Column"), tr("Type"), tr("Missing"), tr("Role")});
  horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
  for (int c : {TypeColumn, MissingColumn, RoleColumn})
    horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  verticalHeader()->setVisible(false);
  // Names cut in the middle keep their ends apart (ncases and ncontrols were both "nc..." in a narrow panel).
  setTextElideMode(Qt::ElideMiddle);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setToolTip(
      tr("Column roles: one response; learners as splines (bbs), lines (bols) or factors (bols of a text "
         "column); at most one column of case weights; the rest ignored. Rows with a missing value in a used "
         "column are left out of the fit"));
}

void ColumnRolesTable::setColumns(const gb::Dataset& data, const std::vector<std::size_t>& missingCounts) {
  setRowCount(0);
  setRowCount(static_cast<int>(data.cols()));
  // The response: a column named y, else the first numeric column (R's data sets often lead with their factors, as
  // MASS's quine leads with Eth, Sex, Age and Lrn before the count Days), else the first column.
  int responseIndex = data.columnIndex("y");
  for (std::size_t c = 0; responseIndex < 0 && c < data.cols(); ++c)
    if (!data.isText(c)) responseIndex = static_cast<int>(c);
  if (responseIndex < 0) responseIndex = 0;
  for (int r = 0; r < static_cast<int>(data.cols()); ++r) {
    const bool text = data.isText(static_cast<std::size_t>(r));
    auto* name = new QTableWidgetItem(qs(data.names[r]));
    name->setToolTip(qs(data.names[r]));  // the whole name, however narrow the column
    setItem(r, NameColumn, name);
    // Without a translation file tr's %n does not pluralise ("text (1 levels)").
    const std::size_t levels = text ? data.levelsOf(r).size() : 0;
    auto* type = new QTableWidgetItem(!text         ? tr("numeric")
                                      : levels == 1 ? tr("text (1 level)")
                                                    : tr("text (%1 levels)").arg(levels));
    type->setData(Qt::UserRole, text);
    setItem(r, TypeColumn, type);
    const auto c = static_cast<std::size_t>(r);
    const auto missing = static_cast<qlonglong>(c < missingCounts.size() ? missingCounts[c] : data.missingCount(c));
    auto* missingItem = new QTableWidgetItem(QString::number(missing));
    missingItem->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    missingItem->setToolTip(
        tr("%n missing cell(s) in column %1", "", static_cast<int>(missing)).arg(qs(data.names[r])));
    setItem(r, MissingColumn, missingItem);
    auto* combo = new QComboBox;
    combo->addItems({tr("response"), tr("spline"), tr("linear"), tr("factor"), tr("weights"), tr("ignored")});
    if (text) disableNumericRoles(combo);
    combo->setCurrentIndex(r == responseIndex ? Response : text ? Factor : Spline);
    combo->setToolTip(tr("Role of column %1 in the model").arg(qs(data.names[r])));
    combo->setFocusPolicy(Qt::StrongFocus);  // the mouse wheel scrolls the table, not the role
    connect(combo, &QComboBox::currentIndexChanged, this, [this, r](int role) { onRoleChanged(r, role); });
    setCellWidget(r, RoleColumn, combo);
  }
}

void ColumnRolesTable::onRoleChanged(int row, int role) {
  // Exactly one response and at most one weights column: choosing a new one turns the old one into what its type
  // suggests (a learner).
  if (role == Response || role == Weights)
    for (int r = 0; r < rowCount(); ++r) {
      QComboBox* c = comboAt(this, r);
      if (r != row && c->currentIndex() == role) {
        QSignalBlocker block(c);
        c->setCurrentIndex(item(r, TypeColumn)->data(Qt::UserRole).toBool() ? Factor : Spline);
      }
    }
  emit rolesChanged();
}

ColumnRoles ColumnRolesTable::roles() const {
  ColumnRoles out;
  for (int r = 0; r < rowCount(); ++r) {
    const QString name = item(r, NameColumn)->text();
    switch (comboAt(this, r)->currentIndex()) {
      case Response:
        out.response = name;
        break;
      case Spline:
        out.learners << name;
        break;
      case Linear:
        out.linears << name;
        break;
      case Factor:
        out.factors << name;
        break;
      case Weights:
        out.weights = name;
        break;
      default:
        out.ignored << name;
        break;
    }
  }
  return out;
}

void ColumnRolesTable::setRole(int row, Role role) {
  QComboBox* c = comboAt(this, row);
  auto* model = qobject_cast<QStandardItemModel*>(c->model());
  if (!model->item(role)->isEnabled()) return;
  QSignalBlocker block(c);
  c->setCurrentIndex(role);
}

void ColumnRolesTable::setRoles(const ColumnRoles& roles) {
  for (int r = 0; r < rowCount(); ++r) {
    const QString name = item(r, NameColumn)->text();
    if (name == roles.response)
      setRole(r, Response);
    else if (name == roles.weights)
      setRole(r, Weights);
    else if (roles.linears.contains(name))
      setRole(r, Linear);
    else if (roles.factors.contains(name))
      setRole(r, Factor);
    else if (roles.ignored.contains(name))
      setRole(r, Ignored);
    else if (roles.learners.contains(name))
      setRole(r, Spline);
  }
  emit rolesChanged();
}

int ColumnRolesTable::roleOf(const QString& name) const {
  for (int r = 0; r < rowCount(); ++r)
    if (item(r, NameColumn)->text() == name) return comboAt(this, r)->currentIndex();
  return -1;
}

}  // namespace gbui

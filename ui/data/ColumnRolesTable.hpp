#pragma once
// One row per column: its name, its type as read (numeric or text), its count of missing cells, and a role combo
// (response / spline / linear / factor / weights / ignored). Exactly one response and at most one weights column.
// Detected roles: the response is "y" (else the first column), numeric columns are splines and text columns
// factors (gamboost's y ~ .); a text column can only be the response, a factor or ignored.
#include <QTableWidget>

#include "data/DataSource.hpp"
#include "data/Dataset.hpp"

namespace gbui {

class ColumnRolesTable : public QTableWidget {
  Q_OBJECT
 public:
  enum Role { Response = 0, Spline = 1, Linear = 2, Factor = 3, Weights = 4, Ignored = 5 };
  enum ColumnIndex { NameColumn = 0, TypeColumn = 1, MissingColumn = 2, RoleColumn = 3 };

  explicit ColumnRolesTable(QWidget* parent = nullptr);
  // missing: the count of missing cells per column when the caller has it (counted off the window's thread);
  // empty: counted here.
  void setColumns(const gb::Dataset& data, const std::vector<std::size_t>& missing = {});
  ColumnRoles roles() const;
  // Applies roles to the current columns (names not present are ignored; a role a column cannot take is left).
  void setRoles(const ColumnRoles& roles);
  // The role of the named column, or -1.
  int roleOf(const QString& name) const;

 signals:
  void rolesChanged();

 private:
  void onRoleChanged(int row, int role);
  void setRole(int row, Role role);
};

}  // namespace gbui

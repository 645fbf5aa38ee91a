#pragma once
// One row per column: its name and a role combo (response / learner / ignored). Exactly one response.
#include <QTableWidget>

#include "data/DataSource.hpp"
#include "data/Dataset.hpp"

namespace gbui {

class ColumnRolesTable : public QTableWidget {
  Q_OBJECT
 public:
  explicit ColumnRolesTable(QWidget* parent = nullptr);
  // New columns: "y" (or the first column) is the response, every other column a learner.
  void setColumns(const gb::Dataset& data);
  ColumnRoles roles() const;
  // Applies roles to the current columns (names not present are ignored).
  void setRoles(const ColumnRoles& roles);

 signals:
  void rolesChanged();

 private:
  void onRoleChanged(int row, int role);
};

}  // namespace gbui

#pragma once
// Where the data came from (so a session file can bring it back) and which column plays which role.
#include <QObject>
#include <QString>
#include <QStringList>

#include "data/PaperData.hpp"

namespace gbui {

struct DataSourceSpec {
  enum class Kind { None, Paper, Csv };
  Kind kind = Kind::None;
  gb::PaperDataSpec paper;  // Kind::Paper
  QString path;             // Kind::Csv
  QString describe() const;
};

struct ColumnRoles {
  QString response;
  QStringList learners;  // in column order
  QStringList ignored;
  bool operator==(const ColumnRoles& o) const {
    return response == o.response && learners == o.learners && ignored == o.ignored;
  }
};

}  // namespace gbui

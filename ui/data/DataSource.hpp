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

// Which column plays which part in the model (mboost's formula): one response, learners of three kinds (bbs,
// bols(x), bols(f)), at most one column of case weights, the rest ignored. Lists are in column order.
struct ColumnRoles {
  QString response;
  QStringList learners;  // spline learners (the name predates linear and factor learners; session files keep it)
  QStringList linears;   // linear learners (intercept + x)
  QStringList factors;   // factor learners (treatment contrasts)
  QString weights;       // "" for none
  QStringList ignored;
  bool operator==(const ColumnRoles& o) const {
    return response == o.response && learners == o.learners && linears == o.linears && factors == o.factors &&
           weights == o.weights && ignored == o.ignored;
  }
};

}  // namespace gbui

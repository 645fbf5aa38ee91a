#include "data/DataSource.hpp"

namespace gbui {

QString DataSourceSpec::describe() const {
  switch (kind) {
    case Kind::Paper:
      return QObject::tr("paper data: n = %1, p = %2, %3 informative, noise variance %4, seed %5")
          .arg(paper.rows)
          .arg(paper.covariates)
          .arg(paper.informative)
          .arg(paper.noiseVariance)
          .arg(paper.seed);
    case Kind::Csv:
      return QObject::tr("CSV file %1").arg(path);
    case Kind::None:
      break;
  }
  return QObject::tr("no data");
}

}  // namespace gbui

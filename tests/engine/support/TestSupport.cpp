#include "support/TestSupport.hpp"

#include <QDir>

namespace gbtest {

std::string scratchRoot() {
  const QByteArray dir = qgetenv("GB_TEST_TMP");
  return dir.isEmpty() ? QDir::tempPath().toStdString() : dir.toStdString();
}

}  // namespace gbtest

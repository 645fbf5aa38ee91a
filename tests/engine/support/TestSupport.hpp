#pragma once
// Scaffolding the engine tests share: where scratch files go, and the message of an expected InputError.
#include <QString>
#include <string>

#include "common/Error.hpp"

namespace gbtest {

// GB_TEST_TMP (ctest sets it to a folder of the build tree), else the system's temporary folder.
std::string scratchRoot();

// The message of the gb::InputError that f() throws, or "<no InputError>" when it throws none. Any other
// exception passes through, so the test fails on it with its own message.
template <class F>
QString inputErrorOf(F&& f) {
  try {
    f();
  } catch (const gb::InputError& e) {
    return QString::fromStdString(e.what());
  }
  return QStringLiteral("<no InputError>");
}

}  // namespace gbtest

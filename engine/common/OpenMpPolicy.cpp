#include "common/OpenMpPolicy.hpp"

#include <unistd.h>

#include <cstdlib>

namespace gb {

void preferPassiveOpenMpWait(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  if (::setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  ::execv("/proc/self/exe", argv);  // returns only if it failed: go on with the default policy
}

}  // namespace gb

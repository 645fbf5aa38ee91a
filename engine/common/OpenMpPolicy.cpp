#include "common/OpenMpPolicy.hpp"

#include <omp.h>
#include <unistd.h>

#include <cstdlib>

#include "common/SystemResources.hpp"

namespace gb {

void preferPassiveOpenMpWait(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  if (::setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  ::execv("/proc/self/exe", argv);  // returns only if it failed: go on with the default policy
}

std::string capOpenMpThreads() {
  const int cores = availableCores(), asked = omp_get_max_threads();
  if (asked <= 4 * cores) return {};
  omp_set_num_threads(cores);
  return "OMP_NUM_THREADS asks for " + std::to_string(asked) + " threads on " + std::to_string(cores) +
         " cores: using " + std::to_string(cores);
}

}  // namespace gb

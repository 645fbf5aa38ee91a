#pragma once
// libgomp reads OMP_WAIT_POLICY once, when it is loaded (before main), and by default lets idle threads spin for
// milliseconds after every parallel region, taking a core from everything else on a small machine (the GUI thread
// included). On 2 cores the passive policy saved 13% of CPU and wall time on a fit of 1e5 rows (docs/perf/cpu.md).

#include <string>

namespace gb {

// Unless the user chose a policy, re-executes this program (same argv, same pid) with OMP_WAIT_POLICY=passive.
// Call first thing in main(); returns only if nothing was done or the re-exec failed (then the default applies).
void preferPassiveOpenMpWait(char** argv);

// OMP_NUM_THREADS far beyond the cores (say 100000) makes libgomp fail to create its threads or crash in the first
// parallel region. Above 4 threads a core the team is cut to one thread a core; returns the note to print, else "".
std::string capOpenMpThreads();

}  // namespace gb

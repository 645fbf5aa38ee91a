#pragma once
// libgomp reads OMP_WAIT_POLICY once, when it is loaded (before main), and by default lets idle threads spin for
// milliseconds after every parallel region, taking a core from everything else on a small machine (the GUI thread
// included). On 2 cores the passive policy saved 13% of CPU and wall time on a fit of 1e5 rows (docs/perf/cpu.md).

namespace gb {

// Unless the user chose a policy, re-executes this program (same argv, same pid) with OMP_WAIT_POLICY=passive.
// Call first thing in main(); returns only if nothing was done or the re-exec failed (then the default applies).
void preferPassiveOpenMpWait(char** argv);

}  // namespace gb

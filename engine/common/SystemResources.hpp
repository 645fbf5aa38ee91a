#pragma once
// What this machine can give a command: memory, disk space, cores. Inputs are checked against these before the
// work starts, so that a too-large request ends with a message instead of an out-of-memory kill or a full disk.
#include <cstdint>
#include <string>

namespace gb {

// Bytes a new allocation can still get: the smaller of the kernel's MemAvailable (page cache counts as free)
// and the headroom under RLIMIT_AS (the address-space limit, e.g. `ulimit -v`), minus what is mapped already.
std::uint64_t availableMemoryBytes();

// Bytes an unprivileged writer can still put on the file system holding `directory` (statvfs f_bavail);
// UINT64_MAX when it cannot be asked (the write itself then reports the failure).
std::uint64_t freeDiskBytes(const std::string& directory);

// Cores this process may run on (its CPU affinity mask), at least 1.
int availableCores();

// "13.7 GiB"-style text for messages.
std::string describeBytes(std::uint64_t bytes);

// Throws InputError("<option>: <what> need about <bytes> of <memory>; this machine has <available> available<tail>")
// where `bytes` exceed availableMemoryBytes(): a request refused before it allocates, naming the option.
void requireAvailableMemory(double bytes, const std::string& option, const std::string& what,
                            const std::string& memory = "memory", const std::string& tail = "");

}  // namespace gb

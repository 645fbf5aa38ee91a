#pragma once
// Access to the OpenCL sources of kernels/*.cl, embedded at build time (cmake/EmbedKernels.cmake).
#include <map>
#include <string>

namespace gb {
// All kernels, keyed by file stem ("compact_btg" for kernels/compact_btg.cl).
const std::map<std::string, std::string>& kernelSources();
// One kernel file's source; throws std::out_of_range naming the stem if absent.
const std::string& kernelSource(const std::string& name);
}  // namespace gb

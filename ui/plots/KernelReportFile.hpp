#pragma once
// Reading and writing the kernel chart's reports: the JSON that `gamboost bench kernels` writes. Other JSON files
// (a fit benchmark, a CSV benchmark, a fit result, a model, a cross-validation) are recognised and refused with a
// message that says which kind of file they are, so a user who picks one from docs/bench knows why it is not drawn.
#include <QString>
#include <nlohmann/json.hpp>

#include "bench/KernelBenchmark.hpp"

namespace gbui {

// "" for a kernel timings report; otherwise a phrase naming the kind, e.g. "a fit benchmark report (bench fit:
// seconds per iteration of whole fits)".
QString reportKind(const nlohmann::json& j);

// Throws gb::InputError naming the file: unreadable, not JSON, another kind of report, or a malformed one.
gb::KernelBenchReport readKernelReport(const QString& path);

// Writes report.toJson() (the CLI's format, so it loads back); throws gb::InputError when the file cannot be
// written. Written to a temporary file first, so a failed save leaves an existing file as it was.
void writeKernelReport(const QString& path, const gb::KernelBenchReport& report);

}  // namespace gbui

#include "opencl/Tuning.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "common/Error.hpp"
#include "common/Text.hpp"

namespace gb::ocl {

namespace {

int wholeNumber(const char* variable, const std::string& text, int most, int least = 0) {
  int value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < least || value > most)
    throw InputError(std::string(variable) + ": " + quotedForMessage(text) + " is not a whole number from " +
                     std::to_string(least) + " to " + std::to_string(most));
  return value;
}

// "a,b,,c" -> {"a", "b", "", "c"}: the fields of GAMBOOST_PACK_SHAPE and GAMBOOST_FOLD_SHAPE.
std::vector<std::string> splitAtCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    parts.push_back(text.substr(begin, comma - begin));
    begin = comma + 1;
  }
  return parts;
}

// Each token must be one define: "-DNAME" or "-DNAME=VALUE" with NAME an identifier. Anything else (another
// compiler option, a quote, a file) would change the build in ways the result cannot describe.
void checkDefines(const std::string& text) {
  std::istringstream tokens(text);
  std::string token;
  while (tokens >> token) {
    bool ok = token.size() > 2 && token.compare(0, 2, "-D") == 0;
    const std::size_t eq = token.find('=');
    const std::string name = token.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    ok = ok && !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    for (char c : token) ok = ok && c != '"' && c != '\'' && c != '\\';
    if (!ok)
      throw InputError("GAMBOOST_KERNEL_DEFINES: " + quotedForMessage(token) +
                       " is not a define (-DNAME or -DNAME=VALUE)");
  }
}

// A 0/1 switch read once: 1, 0, or -1 when unset or empty.
int zeroOneOrUnset(const char* variable) {
  const char* value = std::getenv(variable);
  if (!value || !*value) return -1;
  if (std::string(value) != "1" && std::string(value) != "0")
    throw InputError(std::string(variable) + ": " + quotedForMessage(value) + " is not 0 or 1");
  return std::string(value) == "1" ? 1 : 0;
}

// A 0/1 switch: `fallback` when unset or empty.
bool zeroOrOne(const char* variable, bool fallback) {
  const int value = zeroOneOrUnset(variable);
  return value < 0 ? fallback : value == 1;
}

}  // namespace

std::string OpenClTuning::describe() const {
  std::string out;
  const auto add = [&out](const std::string& item) { out += (out.empty() ? "" : " ") + item; };
  if (refreshInterval >= 0) add("GAMBOOST_OPENCL_REFRESH=" + std::to_string(refreshInterval));
  if (compactLanes >= 0) add("GAMBOOST_COMPACT_LANES=" + std::to_string(compactLanes));
  if (!kernelDefines.empty()) add("GAMBOOST_KERNEL_DEFINES=" + kernelDefines);
  if (!crossFill.empty()) add("GAMBOOST_CROSS_FILL=" + crossFill);
  if (shardRows >= 0) add("GAMBOOST_SHARD_ROWS=" + std::to_string(shardRows));
  if (gpuKernels) add("GAMBOOST_GPU_KERNELS=1");
  if (!fusedSelect) add("GAMBOOST_FUSED_SELECT=0");
  if (!fusedFill) add("GAMBOOST_FUSED_FILL=0");
  if (!residualUpdate) add("GAMBOOST_RESIDUAL_UPDATE=0");
  if (!cacheCopy) add("GAMBOOST_CACHE_COPY=0");
  if (!fold.rows4) add("GAMBOOST_FOLD_ROWS4=0");
  if (fold.warps > 0 || fold.groupsPerUnit > 0 || fold.chunkRows > 0)
    add("GAMBOOST_FOLD_SHAPE=" + std::to_string(fold.warps) + "," + std::to_string(fold.groupsPerUnit) + "," +
        std::to_string(fold.chunkRows));
  if (packedBtg >= 0) add("GAMBOOST_PACKED_BTG=" + std::to_string(packedBtg));
  if (packWarps > 0)
    add("GAMBOOST_PACK_SHAPE=" + std::to_string(packWarps) + "," + std::to_string(packLearners) + "," +
        std::to_string(packSlots));
  if (packGroups > 0) add("GAMBOOST_PACK_GROUPS=" + std::to_string(packGroups));
  return out;
}

OpenClTuning openClTuningFromEnvironment() {
  OpenClTuning t;
  if (const char* refresh = std::getenv("GAMBOOST_OPENCL_REFRESH"); refresh && *refresh)
    t.refreshInterval = wholeNumber("GAMBOOST_OPENCL_REFRESH", refresh, 1000000);
  if (const char* lanes = std::getenv("GAMBOOST_COMPACT_LANES"); lanes && *lanes) {
    t.compactLanes = wholeNumber("GAMBOOST_COMPACT_LANES", lanes, 256);
    if (t.compactLanes & (t.compactLanes - 1))
      throw InputError("GAMBOOST_COMPACT_LANES: " + std::to_string(t.compactLanes) +
                       " is not 0 or a power of two up to 256");
  }
  if (const char* defines = std::getenv("GAMBOOST_KERNEL_DEFINES"); defines && *defines) {
    t.kernelDefines = defines;
    checkDefines(t.kernelDefines);
  }
  if (const char* fill = std::getenv("GAMBOOST_CROSS_FILL"); fill && *fill) {
    t.crossFill = fill;
    if (t.crossFill != "sorted" && t.crossFill != "atomics")
      throw InputError("GAMBOOST_CROSS_FILL: " + quotedForMessage(t.crossFill) + " is not 'sorted' or 'atomics'");
  }
  // Benchmarks: a device's rows in pieces of at most this many (as when its largest allocation cannot hold them).
  if (const char* rows = std::getenv("GAMBOOST_SHARD_ROWS"); rows && *rows) {
    t.shardRows = wholeNumber("GAMBOOST_SHARD_ROWS", rows, 2000000000);
    if (t.shardRows < 1) throw InputError("GAMBOOST_SHARD_ROWS: must be at least 1");
  }
  // Tests: the GPU kernel variants (the one-pass cross-product fill among them) on a CPU device, e.g. the sharded
  // cached scheme through mpirun on PoCL.
  t.gpuKernels = zeroOrOne("GAMBOOST_GPU_KERNELS", false);
  // Benchmarks: the GPU cached scheme as before each of its fusions, to measure what each saved: the
  // correction-and-solve and the select in separate launches; the update and the atomics fill in separate
  // launches; the update keeping mu as well as g.
  t.fusedSelect = zeroOrOne("GAMBOOST_FUSED_SELECT", true);
  t.fusedFill = zeroOrOne("GAMBOOST_FUSED_FILL", true);
  t.residualUpdate = zeroOrOne("GAMBOOST_RESIDUAL_UPDATE", true);
  t.cacheCopy = zeroOrOne("GAMBOOST_CACHE_COPY", true);
  // Benchmarks: the folds' B'g as before the 4-rows-a-step kernel, to measure it against the same run.
  t.fold.rows4 = zeroOrOne("GAMBOOST_FOLD_ROWS4", true);
  if (const char* shape = std::getenv("GAMBOOST_FOLD_SHAPE"); shape && *shape) {
    const std::vector<std::string> parts = splitAtCommas(shape);
    if (parts.size() != 3)
      throw InputError("GAMBOOST_FOLD_SHAPE: " + quotedForMessage(shape) +
                       " is not W,G,C (warps, groups per compute unit, chunk rows)");
    t.fold.warps = wholeNumber("GAMBOOST_FOLD_SHAPE", parts[0].c_str(), 8);
    t.fold.groupsPerUnit = wholeNumber("GAMBOOST_FOLD_SHAPE", parts[1].c_str(), 64);
    t.fold.chunkRows = wholeNumber("GAMBOOST_FOLD_SHAPE", parts[2].c_str(), 65536);
    if (t.fold.chunkRows > 0 && t.fold.chunkRows < 64)
      throw InputError("GAMBOOST_FOLD_SHAPE: chunks of " + std::to_string(t.fold.chunkRows) +
                       " rows: at least 64 (or 0)");
  }
  // Benchmarks: the packed B'g on or off whatever the device's tuning entry says (it costs 4 bytes a row and
  // learner more device memory and its packing at set-up; docs/performance.md has what it gains on each card).
  t.packedBtg = zeroOneOrUnset("GAMBOOST_PACKED_BTG");
  if (const char* shape = std::getenv("GAMBOOST_PACK_SHAPE"); shape && *shape) {
    const std::vector<std::string> parts = splitAtCommas(shape);
    if (parts.size() != 3)
      throw InputError("GAMBOOST_PACK_SHAPE: " + quotedForMessage(shape) + " is not W,L,S (warps, learners, slots)");
    t.packWarps = wholeNumber("GAMBOOST_PACK_SHAPE", parts[0].c_str(), 8);
    t.packLearners = wholeNumber("GAMBOOST_PACK_SHAPE", parts[1].c_str(), 4096);
    t.packSlots = wholeNumber("GAMBOOST_PACK_SHAPE", parts[2].c_str(), 16);
    if (t.packWarps < 1 || t.packLearners < 1 || t.packSlots < 4)
      throw InputError("GAMBOOST_PACK_SHAPE: " + quotedForMessage(shape) +
                       " needs 1-8 warps, at least 1 learner and 4-16 slots");
  }
  if (const char* groups = std::getenv("GAMBOOST_PACK_GROUPS"); groups && *groups)
    t.packGroups = wholeNumber("GAMBOOST_PACK_GROUPS", groups, 64, 1);
  return t;
}

}  // namespace gb::ocl

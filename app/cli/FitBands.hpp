#pragma once
// fit --bands B: bootstrap confidence bands for the partial effects (engine/compute/EffectBands.hpp), written in
// result.json as "bands".
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>

#include "CliSupport.hpp"
#include "compute/Booster.hpp"
#include "settings/ComputeSettings.hpp"

namespace gb::cli {

// --bands B: a positive integer (0, a negative number or anything but an integer is a parse error naming --bands).
void addBandsOption(CLI::App* sub, int& replicates);

// B refits of `fitted` (run on `data`) at its mstop: CPU refits in parallel, one thread each; OpenCL one by one.
// Returns result.json's "bands".
nlohmann::json fitBands(std::shared_ptr<const Dataset> data, const Booster& fitted, int replicates, std::uint64_t seed,
                        const ComputeSettings& compute, bool quiet);

// Bytes the bands add to result.json: six arrays of about 25 bytes per grid point.
std::uint64_t bandsBytesEstimate(const Booster& fitted);

}  // namespace gb::cli

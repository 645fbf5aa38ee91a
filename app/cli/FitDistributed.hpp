#pragma once
// fit --distributed (issue 15): what the CLI adds around the engine's distributed read and set-up. Each MPI rank reads
// its part of the CSV (data/CsvPart.hpp) and fits its rows; rank 0 writes result.json with every rank's fitted values
// and a "distributed" record of what each rank read.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/ShardReducer.hpp"
#include "data/CsvPart.hpp"
#include "learner/ModelFrame.hpp"

namespace gb::cli {

// This rank's part of the CSV (threads: for a whole-file fallback's chunked read).
std::shared_ptr<const Dataset> readDataPart(const std::string& path, ShardReducer& group, int threads,
                                            CsvPartInfo& part);
// Every rank's used rows (input rows, in row order): the ranks' keptRows one after the other.
std::vector<std::size_t> allKeptRows(ShardReducer& group, const ModelFrame& frame);
// result.json's "distributed": {"ranks": N, "read": "parts" or "whole file: <why>", "parts": [{"rank", "bytes":
// [begin, end), "rows": [first, count], "rows_read"}...]}, every rank's in rank order.
nlohmann::json distributedRecord(ShardReducer& group, const CsvPartInfo& part);

}  // namespace gb::cli

#include "FitDistributed.hpp"

#include <cstdio>

namespace gb::cli {

namespace {

// Rank 0 says when the ranks could not read their parts alone (before a read error the whole-file reader reports).
void noteWholeFile(ShardReducer& group, const CsvPartInfo& part) {
  if (part.wholeFile.empty() || group.process() != 0) return;
  const std::string line = "gamboost: note: --distributed: every rank reads the whole file (" + part.wholeFile + ")\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace

std::shared_ptr<const Dataset> readDataPart(const std::string& path, ShardReducer& group, int threads,
                                            CsvPartInfo& part) {
  CsvOptions options;
  options.threads = threads;
  try {
    auto data = std::make_shared<const Dataset>(readCsvPart(path, group, options, &part));
    noteWholeFile(group, part);
    return data;
  } catch (...) {
    noteWholeFile(group, part);
    throw;
  }
}

std::vector<std::size_t> allKeptRows(ShardReducer& group, const ModelFrame& frame) {
  // As doubles: input rows are exact up to 2^53.
  const std::vector<double> mine(frame.keptRows.begin(), frame.keptRows.end());
  const std::vector<double> all = group.gather(mine);
  return std::vector<std::size_t>(all.begin(), all.end());
}

nlohmann::json distributedRecord(ShardReducer& group, const CsvPartInfo& part) {
  const std::vector<std::vector<double>> all = group.allGather(
      {static_cast<double>(part.begin), static_cast<double>(part.end), static_cast<double>(part.firstRow),
       static_cast<double>(part.rows), static_cast<double>(part.rowsRead)});
  nlohmann::json parts = nlohmann::json::array();
  for (std::size_t r = 0; r < all.size(); ++r) {
    const std::vector<double>& p = all[r];
    parts.push_back({{"rank", r},
                     {"bytes", {static_cast<std::uint64_t>(p.at(0)), static_cast<std::uint64_t>(p.at(1))}},
                     {"rows", {static_cast<std::uint64_t>(p.at(2)), static_cast<std::uint64_t>(p.at(3))}},
                     {"rows_read", static_cast<std::uint64_t>(p.at(4))}});
  }
  return {{"ranks", all.size()},
          {"read", part.wholeFile.empty() ? "parts" : "whole file: " + part.wholeFile},
          {"parts", parts}};
}

}  // namespace gb::cli

#include "common/ShardReducer.hpp"

#include <algorithm>

namespace gb {

void reduceMin(ShardReducer* group, std::vector<double>& values) {
  if (!group) return;
  const std::vector<std::vector<double>> all = group->allGather(values);
  for (const std::vector<double>& part : all)
    for (std::size_t i = 0; i < values.size() && i < part.size(); ++i) values[i] = std::min(values[i], part[i]);
}

void reduceMax(ShardReducer* group, std::vector<double>& values) {
  if (!group) return;
  const std::vector<std::vector<double>> all = group->allGather(values);
  for (const std::vector<double>& part : all)
    for (std::size_t i = 0; i < values.size() && i < part.size(); ++i) values[i] = std::max(values[i], part[i]);
}

std::pair<double, double> countBefore(ShardReducer* group, double count) {
  if (!group) return {0.0, count};
  const std::vector<std::vector<double>> all = group->allGather({count});
  double before = 0.0, total = 0.0;
  for (std::size_t p = 0; p < all.size(); ++p) {
    if (static_cast<int>(p) < group->process()) before += all[p].at(0);
    total += all[p].at(0);
  }
  return {before, total};
}

void agreeOnError(ShardReducer* group, const std::string& localError) {
  if (!group) {
    if (!localError.empty()) throw InputError(localError);
    return;
  }
  for (const std::string& error : group->allGatherText(localError))
    if (!error.empty()) throw InputError(error);
}

}  // namespace gb

#pragma once
// fit --profile: the run's time budget (engine/common/RunProfile.hpp), active from the start of the command; the
// floors are measured after the fit, the report goes to stderr and into result.json as "profile".
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/ProfileReport.hpp"

namespace gb::cli {

class FitProfiler {
 public:
  explicit FitProfiler(bool on);
  bool on() const { return profile_ != nullptr; }
  // A stage the command timed itself (nothing when off).
  void addStage(const std::string& name, double seconds, std::uint64_t bytes);
  // Drains the device events and measures the floors; the report as JSON (null when off).
  nlohmann::json finish(const ComputeSettings& compute, int iterations);
  void print(std::ostream& out) const;

 private:
  std::unique_ptr<RunProfile> profile_;
  std::unique_ptr<RunProfile::Activation> activation_;
  ProfileFloors floors_;
  int iterations_ = 0;
};

}  // namespace gb::cli

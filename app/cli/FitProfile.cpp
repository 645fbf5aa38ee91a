#include "FitProfile.hpp"

#include <ostream>

namespace gb::cli {

FitProfiler::FitProfiler(bool on) {
  if (!on) return;
  profile_ = std::make_unique<RunProfile>();
  activation_ = std::make_unique<RunProfile::Activation>(*profile_);
}

void FitProfiler::addStage(const std::string& name, double seconds, std::uint64_t bytes) {
  if (profile_) profile_->addStage(name, seconds, bytes);
}

nlohmann::json FitProfiler::finish(const ComputeSettings& compute, int iterations) {
  if (!profile_) return nullptr;
  profile_->drain();
  floors_ = measureProfileFloors(compute);
  iterations_ = iterations;
  return profileJson(*profile_, floors_, iterations);
}

void FitProfiler::print(std::ostream& out) const {
  if (profile_) printProfile(out, *profile_, floors_, iterations_);
}

}  // namespace gb::cli

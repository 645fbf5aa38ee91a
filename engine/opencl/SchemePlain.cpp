// The plain scheme: exact B'g, solve, select, update every iteration (opencl/IterationScheme.hpp).
#include "opencl/IterationScheme.hpp"

namespace gb::ocl {

namespace {

class PlainScheme final : public IterationScheme {
 public:
  explicit PlainScheme(DeviceProblem& p) : IterationScheme(p) {}
  std::string name() const override { return "plain"; }
  void iteration(int it) override {
    p_.score();
    p_.selectAndRecord(it - 1, it);
    p_.update();
  }
  void finish(int last) override { p_.selectAndRecord(last, -1); }
};

}  // namespace

std::unique_ptr<IterationScheme> makePlainScheme(DeviceProblem& problem) {
  return std::make_unique<PlainScheme>(problem);
}

void CrossCache::allocate(DeviceProblem& p, int count) {
  slotCount = count;
  const std::size_t column = static_cast<std::size_t>(p.L) * p.k * p.k * p.realBytes();
  cache = Buffer(p.ctx, std::max<std::size_t>(1, static_cast<std::size_t>(count)) * column);
  const std::vector<cl_int> none(static_cast<std::size_t>(p.L), -1), state{-1, 0};
  slotOf = Buffer(p.ctx, none.size() * sizeof(cl_int));
  slotOf.write(p.ctx, none.data(), none.size() * sizeof(cl_int));
  slotOwner = Buffer(p.ctx, none.size() * sizeof(cl_int));
  slotOwner.write(p.ctx, none.data(), none.size() * sizeof(cl_int));
  cacheState = Buffer(p.ctx, state.size() * sizeof(cl_int));
  cacheState.write(p.ctx, state.data(), state.size() * sizeof(cl_int));
  step = Buffer(p.ctx, static_cast<std::size_t>(p.k) * p.realBytes());
}

std::unique_ptr<IterationScheme> chooseScheme(DeviceProblem& problem, const IterationPolicy& policy) {
  if (auto fused = makeFusedScheme(problem, policy)) return fused;
  if (auto gpu = makeGpuCachedScheme(problem, policy)) return gpu;
  return makePlainScheme(problem);
}

}  // namespace gb::ocl

#pragma once
// CLBlast's gemv on the same operands as DenseGemvPlan (a comparison point on the benchmark chart, never a
// building block: CLBlast does not split the sum, so tall-skinny B'g leaves most of a GPU idle).
// Declared only when the engine is built with CLBlast (GB_HAVE_CLBLAST).
#ifdef GB_HAVE_CLBLAST
#include <cstddef>
#include <vector>

#include "opencl/ClRuntime.hpp"

namespace gb::ocl {

// CLBlast forms beta * y even for beta = 0, so a NaN already in `out` would survive; both calls zero `out` first
// (an extra write of the output, part of the timed span). `events` (may be null) gets the fill's and the gemv's.
// out = B'g, B row-major rows x cols.
void clblastTransposed(Context& ctx, std::size_t rows, std::size_t cols, bool doublePrecision, const Buffer& B,
                       const Buffer& g, const Buffer& out, std::vector<cl_event>* events);
// out = B[:, learner*k .. learner*k + k) * delta[learner*k ..): the learner is a host value (CLBlast takes offsets
// from the host), so the caller reads it from the device first.
void clblastForward(Context& ctx, std::size_t rows, std::size_t cols, std::size_t k, std::size_t learner,
                    bool doublePrecision, const Buffer& B, const Buffer& delta, const Buffer& out,
                    std::vector<cl_event>* events);

}  // namespace gb::ocl
#endif

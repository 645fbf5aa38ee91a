#pragma once
// The parameter lists of kernels/fold_path.cl's kernels (the struct-per-kernel rule of opencl/KernelArgs.hpp).
#include "opencl/KernelArgs.hpp"

namespace gb::ocl {

struct FoldBtgPartialArgs {  // fold_btg_partial
  cl_int n{}, learners{}, chunksPerRange{};
  Mem order{}, sortedU{}, starts{}, poly{}, wu{}, partials{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, learners, chunksPerRange, order, sortedU, starts, poly, wu, partials);
  }
};
struct FoldBtgReduceArgs {  // fold_btg_reduce
  cl_int learners{}, ranges{};
  Mem partials{}, c{};
  cl_uint bind(Kernel& k) const { return bindArgs(k, learners, ranges, partials, c); }
};
struct FoldSelectUpdateArgs {  // fold_select_update
  cl_int n{}, groupRows{}, learners{};
  Mem reduction{}, delta{};
  RealArg nu{};
  Mem x{}, geometry{}, poly{}, y{}, w{}, o{};
  RealArg param{};
  Mem mu{}, wu{}, previousPartials{}, partials{}, inverseWeights{}, history{};
  cl_int historyRecords{}, previousRecord{}, record{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, n, groupRows, learners, reduction, delta, nu, x, geometry, poly, y, w, o, param, mu, wu,
                    previousPartials, partials, inverseWeights, history, historyRecords, previousRecord, record);
  }
};
struct FoldFinishRiskArgs {  // fold_finish_risk
  cl_int groups{};
  Mem previousPartials{}, inverseWeights{}, history{};
  cl_int historyRecords{}, previousRecord{};
  cl_uint bind(Kernel& k) const {
    return bindArgs(k, groups, previousPartials, inverseWeights, history, historyRecords, previousRecord);
  }
};

}  // namespace gb::ocl

#!/bin/bash
# Issue 14 point 4: the packed B'g (kernels/compact_packed.cl) under Nsight Compute, which sees no OpenCL launches.
# gamboost builds the kernel through NVIDIA's OpenCL driver and stores its PTX in the program cache; the probe
# (scripts/perf/ptx_probe.cpp) loads that PTX through the CUDA driver API and launches it on the same shape
# (n = 1e7, p = 100, k = 64, float), so ncu can report its stall reasons and its SASS with counts.
#   VARIANTS="base: r8:-DPACK_FORMAT=2+-DPACK_RING=8"  label:GAMBOOST_KERNEL_DEFINES pairs ("+" a space)
#   CPG="47 12"     chunks a group for the probe's timings (the first one is profiled), MAXREG="0 96" register caps
#   NCU_FOR="f2"    the labels to profile (default: all; "" for timings only); outputs stay few (the machine
#                   sends back about 8 files); NCU_KERNEL=compact_pack profiles the packing instead of the B'g
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,memory.total --format=csv,noheader
inc=/usr/local/cuda/include; [ -f $inc/cuda.h ] || inc=.device/cuda_min
g++ -O2 -std=c++17 -I$inc scripts/perf/ptx_probe.cpp -o /tmp/probe -l:libcuda.so.1 || exit 1
. "$(dirname "$0")/ncu-profile.sh"
W=${W:-4}; L=${L:-20}
echo "== columns kernel (GAMBOOST_PACKED_BTG=0), the default"
timeout 200 $G bench kernels --rows 10000000 --k 64 --covariates 100 --reps 10 --kernels compact_x --out /tmp/bk-columns 2>&1 |
  grep -E "copy bandwidth|batched|error|Error"
for variant in ${VARIANTS:-base:}; do
  label=${variant%%:*}; defines=${variant#*:}; defines=${defines//+/ }  # "+" stands for a space
  cache=/tmp/gbcache-$label; rm -rf $cache
  echo "== $label: bench kernels, packed, GAMBOOST_KERNEL_DEFINES='$defines'"
  GAMBOOST_CACHE_DIR=$cache GAMBOOST_PACKED_BTG=1 GAMBOOST_KERNEL_DEFINES="$defines" timeout 200 $G bench kernels \
    --rows 10000000 --k 64 --covariates 100 --reps 10 --kernels compact_x --out /tmp/bk-$label 2>&1 |
    grep -E "copy bandwidth|batched|error|Error"
  ptx=$(grep -l -a compact_packed_partial $cache/* 2>/dev/null | head -1)
  [ -n "$ptx" ] || { echo "no packed PTX in the cache"; continue; }
  cp "$ptx" /tmp/$label.ptx.bin
  for mr in ${MAXREG:-0}; do
    for cpg in ${CPG:-47 12}; do
      echo "-- $label, maxreg $mr, $cpg chunks a group"
      PROBE_MAXREG=$mr PROBE_LEARNERS=$L /tmp/probe /tmp/$label.ptx.bin 10000000 100 61 $W $cpg 20
    done
  done
  [ -n "$NCUBIN" ] && [[ " ${NCU_FOR-$label} " == *" $label "* ]] || continue
  cpg=${CPG:-47}; cpg=${cpg%% *}
  kernel=${NCU_KERNEL:-compact_packed_partial}; skip=1; [ "$kernel" = compact_pack ] && skip=0
  PROBE_LEARNERS=$L ncu_profile $label $kernel $skip /tmp/probe /tmp/$label.ptx.bin 10000000 100 61 $W $cpg 3
done

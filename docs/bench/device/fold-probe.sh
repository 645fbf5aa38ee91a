#!/bin/bash
# Issue "Choosing mstop honestly", point 2: the folds' B'g (fold_btg_partial, kernels/fold_path.cl) under Nsight
# Compute, which sees no OpenCL launches. `gamboost bench fit --bootstrap 25` builds the kernel through NVIDIA's
# OpenCL driver and stores its PTX in the program cache; the probe (scripts/perf/fold_probe.cpp) launches that PTX
# through the CUDA driver API on the same shape (n = 1e6, p = 100, knots 20: 21 intervals, 25 folds: stride 28), so
# that ncu can report its stall reasons and its SASS with counts.
#   VARIANTS="base|0,0,0| s4|0,0,0|-DFR_STEPS=4"  label|GAMBOOST_FOLD_SHAPE|GAMBOOST_KERNEL_DEFINES ("+" a space)
#   NCU_FOR="base"  the labels to profile (default: the first; "" for timings only)
#   MAXREG="0 48"   register caps for the probe's timings (0: none)
# The probe's shape repeats FoldPath's for this model (100 learners, 21 intervals, 25 folds padded to 28, UNITS=132
# compute units): change them together.
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,memory.total --format=csv,noheader
inc=/usr/local/cuda/include; [ -f $inc/cuda.h ] || { echo "no cuda.h"; exit 1; }
g++ -O2 -std=c++17 -I$inc scripts/perf/fold_probe.cpp -o /tmp/fprobe -l:libcuda.so.1 || exit 1
. "$(dirname "$0")/ncu-profile.sh"
VARIANTS=${VARIANTS:-base|0,0,0|}
first=${VARIANTS%%|*}
UNITS=${UNITS:-132}
for variant in $VARIANTS; do
  label=${variant%%|*}; rest=${variant#*|}; shape=${rest%%|*}; defines=${rest#*|}; defines=${defines//+/ }
  IFS=, read -r W Gu C <<< "$shape"
  [ "$W" = 0 ] && W=8; [ "$Gu" = 0 ] && Gu=8; [ "$C" = 0 ] && C=2048
  ranges=$(( UNITS * Gu / ((100 + W - 1) / W) )); [ $ranges -lt 1 ] && ranges=1
  cache=/tmp/gbcache-$label; rm -rf $cache
  echo "== $label: GAMBOOST_FOLD_SHAPE=$shape GAMBOOST_KERNEL_DEFINES='$defines' (probe: $W warps, chunks of $C, $ranges ranges wanted)"
  GAMBOOST_CACHE_DIR=$cache GAMBOOST_FOLD_SHAPE=$shape GAMBOOST_KERNEL_DEFINES="$defines" GAMBOOST_FOLD_PROFILE=1 \
    timeout 200 $G bench fit --family binomial --rows 1000000 --covariates 100 --knots 20 --mstop 100 --bootstrap 25 \
    --configs opencl:compact_x:float 2>&1 | grep -E "fold_btg_partial|rror"
  ptx=$(grep -l -a "entry fold_btg_partial" $cache/* 2>/dev/null | head -1)
  [ -n "$ptx" ] || { echo "no fold_path PTX in the cache"; continue; }
  cp "$ptx" /tmp/$label.ptx.bin
  for mr in ${MAXREG:-0}; do  # PROBE_MAXREG caps the registers (.maxnreg), to see what occupancy buys
    echo "-- $label, maxreg $mr"
    PROBE_MAXREG=$mr /tmp/fprobe /tmp/$label.ptx.bin 1000000 100 21 28 $W $C $ranges 20
  done
  [ -n "$NCUBIN" ] && [[ " ${NCU_FOR-$first} " == *" $label "* ]] || continue
  ncu_profile $label fold_btg_partial 2 /tmp/fprobe /tmp/$label.ptx.bin 1000000 100 21 28 $W $C $ranges 3
done

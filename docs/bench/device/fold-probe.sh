#!/bin/bash
# Issue "Choosing mstop honestly", point 2: the folds' B'g (fold_btg_partial, kernels/fold_path.cl) under Nsight
# Compute, which sees no OpenCL launches. `gamboost bench fit --bootstrap 25` builds the kernel through NVIDIA's
# OpenCL driver and stores its PTX in the program cache; the probe (scripts/perf/fold_probe.cpp) launches that PTX
# through the CUDA driver API on the same shape (n = 1e6, p = 100, knots 20: 21 intervals, 25 folds: stride 28), so
# that ncu can report its stall reasons and its SASS with counts.
#   VARIANTS="base|0,0,0| s4|0,0,0|-DFR_STEPS=4"  label|GAMBOOST_FOLD_SHAPE|GAMBOOST_KERNEL_DEFINES ("+" a space)
#   NCU_FOR="base"  the labels to profile (default: the first; "" for timings only)
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,memory.total --format=csv,noheader
inc=/usr/local/cuda/include; [ -f $inc/cuda.h ] || { echo "no cuda.h"; exit 1; }
g++ -O2 -std=c++17 -I$inc scripts/perf/fold_probe.cpp -o /tmp/fprobe -l:libcuda.so.1 || exit 1
NCUBIN=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
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
  /tmp/fprobe /tmp/$label.ptx.bin 1000000 100 21 28 $W $C $ranges 20
  [ -n "$NCUBIN" ] && [[ " ${NCU_FOR-$first} " == *" $label "* ]] || continue
  timeout 300 $NCUBIN --kernel-name fold_btg_partial --launch-skip 2 --launch-count 1 --set full --import-source no \
    -o /tmp/$label /tmp/fprobe /tmp/$label.ptx.bin 1000000 100 21 28 $W $C $ranges 3 \
    > /tmp/ncu-run-$label.txt 2>&1 || tail -5 /tmp/ncu-run-$label.txt
  $NCUBIN -i /tmp/$label.ncu-rep --print-summary none > $R/$label-ncu.txt 2>&1
  $NCUBIN -i /tmp/$label.ncu-rep --page source --csv --print-source sass > $R/$label-sass.csv 2>&1
  $NCUBIN -i /tmp/$label.ncu-rep --page raw --csv > /tmp/raw-$label.csv 2>&1
  python3 - /tmp/raw-$label.csv > $R/$label-stalls.txt <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
names, units, values = rows[0], rows[1], rows[2]
for n, u, v in zip(names, units, values):
    if "stall" in n or "issue_active" in n or ("inst_executed" in n and "pipe" in n) or ("shared" in n and "wavefront" in n) \
       or "hit_rate" in n or ("throughput" in n and "pct" in n):
        print(n, v, u)
PY
  grep -E "Duration|Issued Warp|Eligible Warps|Achieved Occupancy|Executed Instructions  |Registers Per|L1/TEX Hit|L2 Hit|Memory Throughput|DRAM Throughput|Compute \(SM\)|Theoretical Occ|Block Limit|Shared Memory Configuration|Dynamic Shared|Static Shared|Mem Busy|Max Bandwidth|L1/TEX Cache Throughput|L2 Cache Throughput" $R/$label-ncu.txt | head -40
  grep -E "warp_latency_issue_stalled|issue_stalled.*per_warp_active" $R/$label-stalls.txt | sort -k2 -g -r | head -12
  grep -E "hit_rate|throughput" $R/$label-stalls.txt | head -20
  echo "-- $label: the SASS lines with the most stall samples"
  python3 - $R/$label-sass.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, data = rows[1], rows[2:]
ix = {h: i for i, h in enumerate(head)}
num = lambda s: float(s.replace(",", "")) if s.replace(",", "").replace(".", "").isdigit() else 0.0
col = "Warp Stall Sampling (All Samples)"
total = sum(num(r[ix[col]]) for r in data) or 1.0
keys = [k for k in ("stall_long_sb", "stall_short_sb", "stall_barrier", "stall_lg_throttle", "stall_wait", "stall_mio_throttle") if k in ix]
for k, r in sorted(enumerate(data), key=lambda kr: -num(kr[1][ix[col]]))[:14]:
    print(f'{100 * num(r[ix[col]]) / total:5.1f}%  line {k:5d}  ' + ' '.join(f'{kk[6:]} {num(r[ix[kk]]):6.0f}' for kk in keys) +
          f'  {r[ix["Source"]].strip()[:60]}')
PY
done
rm -f $R/*.csv

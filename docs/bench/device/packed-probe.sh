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
NCUBIN=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
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
  PROBE_LEARNERS=$L timeout 300 $NCUBIN --kernel-name $kernel --launch-skip $skip --launch-count 1 \
    --set full --import-source no -o /tmp/$label /tmp/probe /tmp/$label.ptx.bin 10000000 100 61 $W $cpg 3 \
    > /tmp/ncu-run-$label.txt 2>&1 || tail -5 /tmp/ncu-run-$label.txt
  $NCUBIN -i /tmp/$label.ncu-rep --print-summary none > $R/$label-ncu.txt 2>&1
  $NCUBIN -i /tmp/$label.ncu-rep --page source --csv --print-source sass > $R/$label-sass.csv 2>&1
  $NCUBIN -i /tmp/$label.ncu-rep --page raw --csv > /tmp/raw-$label.csv 2>&1
  python3 - /tmp/raw-$label.csv > $R/$label-stalls.txt <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
names, units, values = rows[0], rows[1], rows[2]
for n, u, v in zip(names, units, values):
    if "stall" in n or "issue_active" in n or "inst_executed" in n and "pipe" in n or "shared" in n and "wavefront" in n:
        print(n, v, u)
PY
  grep -E "Duration|Issued Warp|Eligible Warps|Achieved Occupancy|Executed Instructions  " $R/$label-ncu.txt
  grep -E "warp_latency_issue_stalled|issue_stalled.*per_warp_active" $R/$label-stalls.txt | sort -k2 -g -r | head -14
done
# The SASS lines with the most stall samples, of each profiled variant (a wait that is not spread over the loop
# shows up here: e.g. loads that share a scoreboard).
for f in $R/*-sass.csv; do
  [ -f "$f" ] || continue
  echo "-- $(basename $f): the SASS lines with the most stall samples"
  python3 - "$f" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, data = rows[1], rows[2:]
ix = {h: i for i, h in enumerate(head)}
num = lambda s: float(s.replace(",", "")) if s.replace(",", "").replace(".", "").isdigit() else 0.0
total = sum(num(r[ix["Warp Stall Sampling (All Samples)"]]) for r in data) or 1.0
for k, r in sorted(enumerate(data), key=lambda kr: -num(kr[1][ix["Warp Stall Sampling (All Samples)"]]))[:8]:
    print(f'{100 * num(r[ix["Warp Stall Sampling (All Samples)"]]) / total:5.1f}%  line {k:5d}  long_sb '
          f'{num(r[ix["stall_long_sb"]]):7.0f}  {r[ix["Source"]].strip()[:70]}')
PY
done

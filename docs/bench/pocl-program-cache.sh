#!/usr/bin/env bash
# Program builds on PoCL with and without gamboost's disk cache (docs/performance.md, "Program builds on PoCL").
# Each line is its own `gamboost fit` process on the paper's data (n = 10000, p = 100, mstop 100, OpenCL on PoCL);
# "cold" starts with empty caches, "warm" runs after it with the caches it left.
# Usage: docs/bench/pocl-program-cache.sh [build dir]
set -euo pipefail
G=${1:-build}/app/gamboost
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$G" generate --rows 10000 --covariates 100 --seed 1 --out "$work/paper.csv" >/dev/null
for mode in default disk-cache; do
  rm -rf "$work/pocl" "$work/xdg" "$work/kernels"
  mkdir -p "$work/pocl" "$work/xdg"
  for run in cold warm warm; do
    env=(POCL_CACHE_DIR="$work/pocl" XDG_CACHE_HOME="$work/xdg")
    [ $mode = disk-cache ] && env+=(GAMBOOST_CACHE_DIR="$work/kernels")
    start=$(date +%s.%N)
    env "${env[@]}" "$G" fit --data "$work/paper.csv" --backend opencl --mstop 100 --profile \
      --out "$work/r.json" >"$work/profile.txt" 2>&1
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    stages=$(grep -E "program (builds|binaries)" "$work/profile.txt" | awk '{$1=$1; print}' | tr '\n' ';')
    printf '%-10s %-4s wall %6.2f s  %s kernels compiled by PoCL so far: %s\n' "$mode" "$run" "$wall" "$stages" \
      "$(find "$work/pocl" -name '*.so' | wc -l)"
  done
done

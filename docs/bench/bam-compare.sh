#!/usr/bin/env bash
# Time to accuracy against mgcv's bam (issue 14, acceptance 5): the paper's data, n training rows and n test rows from
# one `gamboost generate` run (split in half, so both come from the same model), p covariates. bam fits
# y ~ s(x1) + ... + s(xp) with fREML, discrete = TRUE, nthreads = 2 and gives its fit time and test MSE; then
# `gamboost fit --nu 1` runs at a rising grid of mstop until its test MSE (from `gamboost predict`) reaches bam's.
# Reported: the first grid mstop that reaches it, its fit time (set-up + iterations from result.json, comparable to
# bam's fit time: neither counts reading the CSV) and its wall time, and the ratio to bam's fit time.
# The grid, narrowed by bisection to 5% of mstop around the crossing, gives an upper bound on the time to reach
# bam's MSE (at its own iterations, each fit is timed separately).
# Usage: docs/bench/bam-compare.sh [rows=100000] [covariates=100] [seed=1] [gamboost=build/app/gamboost] [extra fit
# options...]   Needs R with mgcv (Debian: r-cran-mgcv).
set -euo pipefail
ROWS=${1:-100000}
COVARIATES=${2:-100}
SEED=${3:-1}
GAMBOOST=$(realpath "${4:-build/app/gamboost}")
shift $(($# < 4 ? $# : 4))
EXTRA=("$@")
GRID=${GB_MSTOP_GRID:-"100 200 300 500 700 1000 1500 2000 3000 5000 10000"}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bam-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "machine: $(nproc) cores, $(uname -m); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "data: paper data, $ROWS training + $ROWS test rows, $COVARIATES covariates, seed $SEED"
"$GAMBOOST" generate --rows $((2 * ROWS)) --covariates "$COVARIATES" --informative $((COVARIATES < 20 ? COVARIATES : 20)) --seed "$SEED" --out "$WORK/all.csv" >/dev/null
head -n $((ROWS + 1)) "$WORK/all.csv" >"$WORK/train.csv"
{ head -n 1 "$WORK/all.csv"; tail -n +$((ROWS + 2)) "$WORK/all.csv"; } >"$WORK/test.csv"

Rscript "$HERE/bam-compare.R" "$WORK/train.csv" "$WORK/test.csv" 2 | tee "$WORK/bam.txt"
BAM_S=$(awk '$1 == "bam_fit_s" {print $2}' "$WORK/bam.txt")
BAM_MSE=$(awk '$1 == "bam_test_mse" {print $2}' "$WORK/bam.txt")
echo "load after bam: $(cut -d' ' -f1-3 /proc/loadavg)"

# Test MSE of a saved model: y is the test file's first column.
test_mse() {
  "$GAMBOOST" predict --model "$1" --data "$WORK/test.csv" --out "$WORK/pred.csv" 2>/dev/null
  paste -d, <(cut -d, -f1 "$WORK/test.csv") "$WORK/pred.csv" |
    awk -F, 'NR > 1 {d = $1 - $2; s += d * d; n++} END {printf "%.6g", s / n}'
}

# One fit at mstop $1: sets FIT (set-up + iterations, from result.json), WALL (the whole command), CPU (its user +
# system seconds, reading included) and MSE.
run_fit() {
  local start
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$WORK/cpu.txt" "$GAMBOOST" fit --data "$WORK/train.csv" --nu 1 --mstop "$1" --backend cpu --quiet "${EXTRA[@]}" \
    --out "$WORK/result.json" --model "$WORK/model.json"
  WALL=$(echo "$(date +%s.%N) - $start" | bc)
  FIT=$(python3 -c "import json; t = json.load(open('$WORK/result.json'))['timing']; print(t['setup_s'] + t['fit_s'])")
  CPU=$(awk '{print $1 + $2}' "$WORK/cpu.txt")
  MSE=$(test_mse "$WORK/model.json")
  printf '%-8s %-10.3f %-10.3f %-10.3f %-10s %s\n' "$1" "$FIT" "$WALL" "$CPU" "$MSE" "$(cut -d' ' -f1 /proc/loadavg)"
}
reached() { awk -v a="$1" -v b="$BAM_MSE" 'BEGIN {exit !(a <= b)}'; }

printf '%-8s %-10s %-10s %-10s %-10s %s\n' mstop fit_s wall_s cpu_s test_mse load
LO=0
REACHED=""
for M in $GRID; do
  run_fit "$M"
  if reached "$MSE"; then
    REACHED="$M $FIT $WALL $CPU $MSE"
    break
  fi
  LO=$M
done
if [ -z "$REACHED" ]; then
  echo "gamboost did not reach bam's test MSE $BAM_MSE within the grid"
  exit 1
fi
# Narrow the crossing between the last grid point short of bam's MSE and the first that reached it (to 5%).
HI=${REACHED%% *}
while [ $((HI - LO)) -gt $((HI / 20 > 10 ? HI / 20 : 10)) ]; do
  MID=$(((LO + HI) / 2))
  run_fit "$MID"
  if reached "$MSE"; then
    HI=$MID
    REACHED="$MID $FIT $WALL $CPU $MSE"
  else
    LO=$MID
  fi
done
read -r M FIT WALL CPU MSE <<<"$REACHED"
BAM_CPU=$(awk '$1 == "bam_fit_cpu_s" {print $2}' "$WORK/bam.txt")
echo "bam: test MSE $BAM_MSE in $BAM_S s (fit; $BAM_CPU s CPU)"
printf 'gamboost (CPU backend, nu 1): test MSE %s at mstop %s in %.3f s (set-up + fit; %.3f s wall with reading, %.3f s CPU)\n' \
  "$MSE" "$M" "$FIT" "$WALL" "$CPU"
awk -v g="$FIT" -v b="$BAM_S" 'BEGIN {printf "ratio: gamboost fit time / bam fit time = %.4f (1/%.1f)\n", g / b, b / g}'
awk -v g="$CPU" -v b="$BAM_CPU" 'BEGIN {printf "CPU-time ratio (gamboost with reading / bam fit) = %.4f (1/%.1f)\n", g / b, b / g}'

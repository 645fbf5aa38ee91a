#!/bin/bash
# The benchmark reports' floors on an NVIDIA GPU after the 2026-11-30 audit (written for one H200):
# (1) `bench kernels` at small n (rows within the cache as the driver reports it say "in cache") and at n = 1e7 (fractions of copy, no
#     check failing), float;
# (2) `fit --profile` on OpenCL: the host-to-device rate from pinned memory (the upload floor), the Gram's threads;
# (3) the same profile on the CPU backend beside it.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
D=$(dirname "$0")
. "$D/prelude.sh"
L=$OUT/bench-reports.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L
git log --oneline -1 2>/dev/null | tee -a $L
echo "== (1) bench kernels" | tee -a $L
$G bench kernels --rows 1000,100000 --k 16,64 --covariates 100 --reps 5 --kernels eigen,compact_x,compact_sorted,splitk \
  --out $R/small 2>&1 | grep -v "^bench kernels" | tee -a $L
$G bench kernels --rows 10000000 --k 64 --covariates 100 --reps 10 --kernels compact_x,compact_sorted --out $R/large \
  2>&1 | grep -v "^bench kernels" | tee -a $L
echo "== (2) fit --profile, opencl float, n = 1e6, p = 100" | tee -a $L
$G generate --rows 1000000 --covariates 100 --seed 1 --out /tmp/big.csv --quiet
$G fit --data /tmp/big.csv --knots 60 --mstop 1000 --backend opencl --precision float --quiet --out /tmp/r.json \
  --profile 2>&1 | tee -a $L
echo "== (3) the same on the CPU backend, mstop 100" | tee -a $L
$G fit --data /tmp/big.csv --knots 20 --mstop 100 --backend cpu --quiet --out /tmp/r2.json --profile 2>&1 | tee -a $L

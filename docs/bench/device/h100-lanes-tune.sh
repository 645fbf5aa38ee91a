#!/bin/bash
# Tuning compact_x_partial_columns at n = 1e7, 100 covariates, k = 64: one `bench kernels` run per set of extra
# kernel defines (VARIANTS: sets separated by spaces, defines within a set by commas, e.g. -DLANE_ROWS=16).
set -u
. "$(dirname "$0")/prelude.sh"
for defines in ${VARIANTS:--DLANE_ROWS=4 -DLANE_ROWS=16}; do
  defines=$(echo "$defines" | tr ',' ' ')
  echo "== $defines"
  GAMBOOST_KERNEL_DEFINES="$defines" timeout 120 $G bench kernels --rows 10000000 --k 64 --covariates 100 --reps 20 \
    --kernels compact_x --out "$R/tune$(echo $defines | tr -d ' =-')" 2>&1 | grep "Btg"
done
tar czf $OUT/tune.tgz -C $R . && rm -rf $R

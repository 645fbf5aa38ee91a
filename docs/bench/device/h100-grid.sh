#!/bin/bash
# Final H100 batch, part B: the float kernel grid (the paper's n, and 1e6).
set -u
. "$(dirname "$0")/prelude.sh"
timeout 520 $G bench kernels --rows 1000,10000,100000,1000000 --k 16,32,64 --covariates 100 --reps 50 --out $R/h100-float 2>&1 | grep -v "^bench kernels:" > $R/h100-float.txt
tail -3 $R/h100-float.txt
tar czf $OUT/h100-grid.tgz -C $OUT r && rm -rf $R

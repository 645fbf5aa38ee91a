#!/bin/bash
# Final H100 batch, part B: the large shapes and whole-fit timings (build kept from part A on a warm machine).
set -u
. "$(dirname "$0")/prelude.sh"
timeout 240 $G bench kernels --rows 10000000 --k 64 --covariates 100 --reps 20 --kernels compact,compact_x,compact_sorted,splitk,v2 \
  --out $R/h100-large 2>&1 | grep -v "^bench kernels:" > $R/h100-large.txt; tail -30 $R/h100-large.txt
timeout 150 $G bench fit --rows 100000 --covariates 100 --knots 60 --mstop 1000 \
  --configs opencl:compact_x:float,opencl:compact_sorted:float,opencl:compact:float,opencl:splitk:float,opencl:v2:float,opencl:compact_x:double \
  --out $R/h100-fit-1e5 2>&1 | grep -v "^bench fit:" | tee $R/h100-fit-1e5.txt
timeout 180 $G bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_sorted:float,opencl:compact_x:float \
  --out $R/h100-fit-1e7 2>&1 | grep -v "^bench fit:" | tee $R/h100-fit-1e7.txt
tar czf $OUT/h100-b.tgz -C $OUT r && rm -rf $R

#!/bin/bash
# Final H100 batch, part B: the float kernel grid (the paper's n, and 1e6).
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
R=$OUT/r; mkdir -p $R
if [ ! -x build-gpu/app/gamboost ]; then
  (cmake -S . -B build-gpu -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF -DGB_VENDOR_INCLUDE=$PWD/.device/include \
     > $R/cfg.log 2>&1 && cmake --build build-gpu -j16 --target gamboost > $R/build.log 2>&1) || { tail -40 $R/build.log; exit 1; }
fi
G=./build-gpu/app/gamboost
timeout 520 $G bench kernels --rows 1000,10000,100000,1000000 --k 16,32,64 --covariates 100 --reps 50 --out $R/h100-float 2>&1 | grep -v "^bench kernels:" > $R/h100-float.txt
tail -3 $R/h100-float.txt
tar czf $OUT/h100-grid.tgz -C $OUT r && rm -rf $R

#!/bin/bash
# Issue 14 point 4 (compact B'g >= 85% of copy on the H200): compact_x_partial_lane_moments (GAMBOOST_LANE_MOMENTS=1)
# against compact_x_partial_columns at n = 1e7, p = 100, k = 64, float, one `bench kernels` run each, alternating,
# with the build of .device/old (the commit before the moments kernel: `git archive <commit> | tar -x -C .device/old`)
# run the same way, then `bench tune --dry-run` over the whole grid, moments shapes included (TUNE=0 skips it).
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
if [ -d .device/old ]; then
  (cd .device/old && cmake -S . -B build-gpu -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF \
     -DGB_VENDOR_INCLUDE=$PWD/../include > $R/old-cfg.log 2>&1 && cmake --build build-gpu -j16 --target gamboost \
     > $R/old-build.log 2>&1) || { tail -20 $R/old-build.log; exit 1; }
fi
bk() {  # label, binary, environment...
  local label=$1 bin=$2; shift 2
  echo "== $label $*"
  env "$@" timeout 150 $bin bench kernels --rows 10000000 --k 64 --covariates 100 --reps ${REPS:-20} \
    --kernels compact_x --out "$R/$label" 2>&1 | grep -E "copy bandwidth|Btg"
}
for round in 1 2; do
  [ -d .device/old ] && bk old$round .device/old/build-gpu/app/gamboost
  bk columns$round $G GAMBOOST_LANE_MOMENTS=0
  bk moments$round $G GAMBOOST_LANE_MOMENTS=1
  bk moments-rows16-$round $G GAMBOOST_LANE_MOMENTS=1 GAMBOOST_KERNEL_DEFINES=-DLANE_ROWS=16
done
if [ "${TUNE:-1}" = 1 ]; then
  timeout 400 $G bench tune --dry-run --reps 10 --out $R/tune.json 2>&1 | tail -60
fi

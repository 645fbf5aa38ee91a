#!/bin/bash
# Program binaries cached on disk (opencl/ProgramCache.hpp): the set-up of a first and a second process at
# n = 1e5, p = 100, knots 60 (the issue's case), float and double, with the cache directory kept between runs,
# and with the disk cache off for comparison. Each fit is its own process; setup_s comes from result.json.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-program-cache.txt
$G devices | tee -a $L
$G generate --rows 100000 --covariates 100 --seed 3 --out /tmp/pc.csv --quiet 2>/dev/null
export GAMBOOST_CACHE_DIR=/tmp/gb-kernel-cache
setup() {  # label, then fit options
  label=$1; shift
  $G fit --data /tmp/pc.csv --knots 60 --mstop 1000 --quiet --backend opencl --out /tmp/pc.json "$@" >/dev/null 2>&1 || { echo "$label: fit failed" | tee -a $L; return; }
  python3 -c "import json,sys; t=json.load(open('/tmp/pc.json'))['timing']; print('%-34s setup %.3f s  fit %.3f s  read %.3f s' % (sys.argv[1], t['setup_s'], t['fit_s'], t['read_s']))" "$label" | tee -a $L
}
for precision in float double; do
  rm -rf $GAMBOOST_CACHE_DIR
  setup "$precision, empty disk cache" --precision $precision
  setup "$precision, second process" --precision $precision
  setup "$precision, third process" --precision $precision
  GAMBOOST_CACHE_DIR=off setup "$precision, disk cache off" --precision $precision
done
ls -la $GAMBOOST_CACHE_DIR | tee -a $L

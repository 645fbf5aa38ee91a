#!/usr/bin/env bash
# Sets up (apt packages), builds, prints a demo fit of the paper's data, and starts GAMBoost Studio.
#   - The demo: `gamboost generate` (n = 10000, 100 covariates, 20 informative) then `gamboost fit --summary`,
#     on the default OpenCL device (a GPU, else PoCL's CPU device), or the CPU backend if there is no OpenCL.
#   - Then the window, if there is a display (run under `xvfb-run -a` on a machine without one).
#   GB_RUN_CLI=1 stops after the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
BUILD_DIR=${GB_BUILD_DIR:-build}
GB="$BUILD_DIR/app/gamboost"
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/$BUILD_DIR/pocl-cache}
mkdir -p "$BUILD_DIR/demo" "$POCL_CACHE_DIR"
"$GB" generate --rows 10000 --seed 1 --out "$BUILD_DIR/demo/paper.csv"
fit=("$GB" fit --data "$BUILD_DIR/demo/paper.csv" --out "$BUILD_DIR/demo/result.json"
     --model "$BUILD_DIR/demo/model.json" --summary)
if ! "${fit[@]}" --backend opencl 2>"$BUILD_DIR/demo/opencl.err"; then
  echo "(OpenCL unavailable: $(cat "$BUILD_DIR/demo/opencl.err"); using the CPU backend)"
  "${fit[@]}" --backend cpu
fi
if [ "${GB_RUN_CLI:-0}" = "1" ] || [ ! -x "$BUILD_DIR/app/gamboost-studio" ]; then
  exit 0
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "No display: start the window with 'xvfb-run -a scripts/run.sh' or on a desktop session." >&2
  exit 0
fi
exec "$BUILD_DIR/app/gamboost-studio" "$@"

#!/usr/bin/env bash
# Sets up (apt packages), builds, prints a demo fit of the paper's data, and starts GAMBoost Studio.
#   - The build shows its progress on one line (GB_VERBOSE=1: cmake's full output); on failure its log is printed.
#   - The demo: `gamboost generate` (n = 10000, seed 1, 100 covariates, 20 informative) then `gamboost fit --mstop cv
#     --kfold 5` with mboost's defaults (nu 0.1): 5-fold cross-validation over 1000 iterations chooses mstop, so the
#     first fit a newcomer sees is a good one (mstop 100, mboost's default, explains about half of this data's
#     variance). On this data it chooses 1000, the end of the grid (the out-of-bag risk still falls there). It runs
#     on the default OpenCL device (a GPU, else PoCL's CPU device), or the CPU backend if there is no OpenCL. The
#     window's first start is the same fit: the same data, settings (mstop 1000) and device
#     (ui/window/MainWindow.cpp firstStartSettings, demoDataSpec, applyDemoDevice).
#   - Then the window, if there is a display (run under `xvfb-run -a` on a machine without one).
#   GB_RUN_CLI=1 stops after the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR=${GB_BUILD_DIR:-build}
if [ "${GB_VERBOSE:-0}" = "1" ]; then
  scripts/build.sh
else
  mkdir -p "$BUILD_DIR"
  log="$BUILD_DIR/build.log"
  # One line that rewrites itself: "[ 42%] Building CXX object ...", cut to the terminal's width.
  width=$(( $(tput cols 2>/dev/null || echo 100) - 1 ))
  if ! scripts/build.sh 2>&1 | tee "$log" | while IFS= read -r line; do
      printf '\r\033[K%s' "${line:0:$width}"
    done; then
    printf '\n'
    cat "$log" >&2
    echo "Build failed (log: $log)." >&2
    exit 1
  fi
  printf '\r\033[KBuilt (log: %s).\n' "$log"
fi
GB="$BUILD_DIR/app/gamboost"
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/$BUILD_DIR/pocl-cache}
mkdir -p "$BUILD_DIR/demo" "$POCL_CACHE_DIR"
"$GB" generate --rows 10000 --seed 1 --out "$BUILD_DIR/demo/paper.csv"
fit=("$GB" fit --data "$BUILD_DIR/demo/paper.csv" --out "$BUILD_DIR/demo/result.json"
     --model "$BUILD_DIR/demo/model.json" --mstop cv --kfold 5 --nu 0.1 --summary)
echo "Demo fit: n = 10000, nu 0.1, mstop chosen by 5-fold cross-validation (the window's first start fits the same) ..."
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

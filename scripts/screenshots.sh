#!/usr/bin/env bash
# Regenerates docs/screenshots/{main-window,learner-race,kernel-chart}.png, binomial-{effects,fitted}.png and
# model-panel.png, and {bodyfat,airquality,iris}-effects.png + airquality-data.png + bodyfat-bands.png from R's data sets in tests/data: runs gamboost-studio under a virtual X server (xvfb-run), generates the paper's data, fits, and
# grabs the views; then fits a generated 0/1 response as binomial. The kernel chart shows the saved
# H100 reports in docs/bench/h100-*.json when present, else a short benchmark on this machine's OpenCL device.
# Usage: scripts/screenshots.sh [build-dir]   (default: $GB_BUILD_DIR or build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-${GB_BUILD_DIR:-build}}
APP="$BUILD_DIR/app/gamboost-studio"
if [ ! -x "$APP" ]; then
  echo "screenshots.sh: $APP not found; build first (scripts/build.sh)" >&2
  exit 2
fi
command -v xvfb-run >/dev/null || { echo "screenshots.sh: xvfb-run missing (apt-get install xvfb xauth)" >&2; exit 2; }
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/$BUILD_DIR/pocl-cache}
mkdir -p "$POCL_CACHE_DIR" docs/screenshots
# 24-bit screen: the default 8-bit depth dithers the plots' colours.
xvfb-run -a -s "-screen 0 1600x1000x24" "$APP" --screenshot-dir docs/screenshots --bench-dir docs/bench
ls -l docs/screenshots/*.png

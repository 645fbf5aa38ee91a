#!/usr/bin/env bash
# Regenerates docs/screenshots/*.png (the list: ui/tools/ScreenshotMode.hpp): runs gamboost-studio under a virtual
# X server (xvfb-run) with --screenshot-dir; it generates the teaching lesson's data, steps, fits and
# cross-validates it, fits R's data sets from tests/data and a generated 0/1 response, and grabs the views, the
# acceptance ones at 1280x800 and 1024x700. The kernel chart shows the saved reports docs/bench/h100-float.json and
# pocl-float.json when present, else a short benchmark on this machine's OpenCL device.
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
